#!/usr/bin/env python3
"""Loopback HTTP fixture server for CoreAPI's integration tests.

Standard library only. Binds 127.0.0.1 on port 0 twice, prints "PORT <n>" and then "PORT2 <m>" on stdout,
then "PORT3 <k>": a third listener speaking TLS with the self-signed test certificate selfsigned.pem
(beside this script; it is trusted by nothing, so clients must reject it),
and serves until its standard input closes (so it never outlives the test process that started it). Both
ports serve every route; the second one is meant to be reached as http://localhost:<m>, a second origin
(another host name and another port) for cross-origin redirects. Responses are small and deterministic
(except the deliberately broken /fault/... ones); every socket has TCP_NODELAY so requests do not stall on
delayed ACKs.

Routes (any method unless noted; HEAD answers like GET without a body):
  /echo/raw            the raw request head: {"request_line", "headers": [[name, value], ...] (arrival order,
                       case as sent), "body_size", "body_sha256", "port" (the port that served it)};
                       with ?ms=N it answers after N milliseconds
  /echo/...            JSON echo of method, path, raw query, headers and body
  /status/<code>       that status with a JSON error body {"error": {"code", "message"}}
  /json/user           a user object; /json/users a list of users
  /text/latin1         text in ISO-8859-1 with a charset parameter
  /text/cp1251         text in windows-1251 with a charset parameter
  /text/plain          UTF-8 text without a charset parameter
  /gzip                a gzip-encoded JSON body (Content-Encoding: gzip)
  /delay?ms=N          waits N milliseconds, then answers {"delayed": N}
  /delay?ms=N&release=R
                       waits until /release?tag=R (at once when that came first) or N milliseconds
  /release?tag=R       ends the waits of /delay requests with release=R, now and later; {"ok": true}
  /concurrent/<name>?ms=N&status=S
                       counts the request as in flight for <name> while it waits N milliseconds, then
                       answers S (200 by default) with {"name", "index": n (1 for the first request of the
                       name), "in_flight": requests of the name in flight when it arrived, itself included}
  /concurrent-stats?name=X
                       {"hits": requests of X so far, "max_in_flight": most of them in flight at once}
  /basic-auth          401 with WWW-Authenticate: Basic
  /fast                {"ok": true}
  /set-cookie?name=N&value=V&path=P
                       {"ok": true} with Set-Cookie: N=V; Path=P (a session cookie)
  /empty               200 with no body; /no-content 204
  /count?tag=T         how many requests carried the header X-Test-Tag: T
  /hits?path=P         {"count": n, "ports": {"<port>": n}}: how many requests for path P (without its query)
                       arrived, on either port (requests for /hits are not counted)
  /flaky?key=K&failures=N&status=S&retry_after=R[&retry_after_date=1]
                       the first N requests with key K get status S (503 by default) with a JSON error body
                       and, when retry_after is given, Retry-After: R (or, with retry_after_date=1, an HTTP
                       date R seconds ahead, rounded up to a whole second); later ones get 200 {"attempts": n}
  /flaky/log?key=K     {"times": [...]}: the arrival times (time.monotonic(), seconds) of /flaky requests for K
  /catalog/...         the example's catalog service (products, orders, terms)
  /multipart           POST only: parses a multipart/form-data body with the email package and answers
                       {"content_type", "content_length", "transfer_encoding", "body_size", "parts": [{"name",
                       "filename", "content_type", "size", "sha256", "text"}]}, or 400 "bad_multipart"
  /stream/...          downloads with ranges, server-sent events, JSON Lines: see streams.py
  /cache...            a resource for HTTP caching, with versions and request counts: see caching.py
  /upload              POST or PUT: streams the body in 1 MiB chunks without keeping it and answers
                       {"body_size", "sha256", "content_type", "content_length", "transfer_encoding", "expect"}

Redirects (status S is 302 unless given; the body is {"location": ...}):
  /redirect?to=U&status=S     S with Location: U (U is URL-encoded; absolute or relative, sent as given)
  /redirect/chain?n=N&status=S
                       N hops on the same origin (/redirect/chain?n=N-1...), the last one to /echo/raw;
                       n=0 answers like /echo/raw
  /redirect/loop[/...]        S with Location: itself (same path and query), forever; use a path suffix of
                              your own to count the hops with /hits
  /redirect/cross?status=S[&path=P]
                       S with Location: the other origin's P (default /echo/raw): http://localhost:<port2>/...
                       from the first port, http://127.0.0.1:<port>/... from the second
  /redirect/scheme?to=U | ?kind=K
                       302 (or S) with a Location that is not plain http: U as given, or by kind: data
                       (data:text/plain,hello), mailto (mailto:nobody@example.invalid), ftp
                       (ftp://127.0.0.1:<port>/file.txt), file (file:///etc/passwd), https
                       (https://127.0.0.1:<port>/echo/raw; nothing speaks TLS there)
  /redirect/big-body?to=U&mb=N&kib=K&ms=T
                       302 with Location: U (default /echo/raw) and Content-Length: N MiB (default 10), then
                       the body trickled K KiB (default 64) every T ms (default 100): about 16 s for 10 MiB

Faults (written to the socket by hand; the connection is closed afterwards unless noted):
  /fault/close-mid-body       Content-Length: 1000, 100 bytes of body, then close (FIN)
  /fault/truncated-chunked    Transfer-Encoding: chunked, two chunks, then close without the last chunk
  /fault/reset                reads the request, then resets the connection (SO_LINGER 0) without a response
  /fault/garbage-status[?line=L]
                              the status line L (default "HTTP/1.1 abc"; e.g. HELLO) and CRLF, then close
  /fault/garbage-header[?kind=K]
                              200 with a broken header line, then a body ("garbage header body\n", with a
                              correct Content-Length) and close; K: colon (a line without a colon, the
                              default), nul (a NUL byte in a value), cr (a bare CR inside a value)
  /fault/trickle?bytes=N[&ms=T]
                              Content-Length: N (default 5), then one byte every T ms (default 1000)
  /fault/huge?mb=N            N MiB of zeros (default 200) with Content-Length, in 1 MiB writes (kept alive)
  /fault/huge-chunked?mb=N    the same, chunked (no Content-Length)
  /fault/gzip-bomb?mb=N       Content-Encoding: gzip, about N KiB that inflate to N MiB of zeros (default
                              200, built at startup; other sizes are built on first use and kept)
  /fault/big-content-length   Content-Length: 10000000000, 16 bytes of body, then close
  /fault/conflicting-content-length?lengths=A,B,...[&joined=1]
                              200 with one Content-Length field per length (default 10,5), or with joined=1
                              one field "A, B", then the 10 bytes "0123456789" and close
  /fault/encoding?value=V[&garbage=1]
                              200 with Content-Encoding: V and the body {"encoded": true} encoded with each
                              coding of V the fixture knows (gzip, x-gzip, deflate, identity), in order, and
                              left as it is by the others; with garbage=1 the body is bytes no coding can
                              read ("not compressed at all")

Expect: 100-continue is answered with 100 Continue by BaseHTTPRequestHandler (HTTP/1.1) before the route runs.
"""

