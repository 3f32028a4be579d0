"""A stand-in for the OWT conference portal and its REST API (PROTOCOLS.md section 6),
written from the OWT 5.x JavaScript SDK's side of the wire. The real portal (Intel's
owt-server) is discontinued and cannot run here; this mock is strict on purpose (an
unknown field, a missing one or a request out of order is answered with "error"), so a
client built against it follows the protocol, not the mock's leniency.

It keeps rooms and participants, checks tokens and reconnection tickets, answers every
request with an ack ("ok" | "error", data), pushes `progress`, `stream`, `participant`
and `text`, and hands media to aiortc: each publish or subscribe transport is an aiortc
peer connection; subscribers of a forward stream get the publisher's video and audio
relayed (aiortc decodes and re-encodes them at the published size); subscribers of the
room's mixed stream `<room>-common` get the first publisher's video scaled to the mixed
size (--mixed WxH), as an MCU's composition would be.

usage: owt_portal.py [--service-id ID] [--service-key KEY] [--mixed 320x180]
    Listens on 127.0.0.1 (a free port) for Socket.IO (Engine.IO v4 under python-socketio 5,
    v3 under python-socketio 4)
    and REST on the same port, and prints one JSON line: {"port": N, "token": T,
    "viewer_token": V}: reusable tokens for room "r1" as presenter and as viewer (REST
    tokens are single-use, like OWT's).
    Roles: "presenter" may publish and subscribe, "viewer" only subscribe.
    Test control: POST /test/drop closes every participant's connection without logging
    it out (each may relogin within 10 s with its ticket); it answers how many it dropped.
    POST /test/drop?forget=1 also forgets them at once, as a portal whose signaling restarted
    would (their media transports stay up): each relogin is refused ("Invalid reconnection
    ticket").
    GET /test/participants: {"all": [ids], "connected": [ids]} of the participants kept.
"""
import argparse
import asyncio
import base64
import hashlib
import hmac
import importlib.metadata
import itertools
import json
import socket
import sys
import time

import socketio
from aiohttp import web
from aiortc import RTCPeerConnection, RTCSessionDescription, RTCConfiguration
from aiortc.contrib.media import MediaRelay
from aiortc.mediastreams import MediaStreamTrack
from aiortc.sdp import candidate_from_sdp

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import aiortc_loopback  # noqa: E402

aiortc_loopback.install()

parser = argparse.ArgumentParser()
parser.add_argument("--service-id", default="svc")
parser.add_argument("--service-key", default="key")
parser.add_argument("--mixed", default="320x180")
args = parser.parse_args()
MIXED_W, MIXED_H = (int(x) for x in args.mixed.split("x"))
KEY = args.service_key.encode()
RELOGIN_GRACE_S = 10
TICKET_LIFETIME_MS = 600_000

SOCKETIO_4 = importlib.metadata.version("python-socketio").startswith("4.")
sio = socketio.AsyncServer(async_mode="aiohttp", cors_allowed_origins="*")
app = web.Application()
sio.attach(app)
relay = MediaRelay()
ids = itertools.count(1)
tokens = {}        # tokenId -> {room, user, role, reusable}
participants = {}  # participant id -> Participant
by_sid = {}        # socket sid -> participant id
rooms = {}         # room id -> {participant ids}
streams = {}       # stream id -> Stream
port = 0


def sign(text):
    return base64.b64encode(hmac.new(KEY, text.encode(), hashlib.sha256).hexdigest().encode()).decode()


def b64json(value):
    return base64.b64encode(json.dumps(value, separators=(",", ":")).encode()).decode()


def make_token(room, user, role, reusable=False):
    token_id = "tok%d" % next(ids)
    tokens[token_id] = {"room": room, "user": user, "role": role, "reusable": reusable}
    return b64json({"tokenId": token_id, "host": "127.0.0.1:%d" % port, "secure": False, "signature": sign(token_id)})


def make_ticket(participant):
    now = int(time.time() * 1000)
    body = {"participantId": participant.id, "ticketId": "tk%d" % next(ids), "notBefore": now, "notAfter": now + TICKET_LIFETIME_MS}
    body["signature"] = sign("%s,%s,%d" % (body["participantId"], body["ticketId"], body["notAfter"]))
    participant.ticket = body["ticketId"]
    return b64json(body)


class Refusal(Exception):
    pass


