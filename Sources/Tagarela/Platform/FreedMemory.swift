import Foundation
#if canImport(Glibc)
import CMalloc
#endif

/// Hands memory that request threads have freed back to the system, every second.
///
/// glibc gives each busy thread its own malloc arena and returns an arena's free memory only from its
/// top: cached pages that die while a newer one sits above them stay resident. After a bench/mixed
/// run the request threads' arenas held about 15 MB each with under 100 KB in use (`malloc_stats`),
/// and resident memory grew from run to run; `malloc_trim(0)` brought it from 47 to 20 MB of heap.
public enum FreedMemory {
    /// Lets the threads share at most one malloc arena per core, where glibc's default allows eight per
    /// core. Each arena holds pages that are partly in use, which `malloc_trim` cannot give back, and
    /// more arenas hold more of them. With the default, a two-minute mix at ten times the clinic held
    /// 145–155 MB resident; with two arenas on two cores it held 135–144 MB, at the same CPU cost per
    /// request (docs/decisions/README.md). Call this before the server's threads start; it returns whether
    /// glibc took the setting.
    @discardableResult
    public static func limitArenas(to count: Int = ProcessInfo.processInfo.activeProcessorCount) -> Bool {
        #if canImport(Glibc)
        return mallopt(M_ARENA_MAX, Int32(max(1, count))) == 1
        #else
        return false
        #endif
    }

    /// Starts a background thread that trims every `interval` for the life of the process.
    public static func startReturning(every interval: TimeInterval = 1) {
        #if canImport(Glibc)
        let thread = Thread {
            while true {
                Thread.sleep(forTimeInterval: interval)
                malloc_trim(0)
            }
        }
        thread.name = "tg-malloc-trim"
        thread.start()
        #endif
    }
}
