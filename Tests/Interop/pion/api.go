package main

import (
	"net"

	"github.com/pion/ice/v2"
	"github.com/pion/interceptor"
	"github.com/pion/webrtc/v3"
)

// newAPI builds the Pion API every peer connection of the server uses: Pion's default
// codecs and interceptors (NACK generator and responder, RTCP reports, TWCC), plus the
// counting interceptor behind /stats, and ICE on the loopback interface only (udp4,
// host candidates on lo, no mDNS).
func newAPI(counters *rtcpCounters) (*webrtc.API, error) {
	media := &webrtc.MediaEngine{}
	if err := media.RegisterDefaultCodecs(); err != nil {
		return nil, err
	}
	registry := &interceptor.Registry{}
	// First, so that what Pion's interceptors send (NACKs, resends) passes through it.
	registry.Add(counters)
	if err := webrtc.RegisterDefaultInterceptors(media, registry); err != nil {
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
