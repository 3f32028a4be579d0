#if canImport(Glibc)
import Glibc
#endif

/// User + system CPU seconds used by this process so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return seconds(usage)
}

/// CPU seconds used by the calling thread so far (`CLOCK_THREAD_CPUTIME_ID`): what one
/// event loop or one measured phase costs, apart from the other threads.
///
/// Not `getrusage(RUSAGE_THREAD)`: for a thread that is running, the kernel adds its
/// current slice only at the next tick, so laps of a few milliseconds read 0 or 4 ms.
/// The thread clock includes the running slice to the nanosecond.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

private func seconds(_ usage: rusage) -> Double {
    Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}
