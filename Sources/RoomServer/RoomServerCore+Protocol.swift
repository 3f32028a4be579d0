import Net
import RTCBase
import Signaling

extension RoomServerCore {
    /// Moves a connection forward: its events are handled, its output queued, and a
    /// finished connection is closed and its rooms told `bye`.
    mutating func pump(_ connection: RoomServerConnection, now: Instant) {
        drainHTTP(connection)
        guard connection.webSocket != nil else {
            if connection.http.isClosed { finish(connection, now: now) }
            return
        }
        while let event = connection.webSocket?.pollEvent() {
            switch event {
            case .text(let text):
                if connection.transport == .plain {
                    handlePlain(text, from: connection, now: now)
                } else {
                    connection.session?.handle(.text(text), now: now)
                }
            case .binary(let bytes):
                if connection.transport == .plain {
                    reply(.error(code: "bad_request", message: "send JSON text frames"), to: connection, now: now)
                } else {
                    connection.session?.handle(.binary(bytes), now: now)
                }
            case .pong:
                break
            case .closed(let code, let reason, _):
                connection.session?.handleClosed(reason: "WebSocket closed \(code) \(reason)")
                if code == 1009 { stats.reject("message_too_large") }
            }
        }
        while let event = connection.session?.pollEvent() {
            switch event {
            case .connected(_, let socketID, _):
                connection.memberID = socketID
                members[socketID] = connection.id
            case .event(let message):
                guard let name = message.name,
                      let roomMessage = RoomMessage(socketIOEvent: name, arguments: message.args, names: configuration.events)
                else {
                    reply(.error(code: "bad_request", message: "unknown event \(message.name ?? "?"); send join, leave or message"),
                          to: connection, now: now)
                    continue
                }
                handle(roomMessage, from: connection, now: now)
            case .disconnected:
                // The client left the namespace (41) but may stay connected: its rooms hear bye.
                removeMember(of: connection, now: now)
            case .ack, .closed:
                break
            }
        }
        flushOutgoing(connection, now: now)
    }

    /// Queues what a connection's session and WebSocket have to send; closes it when done.
    mutating func flushOutgoing(_ connection: RoomServerConnection, now: Instant) {
        while let output = connection.session?.pollOutput() {
            connection.webSocket?.perform(output, now: now)
        }
        while let bytes = connection.webSocket?.pollTransmit() {
            outputs.append(.write(connection.id, bytes))
        }
        if connection.webSocket?.isClosed == true { finish(connection, now: now) }
    }

    private mutating func drainHTTP(_ connection: RoomServerConnection) {
        while let bytes = connection.http.pollTransmit() {
            outputs.append(.write(connection.id, bytes))
        }
    }

    private mutating func handlePlain(_ text: String, from connection: RoomServerConnection, now: Instant) {
        guard let value = try? JSONValue(parsing: text), let message = RoomMessage(plainJSON: value, names: configuration.events) else {
            stats.reject("bad_request")
            reply(.error(code: "bad_request", message: "expected {\"event\": \"join\"|\"leave\"|\"message\", \"room\": ...}"),
                  to: connection, now: now)
            return
        }
        handle(message, from: connection, now: now)
    }

