"""An independent WebRTC peer (aiortc) for rtcswarm's interop tests, driven over
stdin/stdout with one JSON object per line. Everything stays on 127.0.0.1.

usage: aiortc_peer.py --role offerer|answerer [--video vp8|h264|none] [--audio opus|none]
                      [--frames N] [--width W] [--height H] [--fps F]
                      [--expect-frames K] [--timeout S] [--linger S]
                      [--turn HOST:PORT --turn-user U --turn-password P]
                      [--data-channel LABEL]

Protocol (stdout carries only these lines; logs go to stderr):
  out {"type": "offer"|"answer", "sdp": "..."}   the local description, all candidates in it
  in  {"type": "answer"|"offer", "sdp": "..."}   the remote description (answer for an
                                                 offerer, offer for an answerer)
  in  {"type": "candidate", "candidate": "candidate:...", "sdpMid": "0", "sdpMLineIndex": 0}
                                                 a trickled remote candidate ("candidate": ""
                                                 or null: end of candidates); optional
  out {"type": "state", "state": "connecting"|"connected"|"failed"|..., "ms": T}
                                                 connection state changes, T ms after start
  in  {"type": "bye"}                            stop now and report
  out {"type": "summary", ...}                   last line; the process then exits (0 if no error)

The peer sends N video frames (a moving gradient at WxH with the frame number drawn as a
barcode in the top rows) at F fps and Opus audio for as long, receives whatever the
remote sends, and ends when it has sent everything and decoded K video frames (or at
the timeout), after lingering S seconds so the remote can finish too.
"""
import argparse
import asyncio
import fractions
import json
import math
import struct
import sys
import time

import av
from aiortc import (MediaStreamTrack, RTCConfiguration, RTCIceServer, RTCPeerConnection,
                    RTCRtpReceiver, RTCSessionDescription)
from aiortc.mediastreams import MediaStreamError
from aiortc.rtcconfiguration import RTCIceTransportPolicy
from aiortc.sdp import candidate_from_sdp

import aiortc_loopback

START = time.monotonic()
VIDEO_CLOCK = 90000
AUDIO_RATE = 48000
AUDIO_SAMPLES = 960  # 20 ms


def elapsed_ms():
    return round((time.monotonic() - START) * 1000, 1)


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text):
    print(f"aiortc_peer {elapsed_ms()} ms: {text}", file=sys.stderr, flush=True)


class Counter:
    """What the peer sent and decoded."""

    def __init__(self):
        self.video_sent = 0
        self.audio_sent = 0
        self.video_decoded = 0
        self.audio_decoded = 0
        self.resolutions = {}
        self.indices = []
        self.first_frame_ms = None
        self.video_send_done = asyncio.Event()
        self.audio_send_done = asyncio.Event()
        self.received_enough = asyncio.Event()


class PatternTrack(MediaStreamTrack):
    """N frames of a moving gradient, the frame number drawn as a barcode (aiortc_loopback)."""

    kind = "video"

    def __init__(self, counter, frames, width, height, fps):
        super().__init__()
        self.counter, self.frames, self.width, self.height, self.fps = counter, frames, width, height, fps
        self.started = None

    async def recv(self):
        index = self.counter.video_sent
        if index >= self.frames:
            self.counter.video_send_done.set()
            raise MediaStreamError
        if self.started is None:
            self.started = time.monotonic()
        await asyncio.sleep(max(0.0, self.started + index / self.fps - time.monotonic()))
        frame = aiortc_loopback.pattern_frame(index, self.width, self.height)
        frame.pts = round(index * VIDEO_CLOCK / self.fps)
        frame.time_base = fractions.Fraction(1, VIDEO_CLOCK)
        self.counter.video_sent += 1
        return frame


