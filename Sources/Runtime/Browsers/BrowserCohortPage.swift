import Foundation
import RoomServer

/// The page one headless Chromium loads from the report folder to run a
/// `client: "chromium"` group: one RTCPeerConnection per planned peer, each started and
/// stopped at its planned wall-clock time, doing its own signaling with the target (SRS's
/// `/rtc/v1/play/` and `/publish/` JSON API, WHIP RFC 9725, WHEP, Janus's EchoTest and
/// VideoRoom over its HTTP API, PROTOCOLS.md 5) and its own ICE and DTLS.
///
/// Each peer times its setup as METRICS.md defines rtcswarm's (`signaling_ms` from the
/// offer created to the answer applied, `ice_ms` to `iceConnectionState` "connected",
/// `dtls_ms` from there to `connectionState` "connected", `setup_ms` from the peer's start),
/// and at its stop writes one console line `rtcswarm-cohort-result <base64 JSON>` with
/// those phases and its `getStats()` figures (`BrowserPageScript`); base64 keeps quotes
/// and line breaks intact through Chromium's log. The page is `file://`, so the browser
/// runs with web security off to POST to the target (SRS and Janus send CORS headers; not
/// every WHEP server does).
enum BrowserCohortPage {
    /// The console line that carries one peer's result.
    static let resultPrefix = "rtcswarm-cohort-result "

    struct Configuration: Encodable {
        struct Peer: Encodable {
            var id: String
            var role: String
            /// `srs` (the JSON API), `whip`, `whep` or `janus`.
            var api: String
            /// Where the offer goes (for `janus`, the API root, `http://…/janus`).
            var url: String
            /// For `srs`: the body's `api` and `streamurl`.
            var srsApi: String?
            var streamUrl: String?
            var token: String?
            /// For `janus`: the plugin to attach and its `message`s in order.
            var janusPlugin: String?
            var janusSteps: [JanusStep]?
            /// Wall-clock milliseconds since 1970 (`Date.now()`).
            var startAt: Double
            var stopAt: Double
        }
        /// One plugin `message` of a Janus peer (PROTOCOLS.md 5), as rtcswarm's own peer of
        /// the group sends it (`JanusPlugin`).
        struct JanusStep: Encodable, Equatable {
            /// The body, JSON text.
            var body: String
            /// The JSEP it carries: `offer` (the peer's), `answer` (to the offer Janus sent
            /// in the reply to the step before), or none.
            var jsep: String?
            /// A plugin error code that does not stop the peer (427: the room exists).
            var allowedError: Int?
            /// A body to send at hang-up when this step succeeded (destroying the room it created).
            var undo: String?
        }
        struct Video: Encodable {
            var width: Int
            var height: Int
            var fps: Int
            /// The MIME type to put first (`video/H264`), or nil for Chromium's order.
            var codec: String?
        }
        var peers: [Peer]
        var video: Video?
        var audio: Bool
    }

    /// The page with `configuration` in it, as a JSON island no `</script>` can close early.
    static func html(_ configuration: Configuration) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = (try? encoder.encode(configuration)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return template.replacingOccurrences(of: "__CONFIGURATION__", with: json.replacingOccurrences(of: "</", with: "<\\/"))
    }

    private static let template = #"""
    <!doctype html>
    <html><head><meta charset="utf-8"><title>rtcswarm browser cohort</title></head>
    <body><pre id="log"></pre>
    <script type="application/json" id="configuration">__CONFIGURATION__</script>
    <script>
    "use strict";
    const config = JSON.parse(document.getElementById("configuration").textContent);
    const dataLabel = undefined;
    function log(line) {
      document.getElementById("log").textContent += line + "\n";
      console.log("rtcswarm-cohort: " + line);
    }
    const emit = result => console.log("rtcswarm-cohort-result " + btoa(unescape(encodeURIComponent(JSON.stringify(result)))));
    const sleepUntil = epochMs => new Promise(resolve => setTimeout(resolve, Math.max(0, epochMs - Date.now())));

    \#(BrowserPageScript.figures)
    \#(BrowserPageScript.render)

    async function camera() {
      const senders = config.peers.some(p => p.role !== "player");
      if (!senders || (!config.video && !config.audio)) return new MediaStream();
      const video = config.video ? { width: { exact: config.video.width }, height: { exact: config.video.height },
                                     frameRate: { exact: config.video.fps } } : false;
      return navigator.mediaDevices.getUserMedia({ audio: config.audio, video });
    }

    // The target's codec first (SRS takes H.264 only); for H.264 packetization-mode 1 and
    // the constrained baseline profile (42e01f) first, as SRS and most servers want.
    function preferCodec(transceiver, capabilities) {
      const wanted = config.video && config.video.codec;
      if (!wanted || !capabilities) return;
      const rank = c => c.mimeType.toLowerCase() !== wanted.toLowerCase() ? 3
        : !wanted.endsWith("H264") ? 0
        : (c.sdpFmtpLine || "").includes("packetization-mode=1") ? ((c.sdpFmtpLine || "").includes("42e01f") ? 0 : 1) : 2;
      transceiver.setCodecPreferences(capabilities.codecs.slice().sort((a, b) => rank(a) - rank(b)));
    }

    \#(BrowserCohortJanusScript.functions)

