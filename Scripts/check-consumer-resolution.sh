#!/usr/bin/env bash
# Checks that a package using CoreAPI without the AsyncHTTPClient trait resolves and fetches nothing else.
#
#   Scripts/check-consumer-resolution.sh [extra swift build arguments]
#
# Builds Scripts/consumer-resolution — a one-target package that depends on this repository by path and
# imports CoreAPI, the way an app does — from scratch in its own scratch path (.build-consumer there, or
# $CONSUMER_SCRATCH_PATH), then fails if its Package.resolved pins any package, or if any package was
# fetched or checked out. CoreAPI's own dependencies (async-http-client, swift-nio, swift-nio-ssl) are
# declared for the AsyncHTTPClient trait alone, so none of them may show up here.
set -euo pipefail
consumer="$(cd "$(dirname "$0")/consumer-resolution" && pwd)"
cd "$consumer"

scratch="${CONSUMER_SCRATCH_PATH:-$consumer/.build-consumer}"
rm -rf "$scratch" Package.resolved

swift build --scratch-path "$scratch" "$@"

status=0
if [ -f Package.resolved ] && grep -q '"identity"' Package.resolved; then
    echo "error: the consumer pins packages:" >&2
    grep '"identity"' Package.resolved >&2
    status=1
fi
for folder in checkouts repositories; do
    if [ -d "$scratch/$folder" ] && [ -n "$(ls -A "$scratch/$folder")" ]; then
        echo "error: packages were fetched into $scratch/$folder:" >&2
        ls -A "$scratch/$folder" >&2
        status=1
    fi
done
if [ "$status" -eq 0 ]; then
    echo "The consumer pins and fetches no package."
fi
exit "$status"
