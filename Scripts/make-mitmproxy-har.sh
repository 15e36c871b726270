#!/usr/bin/env bash
# Makes Tests/CoreAPIIntegrationTests/Fixtures/HAR/mitmproxy-notes.har: mitmproxy's own HAR export
# (mitmdump's `hardump` option, mitmproxy 10.1 and later) of loopback traffic that curl sends through
# mitmdump, running as a reverse proxy, to a small notes API in Python. No CoreAPI code takes part, so the
# file shows what the import has to read; CassetteImportTests replays it against a service module.
#
# Needs python3 and curl. mitmproxy is installed in a virtual environment under .build-mitmproxy/ (git
# ignores .build-*); every server listens on 127.0.0.1 only, and the script stops both when it ends.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/.build-mitmproxy"
venv="$work/venv"
output="$root/Tests/CoreAPIIntegrationTests/Fixtures/HAR/mitmproxy-notes.har"
mkdir -p "$work" "$(dirname "$output")"

if [ ! -x "$venv/bin/mitmdump" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "mitmproxy==11.0.2"
fi

# The notes API: JSON lists and objects, a gzip-coded body, a binary body, a form login that sets a
# cookie, and a 404 with an error body.
cat > "$work/notes_server.py" <<'PY'
import gzip, json, socket, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

NOTES = [{"id": 1, "title": "Milk", "done": False}, {"id": 2, "title": "Bread", "done": True}]

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in extra:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path == "/notes":
            limit = int(query.get("limit", ["10"])[0])
            body = gzip.compress(json.dumps({"notes": NOTES[:limit]}).encode(), mtime=0)
            self.send(200, body, extra=[("Content-Encoding", "gzip")])
        elif url.path.startswith("/notes/") and url.path[7:].isdigit():
            note = next((n for n in NOTES if n["id"] == int(url.path[7:])), None)
            if note is None:
                self.send(404, json.dumps({"error": "no such note"}).encode())
            else:
                self.send(200, json.dumps(note).encode())
        elif url.path == "/avatar":
            self.send(200, bytes(range(256)) * 4, "application/octet-stream")
        else:
            self.send(404, b'{"error": "not found"}')

    def do_POST(self):
        url = urlsplit(self.path)
        body = self.body()
        if url.path == "/notes":
            note = json.loads(body)
            note["id"] = 3
            self.send(201, json.dumps(note).encode())
        elif url.path == "/login":
            self.send(200, b'{"ok": true}', extra=[("Set-Cookie", "sid=mitm-session-cookie; Path=/; HttpOnly")])
        else:
            self.send(404, b'{"error": "not found"}')

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

server_pid=""
proxy_pid=""
cleanup() {
    [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
}
trap cleanup EXIT

exec 3< <(python3 "$work/notes_server.py")
server_pid=$!
read -r server_port <&3

proxy_port=$(free_port)
"$venv/bin/mitmdump" --quiet --listen-host 127.0.0.1 --listen-port "$proxy_port" \
    --mode "reverse:http://127.0.0.1:$server_port" --set "hardump=$work/notes.har" &
proxy_pid=$!
for _ in $(seq 1 100); do
    curl --silent --output /dev/null "http://127.0.0.1:$proxy_port/ready" && break
    sleep 0.2
done

base="http://127.0.0.1:$proxy_port"
curl --silent --show-error --output /dev/null --compressed -H "Accept: application/json" "$base/notes?limit=2&sort=title"
curl --silent --show-error --output /dev/null -H "Accept: application/json" "$base/notes/1"
curl --silent --show-error --output /dev/null -H "Content-Type: application/json" \
    --data '{"title": "Eggs", "done": false}' "$base/notes"
curl --silent --show-error --output /dev/null --data "user=ada&password=mitm-form-password" "$base/login"
curl --silent --show-error --output /dev/null -H "Cookie: sid=mitm-session-cookie" "$base/avatar"
curl --silent --show-error --output /dev/null "$base/notes/9"

# mitmdump writes the HAR file as it shuts down.
kill -INT "$proxy_pid"
wait "$proxy_pid" 2>/dev/null || true
proxy_pid=""

# Leave out the readiness probes, which are no part of the traffic.
python3 - "$work/notes.har" "$output" <<'PY'
import json, sys
har = json.load(open(sys.argv[1]))
har["log"]["entries"] = [e for e in har["log"]["entries"] if not e["request"]["url"].endswith("/ready")]
json.dump(har, open(sys.argv[2], "w"), indent=2)
open(sys.argv[2], "a").write("\n")
PY
echo "Wrote $output with $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["log"]["entries"]))' "$output") entries"
