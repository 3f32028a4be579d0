import RTCBase
import Foundation

/// Reads a scenario the way `rtcswarm validate` and `run` do: environment variables
/// substituted, JSON5 parsed, `--set` overrides applied, every key checked against the
/// model, values validated. Any problem is one `ScenarioError` naming the field.
public struct LoadedScenario: Sendable {
    public let scenario: Scenario
    /// The document after environment substitution and overrides: what actually runs.
    public let resolved: JSONValue
    /// Every key path the model asked for while decoding, like `groups[].media.video.codec`.
    public let knownKeyPaths: Set<String>
}

public enum ScenarioLoader {
    public static func load(file path: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                            overrides: [String] = []) throws(ScenarioError) -> LoadedScenario {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ScenarioError(path: "", "cannot read \(path): \(FileProblem.describe(error))")
        }
        let loaded: LoadedScenario
        do {
            loaded = try load(text: text, environment: environment, overrides: overrides)
        } catch {
            throw ScenarioError(path: error.path, error.path.isEmpty ? "\(path): \(error.message)" : error.message)
        }
        try checkMediaFilesExist(loaded.scenario)
        return loaded
    }

    /// Each `media.video.file` is read when the run starts, from the current folder; a
    /// missing one is found here, by `validate`, rather than by every worker.
    static func checkMediaFilesExist(_ scenario: Scenario) throws(ScenarioError) {
        for (index, group) in scenario.groups.enumerated() {
            guard let file = group.media?.video?.file else { continue }
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder)
            try check(exists && !isFolder.boolValue, "groups[\(index)].media.video.file",
                      "\"\(file)\" \(exists ? "is a folder" : "does not exist") (paths are relative to the folder rtcswarm runs in, "
                      + "\(FileManager.default.currentDirectoryPath))")
        }
    }

    public static func load(text: String, environment: [String: String] = [:], overrides: [String] = []) throws(ScenarioError) -> LoadedScenario {
        let substituted: String
        do {
            substituted = try EnvironmentSubstitution.apply(to: text, environment: environment)
        } catch {
            throw ScenarioError(path: "", error.description)
        }
        let document: JSONValue
        do {
            document = try JSON5Parser.parse(substituted)
        } catch {
            throw ScenarioError(path: "", "not valid JSON5: \(error.description)")
        }
        let overridden = try Overrides.apply(overrides, to: document)
        let (scenario, state) = try StrictDecoding.decode(Scenario.self, from: overridden)
        try scenario.validate()
        return LoadedScenario(scenario: scenario, resolved: overridden, knownKeyPaths: Set(state.requestedKeys.flatMap { path, keys in
            keys.map { Self.generic(path.isEmpty ? $0 : "\(path).\($0)") }
        }))
    }

    /// `groups[3].media` -> `groups[].media`: the shape of a path, without indices.
    static func generic(_ path: String) -> String {
        var output = ""
        var skipping = false
        for character in path {
            if character == "[" {
                skipping = true
                output += "[]"
            } else if character == "]" {
                skipping = false
            } else if !skipping {
                output.append(character)
            }
        }
        return output
    }
}
