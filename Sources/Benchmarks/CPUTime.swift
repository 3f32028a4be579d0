#if canImport(Glibc)
import Glibc
#endif

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
