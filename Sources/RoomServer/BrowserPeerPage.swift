/// The page a browser loads from `/peer` to take part in calls: no library, just the room
/// protocol over plain WebSocket JSON frames (PROTOCOLS.md section 3) and RTCPeerConnection.
///
/// Query: `rooms` (comma-separated; one call per room), `width`, `height`, `fps` (its
/// camera, exact), `audio=0` / `video=0` to send none, `other_joined` (the event name),
/// `data=<label>` to open a data channel of that label (RFC 8831) and send on it, once
/// open, one binary message of each size in `data_sizes` (bytes, comma-separated; byte i
/// of an n-byte message is `(31 i + n) mod 256`) and one string, checking that each comes
/// back unchanged. Every message on a channel the other side opened is echoed as it came
/// (binary or string).
/// In each room it answers an offer, or offers itself when told `other_joined`; trickled
/// candidates are `{type: "candidate", label, id, candidate}` as the seed protocol sends
/// them. On `{type: "stop", drain_ms}` it stops sending, waits `drain_ms` for the last
/// packets, and answers `{type: "stats", stats: {userAgent, streams: [...]}}` read from
/// `getStats()` (W3C webrtc-stats `inbound-rtp` / `outbound-rtp`, and `data-channel` with
/// each channel's open time, from its DTLS transport's "connected" to its `open` event, and
/// on its own channel how many echoes came back identical).
/// A second offer in a room is an ICE restart (RFC 8445 9; JSEP RFC 9429 5.3.1): the page
/// answers it with the new credentials Chromium takes and times it, from the re-offer to a
/// pair selected whose local ufrag is the restart answer's (`iceConnectionState` connected
/// again), into `stats.iceRestart` with both ufrags and the video frames received by then,
/// so the other side can check media went on. Anything that goes
/// wrong is sent as `{type: "error", message}` so the other side can report it.
enum BrowserPeerPage {
    static let html = #"""
    <!doctype html>
    <html><head><meta charset="utf-8"><title>rtcswarm browser peer</title></head>
    <body><pre id="log"></pre>
    <script>
    "use strict";
    const query = new URLSearchParams(location.search);
    const rooms = (query.get("rooms") || "").split(",").filter(Boolean);
    const otherJoined = query.get("other_joined") || "other_joined";
    const number = (name, fallback) => Number(query.get(name) || fallback);
    const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
    function log(...parts) {
      const line = parts.map(p => typeof p === "string" ? p : JSON.stringify(p)).join(" ");
      document.getElementById("log").textContent += line + "\n";
      console.log("rtcswarm-peer: " + line);
    }

    async function camera() {
      if (query.get("audio") === "0" && query.get("video") === "0") return new MediaStream();
      const video = query.get("video") === "0" ? false : {
        width: { exact: number("width", 640) }, height: { exact: number("height", 360) },
        frameRate: { exact: number("fps", 30) } };
      return navigator.mediaDevices.getUserMedia({ audio: query.get("audio") !== "0", video });
    }

