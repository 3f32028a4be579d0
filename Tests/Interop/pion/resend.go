package main

import (
	"sync"

	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
)

// resendRingSize is how many of the latest sequence numbers each local stream keeps for
// resending (about 2 s of 480x270 video at 30 fps with 5 % loss and late resends).
const resendRingSize = 1024

// The NACK responder of the test server, used instead of Pion's
// (nack.NewResponderInterceptor). Pion interceptor 0.1.12's send buffer treats a packet
// older than the last one written (a publisher's resend the SFU forwards late) as the
// newest and then clears every slot in between, so players' NACKs for those packets go
// unanswered. SFUs built on Pion keep their own buffers for the same job (LiveKit's and
// ion-sfu's per-track buffers answer NACKs themselves), so this server does too: one ring
// per local stream that keeps every packet written, late ones included, and answers a
// generic NACK (RFC 4585 6.2.1) with the packets it still holds.

// resendCounts is what the responder did for one local SSRC: sequence numbers resent;
// sequence numbers NACKed that it did not hold (not yet forwarded: the SFU had not got
// them from the publisher, or already out of the ring); and of those, the ones out of the
// ring (older than its last resendRingSize).
type resendCounts struct {
	Resent         int `json:"resent"`
	NackUnanswered int `json:"nack_unanswered"`
	NackExpired    int `json:"nack_expired"`
}

// resendResponder is the interceptor.Factory; every peer connection's interceptor counts
// into it by SSRC, for /stats.
type resendResponder struct {
	mu     sync.Mutex
	counts map[uint32]*resendCounts
}

func newResendResponder() *resendResponder {
	return &resendResponder{counts: map[uint32]*resendCounts{}}
}

// NewInterceptor implements interceptor.Factory.
func (r *resendResponder) NewInterceptor(string) (interceptor.Interceptor, error) {
	return &resendInterceptor{responder: r, streams: map[uint32]*resendStream{}}, nil
}

// countsOf is a copy of the counts of one SSRC (zero when it never saw a NACK).
func (r *resendResponder) countsOf(ssrc uint32) resendCounts {
	r.mu.Lock()
	defer r.mu.Unlock()
	if counts := r.counts[ssrc]; counts != nil {
		return *counts
	}
	return resendCounts{}
}

func (r *resendResponder) add(ssrc uint32, resent, unanswered, expired int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	counts := r.counts[ssrc]
	if counts == nil {
		counts = &resendCounts{}
		r.counts[ssrc] = counts
	}
	counts.Resent += resent
	counts.NackUnanswered += unanswered
	counts.NackExpired += expired
}

// resendInterceptor is one peer connection's responder: a ring per local stream that
// negotiated generic NACK.
type resendInterceptor struct {
	interceptor.NoOp
	responder *resendResponder
	mu        sync.Mutex
	streams   map[uint32]*resendStream
}

// negotiatesNack says whether the stream's codec has `a=rtcp-fb:<pt> nack` (RFC 4585
// 4.2: "nack" without a parameter is generic NACK).
func negotiatesNack(info *interceptor.StreamInfo) bool {
	for _, feedback := range info.RTCPFeedback {
		if feedback.Type == "nack" && feedback.Parameter == "" {
			return true
		}
	}
	return false
}

// BindLocalStream keeps a copy of every packet written to a stream that negotiated NACK.
func (i *resendInterceptor) BindLocalStream(info *interceptor.StreamInfo, writer interceptor.RTPWriter) interceptor.RTPWriter {
	if !negotiatesNack(info) {
		return writer
	}
	stream := &resendStream{writer: writer}
	i.mu.Lock()
	i.streams[info.SSRC] = stream
	i.mu.Unlock()
	return interceptor.RTPWriterFunc(func(header *rtp.Header, payload []byte, attributes interceptor.Attributes) (int, error) {
		stream.keep(header, payload)
		return writer.Write(header, payload, attributes)
	})
}

