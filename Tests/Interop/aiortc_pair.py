"""Two aiortc_peer.py processes calling each other over pipes: the offerer's offer goes to
the answerer's stdin, the answer back. Prints one JSON line {"offerer": summary,
"answerer": summary}; exits 0 when both peers report no error.

usage: aiortc_pair.py [aiortc_peer.py options other than --role], e.g.
       aiortc_pair.py --video h264 --frames 60 --width 640 --height 480
"""
import asyncio
import json
import os
import sys

PEER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "aiortc_peer.py")


async def start(role, options):
    return await asyncio.create_subprocess_exec(sys.executable, PEER, "--role", role, *options,
                                                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)


async def next_message(peer, kinds):
    """The next stdout line of one of `kinds`; the summary, if the peer ends early."""
    while True:
        line = await peer.stdout.readline()
        if not line:
            return {"type": "summary", "error": "exited without a summary"}
        message = json.loads(line)
        if message["type"] in kinds or message["type"] == "summary":
            return message


def send(peer, message):
    peer.stdin.write((json.dumps(message) + "\n").encode())


async def main(options):
    offerer = await start("offerer", options)
    answerer = await start("answerer", options)
    offer = await next_message(offerer, ["offer"])
    send(answerer, offer)
    answer = await next_message(answerer, ["answer"])
    send(offerer, answer)
    summaries = await asyncio.gather(next_message(offerer, []), next_message(answerer, []))
    await asyncio.gather(offerer.wait(), answerer.wait())
    print(json.dumps({"offerer": summaries[0], "answerer": summaries[1]}))
    return 0 if all(s.get("error") is None for s in summaries) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
