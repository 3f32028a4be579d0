import RTCBase

/// Typed access to the attributes protocols look at most (the first of each type).
extension StunMessage {
    public var username: String? {
        if case .username(let value)? = first(StunAttribute.TypeCode.username) { return value }
        return nil
    }

    public var realm: String? {
        if case .realm(let value)? = first(StunAttribute.TypeCode.realm) { return value }
        return nil
    }

    public var nonce: String? {
        if case .nonce(let value)? = first(StunAttribute.TypeCode.nonce) { return value }
        return nil
    }

    public var errorCode: StunErrorCode? {
        if case .errorCode(let value)? = first(StunAttribute.TypeCode.errorCode) { return value }
        return nil
    }

    /// XOR-MAPPED-ADDRESS, or MAPPED-ADDRESS from an old server.
    public var mappedAddress: SocketAddress? {
        if case .xorMappedAddress(let value)? = first(StunAttribute.TypeCode.xorMappedAddress) { return value }
        if case .mappedAddress(let value)? = first(StunAttribute.TypeCode.mappedAddress) { return value }
        return nil
    }

    public var xorRelayedAddress: SocketAddress? {
        if case .xorRelayedAddress(let value)? = first(StunAttribute.TypeCode.xorRelayedAddress) { return value }
        return nil
    }

    public var xorPeerAddress: SocketAddress? {
        if case .xorPeerAddress(let value)? = first(StunAttribute.TypeCode.xorPeerAddress) { return value }
        return nil
    }

    public var priority: UInt32? {
        if case .priority(let value)? = first(StunAttribute.TypeCode.priority) { return value }
        return nil
    }

    public var useCandidate: Bool { has(StunAttribute.TypeCode.useCandidate) }

    public var iceControlling: UInt64? {
        if case .iceControlling(let value)? = first(StunAttribute.TypeCode.iceControlling) { return value }
        return nil
    }

    public var iceControlled: UInt64? {
        if case .iceControlled(let value)? = first(StunAttribute.TypeCode.iceControlled) { return value }
        return nil
    }

    public var lifetime: UInt32? {
        if case .lifetime(let value)? = first(StunAttribute.TypeCode.lifetime) { return value }
        return nil
    }

    public var channelNumber: UInt16? {
        if case .channelNumber(let value)? = first(StunAttribute.TypeCode.channelNumber) { return value }
        return nil
    }

    public var data: [UInt8]? {
        if case .data(let value)? = first(StunAttribute.TypeCode.data) { return value }
        return nil
    }
}
