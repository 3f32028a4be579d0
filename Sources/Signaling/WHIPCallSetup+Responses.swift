import Net
import RTCBase

extension WHIPCallSetup {
    public mutating func handle(_ result: HTTPClientEvent, for id: Int, now: Instant) {
        if id == trickleRequest {
            trickleRequest = nil
            return receiveTrickle(result)
        }
        if id == restartRequest {
            restartRequest = nil
            return receiveRestart(result)
        }
        switch phase {
        case .offering(let request) where request == id: receiveOffer(result)
        case .answering(let request) where request == id: receiveAnswerPatch(result)
        case .deleting(let request) where request == id:
            phase = .done
            if case .response(let response, _) = result, !(200..<300).contains(response.status) {
                outbox.emit(.notice("\(kind.rawValue) DELETE answered \(response.status) \(response.reason)"))
            } else if case .failed(let error) = result {
                outbox.emit(.notice("\(kind.rawValue) DELETE got no answer: \(error)"))
            }
            outbox.emit(.closed)
        default:
            return
        }
    }

    // MARK: The offer

    private mutating func receiveOffer(_ result: HTTPClientEvent) {
        guard case .response(let response, let request) = result else {
            if case .failed(let error) = result { failNoAnswer(error) }
            return
        }
        let requestURL = endpoint
        switch response.status {
        case 201:
            guard let sdp = sdpBody(response) else { return }
            if let error = CallSetupOutbox.checkRemoteSDP(sdp, from: kind.rawValue) { return outbox.emit(.failed(error)) }
            adoptSession(response, base: requestURL)
            let servers = IceServerLink.parse(response.headers.values("Link"))
            if !servers.isEmpty { outbox.emit(.iceServers(servers)) }
            phase = .established
            outbox.emit(.answer(sdp))
            if sessionURL == nil { outbox.emit(.notice("\(kind.rawValue) 201 without Location: no trickle, no DELETE")) }
            finishEstablishing()
        case 307, 308:
            redirect(response, base: requestURL, method: request.method)
        case 406 where kind == .whep:
            guard let sdp = sdpBody(response) else { return }
            adoptSession(response, base: requestURL)
            guard sessionURL != nil else {
                return outbox.fail(.refused, "WHEP 406 counter-offer without a Location to answer to")
            }
            phase = .awaitingAnswer
            outbox.emit(.offer(sdp))
            if hangUpRequested { deleteSession() }
        default:
            failStatus(response, action: "POST \(requestURL)")
        }
    }

    private mutating func redirect(_ response: HTTPResponse, base: Endpoint, method: HTTPMethod) {
        guard let location = response.headers["Location"], let target = try? base.resolving(location) else {
            return outbox.fail(.refused, "\(kind.rawValue) answered \(response.status) without a usable Location")
        }
        redirects += 1
        guard redirects <= maxRedirects else {
            return outbox.fail(.refused, "\(kind.rawValue) redirected more than \(maxRedirects) times (last to \(target))")
        }
        if hangUpRequested {
            phase = .done
            return outbox.emit(.closed)
        }
        endpoint = target
        postOffer()
    }

    /// WHEP 406: our answer to the counter-offer went in a PATCH.
    private mutating func receiveAnswerPatch(_ result: HTTPClientEvent) {
        guard case .response(let response, _) = result else {
            if case .failed(let error) = result { failNoAnswer(error) }
            return
        }
        guard (200..<300).contains(response.status) else {
            return failStatus(response, action: "PATCH of our answer")
        }
        if let tag = response.headers["ETag"] { etag = tag }
        phase = .established
        outbox.emit(.notice("WHEP accepted our answer to its counter-offer"))
        finishEstablishing()
    }

    private mutating func finishEstablishing() {
        if hangUpRequested { return deleteSession() }
        sendTrickleIfReady()
    }

    private mutating func adoptSession(_ response: HTTPResponse, base: Endpoint) {
        if let location = response.headers["Location"] { sessionURL = try? base.resolving(location) }
        etag = response.headers["ETag"]
    }

    /// The body as SDP text, or a failure when it is empty.
    private mutating func sdpBody(_ response: HTTPResponse) -> String? {
        guard !response.body.isEmpty else {
            outbox.fail(.badAnswer, "\(kind.rawValue) answered \(response.status) with an empty body")
            return nil
        }
        return response.bodyText
    }

    // MARK: Trickle and ICE restart

    private mutating func receiveTrickle(_ result: HTTPClientEvent) {
        if case .response(let response, _) = result {
            if response.status == 405 || response.status == 501 {
                trickleSupported = false
                pendingCandidates = []
                return outbox.emit(.notice("\(kind.rawValue) server does not trickle (\(response.status)); candidates stay in the offer"))
            }
            if !(200..<300).contains(response.status) {
                outbox.emit(.notice("\(kind.rawValue) trickle PATCH answered \(response.status) \(response.reason): \(CallSetupOutbox.quote(response.body))"))
            } else if let tag = response.headers["ETag"] {
                etag = tag
            }
        } else if case .failed(let error) = result {
            outbox.emit(.notice("\(kind.rawValue) trickle PATCH got no answer: \(error)"))
        }
        sendTrickleIfReady()
    }

    private mutating func receiveRestart(_ result: HTTPClientEvent) {
        guard case .response(let response, _) = result else {
            if case .failed(let error) = result { failNoAnswer(error) }
            return
        }
        guard response.status == 200 else {
            if response.status == 405 || response.status == 501 {
                outbox.emit(.notice("\(kind.rawValue) server does not support ICE restart (\(response.status))"))
                return sendTrickleIfReady()
            }
            return failStatus(response, action: "ICE restart")
        }
        if let tag = response.headers["ETag"] { etag = tag }
        outbox.emit(.iceRestarted(response.bodyText))
        sendTrickleIfReady()
    }

    // MARK: Failures

    private mutating func failNoAnswer(_ error: HTTPClientError) {
        phase = .done
        outbox.fail(.noAnswer, "\(error) (\(kind.rawValue) \(error.request.method) \(error.request.target))")
    }

    /// A status that is not success: the server's own words (a problem+json `title`
    /// and `detail`, RFC 9457, or the start of the body) and any `Retry-After`.
    private mutating func failStatus(_ response: HTTPResponse, action: String) {
        phase = .done
        let retryAfter = response.headers["Retry-After"].flatMap(RetryAfter.init(fieldValue:))
        var words = CallSetupOutbox.quote(response.body)
        if let problem = try? JSONValue(parsing: response.body),
           let text = [problem["title"]?.stringValue, problem["detail"]?.stringValue].compactMap({ $0 }).nonEmptyJoined {
            words = text
        }
        let code: CallSetupError.Code = retryAfter != nil || response.status == 503 ? .retryLater : .refused
        let retry = retryAfter.map { " (\($0))" } ?? ""
        let suffix = words.isEmpty ? "" : ": \(words)"
        outbox.fail(code, "\(kind.rawValue) \(action) answered \(response.status) \(response.reason)\(retry)\(suffix)",
                    retryAfter: retryAfter)
    }
}

extension Array where Element == String {
    /// The elements joined with ": ", or nil when there are none.
    fileprivate var nonEmptyJoined: String? { isEmpty ? nil : joined(separator: ": ") }
}