class ToneTrack(MediaStreamTrack):
    """A 1 kHz tone in 20 ms frames, `count` of them."""

    kind = "audio"

    def __init__(self, counter, count):
        super().__init__()
        self.counter, self.count = counter, count
        self.started = None
        samples = [int(8000 * math.sin(2 * math.pi * 1000 * n / AUDIO_RATE)) for n in range(AUDIO_SAMPLES)]
        self.pcm = struct.pack(f"<{AUDIO_SAMPLES}h", *samples)

    async def recv(self):
        index = self.counter.audio_sent
        if index >= self.count:
            self.counter.audio_send_done.set()
            raise MediaStreamError
        if self.started is None:
            self.started = time.monotonic()
        await asyncio.sleep(max(0.0, self.started + index * AUDIO_SAMPLES / AUDIO_RATE - time.monotonic()))
        frame = av.AudioFrame(format="s16", layout="mono", samples=AUDIO_SAMPLES)
        frame.planes[0].update(self.pcm)
        frame.sample_rate = AUDIO_RATE
        frame.pts = index * AUDIO_SAMPLES
        frame.time_base = fractions.Fraction(1, AUDIO_RATE)
        self.counter.audio_sent += 1
        return frame


async def consume(track, counter, expect_frames):
    """Decodes what the remote sends on `track` until it ends."""
    while True:
        try:
            frame = await track.recv()
        except MediaStreamError:
            return
        if track.kind == "audio":
            counter.audio_decoded += 1
            continue
        counter.video_decoded += 1
        if counter.first_frame_ms is None:
            counter.first_frame_ms = elapsed_ms()
        size = f"{frame.width}x{frame.height}"
        counter.resolutions[size] = counter.resolutions.get(size, 0) + 1
        index = aiortc_loopback.read_barcode(frame)
        if index is not None:
            counter.indices.append(index)
        if expect_frames and counter.video_decoded >= expect_frames:
            counter.received_enough.set()


def restrict_codecs(transceiver, kind, name):
    """Offers or answers only `name` (plus its RTX) for `kind`."""
    capabilities = RTCRtpReceiver.getCapabilities(kind).codecs
    chosen = [c for c in capabilities if c.mimeType.lower() == f"{kind}/{name}"]
    if not chosen:
        raise SystemExit(f"aiortc has no {kind} codec {name}")
    rtx = [c for c in capabilities if c.mimeType.lower() == f"{kind}/rtx"]
    transceiver.setCodecPreferences(chosen + rtx)


async def read_line(reader):
    """The next JSON object on stdin (blank lines skipped), or None at its end."""
    while True:
        line = await reader.readline()
        if not line:
            return None
        if line.strip():
            return json.loads(line)


async def stdin_reader():
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader


def configuration(args):
    if not args.turn:
        return RTCConfiguration(iceServers=[])
    server = RTCIceServer(urls=f"turn:{args.turn}?transport=udp", username=args.turn_user, credential=args.turn_password)
    return RTCConfiguration(iceServers=[server], iceTransportPolicy=RTCIceTransportPolicy.RELAY)


