#!/usr/bin/env bash
# Regenerates Tests/Goldens from Tests/Documents after a deliberate change of the generator's output.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${SCRATCH_PATH:-.build}"
swift build --scratch-path "$scratch" --product coreapi-generate
generate() {
    rm -rf "Tests/Goldens/$2"
    "$scratch/debug/coreapi-generate" "Tests/Documents/$1" "Tests/Goldens/$2" --name "$2"
}
generate api-with-examples-like.yaml ApiWithExamples
generate callback-example-like.yaml CallbackExample
generate features-3.1.yaml Features
generate link-example-like.yaml LinkExample
generate petstore-expanded-like.yaml PetstoreExpanded
generate petstore-like.yaml Petstore
generate uspto-like.yaml Uspto
