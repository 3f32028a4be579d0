package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/pion/webrtc/v3"
)

// server holds the published streams, the players and echo peers, and the counters that
// /stats reports.
type server struct {
	api      *webrtc.API
	counters *rtcpCounters
	// resends is the NACK responder's counts (zero with -nack-responder pion).
	resends *resendResponder

	mu       sync.Mutex
	streams  map[string]*stream
	sessions map[string]*session
	nextID   int
}

// session is one peer connection a WHIP, WHEP or echo POST created, until its DELETE.
type session struct {
	id     string
	order  int
	role   string
	stream string
	pc     *webrtc.PeerConnection
	// sent lists the SSRC and kind of each track the server sends on it.
	sent []sentTrack
	// echo is an echo peer's loop, nil for WHIP and WHEP sessions.
	echo *echoLoop
}

type sentTrack struct {
	Kind string `json:"kind"`
	SSRC uint32 `json:"ssrc"`
}

func newServer(responder string) (*server, error) {
	counters, resends := newRTCPCounters(), newResendResponder()
	api, err := newAPI(counters, resends, responder)
	if err != nil {
		return nil, err
	}
	return &server{api: api, counters: counters, resends: resends, streams: map[string]*stream{}, sessions: map[string]*session{}}, nil
}

func (s *server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/whip/", s.whip)
	mux.HandleFunc("/whep/", s.whep)
	mux.HandleFunc("/echo", s.echo)
	mux.HandleFunc("/session/", s.deleteSession)
	mux.HandleFunc("/stats", s.stats)
	return mux
}

// addSession registers a new session; its id makes the Location /session/<id>.
func (s *server) addSession(role, streamName string, pc *webrtc.PeerConnection, sent []sentTrack, echo *echoLoop) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	created := &session{id: fmt.Sprintf("%s-%d", role, s.nextID), order: s.nextID, role: role, stream: streamName, pc: pc, sent: sent, echo: echo}
	s.sessions[created.id] = created
	pc.OnConnectionStateChange(func(state webrtc.PeerConnectionState) {
		if state == webrtc.PeerConnectionStateFailed {
			pc.Close()
		}
	})
	return created
}

// readOffer takes a POSTed application/sdp offer, or answers the request with an error.
func readOffer(w http.ResponseWriter, r *http.Request) (string, bool) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST an SDP offer", http.StatusMethodNotAllowed)
		return "", false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || len(body) == 0 {
		http.Error(w, "empty or unreadable offer", http.StatusBadRequest)
		return "", false
	}
	return string(body), true
}

// answer applies the offer, creates the answer and waits for ICE gathering to end, so
// the answer carries every candidate (WHIP and WHEP without trickle).
func answer(pc *webrtc.PeerConnection, offer string) (string, error) {
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		return "", err
	}
	return finishAnswer(pc)
}

// finishAnswer creates and applies the answer to the offer applied, once gathering ends.
func finishAnswer(pc *webrtc.PeerConnection) (string, error) {
	local, err := pc.CreateAnswer(nil)
	if err != nil {
		return "", err
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err = pc.SetLocalDescription(local); err != nil {
		return "", err
	}
	<-gathered
	return pc.LocalDescription().SDP, nil
}

// created sends 201 Created with the answer and the session's Location.
func created(w http.ResponseWriter, session *session, sdp string) {
	w.Header().Set("Content-Type", "application/sdp")
	w.Header().Set("Location", "/session/"+session.id)
	w.WriteHeader(http.StatusCreated)
	io.WriteString(w, sdp)
}

func (s *server) deleteSession(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodDelete {
		http.Error(w, "DELETE the session", http.StatusMethodNotAllowed)
		return
	}
	id := strings.TrimPrefix(r.URL.Path, "/session/")
	s.mu.Lock()
	found := s.sessions[id]
	s.mu.Unlock()
	if found == nil {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	found.pc.Close()
	w.WriteHeader(http.StatusOK)
}