def strict(value, required, optional=()):
    """`value` must be an object with every key of `required` and no key outside both."""
    if not isinstance(value, dict):
        raise Refusal("expected an object, got %s" % json.dumps(value))
    for key in value:
        if key not in required and key not in optional:
            raise Refusal("unknown field %s" % key)
    for key in required:
        if key not in value:
            raise Refusal("missing field %s" % key)
    return value


class Participant:
    def __init__(self, pid, room, user, role):
        self.id, self.room, self.user, self.role = pid, room, user, role
        self.sid = None
        self.ticket = None
        self.transports = {}  # transport id -> Transport
        self.leave_task = None

    def info(self):
        return {"id": self.id, "role": self.role, "user": self.user}


class Stream:
    """A forward stream (a publication) or the room's mixed stream."""

    def __init__(self, sid, kind, room, owner=None, kinds=()):
        self.id, self.kind, self.room, self.owner = sid, kind, room, owner
        self.kinds = set(kinds)
        self.tracks = {}  # "audio"/"video" -> aiortc track (forward streams, once received)
        self.ready = kind == "mixed"  # a publication is announced once its transport is up

    def info(self):
        tracks = []
        for kind in sorted(self.kinds):
            track = {"type": kind, "format": {"codec": "opus" if kind == "audio" else "vp8"}}
            if kind == "video" and self.kind == "mixed":
                track["parameters"] = {"resolution": {"width": MIXED_W, "height": MIXED_H}}
            if self.kind == "forward":
                track["source"] = "mic" if kind == "audio" else "camera"
            tracks.append(track)
        info = {"owner": self.owner, "attributes": {}} if self.kind == "forward" else {"label": "common", "layout": []}
        return {"id": self.id, "type": self.kind, "media": {"tracks": tracks}, "info": info}


class Transport:
    def __init__(self, tid, owner, direction, session, tracks):
        self.id, self.owner, self.direction, self.session, self.tracks = tid, owner, direction, session, tracks
        self.pc = None


class MixedVideo(MediaStreamTrack):
    """The mixed view: the room's first published video, scaled to the mixed size."""
    kind = "video"

    def __init__(self, room):
        super().__init__()
        self.room = room
        self.source = None

    async def recv(self):
        while self.source is None:
            publisher = next((s for s in streams.values() if s.room == self.room and s.kind == "forward" and "video" in s.tracks), None)
            if publisher is None:
                await asyncio.sleep(0.05)
                continue
            self.source = relay.subscribe(publisher.tracks["video"])
        frame = await self.source.recv()
        scaled = frame.reformat(width=MIXED_W, height=MIXED_H)
        scaled.pts, scaled.time_base = frame.pts, frame.time_base
        return scaled


def room_members(room):
    return [participants[p] for p in rooms.get(room, ()) if p in participants]


async def emit_to(sid, event, data):
    """One event to one client. python-socketio 4 (Engine.IO 3, requirements-eio3.txt) hands
    asyncio.wait bare coroutines when it emits to a room, which Python 3.11 refuses, so
    there the event goes to the client's socket directly."""
    if SOCKETIO_4:
        await sio._emit_internal(sid, event, data, "/")
    else:
        await sio.emit(event, data, to=sid)


async def notify_room(room, event, data, skip=None):
    for member in room_members(room):
        if member.sid is not None and member.id != skip:
            await emit_to(member.sid, event, data)


def participant_of(sid):
    pid = by_sid.get(sid)
    if pid is None or pid not in participants:
        raise Refusal("not logged in")
    return participants[pid]


def one_argument(name, request):
    """The request's one argument; a request with more or fewer is refused."""
    if len(request) != 1:
        raise Refusal("%s takes one argument" % name)
    return request[0]


def answer(handler):
    """Turns a handler's result into the ack ("ok", data) and a Refusal into ("error", words)."""
    async def wrapped(sid, *request):
        try:
            result = await handler(sid, *request)
            return ("ok", result) if result is not None else "ok"
        except Refusal as refusal:
            return "error", str(refusal)
    wrapped.__name__ = handler.__name__
    return wrapped