import email.parser
import email.policy
import email.utils
import gzip
import hashlib
import json
import math
import os
import socket
import ssl
import struct
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import caching  # noqa: E402  (the routes of HTTP caching, beside this file)
import streams  # noqa: E402  (the routes of bodies read as they arrive, beside this file)

COUNTS = {}
COUNTS_LOCK = threading.Lock()
FLAKY = {}  # key -> arrival times of its /flaky requests
FLAKY_LOCK = threading.Lock()
CHUNK = 1 << 20
ZEROS = bytes(CHUNK)
HITS = {}  # path -> {port: requests}
HITS_LOCK = threading.Lock()
CONCURRENT = {}  # name -> {"hits", "in_flight", "max_in_flight"}
CONCURRENT_LOCK = threading.Lock()
GZIP_BOMBS = {}  # MiB -> gzip body
RELEASES = {}  # release tag -> threading.Event, set by /release
RELEASES_LOCK = threading.Lock()
GZIP_BOMBS_LOCK = threading.Lock()
SCHEME_LOCATIONS = {
    "data": "data:text/plain,hello",
    "mailto": "mailto:nobody@example.invalid",
    "ftp": "ftp://127.0.0.1:%d/file.txt",
    "file": "file:///etc/passwd",
    "https": "https://127.0.0.1:%d/echo/raw",
}
GARBAGE_HEADERS = {
    "colon": b"X-Broken header line without a colon\r\n",
    "nul": b"X-Broken: nul\x00inside\r\n",
    "cr": b"X-Broken: bare\rcr\r\n",
}


