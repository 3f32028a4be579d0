"""aiortc's SCTP and data channels (RTCSctpTransport) against rtcswarm's, with the DTLS
layer replaced by plain UDP on 127.0.0.1: each datagram is one SCTP packet, as DTLS would
hand it over (RFC 8261). This checks the SCTP wire format, the handshake (both sides send
INIT, RFC 8841 9.3), DCEP and message framing against an independent stack.

usage: aiortc_sctp_peer.py --role client|server --port REMOTE_PORT [--open LABEL] [--timeout S]

Protocol (stdout; logs go to stderr):
  out {"type": "ready", "port": P}            aiortc's UDP port on 127.0.0.1
  out {"type": "open", "id": I, "label": L}   a channel opened (by either side)
  in  {"type": "bye"}                         report and exit
  out {"type": "summary", ...}                channels, messages received and echoed, and for
                                              --open the sizes sent and whether each echo
                                              came back byte for byte

aiortc echoes every message it receives on a channel rtcswarm opened. With --open it opens
LABEL itself and sends binary messages of 1 B, 1 KB, 16 KB and 64 KB plus a string.
"""
import argparse
import asyncio
import json
import sys
import time

from aiortc.rtcdatachannel import RTCDataChannel, RTCDataChannelParameters
from aiortc.rtcsctptransport import RTCSctpCapabilities, RTCSctpTransport

START = time.monotonic()
SIZES = [1, 1024, 16384, 65536]


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def pattern(size):
    return bytes((index * 31 + size) & 0xFF for index in range(size))


class UdpDtlsStandIn(asyncio.DatagramProtocol):
    """What RTCSctpTransport uses of an RTCDtlsTransport: its state and role, a receiver
    to hand packets to, and _send_data."""

    def __init__(self, role, remote):
        self.state = "connected"
        self._role = role
        self.remote = remote
        self.receiver = None
        self.udp = None

    def connection_made(self, transport):
        self.udp = transport

    def datagram_received(self, data, addr):
        if self.receiver is not None:
            asyncio.ensure_future(self.receiver._handle_data(data))

    def _register_data_receiver(self, receiver):
        self.receiver = receiver

    def _unregister_data_receiver(self, receiver):
        self.receiver = None

    async def _send_data(self, data):
        self.udp.sendto(data, self.remote)


async def main(args):
    loop = asyncio.get_running_loop()
    stand_in = UdpDtlsStandIn(args.role, ("127.0.0.1", args.port))
    udp, _ = await loop.create_datagram_endpoint(lambda: stand_in, local_addr=("127.0.0.1", 0))
    emit({"type": "ready", "port": udp.get_extra_info("sockname")[1]})
    sctp = RTCSctpTransport(stand_in)
    received = {"count": 0, "echoed": 0}
    opened = []
    echoes = []

    def announce(channel):
        opened.append({"id": channel.id, "label": channel.label, "ordered": channel.ordered})
        emit({"type": "open", "id": channel.id, "label": channel.label, "ms": round((time.monotonic() - START) * 1000, 1)})

    @sctp.on("datachannel")
    def on_datachannel(channel):
        announce(channel)

        @channel.on("message")
        def on_message(message):
            received["count"] += 1
            channel.send(message)
            received["echoed"] += 1

    await sctp.start(RTCSctpCapabilities(maxMessageSize=262144), 5000)
    if args.open:
        channel = RTCDataChannel(sctp, RTCDataChannelParameters(label=args.open))

        @channel.on("open")
        def on_open():
            announce(channel)
            for size in SIZES:
                channel.send(pattern(size))
            channel.send("text from aiortc")

        @channel.on("message")
        def on_echo(message):
            echoes.append(message)

    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        while True:
            line = await asyncio.wait_for(reader.readline(), timeout=args.timeout)
            if not line or json.loads(line).get("type") == "bye":
                break
    except asyncio.TimeoutError:
        pass
    expected = [pattern(size) for size in SIZES] + ["text from aiortc"] if args.open else []
    emit({"type": "summary", "opened": opened, "received": received["count"], "echoed": received["echoed"],
          "echoSizes": [len(echo) for echo in echoes], "echoesMatch": echoes == expected,
          "associationState": str(sctp._association_state)})
    await sctp.stop()
    udp.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--role", choices=["client", "server"], required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--open")
    parser.add_argument("--timeout", type=float, default=20)
    asyncio.run(main(parser.parse_args()))