@sio.on("login")
@answer
async def login(sid, *request):
    body = strict(one_argument("login", request), ("token", "userAgent", "protocol"))
    if body["protocol"] != "1.2":
        raise Refusal("unsupported protocol %s" % body["protocol"])
    if sid in by_sid:
        raise Refusal("already logged in")
    try:
        token = json.loads(base64.b64decode(body["token"], validate=True))
        strict(token, ("tokenId", "host", "secure", "signature"))
    except (ValueError, TypeError, Refusal):
        raise Refusal("Authentication failed: malformed token")
    grant = tokens.get(token["tokenId"])
    if grant is None or not hmac.compare_digest(token["signature"], sign(token["tokenId"])):
        raise Refusal("Authentication failed: invalid token")
    if not grant["reusable"]:
        del tokens[token["tokenId"]]
    participant = Participant("p%d" % next(ids), grant["room"], grant["user"], grant["role"])
    participants[participant.id] = participant
    participant.sid = sid
    by_sid[sid] = participant.id
    room = grant["room"]
    if room not in rooms:
        rooms[room] = set()
        streams[room + "-common"] = Stream(room + "-common", "mixed", room, kinds=("audio", "video"))
    rooms[room].add(participant.id)
    # The room as of the join, taken before the others are told: whoever joins while they
    # are being told is announced to this participant instead of listed.
    joined = {
        "id": participant.id, "user": participant.user, "role": participant.role,
        "permission": {"publish": participant.role == "presenter", "subscribe": True},
        "room": {
            "id": room, "views": ["common"],
            "streams": [s.info() for s in streams.values() if s.room == room and s.ready],
            "participants": [m.info() for m in room_members(room)],
        },
        "reconnectionTicket": make_ticket(participant),
    }
    await notify_room(room, "participant", {"action": "join", "data": participant.info()}, skip=participant.id)
    return joined


@sio.on("relogin")
@answer
async def relogin(sid, *request):
    if len(request) != 1 or not isinstance(request[0], str):
        raise Refusal("relogin takes the ticket")
    try:
        ticket = json.loads(base64.b64decode(request[0], validate=True))
        strict(ticket, ("participantId", "ticketId", "notBefore", "notAfter", "signature"))
    except (ValueError, TypeError, Refusal):
        raise Refusal("Invalid reconnection ticket")
    participant = participants.get(ticket["participantId"])
    expected = sign("%s,%s,%d" % (ticket["participantId"], ticket["ticketId"], ticket["notAfter"]))
    if participant is None or participant.ticket != ticket["ticketId"] or not hmac.compare_digest(expected, ticket["signature"]):
        raise Refusal("Invalid reconnection ticket")
    if ticket["notAfter"] < time.time() * 1000:
        raise Refusal("Expired reconnection ticket")
    if participant.sid is not None:
        raise Refusal("Participant is still connected")
    if participant.leave_task:
        participant.leave_task.cancel()
        participant.leave_task = None
    participant.sid = sid
    by_sid[sid] = participant.id
    return make_ticket(participant)


@sio.on("refreshReconnectionTicket")
@answer
async def refresh_ticket(sid, *request):
    if request:
        raise Refusal("refreshReconnectionTicket takes no argument")
    return make_ticket(participant_of(sid))


@sio.on("logout")
@answer
async def logout(sid, *request):
    if request:
        raise Refusal("logout takes no argument")
    participant = participant_of(sid)
    await leave(participant)
    return None


def check_transport(body, participant):
    transport = strict(body["transport"], ("type",), ("id",))
    if transport["type"] != "webrtc":
        raise Refusal("transport type %s is not supported" % transport["type"])
    if "id" in transport:
        raise Refusal("transport reuse is not supported by this portal")


def check_tracks(body, extra):
    media = strict(body["media"], ("tracks",))
    tracks = media["tracks"]
    if not isinstance(tracks, list) or not tracks:
        raise Refusal("media.tracks must be a non-empty list")
    kinds = set()
    for track in tracks:
        strict(track, ("type", "mid", extra), ("parameters",) if extra == "from" else ())
        if track["type"] not in ("audio", "video") or track["type"] in kinds:
            raise Refusal("bad or repeated track type %s" % track["type"])
        kinds.add(track["type"])
    return tracks


@sio.on("publish")
@answer
async def publish(sid, *request):
    participant = participant_of(sid)
    body = strict(one_argument("publish", request), ("media", "transport"), ("attributes",))
    if participant.role != "presenter":
        raise Refusal("Unauthorized: role %s may not publish" % participant.role)
    tracks = check_tracks(body, "source")
    check_transport(body, participant)
    transport = Transport("t%d" % next(ids), participant, "publish", "s%d" % next(ids), tracks)
    participant.transports[transport.id] = transport
    return {"transportId": transport.id, "id": transport.session}


