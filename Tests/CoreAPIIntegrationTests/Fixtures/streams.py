"""Routes of the loopback fixture for bodies read as they arrive: downloads with ranges, server-sent
events and JSON Lines. fixture_server.py hands every path under /stream/ to handle().

/stream/download?size=&etag=&weak=&drop=&stall=&name=
    `size` bytes, byte i being i % 251, with Content-Length, ETag ("etag", weak with weak=1),
    Last-Modified, Accept-Ranges: bytes and X-Content-SHA256 (of the whole body). Honours
    `Range: bytes=N-` with `If-Range`: a 206 from N when If-Range names the current ETag, else the
    whole body with 200. Without a Range, closes the connection after `drop` bytes, or stops sending for
    30 s after `stall` bytes. Each request's Range and If-Range are logged under `name`.
/stream/download-log?name=
    The logged requests, as JSON: [{"range": ..., "if_range": ...}, ...].
/stream/sse?name=&count=&total=&ms=&retry=
    text/event-stream: after a Last-Event-ID of n (0 without one), events n+1 ... n+count (at most
    `total`), one every `ms` milliseconds, each `id: k`, `event: tick` and data {"n": k}; then the
    connection closes. With a Last-Event-ID of `total` or more, 204. `retry` is sent first when given.
    The Last-Event-ID of each request is logged under `name` ("" for none).
/stream/sse-log?name=
    The logged Last-Event-IDs, as JSON.
/stream/jsonl?count=&bad=&ms=
    application/jsonl: `count` lines {"id": i}, i from 1, one every `ms` milliseconds; line `bad`, if
    given, is not JSON.
"""

import hashlib
import json
import threading
import time

PATTERN = bytes(i % 251 for i in range(251 * 4096))  # about 1 MiB, a whole number of periods
LOG_LOCK = threading.Lock()
DOWNLOADS = {}
EVENTS = {}
DIGESTS = {}


def content(offset, length):
    """Yields `length` bytes of the body from `offset`, in pieces of about 1 MiB."""
    while length > 0:
        start = offset % 251
        piece = PATTERN[start:start + min(length, len(PATTERN) - 251)]
        yield piece
        offset += len(piece)
        length -= len(piece)


def digest(size):
    with LOG_LOCK:
        if size in DIGESTS:
            return DIGESTS[size]
    sha = hashlib.sha256()
    for piece in content(0, size):
        sha.update(piece)
    with LOG_LOCK:
        DIGESTS[size] = sha.hexdigest()
    return DIGESTS[size]


def number(query, name, default):
    return int(query.get(name, [str(default)])[0])


def handle(handler, path, query):
    """Answers `path`; returns False when it is not a route of this module."""
    if path == "/stream/download":
        download(handler, query)
    elif path == "/stream/download-log":
        with LOG_LOCK:
            handler.send_json(200, DOWNLOADS.get(query.get("name", [""])[0], []))
    elif path == "/stream/sse":
        events(handler, query)
    elif path == "/stream/sse-log":
        with LOG_LOCK:
            handler.send_json(200, EVENTS.get(query.get("name", [""])[0], []))
    elif path == "/stream/jsonl":
        json_lines(handler, query)
    else:
        return False
    return True


def download(handler, query):
    size = number(query, "size", 1024)
    etag = '"%s"' % query.get("etag", ["v1"])[0]
    if query.get("weak", ["0"])[0] == "1":
        etag = "W/" + etag
    requested = handler.headers.get("Range")
    if_range = handler.headers.get("If-Range")
    with LOG_LOCK:
        DOWNLOADS.setdefault(query.get("name", [""])[0], []).append({"range": requested, "if_range": if_range})
    start = 0
    if requested and requested.startswith("bytes=") and requested.endswith("-") and if_range == etag:
        start = int(requested[len("bytes="):-1])
    handler.send_response(206 if start else 200)
    handler.send_header("Content-Type", "application/octet-stream")
    handler.send_header("Content-Length", str(size - start))
    handler.send_header("ETag", etag)
    handler.send_header("Last-Modified", "Tue, 24 Nov 2026 05:00:00 GMT")
    handler.send_header("Accept-Ranges", "bytes")
    handler.send_header("X-Content-SHA256", digest(size))
    if start:
        handler.send_header("Content-Range", "bytes %d-%d/%d" % (start, size - 1, size))
    handler.end_headers()
    drop = number(query, "drop", -1) if not requested else -1
    stall = number(query, "stall", -1) if not requested else -1
    sent = 0
    try:
        for piece in content(start, size - start):
            for cut in (drop, stall):
                if sent <= cut < sent + len(piece):
                    handler.wfile.write(piece[:cut - sent])
                    handler.wfile.flush()
                    if cut == stall:
                        time.sleep(30)
                    handler.close_connection = True
                    return
            handler.wfile.write(piece)
            sent += len(piece)
    except OSError:  # the client went away
        handler.close_connection = True


def events(handler, query):
    last = handler.headers.get("Last-Event-ID")
    with LOG_LOCK:
        EVENTS.setdefault(query.get("name", [""])[0], []).append(last or "")
    first = int(last) + 1 if last and last.isdigit() else 1
    total = number(query, "total", 1000000)
    if first > total:
        handler.send(204)
        return
    handler.close_connection = True
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.send_header("Connection", "close")
    handler.end_headers()
    interval = number(query, "ms", 200) / 1000
    last_sent = min(first + number(query, "count", 5) - 1, total)
    try:
        if "retry" in query:
            handler.wfile.write(b"retry: %d\n\n" % number(query, "retry", 1000))
        for index in range(first, last_sent + 1):
            if index > first:
                time.sleep(interval)
            handler.wfile.write(b": tick\nid: %d\nevent: tick\ndata: {\"n\": %d}\n\n" % (index, index))
            handler.wfile.flush()
    except OSError:
        pass


def json_lines(handler, query):
    handler.close_connection = True
    handler.send_response(200)
    handler.send_header("Content-Type", "application/jsonl")
    handler.send_header("Connection", "close")
    handler.end_headers()
    interval = number(query, "ms", 0) / 1000
    bad = number(query, "bad", 0)
    try:
        for index in range(1, number(query, "count", 10) + 1):
            if index > 1 and interval:
                time.sleep(interval)
            line = b'{"id": ' if index == bad else json.dumps({"id": index}).encode()
            handler.wfile.write(line + b"\n")
            handler.wfile.flush()
    except OSError:
        pass