def release(tag):
    """The event that ends the waits of /delay requests released by `tag`."""
    with RELEASES_LOCK:
        return RELEASES.setdefault(tag, threading.Event())


def gzip_bomb(mb):
    """A gzip body that inflates to mb MiB of zeros, built once per size.

    One MiB of zeros is deflated from a fresh state and ended with a full flush, so the piece refers to
    nothing before it and can be repeated; only the CRC-32 has to go over every byte.
    """
    with GZIP_BOMBS_LOCK:
        if mb not in GZIP_BOMBS:
            deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
            piece = deflate.compress(ZEROS) + deflate.flush(zlib.Z_FULL_FLUSH)
            end = deflate.flush(zlib.Z_FINISH)
            crc = 0
            for _ in range(mb):
                crc = zlib.crc32(ZEROS, crc)
            header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
            GZIP_BOMBS[mb] = header + piece * mb + end + struct.pack("<II", crc, (mb * CHUNK) & 0xFFFFFFFF)
        return GZIP_BOMBS[mb]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "CoreAPIFixture/1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):
        pass

    def read_body(self):
        """The whole body; raises ConnectionResetError when the connection ends before it is complete,
        so a request whose client gave up on its body is neither counted nor answered."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                line = self.rfile.readline()
                if not line:
                    raise ConnectionResetError("chunked body ended early")
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunk = self.rfile.read(size)
                if len(chunk) < size:
                    raise ConnectionResetError("chunked body ended early")
                chunks.append(chunk)
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if len(body) < length:
            raise ConnectionResetError("body ended early")
        return body

    def body_chunks(self):
        """Yields the body (chunked or Content-Length) in pieces of at most CHUNK bytes."""
        def read(size):
            while size:
                piece = self.rfile.read(min(size, CHUNK))
                if not piece:
                    raise ConnectionResetError("body ended early")
                size -= len(piece)
                yield piece
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return
                yield from read(size)
                self.rfile.readline()
        yield from read(int(self.headers.get("Content-Length") or 0))

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

    def concurrent(self, name, query):
        with CONCURRENT_LOCK:
            entry = CONCURRENT.setdefault(name, {"hits": 0, "in_flight": 0, "max_in_flight": 0})
            entry["hits"] += 1
            entry["in_flight"] += 1
            entry["max_in_flight"] = max(entry["max_in_flight"], entry["in_flight"])
            index, in_flight = entry["hits"], entry["in_flight"]
        try:
            time.sleep(int(query.get("ms", ["0"])[0]) / 1000)
        finally:
            with CONCURRENT_LOCK:
                entry["in_flight"] -= 1
        status = int(query.get("status", ["200"])[0])
        self.send_json(status, {"name": name, "index": index, "in_flight": in_flight})

    def handle_any(self):
        url = urlsplit(self.path)
        try:
            body = b"" if url.path == "/upload" else self.read_body()  # /upload streams its own body
        except ConnectionResetError:
            self.close_connection = True
            return
        query = parse_qs(url.query)
        tag = self.headers.get("X-Test-Tag")
        if tag and url.path != "/count":
            with COUNTS_LOCK:
                COUNTS[tag] = COUNTS.get(tag, 0) + 1
        path = url.path
        if path != "/hits":
            port = self.server.server_address[1]
            with HITS_LOCK:
                ports = HITS.setdefault(path, {})
                ports[port] = ports.get(port, 0) + 1
        if path == "/echo/raw":
            time.sleep(int(query.get("ms", ["0"])[0]) / 1000)
            self.echo_raw(body)
        elif path.startswith("/echo"):
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
            if "release" in query:
                release(query["release"][0]).wait(ms / 1000)
            else:
                time.sleep(ms / 1000)
            self.send_json(200, {"delayed": ms})
        elif path == "/release":
            release(query.get("tag", [""])[0]).set()
            self.send_json(200, {"ok": True})
        elif path.startswith("/concurrent/"):
            self.concurrent(path[len("/concurrent/"):], query)
        elif path == "/concurrent-stats":
            with CONCURRENT_LOCK:
                entry = dict(CONCURRENT.get(query.get("name", [""])[0], {"hits": 0, "max_in_flight": 0}))
            self.send_json(200, {"hits": entry["hits"], "max_in_flight": entry["max_in_flight"]})
        elif path == "/basic-auth":
            self.send_json(401, {"error": {"code": 401, "message": "credentials required"}},
                           headers=[("WWW-Authenticate", 'Basic realm="fixture"')])
        elif path == "/set-cookie":
            def field(name):
                return query.get(name, [""])[0]
            cookie = "%s=%s; Path=%s" % (field("name"), field("value"), field("path") or "/")
            self.send_json(200, {"ok": True}, headers=[("Set-Cookie", cookie)])
        elif path == "/fast":
            self.send(200, b'{"ok":true}')
        elif path == "/empty":
            self.send(200, b"", content_type=None)
        elif path == "/no-content":
            self.send(204)
        elif path == "/multipart":
            self.multipart(body)
        elif path == "/upload":
            self.upload()
        elif path.startswith("/catalog/"):
            self.catalog(path[len("/catalog"):], query, body)
        elif path == "/flaky":
            self.flaky(query)
        elif path == "/flaky/log":
            with FLAKY_LOCK:
                times = list(FLAKY.get(query.get("key", [""])[0], []))
            self.send_json(200, {"times": times})
        elif path == "/count":
            with COUNTS_LOCK:
                count = COUNTS.get(query.get("tag", [""])[0], 0)
            self.send_json(200, {"count": count})
        elif path == "/hits":
            with HITS_LOCK:
                ports = dict(HITS.get(query.get("path", [""])[0], {}))
            self.send_json(200, {"count": sum(ports.values()), "ports": {str(k): v for k, v in ports.items()}})
        elif path == "/redirect" or path.startswith("/redirect/"):
            self.redirect(path, url.query, query)
        elif path.startswith("/fault/"):
            self.fault(path, query)
        elif path.startswith("/stream/") and streams.handle(self, path, query):
            pass
        elif path.startswith("/cache") and caching.handle(self, path, query):
            pass
        elif path == "/graphql":
            self.graphql(body)
        else:
            self.send_json(404, {"error": {"code": 404, "message": "no route " + path}})

    def graphql(self, body):
        """A tiny GraphQL endpoint: heroes by episode, a partial result, and the spec's error shapes."""
        try:
            request = json.loads(body)
            document = request["query"]
        except (ValueError, KeyError, TypeError):
            self.send_json(400, {"errors": [{"message": "the body must be JSON with a query"}]})
            return
        variables = request.get("variables") or {}
        heroes = {"JEDI": "Luke Skywalker", "EMPIRE": "Han Solo"}
        if "syntax error" in document:
            self.send_json(400, {"errors": [{"message": "Syntax Error: unexpected name",
                                             "locations": [{"line": 1, "column": 8}]}]})
        elif "friends" in document:
            self.send_json(200, {
                "data": {"hero": {"name": "R2-D2", "friends": [{"name": "Luke Skywalker"}, None]}},
                "errors": [{"message": "friend record unavailable", "path": ["hero", "friends", 1],
                            "extensions": {"code": "UNAVAILABLE"}}],
            })
        elif "hero" in document:
            episode = variables.get("episode")
            if episode in heroes:
                self.send_json(200, {"data": {"hero": {"name": heroes[episode]}},
                                     "extensions": {"operationName": request.get("operationName")}})
            else:
                self.send_json(200, {"data": {"hero": None}, "errors": [
                    {"message": "no hero for episode %s" % episode, "path": ["hero"],
                     "locations": [{"line": 1, "column": 41}]}]})
        else:
            self.send_json(200, {"data": None, "errors": [{"message": "unknown field"}]})

    def echo_raw(self, body):
        self.send_json(200, {
            "request_line": self.raw_requestline.decode("latin-1").rstrip("\r\n"),
            "headers": [[name, value] for name, value in self.headers.raw_items()],
            "body_size": len(body),
            "body_sha256": hashlib.sha256(body).hexdigest(),
            "port": self.server.server_address[1],
        })

    def redirect(self, path, raw_query, query):
        status = int(query.get("status", ["302"])[0])
        if path == "/redirect":
            location = query.get("to", ["/echo/raw"])[0]
        elif path == "/redirect/chain":
            hops = int(query.get("n", ["1"])[0])
            if hops <= 0:
                self.echo_raw(b"")  # the body, if any, was read by handle_any
                return
            location = "/redirect/chain?n=%d&status=%d" % (hops - 1, status) if hops > 1 else "/echo/raw"
        elif path == "/redirect/loop" or path.startswith("/redirect/loop/"):
            location = path + ("?" + raw_query if raw_query else "")
        elif path == "/redirect/cross":
            location = self.server.other_origin + query.get("path", ["/echo/raw"])[0]
        elif path == "/redirect/big-body":
            self.big_redirect(query)
            return
        elif path == "/redirect/scheme" and ("to" in query or query.get("kind", [""])[0] in SCHEME_LOCATIONS):
            location = query["to"][0] if "to" in query else SCHEME_LOCATIONS[query["kind"][0]].replace(
                "%d", str(self.server.server_address[1]))
        else:
            self.send_json(404, {"error": {"code": 404, "message": "no route " + path}})
            return
        self.send_json(status, {"location": location}, headers=[("Location", location)])

    def big_redirect(self, query):
        """302 to `to` with a body of `mb` MiB trickled `kib` KiB every `ms` ms; stops when the client leaves."""
        location = query.get("to", ["/echo/raw"])[0]
        size = int(query.get("mb", ["10"])[0]) * CHUNK
        piece = bytes(int(query.get("kib", ["64"])[0]) * 1024)
        interval = int(query.get("ms", ["100"])[0]) / 1000
        self.close_connection = True
        self.raw(b"HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Type: application/octet-stream\r\n"
                 b"Content-Length: %d\r\n\r\n" % (location.encode("latin-1"), size))
        sent = 0
        while sent < size:
            if sent:
                time.sleep(interval)
            try:
                self.raw(piece[:size - sent])
            except OSError:  # the client gave up
                return
            sent += len(piece)

    def raw(self, *pieces):
        """Writes bytes to the socket as they are, bypassing BaseHTTPRequestHandler's framing."""
        for piece in pieces:
            self.wfile.write(piece)
        self.wfile.flush()

    def fault(self, path, query):
        def number(name, default):
            return int(query.get(name, [str(default)])[0])
        self.close_connection = True  # closed with FIN once the route returns, unless it resets
        if path == "/fault/close-mid-body":
            self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n",
                     b"x" * 100)
        elif path == "/fault/truncated-chunked":
            self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n",
                     b"10\r\nfirst chunk, 16b\r\n", b"11\r\nsecond chunk, 17b\r\n")
        elif path == "/fault/reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.rfile.close()  # the socket stays open while a file made from it is
            self.connection.close()  # RST now, before the server's own shutdown() could send a FIN
        elif path == "/fault/garbage-status":
            self.raw(query.get("line", ["HTTP/1.1 abc"])[0].encode("latin-1") + b"\r\n")
        elif path == "/fault/garbage-header" and query.get("kind", ["colon"])[0] in GARBAGE_HEADERS:
            body = b"garbage header body\n"
            self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n",
                     GARBAGE_HEADERS[query.get("kind", ["colon"])[0]],
                     b"Content-Length: %d\r\n\r\n" % len(body), body)
        elif path == "/fault/trickle":
            size, interval = number("bytes", 5), number("ms", 1000) / 1000
            self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n" % size)
            for index in range(size):
                if index:
                    time.sleep(interval)
                try:
                    self.raw(b"x")
                except OSError:  # the client gave up
                    return
        elif path in ("/fault/huge", "/fault/huge-chunked"):
            self.close_connection = False  # a complete response; the connection stays usable
            mb, chunked = number("mb", 200), path.endswith("chunked")
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            if chunked:
                self.send_header("Transfer-Encoding", "chunked")
            else:
                self.send_header("Content-Length", str(mb * CHUNK))
            self.end_headers()
            if self.command == "HEAD":
                return
            for _ in range(mb):
                self.wfile.write(b"%x\r\n%s\r\n" % (CHUNK, ZEROS) if chunked else ZEROS)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        elif path == "/fault/gzip-bomb":
            self.close_connection = False
            self.send(200, gzip_bomb(number("mb", 200)), "application/octet-stream",
                      headers=[("Content-Encoding", "gzip")])
        elif path == "/fault/big-content-length":
            self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                     b"Content-Length: 10000000000\r\n\r\n", b"sixteen bytes...")
        elif path == "/fault/conflicting-content-length":
            lengths = query.get("lengths", ["10,5"])[0].split(",")
            if query.get("joined", [""])[0] == "1":
                fields = b"Content-Length: %s\r\n" % ", ".join(lengths).encode("latin-1")
            else:
                fields = b"".join(b"Content-Length: %s\r\n" % length.encode("latin-1") for length in lengths)
            # The connection closes after the answer, and says so: a client that kept it for another
            # request would race the close.
            self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n"
                     + fields + b"\r\n", b"0123456789")
        elif path == "/fault/encoding":
            value = query.get("value", ["gzip"])[0]
            body = json.dumps({"encoded": True}).encode()
            if query.get("garbage", [""])[0] == "1":
                body = b"not compressed at all"
            else:
                for coding in (token.strip().lower() for token in value.split(",")):
                    if coding in ("gzip", "x-gzip"):
                        body = gzip.compress(body)
                    elif coding == "deflate":
                        body = zlib.compress(body)
            # The body is written after a HEAD's head too, which the client must not read; the connection
            # closes after it and says so, so no client reads those bytes as the next request's answer.
            self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: %s\r\n"
                     b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (value.encode("latin-1"), len(body)),
                     body)
        else:
            self.close_connection = False
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

    def flaky(self, query):
        arrived = time.monotonic()
        key = query.get("key", [""])[0]
        failures = int(query.get("failures", ["0"])[0])
        status = int(query.get("status", ["503"])[0])
        with FLAKY_LOCK:
            times = FLAKY.setdefault(key, [])
            times.append(arrived)
            attempt = len(times)
        if attempt > failures:
            self.send_json(200, {"attempts": attempt})
            return
        headers = []
        if "retry_after" in query:
            value = query["retry_after"][0]
            if query.get("retry_after_date", [""])[0] == "1":
                # Rounded up, so the date is at least retry_after seconds after this request arrived.
                value = email.utils.formatdate(math.ceil(time.time() + float(value)), usegmt=True)
            headers.append(("Retry-After", value))
        self.send_json(status, {"error": {"code": status, "message": "flaky attempt %d" % attempt}}, headers=headers)

    def multipart(self, body):
        if self.command != "POST":
            self.send_json(405, {"error": {"code": 405, "message": "/multipart takes POST"}})
            return
        content_type = self.headers.get("Content-Type")
        try:
            parts = multipart_parts(content_type, body)
        except Exception as error:  # anything the email package cannot make sense of is a bad body
            self.send_json(400, {"error": {"code": "bad_multipart", "message": str(error)}})
            return
        self.send_json(200, {
            "content_type": content_type,
            "content_length": self.headers.get("Content-Length"),
            "transfer_encoding": self.headers.get("Transfer-Encoding"),
            "body_size": len(body),
            "parts": parts,
        })

    def upload(self):
        tag = self.headers.get("X-Test-Tag") or ""
        if tag.startswith("stall-first-"):
            with COUNTS_LOCK:
                first = COUNTS.get(tag, 0) == 1
            if first:
                # Reads nothing for 3 s, so the client's idle timeout fires with the body half sent.
                time.sleep(3)
                self.close_connection = True
                return
        digest, size = hashlib.sha256(), 0
        for piece in self.body_chunks():
            digest.update(piece)
            size += len(piece)
        if self.command not in ("POST", "PUT"):
            self.send_json(405, {"error": {"code": 405, "message": "/upload takes POST or PUT"}})
            return
        self.send_json(200, {
            "body_size": size,
            "sha256": digest.hexdigest(),
            "content_type": self.headers.get("Content-Type"),
            "content_length": self.headers.get("Content-Length"),
            "transfer_encoding": self.headers.get("Transfer-Encoding"),
            "expect": self.headers.get("Expect"),
        })

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


