"""A small FastAPI service for the generator's end-to-end test.

Run as `python3 items_app.py` it listens on a free loopback port and prints `port <n>` on its first line;
with `--exit-with-stdin` it also exits as soon as its standard input closes, so it never outlives the test
process that started it; `python3 items_app.py --document` prints the OpenAPI document it serves at
/openapi.json.
"""

import json
import os
import socket
import sys
import threading
from enum import Enum
from typing import Optional

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel

app = FastAPI(title="Items Service", version="1.2.0", servers=[{"url": "http://127.0.0.1:8000"}])


class Kind(str, Enum):
    tool = "tool"
    part = "part"


class Problem(BaseModel):
    code: str
    message: str


class ItemCreate(BaseModel):
    name: str
    kind: Kind
    price: float
    note: Optional[str] = None
    tags: list[str] = []


class Item(ItemCreate):
    id: int


ERRORS = {404: {"model": Problem}, 422: {"model": Problem}}
items: dict[int, Item] = {}


@app.exception_handler(HTTPException)
async def http_error(request: Request, error: HTTPException):
    return JSONResponse(status_code=error.status_code, content={"code": "http", "message": str(error.detail)})


@app.exception_handler(RequestValidationError)
async def validation_error(request: Request, error: RequestValidationError):
    return JSONResponse(status_code=422, content={"code": "invalid", "message": "the request is not valid"})


@app.get("/items", operation_id="listItems", summary="Lists items.", response_model=list[Item], responses=ERRORS)
def list_items(limit: Optional[int] = None, tag: list[str] = Query(default=[])):
    found = [item for item in items.values() if all(t in item.tags for t in tag)]
    return found[:limit] if limit is not None else found


@app.post("/items", operation_id="createItem", status_code=201, response_model=Item, responses=ERRORS)
def create_item(body: ItemCreate):
    item = Item(id=len(items) + 1, **body.model_dump())
    items[item.id] = item
    return item


@app.get("/items/{item_id}", operation_id="getItem", response_model=Item, responses=ERRORS)
def get_item(item_id: int):
    if item_id not in items:
        raise HTTPException(status_code=404, detail=f"no item {item_id}")
    return items[item_id]


@app.put("/items/{item_id}", operation_id="replaceItem", response_model=Item, responses=ERRORS)
def replace_item(item_id: int, body: ItemCreate):
    if item_id not in items:
        raise HTTPException(status_code=404, detail=f"no item {item_id}")
    items[item_id] = Item(id=item_id, **body.model_dump())
    return items[item_id]


@app.delete("/items/{item_id}", operation_id="deleteItem", status_code=204, responses=ERRORS)
def delete_item(item_id: int):
    if items.pop(item_id, None) is None:
        raise HTTPException(status_code=404, detail=f"no item {item_id}")
    return Response(status_code=204)


@app.get("/items/{item_id}/label", operation_id="getLabel", response_class=PlainTextResponse, responses=ERRORS)
def get_label(item_id: int):
    if item_id not in items:
        raise HTTPException(status_code=404, detail=f"no item {item_id}")
    return f"{items[item_id].name} ({items[item_id].kind.value})"


@app.get("/echo", operation_id="echoHeader", response_model=dict[str, str], responses=ERRORS)
def echo_header(x_trace: str = Header()):
    return {"trace": x_trace}


def main():
    if "--document" in sys.argv:
        print(json.dumps(app.openapi(), indent=2, sort_keys=True))
        return
    import uvicorn

    if "--exit-with-stdin" in sys.argv:

        def exit_when_stdin_closes():
            sys.stdin.buffer.read()
            os._exit(0)  # at once: a graceful shutdown would wait for idle keep-alive connections

        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)  # connections wait in the backlog until the server accepts them
    print(f"port {sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