// UnbindLocalStream drops the stream's ring.
func (i *resendInterceptor) UnbindLocalStream(info *interceptor.StreamInfo) {
	i.mu.Lock()
	delete(i.streams, info.SSRC)
	i.mu.Unlock()
}

// BindRTCPReader answers each generic NACK about one of this connection's local streams.
func (i *resendInterceptor) BindRTCPReader(reader interceptor.RTCPReader) interceptor.RTCPReader {
	return interceptor.RTCPReaderFunc(func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
		n, attributes, err := reader.Read(b, a)
		if err != nil {
			return n, attributes, err
		}
		if attributes == nil {
			attributes = interceptor.Attributes{}
		}
		packets, parseErr := attributes.GetRTCPPackets(b[:n])
		if parseErr != nil {
			return n, attributes, err
		}
		for _, packet := range packets {
			if nack, ok := packet.(*rtcp.TransportLayerNack); ok {
				i.answer(nack)
			}
		}
		return n, attributes, err
	})
}

// answer resends, in the order asked, every packet of the NACK (PID and each BLP bit set,
// RFC 4585 6.2.1) that the stream's ring still holds, and counts the rest as unanswered.
func (i *resendInterceptor) answer(nack *rtcp.TransportLayerNack) {
	i.mu.Lock()
	stream := i.streams[nack.MediaSSRC]
	i.mu.Unlock()
	if stream == nil {
		return
	}
	resent, unanswered, expired := 0, 0, 0
	for _, pair := range nack.Nacks {
		for _, sequence := range pair.PacketList() {
			header, payload, held, inWindow := stream.lookup(sequence)
			if !held {
				unanswered++
				if !inWindow {
					expired++
				}
				continue
			}
			if _, err := stream.writer.Write(&header, payload, interceptor.Attributes{}); err != nil {
				unanswered++
				continue
			}
			resent++
		}
	}
	i.responder.add(nack.MediaSSRC, resent, unanswered, expired)
}

// resendStream is one local stream's ring: slot sequence % resendRingSize holds the
// packet with that sequence number while it is one of the latest resendRingSize.
type resendStream struct {
	writer interceptor.RTPWriter
	mu     sync.Mutex
	// newest is the highest sequence number written (RFC 3550 A.1 arithmetic modulo 2^16).
	newest  uint16
	started bool
	slots   [resendRingSize]resendSlot
}

type resendSlot struct {
	used    bool
	header  rtp.Header
	payload []byte
}

// keep stores a copy of the packet in its slot. A packet that comes late (older than the
// newest) takes its own slot and clears nothing else: within the window its slot can only
// hold itself or a packet resendRingSize or more older. One older than the window is not
// kept, since its slot belongs to a newer packet.
func (s *resendStream) keep(header *rtp.Header, payload []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sequence := header.SequenceNumber
	if !s.started || int16(sequence-s.newest) > 0 {
		s.started, s.newest = true, sequence
	} else if s.newest-sequence >= resendRingSize {
		return
	}
	slot := &s.slots[sequence%resendRingSize]
	slot.used = true
	slot.header = header.Clone()
	slot.payload = append(slot.payload[:0], payload...)
}

// lookup is a copy of the packet with this sequence number if its slot holds it, and
// whether the sequence number is within the ring's window (not older than the newest by
// resendRingSize or more; a number after the newest counts as within).
func (s *resendStream) lookup(sequence uint16) (header rtp.Header, payload []byte, held, inWindow bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	inWindow = !s.started || int16(sequence-s.newest) > 0 || s.newest-sequence < resendRingSize
	slot := &s.slots[sequence%resendRingSize]
	if !inWindow || !slot.used || slot.header.SequenceNumber != sequence {
		return rtp.Header{}, nil, false, inWindow
	}
	return slot.header.Clone(), append([]byte(nil), slot.payload...), true, true
}
