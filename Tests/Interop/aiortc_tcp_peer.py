"""aiortc as the callee of a tcp-p2p call (rtcswarm's `target.kind: "tcp-p2p"`): connects
to HOST:PORT, where rtcswarm's caller listens, and plays the call with aiortc_peer.py run
as a child (aiortc_bridge.py). The socket carries one JSON object per line, the P2P
messages of PROTOCOLS.md section 3 (offer, answer, candidate, bye); the caller offers.

usage: aiortc_tcp_peer.py HOST PORT [--wait S] [aiortc_peer.py options but --role]

stdout: {"type": "connected"} once the socket is up, then the child's summary as the
last line. Logs go to stderr.
"""
import argparse
import asyncio
import json
import sys

from aiortc_bridge import ChildPeer, emit


async def connect(host, port, seconds):
    """Retries while nobody listens yet (rtcswarm may not have started its caller)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            return await asyncio.open_connection(host, port)
        except OSError:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.1)


async def run(args, peer_args):
    reader, writer = await connect(args.host, args.port, args.wait)
    emit({"type": "connected"})

    async def send(data):
        writer.write((json.dumps(data) + "\n").encode())
        await writer.drain()

    peer = ChildPeer(peer_args, send)

    async def read_lines():
        async for line in reader:
            if line.strip():
                await peer.receive(json.loads(line))
        await peer.hang_up()  # rtcswarm closed the socket: the call is over

    asyncio.ensure_future(read_lines())
    summary = await peer.wait(args.wait)
    writer.close()
    emit(summary)
    return 0 if summary.get("error") is None else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--wait", type=float, default=60, help="seconds to wait for the connection and the call's summary")
    args, peer_args = parser.parse_known_args()
    sys.exit(asyncio.run(run(args, peer_args)))


if __name__ == "__main__":
    main()
