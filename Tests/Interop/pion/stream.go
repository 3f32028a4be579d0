package main

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v3"
)

// stream is one WHIP publication: the publisher's tracks, each forwarded to every WHEP
// player of the stream on a track of the player's own (fanOut).
type stream struct {
	publisher *webrtc.PeerConnection
	// expected is how many tracks the publisher's offer sends.
	expected int
	// rtxOf maps a primary SSRC to its RTX SSRC (a=ssrc-group:FID, RFC 4588 8.1).
	rtxOf map[uint32]uint32

	mu       sync.Mutex
	tracks   []*forwardedTrack
	complete chan struct{}
}

// forwardedTrack is one published track and its fan-out.
type forwardedTrack struct {
	remote  *webrtc.TrackRemote
	players *fanOut
	counter *frameCounter
}

// whip is WHIP ingest (RFC 9725): POST /whip/<stream> with a sendonly offer.
func (s *server) whip(w http.ResponseWriter, r *http.Request) {
	offer, ok := readOffer(w, r)
	if !ok {
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/whip/")
	pc, err := s.api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	published := &stream{publisher: pc, expected: sendingSections(offer), rtxOf: fidGroups(offer), complete: make(chan struct{})}
	s.mu.Lock()
	s.streams[name] = published
	s.mu.Unlock()
	pc.OnTrack(func(remote *webrtc.TrackRemote, receiver *webrtc.RTPReceiver) { published.forward(remote, receiver) })
	sdp, err := answer(pc, offer)
	if err != nil {
		pc.Close()
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	created(w, s.addSession("whip", name, pc, nil, nil), sdp)
}

// forward copies one published track to its players, counting on the way,
// and drains the receiver's RTCP (Pion's interceptors run on it).
func (p *stream) forward(remote *webrtc.TrackRemote, receiver *webrtc.RTPReceiver) {
	track := &forwardedTrack{remote: remote, players: newFanOut(remote), counter: newFrameCounter(remote)}
	p.mu.Lock()
	p.tracks = append(p.tracks, track)
	if len(p.tracks) == p.expected {
		close(p.complete)
	}
	p.mu.Unlock()
	relay(remote, receiver, track.counter, track.players)
}

// requestKeyframe sends the publisher a PLI (RFC 4585 6.3.1) for each video track.
func (p *stream) requestKeyframe() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, track := range p.tracks {
		if track.remote.Kind() == webrtc.RTPCodecTypeVideo {
			p.publisher.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: uint32(track.remote.SSRC())}})
		}
	}
}

// whep is WHEP playback: POST /whep/<stream> with a recvonly offer. It waits up to 10 s
// for the stream's tracks; a stream not published answers 409 with Retry-After.
func (s *server) whep(w http.ResponseWriter, r *http.Request) {
	offer, ok := readOffer(w, r)
	if !ok {
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/whep/")
	s.mu.Lock()
	published := s.streams[name]
	s.mu.Unlock()
	if published != nil {
		select {
		case <-published.complete:
		case <-time.After(10 * time.Second):
		}
	}
	if published == nil || len(published.snapshotTracks()) == 0 {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "stream "+strconv.Quote(name)+" is not published", http.StatusConflict)
		return
	}
	pc, err := s.api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var sent []sentTrack
	for _, track := range published.snapshotTracks() {
		local, err := track.players.newPlayerTrack()
		if err != nil {
			pc.Close()
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		sender, err := pc.AddTrack(local)
		if err != nil {
			pc.Close()
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		go drainFeedback(sender, published.requestKeyframe)
		sent = append(sent, sentTrack{Kind: track.remote.Kind().String(), SSRC: uint32(sender.GetParameters().Encodings[0].SSRC)})
	}
	sdp, err := answer(pc, offer)
	if err != nil {
		pc.Close()
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	published.requestKeyframe()
	created(w, s.addSession("whep", name, pc, sent, nil), sdp)
}

// drainFeedback reads a sender's RTCP (the NACK responder answers NACKs on the way)
// and passes each keyframe request (PLI, FIR) on.
func drainFeedback(sender *webrtc.RTPSender, keyframe func()) {
	for {
		packets, _, err := sender.ReadRTCP()
		if err != nil {
			return
		}
		for _, packet := range packets {
			switch packet.(type) {
			case *rtcp.PictureLossIndication, *rtcp.FullIntraRequest:
				keyframe()
			}
		}
	}
}

func (p *stream) snapshotTracks() []*forwardedTrack {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*forwardedTrack{}, p.tracks...)
}
