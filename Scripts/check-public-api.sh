#!/usr/bin/env bash
# Compares the public API of the library modules with the listing checked in at Docs/PublicAPI.txt, and
# holds the number of public top-level types (typealiases included) to at most 82: the 80 the library and its
# bridges may have, and one root for each of the two testing features whose whole API nests under one
# name (`Cassette`, `TransportConformance`). A new top-level type means nesting another or raising this on purpose.
# Usage: Scripts/check-public-api.sh [--update]
#
# It reads the symbol graphs Docs/build-docs.sh leaves in .build/docs-work/graphs (one folder per module,
# with the module's own graph and its extensions of other modules' types), made from the AsyncHTTPClient
# trait's build, so every module and every trait is in them: run it after the documentation step. The test
# runner's modules (CoreAPIPackageTests, CoreAPIPackageDiscoveredTests) are never counted.
#
# The listing has one line per public symbol, sorted: the module (with the extended module after `@` for an
# extension of another module's type), the symbol's path, its kind and its declaration; a type's line ends
# with the protocols it conforms to. Without --update a listing that differs from the checked-in one fails
# with the difference, so a change to the public API is always deliberate: after one, run the documentation
# step and then this script with --update, and commit Docs/PublicAPI.txt with the change.
set -euo pipefail
cd "$(dirname "$0")/.."

graphs=.build/docs-work/graphs
listing=Docs/PublicAPI.txt
limit=82
update=0
case "${1-}" in
    --update) update=1 ;;
    "") ;;
    *)
        echo "usage: $0 [--update]" >&2
        exit 2
        ;;
esac
if [ ! -d "$graphs" ]; then
    echo "no symbol graphs in $graphs: run Docs/build-docs.sh first" >&2
    exit 1
fi

current="$(mktemp)"
trap 'rm -f "$current"' EXIT
count=$(python3 - "$graphs" "$current" <<'EOF'
import json, os, sys

graphs, out = sys.argv[1], sys.argv[2]
excluded = {"CoreAPIPackageTests", "CoreAPIPackageDiscoveredTests"}
type_kinds = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}
lines = set()
top_level = set()
for folder in sorted(os.listdir(graphs)):
    directory = os.path.join(graphs, folder)
    if not os.path.isdir(directory):
        continue
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".symbols.json"):
            continue
        stem = name[: -len(".symbols.json")]
        module = stem.split("@")[0]
        if module in excluded:
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as file:
            graph = json.load(file)
        symbols = graph.get("symbols", [])
        names = {symbol["identifier"]["precise"]: ".".join(symbol["pathComponents"]) for symbol in symbols}
        conformances = {}
        for relation in graph.get("relationships", []):
            if relation.get("kind") in ("conformsTo", "inheritsFrom"):
                target = names.get(relation["target"]) or relation.get("targetFallback") or relation["target"]
                conformances.setdefault(relation["source"], set()).add(target)
        for symbol in symbols:
            precise = symbol["identifier"]["precise"]
            if symbol.get("accessLevel") not in ("public", "open") or "::SYNTHESIZED::" in precise:
                continue
            kind = symbol["kind"]["identifier"]
            path = ".".join(symbol["pathComponents"])
            declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
            declaration = " ".join(declaration.split())
            if kind in type_kinds or kind == "swift.extension":
                adopted = sorted(conformances.get(precise, ()))
                if adopted:
                    declaration += " : " + ", ".join(adopted)
            lines.add(f"{stem}\t{path}\t{kind.removeprefix('swift.')}\t{declaration}")
            if kind in type_kinds and len(symbol["pathComponents"]) == 1 and "@" not in stem:
                top_level.add(f"{module}.{path}")
with open(out, "w", encoding="utf-8") as file:
    file.write("# The public API of CoreAPI's library modules, from their symbol graphs (Scripts/check-public-api.sh).\n")
    file.write(f"# {len(top_level)} public top-level types and typealiases; module, path, kind and declaration per line.\n")
    for line in sorted(lines):
        file.write(line + "\n")
print(len(top_level))
EOF
)

echo "public top-level types and typealiases: $count (at most $limit)"
if [ "$update" -eq 1 ]; then
    cp "$current" "$listing"
    echo "wrote $listing"
elif [ ! -f "$listing" ]; then
    echo "$listing is missing: run $0 --update and commit it" >&2
    exit 1
elif ! diff -u "$listing" "$current"; then
    echo "the public API differs from $listing (above: - checked in, + this build)." >&2
    echo "If the change is meant, run $0 --update and commit $listing with it." >&2
    exit 1
fi
if [ "$count" -gt "$limit" ]; then
    echo "$count public top-level types is more than $limit: nest the new ones in the types they serve" >&2
    exit 1
fi