def raw_header(part, name):
    """The header's value as sent (unfolded; bytes that are not ASCII read as UTF-8), or None."""
    for key, value in part.raw_items():
        if key.lower() == name.lower():
            value = value.encode("ascii", "surrogateescape").decode("utf-8", "replace")
            return " ".join(value.split("\r\n")).strip()
    return None


def multipart_parts(content_type, body):
    """Parses a multipart body with the email package, independently of the client's encoder."""
    # Header values were decoded as ISO-8859-1, so this gives back the bytes that were sent.
    raw = b"Content-Type: " + (content_type or "").encode("latin-1") + b"\r\n\r\n" + body
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(raw)
    if message.defects:
        raise ValueError("defects: " + ", ".join(type(defect).__name__ for defect in message.defects))
    if not message.is_multipart():
        raise ValueError("not a multipart body (Content-Type %r)" % content_type)
    parts = []
    for part in message.iter_parts():
        if part.defects:
            raise ValueError("defects: " + ", ".join(type(defect).__name__ for defect in part.defects))
        if part.is_multipart():
            raise ValueError("nested multipart parts are not supported")
        payload = part.get_payload(decode=True) or b""  # a 0-byte part is b"" (never None)
        name = part.get_param("name", header="content-disposition")
        filename = part.get_filename()
        text = None
        if filename is None:
            try:
                text = payload.decode("utf-8")
            except UnicodeDecodeError:
                pass
        parts.append({
            "name": email.utils.collapse_rfc2231_value(name) if name is not None else None,
            "filename": filename,
            "content_type": raw_header(part, "Content-Type"),
            "size": len(payload),
            "sha256": hashlib.sha256(payload).hexdigest(),
            "text": text,
        })
    return parts


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512

    def handle_error(self, request, client_address):
        # Clients that cancel close their connection mid-response; that is expected here.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    server2 = Server(("127.0.0.1", 0), Handler)  # the second origin, http://localhost:<port2>
    server.other_origin = "http://localhost:%d" % server2.server_address[1]
    server2.other_origin = "http://127.0.0.1:%d" % server.server_address[1]
    threading.Thread(target=gzip_bomb, args=(200,), daemon=True).start()  # about 0.4 s of CRC-32
    tls = Server(("127.0.0.1", 0), Handler)  # https://127.0.0.1:<port3>, an untrusted certificate
    tls.other_origin = server.other_origin
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(os.path.dirname(os.path.abspath(__file__)), "selfsigned.pem"))
    tls.socket = context.wrap_socket(tls.socket, server_side=True, do_handshake_on_connect=False)
    for each in (server, server2, tls):
        threading.Thread(target=each.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    print("PORT2 %d" % server2.server_address[1], flush=True)
    print("PORT3 %d" % tls.server_address[1], flush=True)
    sys.stdin.read()  # returns when the parent closes our stdin or exits
    for each in (server, server2, tls):
        each.shutdown()


if __name__ == "__main__":
    main()