async def run(args):
    counter = Counter()
    pc = RTCPeerConnection(configuration(args))
    states = []
    timings = {}
    failed = asyncio.Event()
    consumers = []

    @pc.on("connectionstatechange")
    def on_state():
        states.append(pc.connectionState)
        emit({"type": "state", "state": pc.connectionState, "ms": elapsed_ms()})
        if pc.connectionState == "connected":
            timings.setdefault("connected", elapsed_ms())
        elif pc.connectionState in ("failed", "closed"):
            failed.set()

    @pc.on("track")
    def on_track(track):
        consumers.append(asyncio.ensure_future(consume(track, counter, args.expect_frames)))

    # A channel the other side opens: every message goes back on it, and is counted.
    channels = {}

    @pc.on("datachannel")
    def on_datachannel(channel):
        counts = channels.setdefault(channel.label, {"received": 0, "sent": 0, "bytes_received": 0})

        @channel.on("message")
        def on_message(message):
            counts["received"] += 1
            counts["bytes_received"] += len(message)
            channel.send(message)
            counts["sent"] += 1

    audio_frames = math.ceil(args.frames / args.fps * AUDIO_RATE / AUDIO_SAMPLES) if args.audio != "none" else 0
    tracks = {}
    if args.video != "none":
        tracks["video"] = PatternTrack(counter, args.frames, args.width, args.height, args.fps)
    else:
        counter.video_send_done.set()
    if args.audio != "none":
        tracks["audio"] = ToneTrack(counter, audio_frames)
    else:
        counter.audio_send_done.set()
    if not args.expect_frames:
        counter.received_enough.set()
    codecs = {"video": args.video, "audio": args.audio}

    reader = await stdin_reader()
    error = None
    try:
        if args.role == "offerer":
            for kind in ("audio", "video"):
                if kind in tracks:
                    restrict_codecs(pc.addTransceiver(tracks[kind], direction="sendrecv"), kind, codecs[kind])
            if args.data_channel:
                pc.createDataChannel(args.data_channel)
            await pc.setLocalDescription(await pc.createOffer())
            emit({"type": "offer", "sdp": pc.localDescription.sdp})
            await apply_remote(pc, reader, "answer")
            timings["remote"] = elapsed_ms()
        else:
            await apply_remote(pc, reader, "offer")
            timings["remote"] = elapsed_ms()
            for transceiver in pc.getTransceivers():
                kind = transceiver.kind
                if kind in tracks:
                    transceiver.sender.replaceTrack(tracks[kind])
                    transceiver.direction = "sendrecv"
                    restrict_codecs(transceiver, kind, codecs[kind])
            await pc.setLocalDescription(await pc.createAnswer())
            emit({"type": "answer", "sdp": pc.localDescription.sdp})
        skip_unnegotiated(pc, counter)
        inputs = asyncio.ensure_future(follow_input(pc, reader))
        done = asyncio.ensure_future(asyncio.gather(counter.video_send_done.wait(), counter.audio_send_done.wait(),
                                                    counter.received_enough.wait()))
        stop = asyncio.ensure_future(failed.wait())
        finished, _ = await asyncio.wait([done, inputs, stop], timeout=args.timeout, return_when=asyncio.FIRST_COMPLETED)
        if stop in finished:
            error = f"connection {pc.connectionState}"
        elif inputs in finished and inputs.exception() is not None:
            error = f"bad input: {type(inputs.exception()).__name__}: {inputs.exception()}"
        elif not finished:
            error = f"timed out after {args.timeout} s"
        elif done in finished:
            await asyncio.sleep(args.linger)
        for task in (done, inputs, stop):
            task.cancel()
    except Exception as exc:  # reported in the summary: the driver decides
        error = f"{type(exc).__name__}: {exc}"
    summary = await report(pc, args, counter, states, timings, error, audio_frames)
    summary["data_channels"] = channels
    await pc.close()
    for task in consumers:
        task.cancel()
    emit(summary)
    return 0 if error is None else 1


def skip_unnegotiated(pc, counter):
    """Nothing to wait for where the negotiation says no sending or no receiving (a
    sendonly or recvonly remote, a rejected m-line)."""
    sending, receiving = set(), set()
    for transceiver in pc.getTransceivers():
        direction = transceiver.currentDirection or "inactive"
        if direction in ("sendrecv", "sendonly"):
            sending.add(transceiver.kind)
        if direction in ("sendrecv", "recvonly"):
            receiving.add(transceiver.kind)
    for kind, event in (("video", counter.video_send_done), ("audio", counter.audio_send_done)):
        if kind not in sending:
            event.set()
    if "video" not in receiving:
        counter.received_enough.set()
    log(f"sending {sorted(sending)}, receiving {sorted(receiving)}")


async def apply_remote(pc, reader, expected):
    while True:
        message = await read_line(reader)
        if message is None:
            raise RuntimeError(f"stdin closed before the {expected}")
        if message.get("type") == expected:
            await pc.setRemoteDescription(RTCSessionDescription(sdp=message["sdp"], type=expected))
            return
        if message.get("type") == "bye":
            raise RuntimeError(f"bye before the {expected}")
        log(f"ignored before the {expected}: {message.get('type')}")


