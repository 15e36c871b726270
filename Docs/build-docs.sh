#!/usr/bin/env bash
# Builds the documentation of the ten library modules (CoreAPI, CoreAPIJSON, CoreAPIText, CoreAPITesting, and
# the trait modules CoreAPIAsyncHTTPClient, CoreAPILogging, CoreAPIMetrics, CoreAPITracing, CoreAPIHTTPTypes,
# CoreAPIOpenAPI)
# into ONE static site, with warnings as errors and links between the modules.
# Usage: Docs/build-docs.sh [output-dir]   (default: .build/docs; the site is <output-dir>/CoreAPI.doccarchive)
# View it with Docs/preview.sh: DocC's pages load their scripts from the site root (/js/...), so the files
# render only when served over HTTP, not when opened from disk.
#
# Symbol graphs: all ten come from the configuration with every trait on, in .build-traits, the only one
# in which the trait modules have content. The four core modules have the same public API with and
# without the traits (no trait condition in their sources; their symbol graphs from .build and
# .build-traits are equal), so one configuration serves all ten. It is built first with exactly CI's
# command for that configuration, so right after CI's trait build nothing is compiled again, and on a
# fresh clone the same command builds it (BoringSSL and SwiftNIO included: many minutes once).
#
# The graphs are extracted from that build's modules by swift-symbolgraph-extract, with the search paths
# and C module maps the build compiled them with (read from its build manifest, debug.yaml), as `swift
# package dump-symbol-graph` does. That command is not used: it plans a build of its own first, and
# SwiftPM lists the enabled traits' `-D` flags in a different order in each plan it makes, so it compiled
# every module of this package again (about 60 s in CI) before extracting the same graphs.
#
# Links between modules: `docc convert --dependency <archive>` resolves links (``/CoreAPIJSON/JSONApiResponse``
# with a leading slash and the module's name) against archives converted before, with
# --enable-experimental-external-link-support. The add-on modules depend on CoreAPI (their symbols refine
# and extend its types, and their pages link to it) while CoreAPI's articles link to the add-ons: a cycle,
# so no order works in one pass. Three passes break it:
#   1. CoreAPI is converted for its link metadata only (linkable-entities.json, link-hierarchy.json), its
#      not-yet-resolvable links to the add-ons silenced; these pages are thrown away.
#   2. Each add-on is converted against that archive, with warnings as errors.
#   3. CoreAPI is converted again against the add-on archives, with warnings as errors.
# Pass 1 and pass 3 read the same catalog and symbol graph, so the pages the add-ons link to are the
# pages pass 3 writes. `docc merge` then combines the ten archives into one with a synthesized "CoreAPI"
# landing page listing the modules, kept transformed for static hosting (each page a folder with its own
# index.html). The intermediate archives and symbol graphs stay in .build/docs-work.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-.build/docs}"
site="$out/CoreAPI.doccarchive"
work=.build/docs-work
addons=(CoreAPIJSON CoreAPIText CoreAPITesting CoreAPIAsyncHTTPClient CoreAPILogging CoreAPIMetrics CoreAPITracing
    CoreAPIHTTPTypes CoreAPIOpenAPI)

# CI builds every one of this package's targets with COREAPI_WARNINGS_AS_ERRORS=1 (read by Package.swift);
# the same value here keeps the build below CI's build, not a different one.
export COREAPI_WARNINGS_AS_ERRORS="${COREAPI_WARNINGS_AS_ERRORS-1}"
# CI's trait build compiles the tests too, only the integration tests (COREAPI_TEST_TARGETS, read by
# Package.swift); the same command and setting here keep this build CI's.
export COREAPI_TEST_TARGETS="${COREAPI_TEST_TARGETS-CoreAPIIntegrationTests}"

# The trait configuration, built as in CI (.ci/run, step "every trait"): keep the two the same.
trait_build=(swift build --build-tests --traits AsyncHTTPClient,Logging,Metrics,Tracing,HTTPTypes,OpenAPI --scratch-path .build-traits)
"${trait_build[@]}"

rm -rf "$work"
mkdir -p "$work/graphs" "$work/link" "$work/archives" "$work/symbolgraph" "$out"
graphs="$work/symbolgraph"
# Each module's graphs, public symbols only, with the flags of the module's own compile command in the
# manifest: its target, module cache, module search paths and the C modules' maps and headers.
python3 - .build-traits/debug.yaml "$graphs" CoreAPI "${addons[@]}" <<'PYTHON'
import json, subprocess, sys

manifest, output, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
flags, seen = [], set()
with open(manifest) as lines:
    for line in lines:
        if "args:" not in line or '"-emit-module"' not in line:
            continue
        args = json.loads(line.split("args:", 1)[1])
        if "-module-name" not in args or args[args.index("-module-name") + 1] not in modules:
            continue
        index = 0
        while index < len(args):
            if args[index] in ("-I", "-F", "-Xcc", "-target", "-module-cache-path", "-sdk"):
                flag = tuple(args[index : index + 2])
                if flag == ("-Xcc", "-I"):  # a C module's headers: -Xcc -I -Xcc <folder>
                    flag = tuple(args[index : index + 4])
                if flag not in seen:
                    seen.add(flag)
                    flags += flag
                index += len(flag)
            else:
                index += 1
for module in modules:
    command = ["swift-symbolgraph-extract", "-module-name", module, "-minimum-access-level", "public"]
    if subprocess.run(command + ["-output-dir", output] + flags).returncode != 0:
        sys.exit(f"no symbol graph for {module}")
PYTHON

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
echo "docs: one site with the ten modules at $site (serve it with Docs/preview.sh)"
