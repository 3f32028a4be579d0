"""A room server written with python-socketio that follows the seed room protocol
(PROTOCOLS.md section 3) the way the widely copied public server does: capacity 2, no
membership checks, nothing announced when a socket drops. It is the independent
reference for rtcswarm's room client.

usage: room_server.py OTHER_JOINED_EVENT   (listens on 127.0.0.1, a free port, printed first)
"""
import asyncio
import socket
import sys

import socketio
from aiohttp import web

OTHER_JOINED = sys.argv[1] if len(sys.argv) > 1 else "other_joined"
CAPACITY = 2

sio = socketio.AsyncServer(async_mode="aiohttp", cors_allowed_origins="*")
app = web.Application()
sio.attach(app)


def members(room):
    return list(sio.manager.get_participants("/", room))


@sio.on("join")
async def join(sid, room):
    present = members(room)
    if len(present) >= CAPACITY:
        await sio.emit("full", (room, sid), to=sid)
        return
    await sio.enter_room(sid, room)
    await sio.emit("joined", (room, sid), to=sid)
    if present:
        await sio.emit(OTHER_JOINED, (room, sid), room=room, skip_sid=sid)


@sio.on("leave")
async def leave(sid, room):
    await sio.emit("bye", (room, sid), room=room, skip_sid=sid)
    await sio.leave_room(sid, room)
    await sio.emit("leaved", (room, sid), to=sid)


@sio.on("message")
async def message(sid, room, data):
    await sio.emit("message", (room, data), room=room, skip_sid=sid)


async def main():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    runner = web.AppRunner(app)
    await runner.setup()
    await web.SockSite(runner, listener).start()
    print(listener.getsockname()[1], flush=True)
    await asyncio.Event().wait()


asyncio.run(main())