async def follow_input(pc, reader):
    """Trickled candidates until bye (returns) or end of input (waits on)."""
    while True:
        message = await read_line(reader)
        if message is None:
            await asyncio.Future()
        kind = message.get("type")
        if kind == "bye":
            return
        if kind == "candidate":
            text = message.get("candidate") or ""
            if not text:
                await pc.addIceCandidate(None)
                continue
            candidate = candidate_from_sdp(text.removeprefix("a=").removeprefix("candidate:"))
            candidate.sdpMid = message.get("sdpMid")
            candidate.sdpMLineIndex = message.get("sdpMLineIndex")
            await pc.addIceCandidate(candidate)
        else:
            log(f"ignored: {kind}")


async def report(pc, args, counter, states, timings, error, audio_frames):
    stats = {}
    try:
        for item in (await pc.getStats()).values():
            if item.type == "inbound-rtp":
                entry = stats.setdefault(f"inbound-{item.kind}", {"packets": 0, "lost": 0, "jitter": 0})
                entry["packets"] += item.packetsReceived
                entry["lost"] += item.packetsLost
                entry["jitter"] = max(entry["jitter"], item.jitter)
            elif item.type == "outbound-rtp":
                entry = stats.setdefault(f"outbound-{item.kind}", {"packets": 0, "bytes": 0})
                entry["packets"] += item.packetsSent
                entry["bytes"] += item.bytesSent
    except Exception as exc:
        log(f"getStats failed: {exc}")
    negotiated = {}
    for transceiver in pc.getTransceivers():
        codecs = getattr(transceiver, "_codecs", None) or []
        if codecs:
            negotiated[transceiver.kind] = codecs[0].mimeType
    remote_candidates = []
    for transceiver in pc.getTransceivers():
        for candidate in transceiver.receiver.transport.transport.getRemoteCandidates():
            text = f"{candidate.ip} {candidate.port} {candidate.type}"
            if text not in remote_candidates:
                remote_candidates.append(text)
    indices = counter.indices
    return {
        "type": "summary",
        "role": args.role,
        "error": error,
        "states": states,
        "remote_description_ms": timings.get("remote"),
        "connected_ms": timings.get("connected"),
        "first_frame_ms": counter.first_frame_ms,
        "codecs": negotiated,
        "remote_candidates": remote_candidates,
        "video_frames_sent": counter.video_sent,
        "audio_frames_sent": counter.audio_sent,
        "audio_frames_planned": audio_frames,
        "video_frames_decoded": counter.video_decoded,
        "video_resolutions": counter.resolutions,
        "video_frames_tagged": len(indices),
        "video_tags_in_order": indices == sorted(set(indices)),
        "video_tag_first": indices[0] if indices else None,
        "video_tag_last": indices[-1] if indices else None,
        "audio_frames_decoded": counter.audio_decoded,
        "audio_packets_received": stats.get("inbound-audio", {}).get("packets", 0),
        "video_packets_received": stats.get("inbound-video", {}).get("packets", 0),
        "rtp": stats,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--role", choices=["offerer", "answerer"], required=True)
    parser.add_argument("--video", choices=["vp8", "h264", "none"], default="vp8")
    parser.add_argument("--audio", choices=["opus", "none"], default="opus")
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    parser.add_argument("--fps", type=float, default=30)
    parser.add_argument("--expect-frames", type=int, default=None,
                        help="video frames to decode before ending (default: --frames; 0: do not wait)")
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--linger", type=float, default=0.5)
    parser.add_argument("--turn", help="HOST:PORT of a TURN server: relay-only ICE through it")
    parser.add_argument("--turn-user", default="test")
    parser.add_argument("--turn-password", default="test")
    parser.add_argument("--data-channel", help="as offerer, also open a data channel with this label "
                        "(an m=application section in the offer's BUNDLE)")
    args = parser.parse_args()
    if args.expect_frames is None:
        args.expect_frames = args.frames if args.video != "none" else 0
    aiortc_loopback.install()
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
