"""aiortc_peer.py run as a child whose stdin/stdout JSON lines are bridged to some
signaling (a room server, a TCP socket): the shared half of aiortc_room_peer.py and
aiortc_tcp_peer.py. The P2P messages are PROTOCOLS.md section 3's `data` objects:
{type: offer|answer, sdp}, {type: candidate, label, id, candidate}, {type: bye}.
"""
import asyncio
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class ChildPeer:
    """One aiortc peer; `send` is how its offer or answer reaches the other side."""

    def __init__(self, peer_args, send):
        self.peer_args = peer_args
        self.send = send
        self.child = None
        self.finished = asyncio.Event()
        self.summary = {"type": "summary", "error": "no call: nobody offered or joined"}

    @property
    def started(self):
        return self.child is not None

    async def start(self, role):
        self.child = await asyncio.create_subprocess_exec(
            sys.executable, os.path.join(HERE, "aiortc_peer.py"), "--role", role, *self.peer_args,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        asyncio.ensure_future(self._from_child())

    async def _to_child(self, message):
        self.child.stdin.write((json.dumps(message) + "\n").encode())
        await self.child.stdin.drain()

    async def _from_child(self):
        async for line in self.child.stdout:
            message = json.loads(line)
            if message.get("type") in ("offer", "answer"):
                await self.send({"type": message["type"], "sdp": message["sdp"]})
            elif message.get("type") == "summary":
                self.summary.clear()
                self.summary.update(message)
        self.finished.set()

    async def receive(self, data):
        """A P2P message from the other side: an offer starts the child as answerer."""
        if not isinstance(data, dict):
            return
        kind = data.get("type")
        if kind == "offer" and not self.started:
            await self.start("answerer")
            await self._to_child(data)
        elif kind == "answer" and self.started:
            await self._to_child(data)
        elif kind == "candidate" and self.started:
            await self._to_child({"type": "candidate", "candidate": data.get("candidate"),
                                  "sdpMid": data.get("id"), "sdpMLineIndex": data.get("label")})
        elif kind == "bye":
            await self.hang_up()

    async def hang_up(self):
        if self.started:
            await self._to_child({"type": "bye"})

    async def wait(self, seconds):
        """The child's summary, or why there is none, within `seconds`."""
        try:
            await asyncio.wait_for(self.finished.wait(), seconds)
        except asyncio.TimeoutError:
            self.summary["error"] = f"no summary within {seconds} s"
        return self.summary
