package main

import "fmt"

// keyframeSize reads one RTP payload of a video codec: whether it starts a keyframe and,
// when it carries the size, "WIDTHxHEIGHT" from the bitstream itself (an H.264 SPS, a
// VP8 keyframe header). Malformed payloads give (false, "").
func keyframeSize(mimeType string, payload []byte) (keyframe bool, size string) {
	switch mimeType {
	case "video/H264":
		return h264KeyframeSize(payload)
	case "video/VP8":
		return vp8KeyframeSize(payload)
	}
	return false, ""
}

// vp8KeyframeSize reads the VP8 payload descriptor (RFC 7741 4.2) and, at the start of
// a partition 0 that is a keyframe, the frame header (RFC 6386 9.1): the 3-byte frame tag
// with P = 0, the start code 9d 01 2a, then 14-bit width and height, little-endian.
func vp8KeyframeSize(payload []byte) (bool, string) {
	if len(payload) < 1 {
		return false, ""
	}
	start := payload[0]&0x10 != 0
	partition := payload[0] & 0x07
	offset := 1
	if payload[0]&0x80 != 0 { // X: extension byte with I, L, T, K
		if len(payload) < 2 {
			return false, ""
		}
		extension := payload[1]
		offset = 2
		if extension&0x80 != 0 { // I: picture ID, 7 or 15 bits
			if len(payload) <= offset {
				return false, ""
			}
			if payload[offset]&0x80 != 0 {
				offset += 2
			} else {
				offset++
			}
		}
		if extension&0x40 != 0 { // L: TL0PICIDX
			offset++
		}
		if extension&0x30 != 0 { // T or K: TID/Y/KEYIDX
			offset++
		}
	}
	if !start || partition != 0 || len(payload) < offset+10 {
		return false, ""
	}
	header := payload[offset:]
	if header[0]&0x01 != 0 || header[3] != 0x9d || header[4] != 0x01 || header[5] != 0x2a {
		return false, ""
	}
	width := int(header[6]) | int(header[7]&0x3f)<<8
	height := int(header[8]) | int(header[9]&0x3f)<<8
	return true, fmt.Sprintf("%dx%d", width, height)
}

// h264KeyframeSize walks the NAL units of one RTP payload (RFC 6184 5.6-5.8: single NAL,
// STAP-A, the first fragment of an FU-A): an IDR slice (type 5) or an SPS (type 7) marks
// a keyframe, and an SPS gives the size.
func h264KeyframeSize(payload []byte) (bool, string) {
	if len(payload) < 1 {
		return false, ""
	}
	var units [][]byte
	switch payload[0] & 0x1f {
	case 24: // STAP-A: 16-bit sizes, then the units
		for rest := payload[1:]; len(rest) >= 2; {
			length := int(rest[0])<<8 | int(rest[1])
			if len(rest) < 2+length {
				break
			}
			units = append(units, rest[2:2+length])
			rest = rest[2+length:]
		}
	case 28: // FU-A: only its first fragment names the unit's type
		if len(payload) < 2 || payload[1]&0x80 == 0 {
			return false, ""
		}
		units = append(units, []byte{payload[0]&0xe0 | payload[1]&0x1f})
	default:
		units = append(units, payload)
	}
	keyframe, size := false, ""
	for _, unit := range units {
		if len(unit) == 0 {
			continue
		}
		switch unit[0] & 0x1f {
		case 5:
			keyframe = true
		case 7:
			keyframe = true
			if width, height, ok := parseSPS(unit[1:]); ok {
				size = fmt.Sprintf("%dx%d", width, height)
			}
		}
	}
	return keyframe, size
}
