"""Counts the pixels of a PNG screenshot that are close to a colour, with the standard
library only (zlib), so a test can check that charts were really drawn.

usage: png_colors.py FILE R G B [TOLERANCE]   -> prints "<matching> <total>"
"""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    offset, idat, width, height, color_type = 8, b"", 0, 0, 0
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color_type = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color_type in (2, 6), "only 8-bit RGB(A) screenshots"
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    channels = 4 if color_type == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    position = 0
    for _ in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(line)
        previous = line
    return rows, width, height, channels


def main():
    path, r, g, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    tolerance = int(sys.argv[5]) if len(sys.argv) > 5 else 12
    rows, width, height, channels = pixels(path)
    matching = 0
    for line in rows:
        for x in range(width):
            p = x * channels
            if abs(line[p] - r) <= tolerance and abs(line[p + 1] - g) <= tolerance and abs(line[p + 2] - b) <= tolerance:
                matching += 1
    print(matching, width * height)


main()
