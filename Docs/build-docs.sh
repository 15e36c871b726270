#!/usr/bin/env bash
# Builds the DocC catalog of every library target with warnings as errors.
# Usage: Docs/build-docs.sh [output-dir]   (default: .build/docs)
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-.build/docs}"
graphs=.build/symbol-graphs
rm -rf "$graphs" "$out"
mkdir -p "$graphs" "$out"

# Converts the catalog of module $1 with its symbol graphs from folder $2.
convert() {
    local module="$1" from="$2" dir="$graphs/$1"
    mkdir -p "$dir"
    cp "$from/$module.symbols.json" "$dir/"
    cp "$from/$module"@*.symbols.json "$dir/" 2>/dev/null || true
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$dir" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.coreapi.$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors >/dev/null
    echo "docs: $module built"
}

swift package dump-symbol-graph --minimum-access-level public >/dev/null
all="$(swift build --show-bin-path)/../symbolgraph"
for module in CoreAPI CoreAPIJSON CoreAPIText CoreAPITesting; do
    convert "$module" "$all"
done

# CoreAPIAsyncHTTPClient has content only with the AsyncHTTPClient trait: its symbol graph comes from the
# trait's own scratch path (.build-ahc, shared with the trait's build and tests).
swift package --traits AsyncHTTPClient --scratch-path .build-ahc dump-symbol-graph --minimum-access-level public \
    >/dev/null
convert CoreAPIAsyncHTTPClient "$(swift build --traits AsyncHTTPClient --scratch-path .build-ahc --show-bin-path)/../symbolgraph"
