#!/usr/bin/env python3
"""Loopback HTTP fixture server for CoreAPI's integration tests.

Standard library only. Binds 127.0.0.1 on port 0, prints "PORT <n>" on stdout, and serves until its
standard input closes (so it never outlives the test process that started it). Responses are small and
deterministic; every socket has TCP_NODELAY so requests do not stall on delayed ACKs.

Routes (any method unless noted; HEAD answers like GET without a body):
  /echo/...            JSON echo of method, path, raw query, headers and body
  /status/<code>       that status with a JSON error body {"error": {"code", "message"}}
  /json/user           a user object; /json/users a list of users
  /text/latin1         text in ISO-8859-1 with a charset parameter
  /text/cp1251         text in windows-1251 with a charset parameter
  /text/plain          UTF-8 text without a charset parameter
  /gzip                a gzip-encoded JSON body (Content-Encoding: gzip)
  /delay?ms=N          waits N milliseconds, then answers {"delayed": N}
  /basic-auth          401 with WWW-Authenticate: Basic
  /fast                {"ok": true}
  /empty               200 with no body; /no-content 204
  /count?tag=T         how many requests carried the header X-Test-Tag: T
  /catalog/...         the example's catalog service (products, orders, terms)
"""

import gzip
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

COUNTS = {}
COUNTS_LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "CoreAPIFixture/1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):
        pass

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def send(self, status, body=b"", content_type="application/json", headers=()):
        self.send_response(status)
        if content_type and status not in (204, 304):
            self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        if status not in (204, 304):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and status not in (204, 304):
            self.wfile.write(body)

    def send_json(self, status, value, headers=()):
        self.send(status, json.dumps(value, sort_keys=True).encode(), headers=headers)

    def handle_any(self):
        body = self.read_body()
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        tag = self.headers.get("X-Test-Tag")
        if tag and url.path != "/count":
            with COUNTS_LOCK:
                COUNTS[tag] = COUNTS.get(tag, 0) + 1
        path = url.path
        if path.startswith("/echo"):
            self.send_json(200, {
                "method": self.command,
                "path": path,
                "query": url.query,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
                "bodySize": len(body),
            })
        elif path.startswith("/status/"):
            code = int(path.rsplit("/", 1)[1])
            self.send_json(code, {"error": {"code": code, "message": "status %d from fixture" % code}})
        elif path == "/json/user":
            self.send_json(200, {"id": 1, "name": "Ada", "created_at": "2024-01-02T03:04:05Z"})
        elif path == "/json/users":
            self.send_json(200, [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Grace"}])
        elif path == "/text/latin1":
            self.send(200, "café crème, naïve".encode("latin-1"), "text/plain; charset=ISO-8859-1")
        elif path == "/text/cp1251":
            self.send(200, "Привет, мир".encode("cp1251"), "text/plain; charset=windows-1251")
        elif path == "/text/plain":
            self.send(200, "plain ✓".encode("utf-8"), "text/plain")
        elif path == "/gzip":
            payload = json.dumps({"compressed": True, "items": list(range(100))}).encode()
            self.send(200, gzip.compress(payload), headers=[("Content-Encoding", "gzip")])
        elif path == "/delay":
            ms = int(query.get("ms", ["0"])[0])
            time.sleep(ms / 1000)
            self.send_json(200, {"delayed": ms})
        elif path == "/basic-auth":
            self.send_json(401, {"error": {"code": 401, "message": "credentials required"}},
                           headers=[("WWW-Authenticate", 'Basic realm="fixture"')])
        elif path == "/fast":
            self.send(200, b'{"ok":true}')
        elif path == "/empty":
            self.send(200, b"", content_type=None)
        elif path == "/no-content":
            self.send(204)
        elif path.startswith("/catalog/"):
            self.catalog(path[len("/catalog"):], query, body)
        elif path == "/count":
            with COUNTS_LOCK:
                count = COUNTS.get(query.get("tag", [""])[0], 0)
            self.send_json(200, {"count": count})
        else:
            self.send_json(404, {"error": {"code": 404, "message": "no route " + path}})

    def catalog(self, path, query, body):
        products = {1: {"id": 1, "name": "Desk lamp", "price": 24.5}, 2: {"id": 2, "name": "Floor lamp", "price": 89}}
        if path == "/products/search":
            term = query.get("q", [""])[0]
            items = [p for p in products.values() if term.lower() in p["name"].lower()]
            limit = int(query.get("limit", ["10"])[0])
            self.send_json(200, {"query": term, "items": items[:limit]})
        elif path == "/orders" and self.command == "POST":
            order = json.loads(body or b"{}")
            self.send_json(201, {"id": "ord-%d" % (1000 + order.get("quantity", 0)), "product_id": order.get("product_id"),
                                 "quantity": order.get("quantity"), "status": "accepted"})
        elif path == "/terms":
            self.send(200, "Terms of sale: returns accepted within 30 days — café policy.".encode("cp1252"),
                      "text/plain; charset=windows-1252")
        elif path.startswith("/products/") and path[len("/products/"):].isdigit() \
                and int(path[len("/products/"):]) in products:
            self.send_json(200, products[int(path[len("/products/"):])])
        else:
            self.send_json(404, {"error": {"code": "not_found", "message": "No such product"}})

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512

    def handle_error(self, request, client_address):
        # Clients that cancel close their connection mid-response; that is expected here.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()  # returns when the parent closes our stdin or exits
    server.shutdown()


if __name__ == "__main__":
    main()
