package main

import (
	"sync"

	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
)

// feedbackCounts is the RTCP feedback that named one media SSRC: generic NACK packets
// and the sequence numbers they asked for (RFC 4585 6.2.1), PLIs (6.3.1) and FIRs
// (RFC 5104 4.3.1).
type feedbackCounts struct {
	NackPackets int `json:"nack_packets"`
	NackedSeqs  int `json:"nacked_seqs"`
	Plis        int `json:"plis"`
	Firs        int `json:"firs"`
}

func (f *feedbackCounts) add(packet rtcp.Packet) {
	switch p := packet.(type) {
	case *rtcp.TransportLayerNack:
		f.NackPackets++
		for _, pair := range p.Nacks {
			f.NackedSeqs += len(pair.PacketList())
		}
	case *rtcp.PictureLossIndication:
		f.Plis++
	case *rtcp.FullIntraRequest:
		f.Firs++
	}
}

// mediaSSRC is the media source a feedback packet is about.
func mediaSSRC(packet rtcp.Packet) (uint32, bool) {
	switch p := packet.(type) {
	case *rtcp.TransportLayerNack:
		return p.MediaSSRC, true
	case *rtcp.PictureLossIndication:
		return p.MediaSSRC, true
	case *rtcp.FullIntraRequest:
		return p.MediaSSRC, true
	}
	return 0, false
}

// sentStream is what the server sent on one SSRC: packets, and how many of them
// repeated a sequence number sent within the last half of the sequence space (the NACK
// responder's retransmissions).
type sentStream struct {
	Packets         int `json:"packets"`
	Retransmissions int `json:"retransmissions"`
	// lastSent is the packet count when each sequence number was last sent.
	lastSent map[uint16]int
}

// rtcpCounters is an interceptor factory whose interceptors all count into it, keyed
// by SSRC: feedback received (from players, about the server's SSRCs), feedback sent
// (by Pion's NACK generator and the SFU's PLIs, about publishers' SSRCs), RTP packets
// received per SSRC (repair streams included) and RTP sent per SSRC. It is registered
// before Pion's interceptors so that what they send passes through it.
type rtcpCounters struct {
	mu               sync.Mutex
	feedbackReceived map[uint32]*feedbackCounts
	feedbackSent     map[uint32]*feedbackCounts
	received         map[uint32]int
	sent             map[uint32]*sentStream
}

func newRTCPCounters() *rtcpCounters {
	return &rtcpCounters{
		feedbackReceived: map[uint32]*feedbackCounts{},
		feedbackSent:     map[uint32]*feedbackCounts{},
		received:         map[uint32]int{},
		sent:             map[uint32]*sentStream{},
	}
}

// NewInterceptor implements interceptor.Factory.
func (c *rtcpCounters) NewInterceptor(string) (interceptor.Interceptor, error) {
	return &countingInterceptor{counters: c}, nil
}

func (c *rtcpCounters) countFeedback(into map[uint32]*feedbackCounts, packets []rtcp.Packet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, packet := range packets {
		ssrc, ok := mediaSSRC(packet)
		if !ok {
			continue
		}
		counts := into[ssrc]
		if counts == nil {
			counts = &feedbackCounts{}
			into[ssrc] = counts
		}
		counts.add(packet)
	}
}

func (c *rtcpCounters) countSent(header *rtp.Header) {
	c.mu.Lock()
	defer c.mu.Unlock()
	stream := c.sent[header.SSRC]
	if stream == nil {
		stream = &sentStream{lastSent: map[uint16]int{}}
		c.sent[header.SSRC] = stream
	}
	if last, ok := stream.lastSent[header.SequenceNumber]; ok && stream.Packets-last < 1<<15 {
		stream.Retransmissions++
	}
	stream.Packets++
	stream.lastSent[header.SequenceNumber] = stream.Packets
}

// countingInterceptor feeds one peer connection's packets to rtcpCounters.
type countingInterceptor struct {
	interceptor.NoOp
	counters *rtcpCounters
}

func (i *countingInterceptor) BindRTCPReader(reader interceptor.RTCPReader) interceptor.RTCPReader {
	return interceptor.RTCPReaderFunc(func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
		n, attributes, err := reader.Read(b, a)
		if err != nil {
			return n, attributes, err
		}
		if packets, parseErr := rtcp.Unmarshal(b[:n]); parseErr == nil {
			i.counters.countFeedback(i.counters.feedbackReceived, packets)
		}
		return n, attributes, err
	})
}

func (i *countingInterceptor) BindRTCPWriter(writer interceptor.RTCPWriter) interceptor.RTCPWriter {
	return interceptor.RTCPWriterFunc(func(packets []rtcp.Packet, a interceptor.Attributes) (int, error) {
		i.counters.countFeedback(i.counters.feedbackSent, packets)
		return writer.Write(packets, a)
	})
}

func (i *countingInterceptor) BindLocalStream(_ *interceptor.StreamInfo, writer interceptor.RTPWriter) interceptor.RTPWriter {
	return interceptor.RTPWriterFunc(func(header *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
		i.counters.countSent(header)
		return writer.Write(header, payload, a)
	})
}

func (i *countingInterceptor) BindRemoteStream(info *interceptor.StreamInfo, reader interceptor.RTPReader) interceptor.RTPReader {
	ssrc := info.SSRC
	return interceptor.RTPReaderFunc(func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
		n, attributes, err := reader.Read(b, a)
		if err == nil {
			i.counters.mu.Lock()
			i.counters.received[ssrc]++
			i.counters.mu.Unlock()
		}
		return n, attributes, err
	})
}
