#!/usr/bin/env bash
# Builds the documentation of the nine library modules (CoreAPI, CoreAPIJSON, CoreAPIText, CoreAPITesting, and
# the trait modules CoreAPIAsyncHTTPClient, CoreAPILogging, CoreAPIMetrics, CoreAPITracing, CoreAPIHTTPTypes)
# into ONE static site, with warnings as errors and links between the modules.
# Usage: Docs/build-docs.sh [output-dir]   (default: .build/docs; the site is <output-dir>/CoreAPI.doccarchive)
# View it with Docs/preview.sh: DocC's pages load their scripts from the site root (/js/...), so the files
# render only when served over HTTP, not when opened from disk.
#
# Symbol graphs: all nine come from the configuration with every trait on, in .build-traits, the only one
# in which the trait modules have content. The four core modules have the same public API with and
# without the traits (no trait condition in their sources; their symbol graphs from .build and
# .build-traits are equal), so one configuration serves all nine. It is built first with exactly CI's
# command for that configuration, so right after CI's trait build nothing is compiled again, and on a
# fresh clone the same command builds it (BoringSSL and SwiftNIO included: many minutes once).
#
# The tests are built too, and must be: `swift package dump-symbol-graph` runs the symbol graph extractor
# on every library-type module of the root package, and that includes the two modules SwiftPM makes for
# the test runner (CoreAPIPackageDiscoveredTests, CoreAPIPackageTests), while the build it runs first
# leaves the tests out. Without a build with --build-tests it fails with "Failed to emit symbol graph for
# 'CoreAPIPackageTests'". (It also enables every trait, so in the plain .build it compiled SwiftNIO and
# BoringSSL a second time: one more reason to read .build-traits only.)
#
# Links between modules: `docc convert --dependency <archive>` resolves links (``/CoreAPIJSON/JsonApiResponse``
# with a leading slash and the module's name) against archives converted before, with
# --enable-experimental-external-link-support. The add-on modules depend on CoreAPI (their symbols refine
# and extend its types, and their pages link to it) while CoreAPI's articles link to the add-ons: a cycle,
# so no order works in one pass. Three passes break it:
#   1. CoreAPI is converted for its link metadata only (linkable-entities.json, link-hierarchy.json), its
#      not-yet-resolvable links to the add-ons silenced; these pages are thrown away.
#   2. Each add-on is converted against that archive, with warnings as errors.
#   3. CoreAPI is converted again against the add-on archives, with warnings as errors.
# Pass 1 and pass 3 read the same catalog and symbol graph, so the pages the add-ons link to are the
# pages pass 3 writes. `docc merge` then combines the nine archives into one with a synthesized "CoreAPI"
# landing page listing the modules, kept transformed for static hosting (each page a folder with its own
# index.html). The intermediate archives and symbol graphs stay in .build/docs-work.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-.build/docs}"
site="$out/CoreAPI.doccarchive"
work=.build/docs-work
addons=(CoreAPIJSON CoreAPIText CoreAPITesting CoreAPIAsyncHTTPClient CoreAPILogging CoreAPIMetrics CoreAPITracing
    CoreAPIHTTPTypes)

# CI builds every one of this package's targets with COREAPI_WARNINGS_AS_ERRORS=1 (read by Package.swift);
# the same value here keeps the build below CI's build, not a different one.
export COREAPI_WARNINGS_AS_ERRORS="${COREAPI_WARNINGS_AS_ERRORS-1}"
# CI's trait build compiles only the integration tests (COREAPI_TEST_TARGETS, read by Package.swift): the
# symbol graph dump needs a test build, not every test target.
export COREAPI_TEST_TARGETS="${COREAPI_TEST_TARGETS-CoreAPIIntegrationTests}"

# The trait configuration, built as in CI (.ci/run, step "every trait"): keep the two the same.
trait_build=(swift build --build-tests --traits AsyncHTTPClient,Logging,Metrics,Tracing,HTTPTypes --scratch-path .build-traits)
"${trait_build[@]}"

rm -rf "$work"
mkdir -p "$work/graphs" "$work/link" "$work/archives" "$out"
dump_log="$work/dump-symbol-graph.log"
if ! swift package --traits AsyncHTTPClient,Logging,Metrics,Tracing,HTTPTypes --scratch-path .build-traits dump-symbol-graph \
    --minimum-access-level public >"$dump_log" 2>&1; then
    cat "$dump_log" >&2
    exit 1
fi
graphs="$("${trait_build[@]}" --show-bin-path 2>/dev/null)/../symbolgraph"

# Converts module $1's catalog into $2 with any further docc options; its symbol graphs: the module's own
# and its extensions of other modules' types (Module@Other.symbols.json).
convert() {
    local module="$1" output="$2" dir="$work/graphs/$1"
    shift 2
    mkdir -p "$dir"
    cp "$graphs/$module.symbols.json" "$dir/"
    cp "$graphs/$module"@*.symbols.json "$dir/" 2>/dev/null || true
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$dir" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.coreapi.$module" \
        --enable-experimental-external-link-support \
        --output-path "$output" \
        "$@" >"$work/convert-$module.log" 2>&1 || {
        # docc writes its diagnostics to standard output: show them when the conversion fails.
        cat "$work/convert-$module.log" >&2
        return 1
    }
}

# Pass 1: CoreAPI's link metadata only.
convert CoreAPI "$work/link/CoreAPI.doccarchive" --diagnostic-level error --no-transform-for-static-hosting
# Pass 2: the add-ons, linking to CoreAPI.
for module in "${addons[@]}"; do
    convert "$module" "$work/archives/$module.doccarchive" --warnings-as-errors \
        --dependency "$work/link/CoreAPI.doccarchive"
    echo "docs: $module converted"
done
# Pass 3: CoreAPI, linking to the add-ons.
dependencies=()
for module in "${addons[@]}"; do
    dependencies+=(--dependency "$work/archives/$module.doccarchive")
done
convert CoreAPI "$work/archives/CoreAPI.doccarchive" --warnings-as-errors "${dependencies[@]}"
echo "docs: CoreAPI converted"

archives=()
for module in CoreAPI "${addons[@]}"; do
    archives+=("$work/archives/$module.doccarchive")
done
rm -rf "$site"
docc merge "${archives[@]}" \
    --synthesized-landing-page-name CoreAPI --synthesized-landing-page-kind Package \
    --synthesized-landing-page-topics-style list \
    --output-path "$site" >/dev/null
# docc merge keeps the archives' static-hosting layout; should a version not, transform the result.
if [ ! -f "$site/documentation/index.html" ] || [ ! -f "$site/documentation/coreapi/index.html" ]; then
    docc process-archive transform-for-static-hosting "$site" >/dev/null
fi
echo "docs: one site with the nine modules at $site (serve it with Docs/preview.sh)"
