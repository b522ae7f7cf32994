"""A browser tab without a browser: Streamlit's own websocket protocol, as a tab speaks it. Connect to
/_stcore/stream (subprotocol "streamlit", an Origin of the server's own address), send one BackMsg whose
rerun_script holds the page and its query string, and wait for script_finished."""
from __future__ import annotations

import asyncio
import time


async def open_view(url: str, page: str, query: str, timeout_s: float = 120, cookie: str | None = None,
                    connected=lambda ws: None) -> float:
    """One tab: connect, ask for the page, wait until its script has finished; seconds taken. `cookie` is sent
    with the connection (a balancer's), and `connected(ws)` sees the connection first (its response headers)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.asyncio.client import connect

    start = time.perf_counter()
    stream = url.replace("http://", "ws://") + "/_stcore/stream"
    headers = {"Origin": url, **({"Cookie": cookie} if cookie else {})}
    async with connect(stream, subprotocols=["streamlit"], additional_headers=headers,
                       max_size=None, open_timeout=timeout_s) as ws:
        connected(ws)
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_name = page
        await ws.send(msg.SerializeToString())
        async with asyncio.timeout(timeout_s):
            while True:
                forward = ForwardMsg()
                forward.ParseFromString(await ws.recv())
                if forward.WhichOneof("type") == "delta" and forward.delta.new_element.WhichOneof("type") == "exception":
                    raise RuntimeError(forward.delta.new_element.exception.message)
                if forward.WhichOneof("type") == "script_finished":
                    return time.perf_counter() - start


async def press_next(url: str, page: str, query: str, together: asyncio.Barrier, timeout_s: float = 120) -> float:
    """One tab on a lecture link of the Layers page: open it, wait until every tab has, then press the stepper's
    ▶ (the next sub-step) as the browser does (a rerun of the stepper's fragment with the button's trigger);
    seconds from the press to that rerun's end."""
    return await press_button(url, page, query, together, "next_Sub-step", timeout_s)


async def press_button(url: str, page: str, query: str, together: asyncio.Barrier, button: str,
                       timeout_s: float = 120) -> float:
    """One tab: open the view, wait until every tab has, then press the button whose key ends with `button` (a
    choice of the lecture's question: "choice_1") as the browser does: the button's trigger in a rerun of its
    fragment where it is in one, else of the page; seconds from the press to that rerun's end."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.asyncio.client import connect

    async def until_finished(ws, seen) -> None:
        async with asyncio.timeout(timeout_s):
            while True:
                forward = ForwardMsg()
                forward.ParseFromString(await ws.recv())
                kind = forward.WhichOneof("type")
                if kind == "script_finished":
                    return
                seen(forward, kind)

    found = {}

    def seen(forward, kind) -> None:
        if kind == "new_session":
            found["page"] = forward.new_session.page_script_hash
        element = forward.delta.new_element if kind == "delta" else None
        if element is not None and element.WhichOneof("type") == "button" and element.button.id.endswith(button):
            found["button"], found["fragment"] = element.button.id, forward.delta.fragment_id

    async with connect(url.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"],
                       additional_headers={"Origin": url}, max_size=None, open_timeout=timeout_s) as ws:
        msg = BackMsg()
        msg.rerun_script.query_string, msg.rerun_script.page_name = query, page
        await ws.send(msg.SerializeToString())
        await until_finished(ws, seen)
        await together.wait()
        if "button" not in found:
            raise RuntimeError(f"the view has no button {button!r}")
        start = time.perf_counter()
        press = BackMsg()
        press.rerun_script.query_string, press.rerun_script.page_script_hash = query, found["page"]
        if found["fragment"]:
            press.rerun_script.fragment_id = found["fragment"]
        press.rerun_script.widget_states.widgets.add(id=found["button"], trigger_value=True)
        await ws.send(press.SerializeToString())
        await until_finished(ws, lambda forward, kind: None)
        return time.perf_counter() - start
