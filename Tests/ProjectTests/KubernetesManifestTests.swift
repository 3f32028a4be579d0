import Foundation
import WebRTCTestKit
import XCTest

/// deploy/kubernetes cannot be applied here (no cluster), but every manifest is checked
/// against the Kubernetes API schemas offline, as written and as kustomize renders it.
final class KubernetesManifestTests: XCTestCase {
    static let manifests = ["deploy/kubernetes/pvc.yaml", "deploy/kubernetes/job-shards.yaml", "deploy/kubernetes/job-merge.yaml"]

    func testEveryManifestPassesStrictSchemaValidation() throws {
        let validate = try DeployTools.kubernetesValidate()
        let result = try ExternalTool.run(validate, ["--strict"] + Self.manifests, in: ExternalTool.repositoryRoot)
        XCTAssertEqual(result.status, 0, result.output)
        for resource in ["persistentvolumeclaim/rtcswarm-reports", "job/rtcswarm-shards", "job/rtcswarm-merge"] {
            XCTAssertTrue(result.output.contains("passed for resource \(resource)"), result.output)
        }
    }

    func testAMisspeltFieldIsRejected() throws {
        let validate = try DeployTools.kubernetesValidate()
        let job = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("deploy/kubernetes/job-shards.yaml"), encoding: .utf8)
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("job-\(UUID().uuidString).yaml")
        try Data(job.replacingOccurrences(of: "completionMode: Indexed", with: "completionMod: Indexed").utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        let result = try ExternalTool.run(validate, ["--strict", broken.path])
        XCTAssertNotEqual(result.status, 0, "a misspelt field must fail, or the test above proves nothing")
        XCTAssertTrue(result.output.contains("completionMod"), result.output)
    }

    func testTheIndexedJobRunsOneShardPerPodAndTakesNFromOnePlace() throws {
        let job = try XCTUnwrap(try DeployTools.yamlDocuments("deploy/kubernetes/job-shards.yaml").first)
        let spec = try XCTUnwrap(job["spec"] as? [String: Any])
        XCTAssertEqual(spec["completionMode"] as? String, "Indexed")
        let completions = try XCTUnwrap(spec["completions"] as? Int)
        XCTAssertEqual(spec["parallelism"] as? Int, completions)
        let pod = try XCTUnwrap((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        XCTAssertEqual(pod["hostNetwork"] as? Bool, true, "WebRTC's UDP on the node's addresses (docs/kubernetes.md)")
        let env = try XCTUnwrap(((pod["containers"] as? [[String: Any]])?.first)?["env"] as? [[String: Any]])
        XCTAssertEqual(env.first { $0["name"] as? String == "RTCSWARM_SHARDS" }?["value"] as? String, String(completions))
    }

    /// kustomize (in kubectl, where installed) copies N from `completions` to every other
    /// place; its output passes validation too.
    func testTheKustomizationRendersValidManifestsWithNCopiedEverywhere() throws {
        guard let kubectl = ExternalTool.find("kubectl") else { throw XCTSkip("kubectl (for kustomize) is not installed") }
        let validate = try DeployTools.kubernetesValidate()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kustomize-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ExternalTool.repositoryRoot.appendingPathComponent("deploy/kubernetes"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let job = folder.appendingPathComponent("job-shards.yaml")
        try Data(try String(contentsOf: job, encoding: .utf8).replacingOccurrences(of: "completions: 4", with: "completions: 7").utf8).write(to: job)
        let rendered = try ExternalTool.run(kubectl, ["kustomize", folder.path])
        XCTAssertEqual(rendered.status, 0, rendered.output)
        let out = folder.appendingPathComponent("rendered.yaml")
        try Data(rendered.output.utf8).write(to: out)
        XCTAssertTrue(rendered.output.contains("completions: 7\n  parallelism: 7"), rendered.output)
        XCTAssertEqual(rendered.output.components(separatedBy: "- name: RTCSWARM_SHARDS\n          value: \"7\"").count - 1, 2,
                       "both Jobs' RTCSWARM_SHARDS follow completions")
        XCTAssertTrue(rendered.output.contains("image: registry.example.com/rtcswarm:0.1.0"), rendered.output)
        let result = try ExternalTool.run(validate, ["--strict", out.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("passed for resource job/rtcswarm-shards"), result.output)
        XCTAssertTrue(result.output.contains("passed for resource configmap/rtcswarm-scenario"), result.output)
    }
}
