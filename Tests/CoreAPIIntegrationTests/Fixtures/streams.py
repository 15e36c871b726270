"""Routes of the loopback fixture for bodies read as they arrive: downloads with ranges, server-sent
events and JSON Lines. fixture_server.py hands every path under /stream/ to handle().

/stream/download?size=&etag=&weak=&noetag=&lm=&gzip=&shift=&drop=&stall=&name=
    `size` bytes, byte i being i % 251, with Content-Length, ETag ("etag", weak with weak=1, none with
    noetag=1), Last-Modified (two days old, or two seconds after the response's Date with lm=recent),
    Accept-Ranges: bytes and X-Content-SHA256 (of the whole decoded body). Honours `Range: bytes=N-` with
    `If-Range`: a 206 from N when If-Range names the current ETag (or, without one, the Last-Modified),
    else the whole body with 200; a 416 with `Content-Range: bytes */size` when N >= size. With gzip=1
    the body is gzip-coded whatever Accept-Encoding says (ranges then count coded bytes); with shift=K
    a 206 starts K bytes after the offset asked for. The first request under `name` closes the
    connection after `drop` bytes, or stops sending for 30 s after `stall` bytes. Each request's Range,
    If-Range, Accept-Encoding and arrival time are logged under `name`.
/stream/download-log?name=
    The logged requests, as JSON: [{"range": ..., "if_range": ..., "accept_encoding": ..., "at": s}, ...].
/stream/sse?name=&count=&total=&ms=&retry=&type=
    text/event-stream (or `type`): after a Last-Event-ID of n (0 without one), events n+1 ... n+count (at most
    `total`), one every `ms` milliseconds, each `id: k`, `event: tick` and data {"n": k}; then the
    connection closes. With a Last-Event-ID of `total` or more, 204. `retry` is sent first when given.
    The Last-Event-ID of each request is logged under `name` ("" for none).
/stream/sse-log?name=
    The logged Last-Event-IDs, as JSON.
/stream/jsonl?count=&bad=&ms=
    application/jsonl: `count` lines {"id": i}, i from 1, one every `ms` milliseconds; line `bad`, if
    given, is not JSON.
"""

import gzip
import hashlib
import json
import threading
import time

PATTERN = bytes(i % 251 for i in range(251 * 4096))  # about 1 MiB, a whole number of periods
LOG_LOCK = threading.Lock()
DOWNLOADS = {}
EVENTS = {}
DIGESTS = {}
CODED = {}


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


def coded(size):
    """The whole body of `size` bytes, gzip-coded (deterministically)."""
    with LOG_LOCK:
        if size not in CODED:
            CODED[size] = gzip.compress(b"".join(content(0, size)), mtime=0)
        return CODED[size]


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
    etag = None if query.get("noetag", ["0"])[0] == "1" else '"%s"' % query.get("etag", ["v1"])[0]
    if etag and query.get("weak", ["0"])[0] == "1":
        etag = "W/" + etag
    recent = query.get("lm", [""])[0] == "recent"
    # Recent: two seconds ahead of the Date the response is sent with, whichever second it falls in.
    last_modified = handler.date_time_string(time.time() + 2) if recent else "Tue, 24 Nov 2026 05:00:00 GMT"
    is_coded = query.get("gzip", ["0"])[0] == "1"
    requested = handler.headers.get("Range")
    if_range = handler.headers.get("If-Range")
    encodings = handler.headers.get_all("Accept-Encoding") or []
    with LOG_LOCK:
        log = DOWNLOADS.setdefault(query.get("name", [""])[0], [])
        first = not log
        log.append({
            "range": requested, "if_range": if_range,
            "accept_encoding": ", ".join(encodings) if encodings else None, "at": time.monotonic(),
        })
    body = coded(size) if is_coded else None
    length = len(body) if is_coded else size
    start = 0
    if requested and requested.startswith("bytes=") and requested.endswith("-") and if_range == (etag or last_modified):
        start = int(requested[len("bytes="):-1])
    if start >= length:
        handler.send_response(416)
        handler.send_header("Content-Range", "bytes */%d" % length)
        handler.send_header("Content-Length", "0")
        handler.send_header("X-Content-SHA256", digest(size))
        handler.end_headers()
        return
    start += number(query, "shift", 0) if start else 0
    handler.send_response(206 if start else 200)
    handler.send_header("Content-Type", "application/octet-stream")
    handler.send_header("Content-Length", str(length - start))
    if is_coded:
        handler.send_header("Content-Encoding", "gzip")
    if etag:
        handler.send_header("ETag", etag)
    handler.send_header("Last-Modified", last_modified)
    handler.send_header("Accept-Ranges", "bytes")
    handler.send_header("X-Content-SHA256", digest(size))
    if start:
        handler.send_header("Content-Range", "bytes %d-%d/%d" % (start, length - 1, length))
    handler.end_headers()
    drop = number(query, "drop", -1) if first else -1
    stall = number(query, "stall", -1) if first else -1
    sent = 0
    try:
        pieces = [body[start:]] if is_coded else content(start, size - start)
        for piece in pieces:
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
    handler.send_header("Content-Type", query.get("type", ["text/event-stream"])[0])
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
