#!/usr/bin/env bash
# Regenerates Tests/Goldens from Tests/Documents after a deliberate change of the generator's output. Each
# document gives the golden module of its own file name: Tests/Documents/Petstore.yaml → Tests/Goldens/Petstore.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${SCRATCH_PATH:-.build}"
# The served document of the end-to-end test's FastAPI app, as it is at the pinned FastAPI version.
if python3 -c "import fastapi" 2>/dev/null; then
    python3 Tests/EndToEnd/items_app.py --document >Tests/Documents/ItemsService.json
fi
# A golden module not generated yet gets a placeholder, so the package (whose targets they are) loads.
for document in Tests/Documents/*.yaml Tests/Documents/*.json; do
    name="$(basename "${document%.*}")"
    if [ ! -d "Tests/Goldens/$name" ]; then
        mkdir -p "Tests/Goldens/$name"
        echo "// Placeholder until the golden module is generated." >"Tests/Goldens/$name/Placeholder.swift"
    fi
done
swift build --scratch-path "$scratch" --product coreapi-generate
for document in Tests/Documents/*.yaml Tests/Documents/*.json; do
    name="$(basename "${document%.*}")"
    rm -rf "Tests/Goldens/$name"
    "$scratch/debug/coreapi-generate" "$document" "Tests/Goldens/$name" --name "$name"
done
