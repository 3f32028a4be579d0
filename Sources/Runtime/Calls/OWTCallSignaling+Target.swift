import Foundation
import Net
import Scenario
import Signaling

extension OWTCallSignaling {
    /// The portal client a `role` peer of an `owt` target runs: its token from the scenario,
    /// or from the REST API (signed with the wall clock now and a nonce from `seed`) as
    /// `presenter` for publishers and `viewer` for players and members, named by the peer's id.
    /// Players take the mixed stream or the `pick`-th forward one (`groups[].stream.from`).
    static func configuration(target: Target, role: PeerGroup.Role, portal: Endpoint, user: String, seed: UInt64,
                              groupIndex: Int) throws(TargetError) -> OWTPortalClient.Configuration {
        guard let owt = target.owt else { throw TargetError("groups[\(groupIndex)]: an owt target needs target.owt") }
        let credentials: OWTPortalClient.Configuration.Credentials
        if let token = owt.token {
            credentials = .token(token)
        } else if let serviceID = owt.serviceId, let serviceKey = owt.serviceKey {
            let rest = try TargetResolver.resolve(owt.restUrl ?? owt.portal).endpoint
            credentials = .rest(OWTRestToken(server: rest, serviceID: serviceID, serviceKey: serviceKey, room: owt.room ?? "", user: user,
                                             role: role == .publisher ? "presenter" : "viewer",
                                             timestampMilliseconds: Int64(Date().timeIntervalSince1970 * 1000), cnonce: Int(seed % 100_000)))
        } else {
            throw TargetError("target.owt: give a token, or service_id and service_key")  // validate() says so first
        }
        return OWTPortalClient.Configuration(credentials: credentials, portal: portal, engineIO: owt.engineIo == 4 ? .v4 : .v3, seed: seed)
    }

    static func role(_ role: PeerGroup.Role, from: StreamSettings.OWTSource?, pick: Int) -> Role {
        role == .publisher ? .publish : .subscribe(from == .mixed ? .mixed : .forward(pick: pick))
    }
}
