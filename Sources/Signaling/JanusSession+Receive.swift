import RTCBase

extension JanusSession {
    /// The transport closed while the call lived: during a teardown that is its end (Janus
    /// drops a closed transport's sessions), otherwise the call fails with `message`.
    mutating func transportClosed(_ message: String) {
        if case .tearingDown = phase {
            phase = .done
            return outbox.emit(.closed)
        }
        outbox.fail(.noAnswer, message)
    }

    // MARK: Messages

    /// One message from Janus: the result of a request of ours (by transaction), or an
    /// event for our session and handle.
    mutating func receive(_ message: JanusMessage, now: Instant) {
        guard !outbox.isFinished else { return }
        if let transaction = message.transaction, let step = pending[transaction] {
            if message.kind == "ack" {
                // The result follows as an event; keepalive, trickle and teardown
                // steps need no more.
                if case .tearingDown = phase {
                    pending[transaction] = nil
                    finishTeardownStep(step, now: now)
                } else if step == .keepalive || step == .trickle {
                    pending[transaction] = nil
                }
                return
            }
            pending[transaction] = nil
            if let error = message.error {
                return stepFailed(step, "Janus error \(error.code): \(error.reason) (\(step.rawValue))", code: .refused, now: now)
            }
            if let error = message.pluginError {
                if createsNamedRoom(after: step, errorCode: message.pluginErrorCode, now: now) { return }
                return stepFailed(step, "\(error) (\(step.rawValue))", code: .refused, now: now)
            }
            return completed(step, message, now: now)
        }
        if let session = message.sessionID, let sessionID, session != sessionID {
            foreignMessages += 1
            return
        }
        if let sender = message.sender, let handleID, sender != handleID {
            foreignMessages += 1
            return
        }
        unsolicited(message)
    }

    /// Events no request of ours asked for.
    private mutating func unsolicited(_ message: JanusMessage) {
        switch message.kind {
        case "webrtcup":
            outbox.emit(.notice("Janus: webrtcup"))
        case "media":
            let type = message.json["type"]?.stringValue ?? "?"
            let receiving = message.json["receiving"]?.boolValue.map { $0 ? "receiving" : "not receiving" } ?? "?"
            outbox.emit(.notice("Janus: media \(type) \(receiving)"))
        case "slowlink":
            outbox.emit(.notice("Janus: slowlink \(message.json["media"]?.stringValue ?? "") lost \(message.json["lost"]?.integerValue ?? 0)"))
        case "hangup":
            let reason = message.json["reason"]?.stringValue ?? "no reason given"
            if case .settingUp = phase {
                return outbox.fail(.ended, "Janus hung up: \(reason)")
            }
            outbox.emit(.notice("Janus: hangup (\(reason))"))
        case "detached":
            if case .tearingDown = phase { return }
            outbox.emit(.notice("Janus: handle detached"))
        case "error":
            if case .tearingDown = phase { return }
            let error = message.error ?? (0, message.json.serialized)
            // An error for a request already settled is news, not the end of the call.
            if message.transaction != nil { return outbox.emit(.notice("Janus error \(error.code): \(error.reason)")) }
            outbox.fail(.refused, "Janus error \(error.code): \(error.reason)")
        default:
            return  // keepalive, publisher lists, talking events: nothing to do
        }
    }

    // MARK: Setup

    private mutating func completed(_ step: Step, _ message: JanusMessage, now: Instant) {
        if case .tearingDown = phase {
            if teardown.first == step { finishTeardownStep(step, now: now) }
            return
        }
        if step == .restart { return restartAnswered(message) }
        guard case .settingUp = phase else { return }
        switch step {
        case .create:
            guard let id = message.createdID else { return failShape(step, message) }
            sessionID = id
            if hangUpRequested { return beginTeardown(now: now) }
            send(.attach, ["janus": "attach", "plugin": .string(plugin.packageName)], now: now)
        case .attach:
            guard let id = message.createdID else { return failShape(step, message) }
            handleID = id
            beginPlugin(now: now)
            sendTrickles(now: now)
        case .createRoom:
            guard let room = message.pluginID("room") else { return failShape(step, message) }
            roomID = room
            createdRoom = true
            joinAsPublisher(now: now)
        case .join:
            joined = true
            if plugin.serverOffers {
                guard message.jsepType == "offer", let sdp = message.jsepSDP else { return failShape(step, message) }
                outbox.emit(.offer(sdp))
            } else {
                guard let id = message.pluginID("id") else { return failShape(step, message) }
                feedID = id
                guard case .videoRoomPublisher(_, _, let display, _) = plugin else { return }
                send(.publish, ["janus": "message", "body": JanusPlugin.publishBody(display: display), "jsep": offerJSEP], now: now)
            }
        case .echo, .publish:
            guard message.jsepType == "answer", let sdp = message.jsepSDP else { return failShape(step, message) }
            if let error = CallSetupOutbox.checkRemoteSDP(sdp, from: "Janus") { return outbox.emit(.failed(error)) }
            if step == .publish, let error = refusedVideo(answer: sdp) { return outbox.emit(.failed(error)) }
            published = step == .publish
            phase = .established
            outbox.emit(.answer(sdp))
        case .start:
            phase = .established
            outbox.emit(.notice("Janus: VideoRoom subscription started"))
        case .keepalive, .trickle, .hangup, .unpublish, .leave, .destroyRoom, .detach, .destroy, .restart:
            return
        }
    }

