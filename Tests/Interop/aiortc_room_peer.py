"""aiortc as one side of a call through a room-protocol Socket.IO server (PROTOCOLS.md
section 3): joins ROOM, and plays the call with aiortc_peer.py run as a child, its
stdin/stdout lines bridged to room messages (aiortc_bridge.py). Told OTHER_JOINED it
offers; given an offer it answers; the other side's bye (or leave) becomes the child's bye.

usage: aiortc_room_peer.py URL ROOM [--other-joined EVENT] [--delay S] [aiortc_peer.py options but --role]

stdout: {"type": "joined", "role": null} once in the room, then the child's summary with
"role" set, as the last line. Logs go to stderr.
"""
import argparse
import asyncio
import sys

import socketio

from aiortc_bridge import ChildPeer, emit


async def run(args, peer_args):
    sio = socketio.AsyncClient()
    peer = ChildPeer(peer_args, lambda data: sio.emit("message", (args.room, data)))

    @sio.on("joined")
    async def joined(room, member):
        if room == args.room:
            emit({"type": "joined", "role": None})

    @sio.on(args.other_joined)
    async def other_joined(room, member):
        if room == args.room and not peer.started:
            await peer.start("offerer")

    @sio.on("message")
    async def message(room, data):
        if room == args.room:
            await peer.receive(data)

    @sio.on("bye")
    async def bye(room, member):
        if room == args.room:
            await peer.hang_up()

    await asyncio.sleep(args.delay)
    await sio.connect(args.url, transports=["websocket"])
    await sio.emit("join", args.room)
    summary = await peer.wait(args.wait)
    await sio.emit("leave", args.room)
    await sio.disconnect()
    emit(summary)
    return 0 if summary.get("error") is None else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("room")
    parser.add_argument("--other-joined", default="other_joined")
    parser.add_argument("--delay", type=float, default=0, help="seconds to wait before joining")
    parser.add_argument("--wait", type=float, default=60, help="seconds to wait for the call's summary")
    args, peer_args = parser.parse_known_args()
    sys.exit(asyncio.run(run(args, peer_args)))


if __name__ == "__main__":
    main()