@sio.on("subscribe")
@answer
async def subscribe(sid, *request):
    participant = participant_of(sid)
    body = strict(one_argument("subscribe", request), ("media", "transport"))
    tracks = check_tracks(body, "from")
    for track in tracks:
        stream = streams.get(track["from"])
        if stream is None or stream.room != participant.room or not stream.ready:
            raise Refusal("Stream %s does not exist" % track["from"])
        if track["type"] not in stream.kinds:
            raise Refusal("Stream %s has no %s" % (track["from"], track["type"]))
    check_transport(body, participant)
    transport = Transport("t%d" % next(ids), participant, "subscribe", "s%d" % next(ids), tracks)
    participant.transports[transport.id] = transport
    return {"transportId": transport.id, "id": transport.session}


async def progress(participant, data):
    if participant.sid is not None:
        await emit_to(participant.sid, "progress", data)


async def start_transport(transport, offer):
    pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
    transport.pc = pc
    participant = transport.owner
    if transport.direction == "publish":
        stream = Stream(transport.session, "forward", participant.room, owner=participant.id,
                        kinds=[t["type"] for t in transport.tracks])
        streams[stream.id] = stream

        @pc.on("track")
        def on_track(track):
            stream.tracks[track.kind] = track
    else:
        for track in transport.tracks:
            source = streams[track["from"]]
            if source.kind == "mixed":
                media = MixedVideo(source.room) if track["type"] == "video" else None
            else:
                media = relay.subscribe(source.tracks[track["type"]]) if track["type"] in source.tracks else None
            if media is not None:
                pc.addTrack(media)

    @pc.on("connectionstatechange")
    async def on_state():
        if pc.connectionState == "connected":
            await progress(participant, {"id": transport.id, "status": "ready", "sessionId": transport.session})
            if transport.direction == "publish":
                stream = streams[transport.session]
                stream.ready = True
                await notify_room(participant.room, "stream", {"id": stream.id, "status": "add", "data": stream.info()},
                                  skip=participant.id)
        elif pc.connectionState == "failed":
            await progress(participant, {"id": transport.id, "status": "error", "data": "ICE failed"})

    await pc.setRemoteDescription(RTCSessionDescription(sdp=offer, type="offer"))
    await pc.setLocalDescription(await pc.createAnswer())
    await progress(participant, {"id": transport.id, "status": "soac",
                                 "data": {"type": "answer", "sdp": pc.localDescription.sdp}})


@sio.on("soac")
@answer
async def soac(sid, *request):
    participant = participant_of(sid)
    body = strict(one_argument("soac", request), ("id", "signaling"))
    transport = participant.transports.get(body["id"])
    if transport is None:
        raise Refusal("Transport %s does not exist" % body["id"])
    signaling = body["signaling"]
    kind = signaling.get("type") if isinstance(signaling, dict) else None
    if kind == "offer":
        strict(signaling, ("type", "sdp"))
        if transport.pc is not None:
            raise Refusal("renegotiation is not supported by this portal")
        asyncio.ensure_future(start_transport(transport, signaling["sdp"]))
    elif kind == "candidate":
        strict(signaling, ("type", "candidate"))
        candidate = strict(signaling["candidate"], ("candidate", "sdpMid", "sdpMLineIndex"))
        if transport.pc is None:
            raise Refusal("candidate before offer")
        text = candidate["candidate"]
        if not text.startswith("a=candidate:"):
            raise Refusal("candidate must be an a=candidate: line")
        parsed = candidate_from_sdp(text[len("a=candidate:"):])
        parsed.sdpMid, parsed.sdpMLineIndex = candidate["sdpMid"], candidate["sdpMLineIndex"]
        await transport.pc.addIceCandidate(parsed)
    elif kind == "removed-candidates":
        strict(signaling, ("type", "candidates"))
    else:
        raise Refusal("unknown signaling type %s" % kind)
    return None


async def end_session(participant, session_id, direction):
    transport = next((t for t in participant.transports.values() if t.session == session_id and t.direction == direction), None)
    if transport is None:
        raise Refusal("%s %s does not exist" % ("Publication" if direction == "publish" else "Subscription", session_id))
    del participant.transports[transport.id]
    if transport.pc is not None:
        await transport.pc.close()
    if direction == "publish" and streams.pop(session_id, None) is not None:
        await notify_room(participant.room, "stream", {"id": session_id, "status": "remove"}, skip=participant.id)


