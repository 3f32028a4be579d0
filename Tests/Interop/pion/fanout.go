package main

import (
	"sync"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v3"
)

// fanOut forwards one published track to every WHEP player of it, each on a track of its
// own (as SFUs give each subscriber its own down track), so that each player's stream
// starts at the live point: its first packet is the first packet forwarded after the
// player's track was bound that is not late (a publisher's resend that the SFU forwards
// after newer packets), and nothing older than that first packet follows. With one
// TrackLocalStaticRTP for all players, a late resend could be a new player's first packet,
// 100 ms older than the next; the player then counted the packets in between, which were
// never sent to it, as lost and NACKed them in vain (residual loss in PionRunTests that no
// resend could repair). SFUs likewise start each subscriber at a point and send nothing
// before it (LiveKit and mediasoup rewrite sequence numbers per subscriber from there).
type fanOut struct {
	capability   webrtc.RTPCodecCapability
	id, streamID string

	mu sync.Mutex
	// newest is the highest sequence number forwarded (RFC 3550 A.1 arithmetic modulo 2^16).
	newest  uint16
	started bool
	players []*playerTrack
}

func newFanOut(remote *webrtc.TrackRemote) *fanOut {
	return &fanOut{capability: remote.Codec().RTPCodecCapability, id: remote.ID(), streamID: remote.StreamID()}
}

// newPlayerTrack is a track for one more player, to add to its peer connection.
func (f *fanOut) newPlayerTrack() (*playerTrack, error) {
	local, err := webrtc.NewTrackLocalStaticRTP(f.capability, f.id, f.streamID)
	if err != nil {
		return nil, err
	}
	player := &playerTrack{TrackLocalStaticRTP: local}
	f.mu.Lock()
	f.players = append(f.players, player)
	f.mu.Unlock()
	return player, nil
}

// WriteRTP forwards one packet of the published track to each player that takes it.
func (f *fanOut) WriteRTP(packet *rtp.Packet) error {
	f.mu.Lock()
	late := f.started && int16(packet.SequenceNumber-f.newest) < 0
	if !late {
		f.started, f.newest = true, packet.SequenceNumber
	}
	players := append([]*playerTrack(nil), f.players...)
	f.mu.Unlock()
	for _, player := range players {
		if player.takes(packet.SequenceNumber, late) {
			_ = player.WriteRTP(packet)
		}
	}
	return nil
}

// playerTrack is one player's track of a published track: a TrackLocalStaticRTP that
// knows whether Pion has bound it to the player's connection, and where its stream began.
type playerTrack struct {
	*webrtc.TrackLocalStaticRTP

	mu      sync.Mutex
	bound   bool
	started bool
	first   uint16
}

// Bind implements webrtc.TrackLocal: packets go to the player from now on.
func (p *playerTrack) Bind(context webrtc.TrackLocalContext) (webrtc.RTPCodecParameters, error) {
	codec, err := p.TrackLocalStaticRTP.Bind(context)
	if err == nil {
		p.mu.Lock()
		p.bound = true
		p.mu.Unlock()
	}
	return codec, err
}

// Unbind implements webrtc.TrackLocal: the player is gone.
func (p *playerTrack) Unbind(context webrtc.TrackLocalContext) error {
	p.mu.Lock()
	p.bound = false
	p.mu.Unlock()
	return p.TrackLocalStaticRTP.Unbind(context)
}

// takes says whether packet `sequence` goes to the player: once bound, from the first
// packet that is not late, and then nothing older than that.
func (p *playerTrack) takes(sequence uint16, late bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case !p.bound:
		return false
	case !p.started:
		if late {
			return false
		}
		p.started, p.first = true, sequence
		return true
	default:
		return int16(sequence-p.first) >= 0
	}
}
