#!/usr/bin/env bash
# Builds the Pion test server offline with Debian's Go and Pion sources
# (golang-go, golang-github-pion-webrtc.v3-dev) into OUTDIR/rtcswarm-pion.
# GOPATH mode: Debian installs Pion at github.com/pion/webrtc without a /v3 folder, and
# GOPATH mode resolves the /v3 import only for code inside a GOPATH tree with a go.mod.
set -euo pipefail
out=${1:?usage: build.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
gopath=$(mktemp -d)
trap 'rm -rf "$gopath"' EXIT
mkdir -p "$gopath/src/rtcswarmpion"
cp "$here"/*.go "$here/go.mod" "$gopath/src/rtcswarmpion/"
cd "$gopath/src/rtcswarmpion"
GOPATH="$gopath:/usr/share/gocode" GO111MODULE=off GOPROXY=off GOFLAGS= GOCACHE="${GOCACHE:-$out/.gocache}" \
    go build -o "$out/rtcswarm-pion" .