@sio.on("unpublish")
@answer
async def unpublish(sid, *request):
    participant = participant_of(sid)
    await end_session(participant, strict(one_argument("unpublish", request), ("id",))["id"], "publish")
    return None


@sio.on("unsubscribe")
@answer
async def unsubscribe(sid, *request):
    participant = participant_of(sid)
    await end_session(participant, strict(one_argument("unsubscribe", request), ("id",))["id"], "subscribe")
    return None


@sio.on("text")
@answer
async def text(sid, *request):
    participant = participant_of(sid)
    body = strict(one_argument("text", request), ("to", "message"))
    message = {"from": participant.id, "to": body["to"], "message": body["message"]}
    if body["to"] == "all":
        await notify_room(participant.room, "text", message, skip=participant.id)
    else:
        target = participants.get(body["to"])
        if target is None or target.room != participant.room:
            raise Refusal("Participant %s does not exist" % body["to"])
        if target.sid is not None:
            await emit_to(target.sid, "text", message)
    return None


async def leave(participant):
    for transport in list(participant.transports.values()):
        await end_session(participant, transport.session, transport.direction)
    participants.pop(participant.id, None)
    rooms.get(participant.room, set()).discard(participant.id)
    if participant.sid is not None:
        by_sid.pop(participant.sid, None)
    await notify_room(participant.room, "participant", {"action": "leave", "data": participant.id})


async def leave_later(participant):
    await asyncio.sleep(RELOGIN_GRACE_S)
    participant.leave_task = None
    if participant.sid is None:
        await leave(participant)


@sio.event
async def disconnect(sid):
    pid = by_sid.pop(sid, None)
    participant = participants.get(pid)
    if participant is not None and participant.sid == sid:
        participant.sid = None
        participant.leave_task = asyncio.ensure_future(leave_later(participant))


def parse_mauth(header):
    if not header.startswith("MAuth "):
        return None
    return dict(part.split("=", 1) for part in header[len("MAuth "):].split(",") if "=" in part)


async def create_token(request):
    fields = parse_mauth(request.headers.get("Authorization", ""))
    if fields is None or fields.get("mauth_signature_method") != "HMAC_SHA256":
        return web.Response(status=401, text="Missing or malformed MAuth header")
    if fields.get("mauth_serviceid") != args.service_id:
        return web.Response(status=401, text="Unknown service")
    signed = "%s,%s" % (fields.get("mauth_timestamp"), fields.get("mauth_cnonce"))
    if "mauth_username" in fields:
        signed += ",%s,%s" % (fields["mauth_username"], fields.get("mauth_role"))
    if not hmac.compare_digest(fields.get("mauth_signature", ""), sign(signed)):
        return web.Response(status=401, text="Invalid signature")
    try:
        body = strict(await request.json(), ("user", "role"), ("preference",))
    except (ValueError, Refusal) as error:
        return web.Response(status=400, text=str(error))
    if body["role"] not in ("presenter", "viewer"):
        return web.Response(status=400, text="Unknown role %s" % body["role"])
    return web.Response(text=make_token(request.match_info["room"], body["user"], body["role"]))


async def drop(request):
    connected = [p.sid for p in participants.values() if p.sid is not None]
    for sid in connected:
        await sio.disconnect(sid)
    if request.query.get("forget") == "1":
        for participant in list(participants.values()):
            if participant.leave_task:
                participant.leave_task.cancel()
            participants.pop(participant.id)
            rooms.get(participant.room, set()).discard(participant.id)
    return web.Response(text=str(len(connected)))


app.router.add_post("/v1/rooms/{room}/tokens", create_token)
async def participant_list(request):
    return web.json_response({"all": sorted(participants), "connected": sorted(p.id for p in participants.values() if p.sid)})


app.router.add_post("/test/drop", drop)
app.router.add_get("/test/participants", participant_list)


async def main():
    global port
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    runner = web.AppRunner(app)
    await runner.setup()
    await web.SockSite(runner, listener).start()
    print(json.dumps({"port": port, "token": make_token("r1", "guest", "presenter", reusable=True),
                      "viewer_token": make_token("r1", "watcher", "viewer", reusable=True)}), flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