    const dataLabel = query.get("data");
    const dataSizes = (query.get("data_sizes") || "1,1024,16384,65536").split(",").filter(Boolean).map(Number);
    const dataText = "text from chromium";
    function pattern(size) {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 31 + size) & 255;
      return bytes;
    }
    function same(a, b) {
      if (typeof a === "string" || typeof b === "string") return a === b;
      const x = new Uint8Array(a), y = new Uint8Array(b);
      return x.length === y.length && x.every((v, i) => v === y[i]);
    }

    /// A channel's open time and, on its own channel, the echo check.
    function watch(channel, at, mine) {
      const record = { opened: undefined, intact: 0, corrupt: 0 };
      channel.binaryType = "arraybuffer";
      channel.onopen = () => {
        record.opened = performance.now();
        if (!mine) return;
        const sent = dataSizes.map(pattern).concat([dataText]);
        const expected = sent.slice();
        channel.onmessage = e => { same(e.data, expected.shift()) ? record.intact++ : record.corrupt++; };
        for (const message of sent) channel.send(message);
      };
      if (!mine) channel.onmessage = e => channel.send(e.data);
      at.channels[channel.label] = record;
    }

    \#(BrowserPageScript.figures)
    \#(BrowserPageScript.render)

    const ufragOf = sdp => (sdp.match(/a=ice-ufrag:(\S+)/) || [])[1];

    /// The ufrag of the selected pair's local candidate (W3C webrtc-stats `transport`,
    /// `candidate-pair`, `local-candidate`) and the video frames received so far.
    async function selectedPair(pc) {
      const report = await pc.getStats();
      let ufrag, frames;
      report.forEach(s => {
        if (s.type === "transport" && s.selectedCandidatePairId) {
          const pair = report.get(s.selectedCandidatePairId);
          const local = pair && report.get(pair.localCandidateId);
          if (local) ufrag = local.usernameFragment;
        }
        if (s.type === "inbound-rtp" && s.kind === "video") frames = s.framesReceived;
      });
      return { ufrag, frames };
    }

    function call(room, media) {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      const send = data => ws.send(JSON.stringify({ event: "message", room, data }));
      let pc = null;
      let queue = Promise.resolve();
      // performance.now() when the remote description was applied, ICE became usable, DTLS finished.
      const at = { channels: {} };

      function connection() {
        if (pc) return pc;
        pc = new RTCPeerConnection({ iceServers: [] });
        for (const track of media.getTracks()) pc.addTrack(track, media);
        if (dataLabel) watch(pc.createDataChannel(dataLabel), at, true);
        pc.ondatachannel = e => watch(e.channel, at, false);
        pc.onicecandidate = e => {
          if (e.candidate) send({ type: "candidate", label: e.candidate.sdpMLineIndex, id: e.candidate.sdpMid,
                                  candidate: e.candidate.candidate });
        };
        pc.ontrack = render;
        pc.oniceconnectionstatechange = () => {
          if (pc.iceConnectionState === "connected" && at.ice === undefined) at.ice = performance.now();
        };
        pc.onconnectionstatechange = () => {
          if (pc.connectionState === "connected" && at.dtls === undefined) at.dtls = performance.now();
          log(room, "connection", pc.connectionState);
        };
        return pc;
      }

      // The data channels' DTLS transport: its "connected" starts their open time (the
      // connectionState event can come after a channel has opened).
      function watchDtls() {
        const transport = pc.sctp && pc.sctp.transport;
        if (!transport || transport.onstatechange) return;
        transport.onstatechange = () => {
          if (transport.state === "connected" && at.dtlsTransport === undefined) at.dtlsTransport = performance.now();
        };
      }

      // The restart is connected again once ICE is and the selected pair has the answer's
      // new ufrag: checked on each pair change and state change, and every 10 ms besides.
      function watchRestart(restart) {
        const fresh = restart.ufrags[1];
        const check = async () => {
          const when = performance.now();
          if (restart.connected !== undefined || !["connected", "completed"].includes(pc.iceConnectionState)) return;
          const selected = await selectedPair(pc);
          if (selected.ufrag !== fresh || restart.connected !== undefined) return;
          restart.connected = when;
          restart.frames = selected.frames;
          clearInterval(timer);
          log(room, "ICE restart connected in", when - restart.started, "ms");
        };
        const timer = setInterval(check, 10);
        const transport = pc.getSenders().map(s => s.transport).find(Boolean);
        if (transport) transport.iceTransport.onselectedcandidatepairchange = check;
        pc.addEventListener("iceconnectionstatechange", check);
      }

      // Without this Chromium starts at a lower resolution than its camera's.
      async function keepResolution() {
        for (const sender of pc.getSenders()) {
          if (!sender.track || sender.track.kind !== "video") continue;
          const parameters = sender.getParameters();
          parameters.degradationPreference = "maintain-resolution";
          await sender.setParameters(parameters);
        }
      }

      async function handle(message) {
        if (message.event === otherJoined) {
          const pc = connection();
          const offer = await pc.createOffer();
          await pc.setLocalDescription(offer);
          await keepResolution();
          send({ type: "offer", sdp: offer.sdp });
        } else if (message.event === "message") {
          const data = message.data || {};
          if (data.type === "offer") {
            const restarting = at.remote !== undefined;
            const pc = connection();
            if (restarting) at.restart = { started: performance.now(), ufrags: [ufragOf(pc.localDescription.sdp)] };
            await pc.setRemoteDescription({ type: "offer", sdp: data.sdp });
            if (!restarting) at.remote = performance.now();
            watchDtls();
            const answer = await pc.createAnswer();
            await pc.setLocalDescription(answer);
            watchDtls();
            await keepResolution();
            send({ type: "answer", sdp: answer.sdp });
            if (restarting) {
              at.restart.ufrags.push(ufragOf(answer.sdp));
              watchRestart(at.restart);
            }
          } else if (data.type === "answer") {
            await pc.setRemoteDescription({ type: "answer", sdp: data.sdp });
            at.remote = performance.now();
            watchDtls();
          } else if (data.type === "candidate" && pc) {
            await pc.addIceCandidate({ candidate: data.candidate, sdpMid: data.id, sdpMLineIndex: data.label });
          } else if (data.type === "stop" && pc) {
            for (const sender of pc.getSenders()) await sender.replaceTrack(null);
            await sleep(Number(data.drain_ms) || 1500);
            send({ type: "stats", stats: await figures(pc, at) });
            log(room, "stats sent");
          }
        } else if (message.event === "error" || message.event === "full") {
          log(room, "server said", message);
        }
      }

      ws.onopen = () => ws.send(JSON.stringify({ event: "join", room }));
      ws.onmessage = event => {
        const message = JSON.parse(event.data);
        queue = queue.then(() => handle(message)).catch(error => {
          log(room, "error", String(error));
          send({ type: "error", message: String(error) });
        });
      };
      ws.onclose = event => log(room, "room connection closed", event.code);
    }

    camera().then(media => {
      log("camera", media.getTracks().map(t => t.kind + " " + JSON.stringify(t.getSettings())));
      rooms.forEach(room => call(room, media));
    }, error => {
      log("camera refused:", String(error));
      for (const room of rooms) {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        ws.onopen = () => {
          ws.send(JSON.stringify({ event: "join", room }));
          ws.send(JSON.stringify({ event: "message", room, data: { type: "error", message: "getUserMedia: " + error } }));
        };
      }
    });
    </script>
    </body></html>
    """#
}
