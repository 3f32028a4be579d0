import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The machine in one line for a report header: "Linux 6.1.0-28-amd64 x86_64, 2 cores, 7.7 GiB".
enum MachineDescription {
    static var current: String {
        var names = utsname()
        uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
        return "\(text(names.sysname)) \(text(names.release)) \(text(names.machine)), \(ProcessInfo.processInfo.processorCount) cores, "
            + String(format: "%.1f GiB", memory)
    }
}
