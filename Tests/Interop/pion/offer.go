package main

import (
	"strconv"
	"strings"

	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v3"
)

// sendingSections counts the offer's media sections that send (sendrecv or sendonly).
func sendingSections(offer string) int {
	parsed := sdp.SessionDescription{}
	if parsed.Unmarshal([]byte(offer)) != nil {
		return 0
	}
	count := 0
	for _, media := range parsed.MediaDescriptions {
		if _, recvonly := media.Attribute("recvonly"); recvonly {
			continue
		}
		if _, inactive := media.Attribute("inactive"); !inactive && media.MediaName.Media != "application" {
			count++
		}
	}
	return count
}

// fidGroups maps each primary SSRC of the offer to its RTX SSRC
// (`a=ssrc-group:FID <primary> <rtx>`, RFC 5576 4.2 and RFC 4588 8.1).
func fidGroups(offer string) map[uint32]uint32 {
	groups := map[uint32]uint32{}
	for _, line := range strings.Split(offer, "\n") {
		fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "a=ssrc-group:FID"))
		if !strings.HasPrefix(strings.TrimSpace(line), "a=ssrc-group:FID") || len(fields) != 2 {
			continue
		}
		primary, err1 := strconv.ParseUint(fields[0], 10, 32)
		rtx, err2 := strconv.ParseUint(fields[1], 10, 32)
		if err1 == nil && err2 == nil {
			groups[uint32(primary)] = uint32(rtx)
		}
	}
	return groups
}

// offeredCodecs is, per media section of the offer, the first codec the server can
// echo (H.264, VP8, VP9, Opus) with its fmtp line, so that the echo's local track binds
// to the codec the offerer sends.
func offeredCodecs(offer string) []webrtc.RTPCodecCapability {
	parsed := sdp.SessionDescription{}
	if parsed.Unmarshal([]byte(offer)) != nil {
		return nil
	}
	var codecs []webrtc.RTPCodecCapability
	for _, media := range parsed.MediaDescriptions {
		if codec, ok := firstEchoable(&parsed, media); ok {
			codecs = append(codecs, codec)
		}
	}
	return codecs
}

// firstEchoable is the first format of one media section that is H.264, VP8, VP9 or Opus.
func firstEchoable(parsed *sdp.SessionDescription, media *sdp.MediaDescription) (webrtc.RTPCodecCapability, bool) {
	kind := media.MediaName.Media
	for _, format := range media.MediaName.Formats {
		payloadType, err := strconv.ParseUint(format, 10, 8)
		if err != nil {
			continue
		}
		codec, err := parsed.GetCodecForPayloadType(uint8(payloadType))
		if err != nil {
			continue
		}
		switch strings.ToLower(codec.Name) {
		case "h264", "vp8", "vp9", "opus":
			channels := uint16(0)
			if kind == "audio" {
				channels, _ = parseChannels(codec.EncodingParameters)
			}
			return webrtc.RTPCodecCapability{
				MimeType: kind + "/" + codec.Name, ClockRate: codec.ClockRate, Channels: channels, SDPFmtpLine: codec.Fmtp,
			}, true
		}
	}
	return webrtc.RTPCodecCapability{}, false
}

func parseChannels(text string) (uint16, error) {
	if text == "" {
		return 1, nil
	}
	value, err := strconv.ParseUint(text, 10, 16)
	return uint16(value), err
}
