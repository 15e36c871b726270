#!/usr/bin/env bash
# Checks what a package using CoreAPI resolves and fetches: nothing without a trait, and with each trait
# exactly the packages that trait is for.
#
#   Scripts/check-consumer-resolution.sh [--build]
#
# Scripts/consumer-resolution is a one-target package that depends on this repository by path and imports
# CoreAPI, the way an app does. It is resolved from scratch in its own scratch path (.build-consumer there,
# or $CONSUMER_SCRATCH_PATH):
#   1. without a trait: it must pin no package and fetch nothing into the scratch path's checkouts or
#      repositories. CoreAPI's own dependencies (async-http-client, swift-nio, swift-nio-ssl, swift-log,
#      swift-metrics, swift-distributed-tracing, swift-http-types, swift-openapi-runtime) are each declared
#      for a trait alone, so none of them may show up.
#   2. with CONSUMER_TRAITS=AsyncHTTPClient: it must pin async-http-client, swift-nio and swift-nio-ssl (and
#      what they depend on), which shows that the first check looks where packages would appear; with
#      CONSUMER_TRAITS=Logging, Metrics, Tracing or HTTPTypes alone, exactly swift-log, swift-metrics,
#      swift-distributed-tracing or swift-http-types (with their own dependencies, of which these versions have none);
#      with CONSUMER_TRAITS=OpenAPI, exactly swift-openapi-runtime and swift-http-types (the trait enables
#      HTTPTypes, and swift-http-types is the runtime's only dependency).
# Resolution is what fetches packages, so resolving is enough and takes seconds; --build also builds the
# trait-less consumer, as an app would (about a minute: it compiles CoreAPI once more).
set -euo pipefail
consumer="$(cd "$(dirname "$0")/consumer-resolution" && pwd)"
cd "$consumer"

build=0
case "${1:-}" in
    "") ;;
    --build) build=1 ;;
    *) echo "usage: $0 [--build]" >&2; exit 2 ;;
esac

scratch="${CONSUMER_SCRATCH_PATH:-$consumer/.build-consumer}"
status=0

# Identities pinned by Package.resolved, one per line, sorted.
pinned() {
    [ -f Package.resolved ] || return 0
    sed -n 's/.*"identity" *: *"\([^"]*\)".*/\1/p' Package.resolved | sort
}

# 1. Without a trait.
rm -rf "$scratch" Package.resolved
env -u CONSUMER_TRAITS swift package resolve --scratch-path "$scratch"
if [ "$build" -eq 1 ]; then
    env -u CONSUMER_TRAITS swift build --scratch-path "$scratch"
fi
if [ -n "$(pinned)" ]; then
    echo "error: without a trait the consumer pins packages:" >&2
    pinned >&2
    status=1
fi
for folder in checkouts repositories; do
    if [ -d "$scratch/$folder" ] && [ -n "$(ls -A "$scratch/$folder")" ]; then
        echo "error: without a trait packages were fetched into $scratch/$folder:" >&2
        ls -A "$scratch/$folder" >&2
        status=1
    fi
done
[ "$status" -ne 0 ] || echo "consumer without a trait: pins and fetches no package"

# 2. With each trait alone: the packages it is for must be there, so the check above can fail.
#    AsyncHTTPClient pins at least async-http-client, swift-nio and swift-nio-ssl (and what they depend on);
#    each observability trait pins exactly its library and that library's own dependencies, and nothing of
#    AsyncHTTPClient or SwiftNIO.
resolve_with() {
    rm -rf "$scratch" Package.resolved
    local log
    log="$(mktemp)"
    if ! CONSUMER_TRAITS="$1" swift package resolve --scratch-path "$scratch" >"$log" 2>&1; then
        cat "$log" >&2
        status=1
    fi
    rm -f "$log"
}

resolve_with AsyncHTTPClient
with_trait="$(pinned | tr '\n' ' ')"
for expected in async-http-client swift-nio swift-nio-ssl; do
    if ! pinned | grep -qx "$expected"; then
        echo "error: with the AsyncHTTPClient trait the consumer does not pin $expected (pins: $with_trait)" >&2
        status=1
    fi
done
[ "$status" -ne 0 ] || echo "consumer with AsyncHTTPClient: pins $(pinned | wc -l) packages: $with_trait"

# Trait, then exactly the identities it pins, sorted.
for entry in \
    "Logging:swift-log" \
    "Metrics:swift-metrics" \
    "Tracing:swift-distributed-tracing" \
    "HTTPTypes:swift-http-types" \
    "OpenAPI:swift-http-types swift-openapi-runtime"; do
    trait="${entry%%:*}"
    expected="${entry#*:}"
    resolve_with "$trait"
    actual="$(pinned | tr '\n' ' ' | sed 's/ $//')"
    if [ "$actual" != "$expected" ]; then
        echo "error: with the $trait trait the consumer pins '$actual', not exactly '$expected'" >&2
        status=1
    else
        echo "consumer with $trait: pins exactly $actual"
    fi
done
rm -rf "$scratch" Package.resolved
exit "$status"
