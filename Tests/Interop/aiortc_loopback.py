"""What aiortc_peer.py changes in aiortc and draws into its frames.

- install(): ICE host candidates are 127.0.0.1 only (aioice skips 127.0.0.1 and offers
  every other interface otherwise), and a video frame goes to the decoder as soon as its
  marker-bit packet completes it (aiortc waits for the first packet of the next frame,
  so the last frame of a stream would never be decoded).
- pattern_frame(index, w, h): a moving gradient with `index` drawn as a barcode in the
  top rows; read_barcode(frame) reads it back from a decoded frame (None if absent).
"""
import aioice.ice
import aiortc.rtcrtpreceiver
import av
from aiortc.jitterbuffer import JitterBuffer, JitterFrame

LOOPBACK = "127.0.0.1"
SYNC = 0b10110010  # 8 bits that mark a barcode, then 16 bits of frame number
BITS = 24
BLACK, WHITE = 16, 235


def loopback_host_addresses(use_ipv4, use_ipv6):
    return [LOOPBACK] if use_ipv4 else []


class MarkerJitterBuffer(JitterBuffer):
    """aiortc's jitter buffer, plus: a video frame is complete at its marker bit
    (RFC 7741 4.1, RFC 6184 5.1: set on the last packet of a frame)."""

    def add(self, packet):
        pli, frame = super().add(packet)
        if frame is None and self._is_video and packet.marker:
            frame = self._frame_ending_at_marker()
        return pli, frame

    def _frame_ending_at_marker(self):
        timestamp = None
        for count in range(self._capacity):
            packet = self._packets[(self._origin + count) % self._capacity]
            if packet is None or (timestamp is not None and packet.timestamp != timestamp):
                return None
            timestamp = packet.timestamp
            if packet.marker:
                packets = [self._packets[(self._origin + i) % self._capacity] for i in range(count + 1)]
                self.remove(count + 1)
                return JitterFrame(data=b"".join(p._data for p in packets), timestamp=timestamp)
        return None


def install():
    aioice.ice.get_host_addresses = loopback_host_addresses
    aiortc.rtcrtpreceiver.JitterBuffer = MarkerJitterBuffer


def band_rows(height):
    return 16 if height >= 64 else height // 4


def pattern_frame(index, width, height):
    frame = av.VideoFrame(width, height, "yuv420p")
    luma = frame.planes[0]
    stride = luma.line_size
    pad = bytes(stride - width)
    word = (SYNC << 16) | (index & 0xFFFF)
    block = width // BITS
    bar = bytearray([BLACK]) * width
    for bit in range(BITS):
        if word >> (BITS - 1 - bit) & 1:
            bar[bit * block:(bit + 1) * block] = bytes([WHITE]) * block
    shift = (index * 4) % 256
    ramp = bytes((x + shift) % 256 for x in range(width))
    rows = band_rows(height)
    luma.update((bytes(bar) + pad) * rows + (ramp + pad) * (height - rows))
    for plane in frame.planes[1:]:
        plane.update(bytes([128]) * (plane.line_size * plane.height))
    return frame


def read_barcode(frame):
    if frame.format.name != "yuv420p":
        frame = frame.reformat(format="yuv420p")
    luma = frame.planes[0]
    rows = band_rows(frame.height)
    block = frame.width // BITS
    if rows == 0 or block == 0:
        return None
    row = memoryview(luma)[(rows // 2) * luma.line_size:][:frame.width]
    word = 0
    for bit in range(BITS):
        word = (word << 1) | (1 if row[bit * block + block // 2] > 128 else 0)
    if word >> 16 != SYNC:
        return None
    return word & 0xFFFF
