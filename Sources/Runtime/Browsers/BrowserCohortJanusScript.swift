/// Parts of the cohort page's script (`BrowserCohortPage`) kept apart: Janus's HTTP API as
/// the page speaks it (PROTOCOLS.md 5), and what a peer that did not connect reports.
enum BrowserCohortJanusScript {
    /// `janus(peer, sdp, answerTo)` and `serverOffers(peer)`.
    static let functions = #"""
// Janus's HTTP API (PROTOCOLS.md 5): create a session, attach the plugin, and send its
// messages in order (EchoTest: the body with our offer; VideoRoom: create the room, join,
// publish our offer; or join, and start with our answer to Janus's offer, which
// `answerTo` makes). Janus replies to a message at once ("success") or acks it and
// replies in an event of the same transaction, which a long poll of the session
// fetches (Janus queues it until then). Polling stops at each reply: Chromium holds 6
// connections per server, and 16 idle polls would stall the other peers' requests. A
// keep-alive holds the session past Janus's 60 s timeout; hangUp undoes what the steps
// made, hangs up and destroys the session.
async function janus(peer, sdp, answerTo) {
  let count = 0;
  const transaction = () => peer.id + "-" + ++count;
  const post = async (path, request) => {
    const response = await fetch(peer.url + path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request) });
    const reply = await response.json();
    if (reply.janus === "error") throw new Error(`Janus refused ${request.janus}: ${JSON.stringify(reply.error)}`);
    return reply;
  };
  const session = "/" + (await post("", { janus: "create", transaction: transaction() })).data.id;
  const handle = session + "/" + (await post(session, { janus: "attach", plugin: peer.janusPlugin, transaction: transaction() })).data.id;
  const keepAlive = setInterval(() => post(session, { janus: "keepalive", transaction: transaction() }).catch(() => {}), 25000);
  const undo = [];
  let remote;
  try {
    for (const step of peer.janusSteps) {
      const request = { janus: "message", body: JSON.parse(step.body), transaction: transaction() };
      if (step.jsep === "offer") request.jsep = { type: "offer", sdp };
      if (step.jsep === "answer") request.jsep = { type: "answer", sdp: await answerTo(remote && remote.sdp) };
      const reply = await post(handle, request);
      let event = reply.janus === "success" ? reply : undefined;
      while (event === undefined) {
        const events = [].concat(await fetch(peer.url + session + "?maxev=10").then(response => response.json()));
        event = events.find(e => e.transaction === request.transaction);
      }
      const data = event.plugindata && event.plugindata.data || {};
      if (data.error !== undefined && data.error_code !== step.allowedError) {
        throw new Error(`Janus's ${peer.janusPlugin} refused ${request.body.request || "the offer"}: ${data.error}`);
      }
      if (data.error === undefined && step.undo) undo.push(step.undo);
      if (event.jsep) remote = event.jsep;
    }
  } catch (error) {
    clearInterval(keepAlive);
    throw error;
  }
  // Our candidates were all in our description (RFC 8838 4: end of candidates).
  post(handle, { janus: "trickle", candidate: { completed: true }, transaction: transaction() }).catch(() => {});
  return { sdp: remote && remote.type === "answer" ? remote.sdp : undefined, hangUp: async () => {
    clearInterval(keepAlive);
    for (const body of undo) await post(handle, { janus: "message", body: JSON.parse(body), transaction: transaction() }).catch(() => {});
    await post(handle, { janus: "hangup", transaction: transaction() });
    await post(session, { janus: "destroy", transaction: transaction() });
  } };
}

// Whether the server sends the offer (a Janus VideoRoom subscriber answers it).
const serverOffers = peer => (peer.janusSteps || []).some(step => step.jsep === "answer");
"""#

    /// `icePairs(pc)`: the candidate pairs and their checks, for a peer that did not connect.
    static let icePairs = #"""
// Why ICE did not connect, in getStats' words: each candidate pair's state and its
// checks each way (RFC 8445 7.2), and how many candidates the answer gave.
async function icePairs(pc) {
  const report = await pc.getStats();
  const pairs = [];
  report.forEach(s => {
    if (s.type !== "candidate-pair") return;
    const local = report.get(s.localCandidateId) || {}, remote = report.get(s.remoteCandidateId) || {};
    pairs.push(`${local.address}:${local.port} -> ${remote.address}:${remote.port} ${s.state}, checks sent ${s.requestsSent}, `
               + `answered ${s.responsesReceived}, received ${s.requestsReceived}`);
  });
  const candidates = ((pc.remoteDescription && pc.remoteDescription.sdp) || "").split("a=candidate:").length - 1;
  return `${pairs.length ? pairs.join("; ") : "no candidate pair"}; the answer gave ${candidates} candidates`;
}
"""#
}
