#!/usr/bin/env bash
# Serves the documentation site on 127.0.0.1 and prints the address of its landing page; Ctrl-C stops it.
# Usage: Docs/preview.sh [port]   (default: 8000)
# Builds the site first (Docs/build-docs.sh) when .build/docs/CoreAPI.doccarchive is missing. Opening the
# files from disk shows a blank page: DocC's pages load their scripts and data from the site root.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${1:-8000}"
site=.build/docs/CoreAPI.doccarchive
if [ ! -f "$site/documentation/index.html" ]; then
    Docs/build-docs.sh
fi
echo "docs: open http://127.0.0.1:$port/documentation/ (Ctrl-C stops the server)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
