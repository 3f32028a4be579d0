package main

import (
	"fmt"
	"net"

	"github.com/pion/ice/v2"
	"github.com/pion/interceptor"
	"github.com/pion/interceptor/pkg/nack"
	"github.com/pion/webrtc/v3"
)

// newAPI builds the Pion API every peer connection of the server uses: Pion's default
// codecs and interceptors (NACK generator, RTCP reports, TWCC) with a NACK responder
// chosen by `responder` ("own": the server's ring of resend.go; "pion": Pion's
// nack.NewResponderInterceptor), plus the counting interceptor behind /stats, and ICE
// on the loopback interface only (udp4, host candidates on lo, no mDNS).
func newAPI(counters *rtcpCounters, own *resendResponder, responder string) (*webrtc.API, error) {
	media := &webrtc.MediaEngine{}
	if err := media.RegisterDefaultCodecs(); err != nil {
		return nil, err
	}
	registry := &interceptor.Registry{}
	// First, so that what the later interceptors send (NACKs, resends) passes through it.
	registry.Add(counters)
	if err := configureNack(media, registry, own, responder); err != nil {
		return nil, err
	}
	if err := webrtc.ConfigureRTCPReports(registry); err != nil {
		return nil, err
	}
	if err := webrtc.ConfigureTWCCSender(media, registry); err != nil {
		return nil, err
	}
	settings := webrtc.SettingEngine{}
	settings.SetIncludeLoopbackCandidate(true)
	settings.SetInterfaceFilter(func(name string) bool { return name == "lo" })
	settings.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() && ip.To4() != nil })
	settings.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	settings.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	return webrtc.NewAPI(webrtc.WithMediaEngine(media), webrtc.WithInterceptorRegistry(registry),
		webrtc.WithSettingEngine(settings)), nil
}

// configureNack is what webrtc.ConfigureNack does (generic NACK and PLI offered for
// video, Pion's NACK generator towards publishers) with the responder of the -nack-responder flag.
func configureNack(media *webrtc.MediaEngine, registry *interceptor.Registry, own *resendResponder, responder string) error {
	generator, err := nack.NewGeneratorInterceptor()
	if err != nil {
		return err
	}
	switch responder {
	case "own":
		registry.Add(own)
	case "pion":
		pion, err := nack.NewResponderInterceptor()
		if err != nil {
			return err
		}
		registry.Add(pion)
	default:
		return fmt.Errorf("-nack-responder %q: want own or pion", responder)
	}
	media.RegisterFeedback(webrtc.RTCPFeedback{Type: "nack"}, webrtc.RTPCodecTypeVideo)
	media.RegisterFeedback(webrtc.RTCPFeedback{Type: "nack", Parameter: "pli"}, webrtc.RTPCodecTypeVideo)
	registry.Add(generator)
	return nil
}
