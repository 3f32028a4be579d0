import Foundation
import WebRTCTestKit
import XCTest

/// The Python venvs with the independent peers that scripts/run-tests.sh creates: `.venv`
/// from Tests/Interop/requirements.txt (python-socketio 5, aiohttp, aiortc), and
/// `.venv-eio3` from Tests/Interop/requirements-eio3.txt (python-socketio 4 with Engine.IO 3,
/// for the mock OWT portal on the protocol OWT's portals spoke).
enum PythonPeers {
    enum Venv: String {
        case current = ".venv", engineIO3 = ".venv-eio3"

        var requirements: String { self == .current ? "requirements.txt" : "requirements-eio3.txt" }
    }

    static func python(_ venv: Venv = .current) throws -> URL {
        try ExternalTool.require(ExternalTool.repositoryRoot.appendingPathComponent("\(venv.rawValue)/bin/python").path,
                                 installHint: "scripts/run-tests.sh creates \(venv.rawValue) from Tests/Interop/\(venv.requirements)")
    }

    static func script(_ name: String) -> String {
        ExternalTool.repositoryRoot.appendingPathComponent("Tests/Interop/\(name)").path
    }
}
