#if canImport(Glibc)
import Glibc
#endif

/// CPU time and peak memory of this process (getrusage), for the harness's own figures.
public struct ProcessUsage: Sendable {
    public let cpuSeconds: Double
    public let maxResidentMegabytes: Double

    public static func current() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return ProcessUsage(cpuSeconds: user + system, maxResidentMegabytes: Double(usage.ru_maxrss) / 1024)
    }
}
