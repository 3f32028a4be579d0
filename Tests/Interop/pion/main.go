// Command rtcswarmpion is rtcswarm's Pion test server: a WHIP ingest and WHEP fan-out
// SFU, an echo peer and a /stats endpoint, on 127.0.0.1 only. It prints
// "listening 127.0.0.1:<port>" once it accepts connections.
//
//	rtcswarmpion -port 8080
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
	flag.Parse()
	server, err := newServer()
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
