import Foundation
import WebRTCTestKit
import XCTest

/// The Python venv with the independent peers (python-socketio, aiohttp; later aiortc)
/// that scripts/run-tests.sh creates from Tests/Interop/requirements.txt.
enum PythonPeers {
    static func python() throws -> URL {
        try ExternalTool.require(ExternalTool.repositoryRoot.appendingPathComponent(".venv/bin/python").path,
                                 installHint: "scripts/run-tests.sh creates the venv from Tests/Interop/requirements.txt")
    }

    static func script(_ name: String) -> String {
        ExternalTool.repositoryRoot.appendingPathComponent("Tests/Interop/\(name)").path
    }
}
