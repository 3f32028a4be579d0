"""aiortc_peer.py as the offerer of a Janus EchoTest call (HTTP API, long polling): the
tooling check for Janus on loopback. Prints one JSON line {"janus": version,
"answer_candidates": [...], "summary": aiortc summary}; exits 0 when the call had no error.

usage: janus_echo.py http://127.0.0.1:PORT/janus [aiortc_peer.py options other than --role]
"""
import json
import os
import subprocess
import sys
import urllib.request

PEER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "aiortc_peer.py")


class Janus:
    def __init__(self, base):
        self.base = base
        self.transactions = 0

    def request(self, path, body=None):
        data = None
        if body is not None:
            self.transactions += 1
            data = json.dumps({**body, "transaction": str(self.transactions)}).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            message = json.load(reply)
        if message.get("janus") == "error":
            raise SystemExit(f"janus error: {message}")
        return message


def main(base, options):
    janus = Janus(base)
    version = janus.request("/info").get("version_string")
    session = janus.request("", {"janus": "create"})["data"]["id"]
    handle = janus.request(f"/{session}", {"janus": "attach", "plugin": "janus.plugin.echotest"})["data"]["id"]
    peer = subprocess.Popen([sys.executable, PEER, "--role", "offerer", *options],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    offer = json.loads(peer.stdout.readline())
    codec = options[options.index("--video") + 1] if "--video" in options else "vp8"
    janus.request(f"/{session}/{handle}", {"janus": "message", "body": {"audio": True, "video": True, "videocodec": codec},
                                           "jsep": {"type": "offer", "sdp": offer["sdp"]}})
    answer = None
    while answer is None:
        event = janus.request(f"/{session}?maxev=1")
        answer = event.get("jsep")
    peer.stdin.write(json.dumps({"type": "answer", "sdp": answer["sdp"]}) + "\n")
    peer.stdin.flush()
    summary = {"type": "summary", "error": "aiortc_peer.py exited without a summary"}
    for line in peer.stdout:
        message = json.loads(line)
        if message["type"] == "summary":
            summary = message
    peer.wait()
    janus.request(f"/{session}", {"janus": "destroy"})
    candidates = [line[2:] for line in answer["sdp"].split("\r\n") if line.startswith("a=candidate:")]
    print(json.dumps({"janus": version, "answer_candidates": candidates, "summary": summary}))
    return 0 if summary.get("error") is None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
