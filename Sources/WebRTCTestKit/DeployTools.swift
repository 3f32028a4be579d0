import Foundation

/// The tools that check deploy/ offline, from the venv scripts/run-tests.sh makes from
/// deploy/requirements.txt: kubernetes-validate and the PyYAML it brings, through which
/// tests read the manifests as Kubernetes would.
public enum DeployTools {
    public static let venv = ExternalTool.repositoryRoot.appendingPathComponent(".venv-deploy")

    /// `kubernetes-validate`, or a skip (a failure under CI) naming how to install it.
    public static func kubernetesValidate(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try ExternalTool.requireFile(venv.appendingPathComponent("bin/kubernetes-validate").path,
                                     installHint: "scripts/run-tests.sh installs it from deploy/requirements.txt", file: file, line: line)
    }

    /// Every YAML document in `path` (relative to the checkout) as JSON objects.
    public static func yamlDocuments(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let python = try ExternalTool.requireFile(venv.appendingPathComponent("bin/python").path,
                                                  installHint: "scripts/run-tests.sh makes it from deploy/requirements.txt",
                                                  file: file, line: line)
        let script = "import json, sys, yaml; print(json.dumps([d for d in yaml.safe_load_all(open(sys.argv[1])) if d]))"
        let result = try ExternalTool.run(python, ["-c", script, ExternalTool.repositoryRoot.appendingPathComponent(path).path])
        guard result.status == 0, let documents = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] else {
            throw ManifestError(description: "\(path) is not YAML: \(result.output)")
        }
        return documents
    }

    public struct ManifestError: Error, CustomStringConvertible {
        public let description: String
    }
}
