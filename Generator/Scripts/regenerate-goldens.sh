#!/usr/bin/env bash
# Regenerates Tests/Goldens from Tests/Documents after a deliberate change of the generator's output.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${SCRATCH_PATH:-.build}"
# The served document of the end-to-end test's FastAPI app, as it is at the pinned FastAPI version.
if python3 -c "import fastapi" 2>/dev/null; then
    python3 Tests/EndToEnd/items_app.py --document >Tests/Documents/fastapi-items.json
fi
# A golden module not generated yet gets a placeholder, so the package (whose targets they are) loads.
for name in ApiWithExamples CallbackExample Features ItemsService LinkExample Petstore PetstoreExpanded Uspto; do
    if [ ! -d "Tests/Goldens/$name" ]; then
        mkdir -p "Tests/Goldens/$name"
        echo "// Placeholder until the golden module is generated." >"Tests/Goldens/$name/Placeholder.swift"
    fi
done
swift build --scratch-path "$scratch" --product coreapi-generate
generate() {
    rm -rf "Tests/Goldens/$2"
    "$scratch/debug/coreapi-generate" "Tests/Documents/$1" "Tests/Goldens/$2" --name "$2"
}
generate api-with-examples-like.yaml ApiWithExamples
generate callback-example-like.yaml CallbackExample
generate features-3.1.yaml Features
generate fastapi-items.json ItemsService
generate link-example-like.yaml LinkExample
generate petstore-expanded-like.yaml PetstoreExpanded
generate petstore-like.yaml Petstore
generate uspto-like.yaml Uspto
