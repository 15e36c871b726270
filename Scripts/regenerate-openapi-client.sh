#!/usr/bin/env bash
# Regenerates the client of the bridge tests from its OpenAPI document and shows how it differs from the
# committed code, which CI compiles as it is: CI never builds the generator.
#
#   Scripts/regenerate-openapi-client.sh [--check]
#
# The document and the generator's configuration are Tests/CoreAPIIntegrationTests/Fixtures/OpenAPI/; the
# generated files are Tests/CoreAPIIntegrationTests/OpenAPIBridge/Generated/. Each file is wrapped in
# `#if OpenAPI` (the test target builds without the trait too, and then has no OpenAPIRuntime) and marked to
# be left alone by `swift format`; nothing else is changed.
#
# The generator is swift-openapi-generator 1.14.3. $OPENAPI_GENERATOR names its executable; without it the
# script builds one once in $OPENAPI_GENERATOR_BUILD (/tmp/coreapi-openapi-generator unless set), outside
# this repository: about 7 minutes on 2 cores. With --check it only compares, and exits 1 when the
# committed files differ from what the generator makes; without it, it writes the files and prints the diff.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
document_folder="$root/Tests/CoreAPIIntegrationTests/Fixtures/OpenAPI"
generated="$root/Tests/CoreAPIIntegrationTests/OpenAPIBridge/Generated"
version="1.14.3"

check=0
case "${1:-}" in
    "") ;;
    --check) check=1 ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

generator="${OPENAPI_GENERATOR:-}"
if [ -z "$generator" ]; then
    build="${OPENAPI_GENERATOR_BUILD:-/tmp/coreapi-openapi-generator}"
    if [ ! -d "$build/source" ]; then
        mkdir -p "$build"
        git clone --quiet --depth 1 --branch "$version" https://github.com/apple/swift-openapi-generator "$build/source"
    fi
    swift build -c release --package-path "$build/source" --product swift-openapi-generator >&2
    generator="$build/source/.build/release/swift-openapi-generator"
fi

made="$(mktemp -d)"
trap 'rm -rf "$made"' EXIT
"$generator" generate \
    --config "$document_folder/openapi-generator-config.yaml" \
    --output-directory "$made/raw" \
    "$document_folder/openapi.yaml" >/dev/null
mkdir -p "$made/wrapped"
for file in "$made/raw"/*.swift; do
    {
        echo "// swift-format-ignore-file"
        echo "#if OpenAPI"
        cat "$file"
        echo "#endif"
    } >"$made/wrapped/$(basename "$file")"
done

if [ "$check" -eq 1 ]; then
    if diff -ru "$generated" "$made/wrapped"; then
        echo "the committed client is what swift-openapi-generator $version makes"
    else
        echo "error: the committed client differs from what swift-openapi-generator $version makes" >&2
        exit 1
    fi
else
    mkdir -p "$generated"
    rm -f "$generated"/*.swift
    cp "$made/wrapped"/*.swift "$generated/"
    git -C "$root" status --short -- "$generated"
    git -C "$root" diff --stat -- "$generated"
fi
