package main

import (
	"sync"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v3"
)

// trackStats is what the server read from the bitstream of one received track: packets,
// frames (distinct RTP timestamps, newest first), keyframes, the sizes keyframes carried
// and how many frames were at each size (a frame counts at the size last announced when
// its last packet, or the next frame, arrives).
type trackStats struct {
	Kind               string         `json:"kind"`
	MimeType           string         `json:"mime_type"`
	SSRC               uint32         `json:"ssrc"`
	Packets            int            `json:"packets"`
	Frames             int            `json:"frames"`
	Keyframes          int            `json:"keyframes"`
	Resolutions        []string       `json:"resolutions"`
	FramesByResolution map[string]int `json:"frames_by_resolution"`
}

// frameCounter turns one track's packets into trackStats.
type frameCounter struct {
	mu          sync.Mutex
	stats       trackStats
	started     bool
	timestamp   uint32
	attributed  bool
	keyCounted  bool
	currentSize string
}

func newFrameCounter(remote *webrtc.TrackRemote) *frameCounter {
	return &frameCounter{stats: trackStats{
		Kind: remote.Kind().String(), MimeType: remote.Codec().MimeType, SSRC: uint32(remote.SSRC()),
		Resolutions: []string{}, FramesByResolution: map[string]int{},
	}}
}

// add counts one packet. A packet of an older frame (a late retransmission) adds to the
// packet count only.
func (c *frameCounter) add(packet *rtp.Packet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Packets++
	if c.started && int32(packet.Timestamp-c.timestamp) < 0 {
		return
	}
	if !c.started || packet.Timestamp != c.timestamp {
		c.attribute()
		c.started, c.timestamp, c.attributed, c.keyCounted = true, packet.Timestamp, false, false
		c.stats.Frames++
	}
	if c.stats.Kind == "video" {
		keyframe, size := keyframeSize(c.stats.MimeType, packet.Payload)
		if keyframe && !c.keyCounted {
			c.keyCounted = true
			c.stats.Keyframes++
		}
		if size != "" && size != c.currentSize {
			c.currentSize = size
			c.stats.Resolutions = append(c.stats.Resolutions, size)
		}
	}
	if packet.Marker {
		c.attribute()
	}
}

// attribute counts the current frame at the current size, once.
func (c *frameCounter) attribute() {
	if c.started && !c.attributed {
		c.attributed = true
		c.stats.FramesByResolution[c.sizeName()]++
	}
}

func (c *frameCounter) sizeName() string {
	if c.stats.Kind != "video" {
		return "audio"
	}
	if c.currentSize == "" {
		return "unknown"
	}
	return c.currentSize
}

func (c *frameCounter) snapshot() trackStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	copied := c.stats
	copied.Resolutions = append([]string{}, c.stats.Resolutions...)
	copied.FramesByResolution = map[string]int{}
	for size, frames := range c.stats.FramesByResolution {
		copied.FramesByResolution[size] = frames
	}
	return copied
}

// rtpWriter takes forwarded packets: a TrackLocalStaticRTP, or a fanOut to players.
type rtpWriter interface {
	WriteRTP(packet *rtp.Packet) error
}

// relay counts every packet of remote and writes it to local (nil: count only) until the
// track ends; the receiver's RTCP is read and dropped meanwhile, as Pion requires for its
// interceptors (NACK generation, reports) to run.
func relay(remote *webrtc.TrackRemote, receiver *webrtc.RTPReceiver, counter *frameCounter, local rtpWriter) {
	go func() {
		for {
			if _, _, err := receiver.ReadRTCP(); err != nil {
				return
			}
		}
	}()
	for {
		packet, _, err := remote.ReadRTP()
		if err != nil {
			return
		}
		counter.add(packet)
		if local != nil {
			local.WriteRTP(packet)
		}
	}
}