    /// The room protocol itself (PROTOCOLS.md section 3), with membership checks.
    mutating func handle(_ message: RoomMessage, from connection: RoomServerConnection, now: Instant) {
        guard let member = connection.memberID else { return }
        if let (code, text) = rateRefusal(connection, now: now) {
            stats.reject(code)
            connection.rateViolations += 1
            if connection.rateViolations >= configuration.maxRateViolations {
                connection.session?.close("rate limit exceeded", code: 1008)
                if connection.session == nil { connection.webSocket?.close(code: 1008, reason: "rate limit exceeded", now: now) }
            } else {
                reply(.error(code: code, message: text), to: connection, now: now)
            }
            return
        }
        connection.rateViolations = 0
        switch message {
        case .join(let room):
            guard !room.isEmpty, room.utf8.count <= 256 else {
                return refuse("bad_request", "room names are 1 to 256 bytes", connection, now)
            }
            switch registry.join(member, room: room) {
            case .joined(let others):
                stats.joins += 1
                send(.joined(room: room, id: member), toMember: member, now: now)
                for other in others { send(.otherJoined(room: room, id: member), toMember: other, now: now) }
            case .full:
                stats.fulls += 1
                send(.full(room: room, id: member), toMember: member, now: now)
            case .alreadyMember:
                refuse("already_member", "already in room \(room)", connection, now)
            case .tooManyRooms:
                refuse("too_many_rooms", "the server holds its limit of \(configuration.maxRooms) rooms", connection, now)
            }
        case .leave(let room):
            guard let remaining = registry.leave(member, room: room) else {
                return refuse("not_member", "cannot leave \(room): not a member", connection, now)
            }
            stats.leaves += 1
            send(.leaved(room: room, id: member), toMember: member, now: now)
            for other in remaining { send(.bye(room: room, id: member), toMember: other, now: now) }
        case .message(let room, _):
            guard registry.isMember(member, of: room) else {
                return refuse("not_member", "only members of \(room) may send it messages; join first", connection, now)
            }
            for other in registry.members(of: room) where other != member {
                send(message, toMember: other, now: now)
                stats.messagesRelayed += 1
                stats.messagesRelayedByRoom[room, default: 0] += 1
            }
        case .joined, .otherJoined, .full, .leaved, .bye, .error:
            refuse("bad_request", "clients send join, leave or message", connection, now)
        }
    }

    /// The limit a message is over, if any: its connection's rate, then its address's
    /// over all that address's connections (so reconnecting buys no fresh allowance).
    private mutating func rateRefusal(_ connection: RoomServerConnection, now: Instant) -> (code: String, text: String)? {
        guard connection.bucket.take(now: now) else {
            return ("rate_limited", "more than \(Int(configuration.maxMessagesPerSecond)) messages per second")
        }
        guard let rate = configuration.maxMessagesPerSecondPerAddress else { return nil }
        var bucket = addressBuckets[connection.address] ?? TokenBucket(rate: rate, burst: rate * 2, now: now)
        defer { addressBuckets[connection.address] = bucket }
        guard bucket.take(now: now) else {
            return ("address_rate_limited", "more than \(Int(rate)) messages per second from \(connection.address) over all its connections")
        }
        return nil
    }

    private mutating func refuse(_ code: String, _ text: String, _ connection: RoomServerConnection, _ now: Instant) {
        stats.reject(code)
        reply(.error(code: code, message: text), to: connection, now: now)
    }

    private mutating func send(_ message: RoomMessage, toMember member: String, now: Instant) {
        guard let id = members[member], let connection = connections[id] else { return }
        reply(message, to: connection, now: now)
    }

    private mutating func reply(_ message: RoomMessage, to connection: RoomServerConnection, now: Instant) {
        if connection.session != nil {
            connection.session?.emit(message.eventName(configuration.events), message.socketIOArguments)
        } else {
            connection.webSocket?.send(text: message.plainJSON(configuration.events).serialized)
        }
        flushOutgoing(connection, now: now)
    }

    /// The connection is over: closed on our side (at once when `droppingUnsent`, else
    /// after what is queued), and its rooms told `bye`.
    mutating func finish(_ connection: RoomServerConnection, now: Instant, droppingUnsent: Bool = false) {
        guard !connection.closed else { return }
        outputs.append(droppingUnsent ? .abort(connection.id) : .close(connection.id))
        connection.closed = true
        connections[connection.id] = nil
        stats.connections = connections.count
        removeMember(of: connection, now: now)
    }

    /// Takes a connection's member out of every room; the others in them hear `bye`.
    private mutating func removeMember(of connection: RoomServerConnection, now: Instant) {
        guard let member = connection.memberID else { return }
        connection.memberID = nil
        members[member] = nil
        for (room, remaining) in registry.remove(member) {
            for other in remaining {
                send(.bye(room: room, id: member), toMember: other, now: now)
                stats.byesOnDisconnect += 1
            }
        }
    }
}
