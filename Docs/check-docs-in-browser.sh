#!/usr/bin/env bash
# Checks that the documentation site renders in a real browser: DocC draws every page with JavaScript, so
# a site whose scripts or data do not load still serves its HTML files, each with an empty <div id="app">.
# Serves the site on a free loopback port, loads the package's landing page, each module's landing page
# and one article in headless Chromium, and checks each rendered page's heading (and, on the article, a
# link into another module). Prints PASS or FAIL per page; exits non-zero on any failure.
# Usage: Docs/check-docs-in-browser.sh [site-dir]   (default: .build/docs/CoreAPI.doccarchive, made by
# Docs/build-docs.sh). Installs Debian's chromium package when no Chromium is found. A screenshot of the
# landing page is left at <site-dir>/../landing-page.png.
set -euo pipefail
cd "$(dirname "$0")/.."

site="${1:-.build/docs/CoreAPI.doccarchive}"
if [ ! -f "$site/index.html" ]; then
    echo "no documentation site at $site: build it with Docs/build-docs.sh" >&2
    exit 1
fi
site="$(cd "$site" && pwd)"

browser=""
for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser="$candidate"
        break
    fi
done
if [ -z "$browser" ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo); fi
    started=$(date +%s)
    "${SUDO[@]}" apt-get update -qq
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    echo "docs check: chromium installed in $(($(date +%s) - started)) s"
    browser=chromium
fi

tmp="$(mktemp -d)"
server=""
stop() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap stop EXIT

# Port 0: the system picks a free port, and the server prints the one it got.
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$site" >"$tmp/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 100); do
    port="$(sed -n 's/^Serving HTTP on 127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$tmp/server.log")"
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$port" ]; then
    echo "the documentation server did not start:" >&2
    cat "$tmp/server.log" >&2
    exit 1
fi
base="http://127.0.0.1:$port"

chrome() {
    timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
        --user-data-dir="$tmp/profile" --virtual-time-budget=20000 "$@" 2>>"$tmp/browser.log"
}

# Passes when the rendered page has an <h1> reading $2 and, if given, a link to $3.
rendered() {
    python3 - "$1" "$2" "${3:-}" <<'PY'
import sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.depth, self.headings, self.links = 0, [], set()
    def handle_starttag(self, tag, attrs):
        if tag == "h1":
            self.depth += 1
            self.headings.append("")
        if tag == "a":
            self.links.update(value for name, value in attrs if name == "href")
    def handle_endtag(self, tag):
        if tag == "h1" and self.depth:
            self.depth -= 1
    def handle_data(self, data):
        if self.depth:
            self.headings[-1] += data

page = Page()
page.feed(open(sys.argv[1], encoding="utf-8", errors="replace").read())
headings = [" ".join(text.split()) for text in page.headings]
problems = []
if sys.argv[2] not in headings:
    problems.append("no heading %r (headings: %s)" % (sys.argv[2], headings or "none"))
if sys.argv[3] and sys.argv[3] not in page.links:
    problems.append("no link to %s" % sys.argv[3])
print("; ".join(problems))
sys.exit(1 if problems else 0)
PY
}

# path | heading | a link the page must have (optional)
pages=(
    "/documentation/|CoreAPI|/documentation/coreapiasynchttpclient"
    "/documentation/coreapi/|CoreAPI|"
    "/documentation/coreapijson/|CoreAPIJSON|"
    "/documentation/coreapitext/|CoreAPIText|"
    "/documentation/coreapitesting/|CoreAPITesting|"
    "/documentation/coreapiasynchttpclient/|CoreAPIAsyncHTTPClient|"
    "/documentation/coreapilogging/|CoreAPILogging|"
    "/documentation/coreapimetrics/|CoreAPIMetrics|"
    "/documentation/coreapitracing/|CoreAPITracing|"
    "/documentation/coreapihttptypes/|CoreAPIHTTPTypes|"
    "/documentation/coreapiopenapi/|CoreAPIOpenAPI|"
    "/documentation/coreapi/observability/|Observability|"
    "/documentation/coreapi/gettingstarted/|Getting Started|/documentation/coreapijson/jsonapiresponse"
)
failures=0
for entry in "${pages[@]}"; do
    IFS='|' read -r path heading link <<<"$entry"
    dom="$tmp/page.html"
    if ! chrome --dump-dom "$base$path" >"$dom"; then
        echo "FAIL $path: the browser failed (see below)"
        tail -n 5 "$tmp/browser.log"
        failures=$((failures + 1))
    elif problem="$(rendered "$dom" "$heading" "$link")"; then
        echo "PASS $path ($heading)"
    else
        echo "FAIL $path: $problem"
        failures=$((failures + 1))
    fi
done

screenshot="$(dirname "$site")/landing-page.png"
if chrome --window-size=1280,900 --hide-scrollbars --screenshot="$screenshot" "$base/documentation/" >/dev/null; then
    echo "docs check: screenshot of the landing page at $screenshot"
fi

if [ "$failures" -ne 0 ]; then
    echo "docs check: $failures of ${#pages[@]} pages did not render" >&2
    exit 1
fi
echo "docs check: all ${#pages[@]} pages rendered"