    private var offerJSEP: JSONValue { .object(["type": "offer", "sdp": .string(offer ?? "")]) }

    private mutating func beginPlugin(now: Instant) {
        switch plugin {
        case .echoTest(let videoCodec):
            send(.echo, ["janus": "message", "body": JanusPlugin.echoBody(videoCodec: videoCodec), "jsep": offerJSEP], now: now)
        case .videoRoomPublisher(let room, _, _, _):
            guard room == nil else { return joinAsPublisher(now: now) }
            createRoom(now: now)
        case .videoRoomSubscriber(let room, _):
            send(.join, ["janus": "message", "body": plugin.joinBody(room: room) ?? .null], now: now)
        }
    }

    /// VideoRoom `create` with the publisher's `createOptions`, and the room's id when it
    /// has one (Janus otherwise picks it).
    private mutating func createRoom(now: Instant) {
        guard case .videoRoomPublisher(let room, let options, _, _) = plugin else { return }
        send(.createRoom, ["janus": "message", "body": JanusPlugin.createRoomBody(room: room, options: options)], now: now)
    }

    /// A publisher of a named room that Janus does not have creates it with its own
    /// options and joins it: `join` answered 426 "No such room" leads to `create`, and
    /// `create` answered 427 "Room already exists" (another publisher was first) to `join`
    /// (Janus VideoRoom API, error codes JANUS_VIDEOROOM_ERROR_NO_SUCH_ROOM and
    /// JANUS_VIDEOROOM_ERROR_ROOM_EXISTS). Whether it took the error that way.
    private mutating func createsNamedRoom(after step: Step, errorCode: Int64?, now: Instant) -> Bool {
        guard case .videoRoomPublisher(let room?, _, _, _) = plugin, case .settingUp = phase else { return false }
        switch (step, errorCode) {
        case (.join, 426) where !createdRoom:
            createRoom(now: now)
        case (.createRoom, 427):
            roomID = room
            joinAsPublisher(now: now)
        default:
            return false
        }
        return true
    }

    private mutating func joinAsPublisher(now: Instant) {
        guard case .videoRoomPublisher = plugin, let roomID, let body = plugin.joinBody(room: roomID) else { return }
        send(.join, ["janus": "message", "body": body], now: now)
    }

    private mutating func failShape(_ step: Step, _ message: JanusMessage) {
        outbox.fail(.badAnswer, "Janus answered \(step.rawValue) without what it needs: \(CallSetupOutbox.quote(Array(message.json.serialized.utf8)))")
    }

    /// A step that failed: the call fails during setup; a teardown moves on.
    mutating func stepFailed(_ step: Step, _ message: String, code: CallSetupError.Code, now: Instant) {
        switch (phase, step) {
        case (.tearingDown, _):
            outbox.emit(.notice(message))
            if teardown.first == step { finishTeardownStep(step, now: now) }
        case (_, .keepalive), (_, .trickle):
            outbox.emit(.notice(message))
        default:
            phase = .done
            outbox.fail(code, message)
        }
    }

    // MARK: Teardown

    mutating func beginTeardown(now: Instant) {
        phase = .tearingDown
        pending = [:]
        guard sessionID != nil else {
            phase = .done
            return outbox.emit(.closed)
        }
        if handleID != nil {
            switch plugin {
            case .echoTest: teardown = [.hangup, .detach]
            case .videoRoomPublisher:
                teardown = (published ? [.unpublish] : []) + (joined ? [.leave] : []) + (createdRoom ? [.destroyRoom] : [])
            case .videoRoomSubscriber: teardown = joined ? [.leave] : []
            }
        }
        teardown.append(.destroy)
        sendTeardownStep(now: now)
    }

    private mutating func finishTeardownStep(_ step: Step, now: Instant) {
        guard teardown.first == step else { return }
        teardown.removeFirst()
        if step == .destroy {
            phase = .done
            return outbox.emit(.closed)
        }
        sendTeardownStep(now: now)
    }

    private mutating func sendTeardownStep(now: Instant) {
        guard let step = teardown.first else { return }
        switch step {
        case .hangup: send(.hangup, ["janus": "hangup"], now: now)
        case .detach: send(.detach, ["janus": "detach"], now: now)
        case .destroy:
            destroySent = true
            send(.destroy, ["janus": "destroy"], now: now)
        case .unpublish: send(.unpublish, ["janus": "message", "body": .object(["request": "unpublish"])], now: now)
        case .leave: send(.leave, ["janus": "message", "body": .object(["request": "leave"])], now: now)
        case .destroyRoom:
            send(.destroyRoom, ["janus": "message", "body": JanusPlugin.destroyRoomBody(room: roomID ?? 0)], now: now)
        default: return
        }
    }
}
