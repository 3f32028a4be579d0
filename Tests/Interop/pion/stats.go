package main

import (
	"encoding/json"
	"net/http"
	"sort"
)

// publishedTrackStats is one published track as /stats shows it: the bitstream counts,
// the feedback Pion sent the publisher about it (NACK generator, the SFU's PLIs) and the
// packets that came on its RTX SSRC.
type publishedTrackStats struct {
	trackStats
	RTXSSRC      uint32         `json:"rtx_ssrc"`
	RTXPackets   int            `json:"rtx_packets"`
	FeedbackSent feedbackCounts `json:"feedback_sent"`
}

// sentTrackStats is one track the server sends to a player or echo offerer: what it
// sent, its retransmissions (packets repeating a sequence number), what the NACK
// responder of resend.go resent and left unanswered, and the feedback it received.
type sentTrackStats struct {
	sentTrack
	sentStream
	resendCounts
	FeedbackReceived feedbackCounts `json:"feedback_received"`
}

type sessionStats struct {
	ID       string           `json:"id"`
	Role     string           `json:"role"`
	Stream   string           `json:"stream,omitempty"`
	State    string           `json:"state"`
	Sent     []sentTrackStats `json:"sent"`
	Received []trackStats     `json:"received,omitempty"`
}

type statsDocument struct {
	Streams  map[string][]publishedTrackStats `json:"streams"`
	Sessions []sessionStats                   `json:"sessions"`
}

// stats is GET /stats: every stream's published tracks and every session, in creation
// order.
func (s *server) stats(w http.ResponseWriter, r *http.Request) {
	document := statsDocument{Streams: map[string][]publishedTrackStats{}, Sessions: []sessionStats{}}
	s.mu.Lock()
	streams := map[string]*stream{}
	for name, published := range s.streams {
		streams[name] = published
	}
	sessions := []*session{}
	for _, found := range s.sessions {
		sessions = append(sessions, found)
	}
	s.mu.Unlock()
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].order < sessions[j].order })
	for name, published := range streams {
		tracks := []publishedTrackStats{}
		for _, track := range published.snapshotTracks() {
			stats := track.counter.snapshot()
			rtx := published.rtxOf[stats.SSRC]
			s.counters.mu.Lock()
			tracks = append(tracks, publishedTrackStats{trackStats: stats, RTXSSRC: rtx, RTXPackets: s.counters.received[rtx],
				FeedbackSent: counted(s.counters.feedbackSent[stats.SSRC])})
			s.counters.mu.Unlock()
		}
		document.Streams[name] = tracks
	}
	for _, found := range sessions {
		entry := sessionStats{ID: found.id, Role: found.role, Stream: found.stream, State: found.pc.ConnectionState().String(),
			Sent: []sentTrackStats{}}
		s.counters.mu.Lock()
		for _, track := range found.sent {
			sent := sentStream{}
			if counted := s.counters.sent[track.SSRC]; counted != nil {
				sent = *counted
			}
			entry.Sent = append(entry.Sent, sentTrackStats{sentTrack: track, sentStream: sent, resendCounts: s.resends.countsOf(track.SSRC),
				FeedbackReceived: counted(s.counters.feedbackReceived[track.SSRC])})
		}
		s.counters.mu.Unlock()
		if found.echo != nil {
			entry.Received = found.echo.received()
		}
		document.Sessions = append(document.Sessions, entry)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(document)
}

func counted(counts *feedbackCounts) feedbackCounts {
	if counts == nil {
		return feedbackCounts{}
	}
	return *counts
}
