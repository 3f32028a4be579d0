/// The page script both browser pages share (`BrowserPeerPage`, the cohort page), as
/// JavaScript functions: `figures(pc, at)` reads `getStats()` (W3C webrtc-stats) into the
/// JSON `BrowserStats` decodes, and `render(event)` shows a received track. `at` holds the page's `performance.now()` times
/// (`remote`, `ice`, `dtls`, `dtlsTransport`, `restart`) and its data channels'
/// records (`channels`); the page defines `dataLabel`, the label of its own channel.
public enum BrowserPageScript {
    public static let figures = #"""
/// One figure per inbound-rtp and outbound-rtp stream and per data channel, and the
/// setup phases timed in `at`, with the names BrowserStats reads.
async function figures(pc, at) {
  const report = await pc.getStats();
  const streams = [];
  const dataChannels = [];
  report.forEach(s => {
    if (s.type === "data-channel") {
      const record = at.channels[s.label] || {};
      dataChannels.push({
        label: s.label, id: s.dataChannelIdentifier, state: s.state, messagesSent: s.messagesSent,
        messagesReceived: s.messagesReceived, bytesSent: s.bytesSent, bytesReceived: s.bytesReceived,
        openMs: record.opened === undefined || at.dtlsTransport === undefined ? undefined : record.opened - at.dtlsTransport,
        echoesIntact: s.label === dataLabel ? record.intact : undefined,
        echoesCorrupt: s.label === dataLabel ? record.corrupt : undefined });
      return;
    }
    if (s.type !== "inbound-rtp" && s.type !== "outbound-rtp") return;
    const inbound = s.type === "inbound-rtp";
    const codec = s.codecId ? report.get(s.codecId) : undefined;
    streams.push({
      direction: inbound ? "inbound" : "outbound", kind: s.kind, codec: codec ? codec.mimeType : undefined,
      packets: inbound ? s.packetsReceived : s.packetsSent, packetsLost: s.packetsLost,
      frames: inbound ? s.framesReceived : s.framesSent, framesDecoded: s.framesDecoded,
      frameWidth: s.frameWidth, frameHeight: s.frameHeight, nackCount: s.nackCount,
      jitterMs: s.jitter === undefined ? undefined : s.jitter * 1000,
      retransmittedPackets: inbound ? s.retransmittedPacketsReceived : s.retransmittedPacketsSent });
  });
  const phase = (from, to) => at[from] === undefined || at[to] === undefined ? undefined : at[to] - at[from];
  const restart = at.restart && { ufrags: at.restart.ufrags, framesReceivedAtConnected: at.restart.frames,
    ms: at.restart.connected === undefined ? undefined : at.restart.connected - at.restart.started };
  return { userAgent: navigator.userAgent, streams, dataChannels, iceMs: phase("remote", "ice"), dtlsMs: phase("ice", "dtls"),
           iceRestart: restart };
}
"""#

    /// `pc.ontrack = render`: each received track in an element of the page, so received
    /// video is decoded as a viewer's would be.
    public static let render = #"""
function render(event) {
  const element = document.createElement(event.track.kind);
  element.muted = true;
  element.autoplay = true;
  element.srcObject = new MediaStream([event.track]);
  document.body.append(element);
}
"""#
}