    // SRS's JSON API (PROTOCOLS.md 1), WHIP/WHEP (the offer as application/sdp, the
    // answer in 201 Created, the session in Location to DELETE, RFC 9725 4.2), or Janus.
    async function signal(peer, sdp) {
      const headers = peer.token ? { Authorization: "Bearer " + peer.token } : {};
      if (peer.api === "janus") return janus(peer, sdp);
      if (peer.api === "srs") {
        const response = await fetch(peer.url, { method: "POST", headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify({ api: peer.srsApi, tid: peer.id, streamurl: peer.streamUrl, clientip: null, sdp }) });
        const text = await response.text();
        let reply;
        try { reply = JSON.parse(text); } catch (e) { throw new Error(`SRS answered HTTP ${response.status}: ${text.slice(0, 300)}`); }
        if (reply.code !== 0 || !reply.sdp) throw new Error(`SRS answered code ${reply.code}: ${text.slice(0, 300)}`);
        return { sdp: reply.sdp };
      }
      const response = await fetch(peer.url, { method: "POST", headers: { ...headers, "Content-Type": "application/sdp" }, body: sdp });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`${peer.api.toUpperCase()} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
      const location = response.headers.get("Location");
      const session = location ? new URL(location, peer.url).href : undefined;
      return { sdp: text, hangUp: session && (() => fetch(session, { method: "DELETE", headers })) };
    }

    // The offer (or answer) to send. Janus (full ICE, no trickle from us) needs our
    // candidates in it: the local description once gathering is complete (RFC 8445
    // 5.1.1); SRS and WHIP/WHEP servers (ICE lite) take the offer as created.
    function offerToSend(peer, pc, offer) {
      if (peer.api !== "janus") return Promise.resolve(offer.sdp);
      return new Promise(resolve => {
        const done = () => pc.iceGatheringState === "complete" && resolve(pc.localDescription.sdp);
        pc.addEventListener("icegatheringstatechange", done);
        done();
      });
    }

    \#(BrowserCohortJanusScript.icePairs)

    async function run(peer, media) {
      await sleepUntil(peer.startAt);
      const result = { id: peer.id, startedAt: Date.now(), phases: {} };
      const at = { channels: {}, start: performance.now() };
      let pc, hangUp, stage = "signaling";
      try {
        pc = new RTCPeerConnection({ iceServers: [] });
        pc.oniceconnectionstatechange = () => {
          if (pc.iceConnectionState === "connected" && at.ice === undefined) at.ice = performance.now();
        };
        pc.onconnectionstatechange = () => {
          if (pc.connectionState === "connected" && at.dtls === undefined) at.dtls = performance.now();
          if (pc.connectionState === "failed" && result.error === undefined) result.error = `connection failed (ICE ${pc.iceConnectionState})`;
        };
        if (peer.role !== "player") {
          // A publisher sends; an echo peer sends and gets its media back.
          const echo = peer.role === "echo";
          for (const track of media.getTracks()) {
            const transceiver = pc.addTransceiver(track.clone(), { direction: echo ? "sendrecv" : "sendonly", streams: [media] });
            if (track.kind === "video") {
              preferCodec(transceiver, (echo ? RTCRtpReceiver : RTCRtpSender).getCapabilities("video"));
              const parameters = transceiver.sender.getParameters();
              parameters.degradationPreference = "maintain-resolution";
              await transceiver.sender.setParameters(parameters);
            }
          }
          if (echo) pc.ontrack = render;
        } else {
          // A subscriber gets its sections from the server's offer.
          if (config.video && !serverOffers(peer)) {
            preferCodec(pc.addTransceiver("video", { direction: "recvonly" }), RTCRtpReceiver.getCapabilities("video"));
          }
          if (config.audio && !serverOffers(peer)) pc.addTransceiver("audio", { direction: "recvonly" });
          pc.ontrack = render;
        }
        if (serverOffers(peer)) {
          // No signaling_ms: it runs from our offer to the answer applied (METRICS.md), as
          // for rtcswarm's subscribers; ice_ms runs from Janus's offer applied.
          hangUp = (await janus(peer, undefined, async offer => {
            await pc.setRemoteDescription({ type: "offer", sdp: offer });
            at.remote = performance.now();
            const answer = await pc.createAnswer();
            await pc.setLocalDescription(answer);
            return offerToSend(peer, pc, answer);
          })).hangUp;
        } else {
          const offer = await pc.createOffer();
          await pc.setLocalDescription(offer);
          at.offer = performance.now();
          const answer = await signal(peer, await offerToSend(peer, pc, offer));
          hangUp = answer.hangUp;
          await pc.setRemoteDescription({ type: "answer", sdp: answer.sdp });
          at.remote = performance.now();
        }
        stage = "ice";
        await sleepUntil(peer.stopAt);
        stage = at.ice === undefined ? "ice" : at.dtls === undefined ? "dtls" : "media";
        if (at.dtls === undefined && result.error === undefined) {
          result.error = `not connected by the peer's stop (ICE ${pc.iceConnectionState}, connection ${pc.connectionState}): ${await icePairs(pc)}`;
        }
        result.stats = await figures(pc, at);
      } catch (error) {
        result.error = String(error && error.message || error);
      }
      const phase = (from, to) => at[from] === undefined || at[to] === undefined ? undefined : at[to] - at[from];
      result.phases = { signaling_ms: phase("offer", "remote"), ice_ms: phase("remote", "ice"), dtls_ms: phase("ice", "dtls"),
                        setup_ms: phase("start", "dtls") };
      if (result.error !== undefined) result.failedPhase = stage;
      if (pc) pc.close();
      if (hangUp) await hangUp().catch(() => {});
      result.endedAt = Date.now();
      emit(result);
    }

    camera().then(media => {
      log("camera " + media.getTracks().map(t => t.kind + " " + JSON.stringify(t.getSettings())).join(", "));
      return Promise.all(config.peers.map(peer => run(peer, media)));
    }, error => {
      log("camera refused: " + error);
      for (const peer of config.peers) emit({ id: peer.id, startedAt: Date.now(), endedAt: Date.now(), phases: {},
                                              failedPhase: "signaling", error: "getUserMedia: " + error });
    }).then(() => log("all peers reported"));
    </script>
    </body></html>
    """#
}
