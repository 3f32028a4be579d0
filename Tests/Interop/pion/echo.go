package main

import (
	"net/http"
	"sync"

	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v3"
)

// echo is the echo peer: POST /echo with a sendrecv offer; every track it receives goes
// back to the offerer on the same media section, and the offerer's keyframe requests go
// back to it as PLIs for its own track.
func (s *server) echo(w http.ResponseWriter, r *http.Request) {
	offer, ok := readOffer(w, r)
	if !ok {
		return
	}
	pc, err := s.api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if err = pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		pc.Close()
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	loop := &echoLoop{pc: pc}
	var sent []sentTrack
	for _, codec := range offeredCodecs(offer) {
		local, err := webrtc.NewTrackLocalStaticRTP(codec, "echo-"+codec.MimeType, "echo")
		if err != nil {
			continue
		}
		sender, err := pc.AddTrack(local)
		if err != nil {
			continue
		}
		loop.locals = append(loop.locals, local)
		go drainFeedback(sender, loop.requestKeyframe)
		sent = append(sent, sentTrack{Kind: local.Kind().String(), SSRC: uint32(sender.GetParameters().Encodings[0].SSRC)})
	}
	pc.OnTrack(loop.reflect)
	sdp, err := finishAnswer(pc)
	if err != nil {
		pc.Close()
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	created(w, s.addSession("echo", "", pc, sent, loop), sdp)
}

// echoLoop is one echo peer's tracks: the local track of each offered section, the
// tracks that came in and their counters.
type echoLoop struct {
	pc       *webrtc.PeerConnection
	locals   []*webrtc.TrackLocalStaticRTP
	mu       sync.Mutex
	remotes  []*webrtc.TrackRemote
	counters []*frameCounter
}

// reflect sends one received track back on the first local track of its kind not yet
// taken.
func (l *echoLoop) reflect(remote *webrtc.TrackRemote, receiver *webrtc.RTPReceiver) {
	counter := newFrameCounter(remote)
	l.mu.Lock()
	var local rtpWriter // nil: none left, count only
	for index, candidate := range l.locals {
		if candidate != nil && candidate.Kind() == remote.Kind() {
			local = candidate
			l.locals[index] = nil
			break
		}
	}
	l.remotes = append(l.remotes, remote)
	l.counters = append(l.counters, counter)
	l.mu.Unlock()
	relay(remote, receiver, counter, local)
}

// requestKeyframe asks the offerer for a keyframe of each video track it sends.
func (l *echoLoop) requestKeyframe() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, remote := range l.remotes {
		if remote.Kind() == webrtc.RTPCodecTypeVideo {
			l.pc.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: uint32(remote.SSRC())}})
		}
	}
}

// received is what the echo peer received so far, per track.
func (l *echoLoop) received() []trackStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	stats := []trackStats{}
	for _, counter := range l.counters {
		stats = append(stats, counter.snapshot())
	}
	return stats
}
