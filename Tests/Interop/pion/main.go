// Command rtcswarmpion is rtcswarm's Pion test server: a WHIP ingest and WHEP fan-out
// SFU, an echo peer and a /stats endpoint, on 127.0.0.1 only. It prints
// "listening 127.0.0.1:<port>" once it accepts connections.
//
//	rtcswarmpion -port 8080 [-nack-responder own|pion]
//
// -nack-responder picks who answers players' NACKs: "own" (default) the server's resend
// ring (resend.go), "pion" Pion interceptor 0.1.12's responder, to measure its losses.
//
// Routes: POST /whip/<stream>, POST /whep/<stream>, POST /echo, DELETE /session/<id>,
// GET /stats.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
)

func main() {
	port := flag.Int("port", 0, "TCP port on 127.0.0.1 for HTTP (0: any free one)")
	responder := flag.String("nack-responder", "own", "who answers players' NACKs: own (resend.go) or pion (Pion's responder)")
	flag.Parse()
	server, err := newServer(*responder)
	if err != nil {
		log.Fatalf("pion setup: %v", err)
	}
	listener, err := net.Listen("tcp4", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	fmt.Printf("listening %s\n", listener.Addr())
	os.Stdout.Sync()
	log.Fatal(http.Serve(listener, server.routes()))
}
