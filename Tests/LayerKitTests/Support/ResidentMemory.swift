import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test process's peak resident memory so far, in bytes (getrusage's high-water mark: it
/// never goes down, so a test reads it before and after what it measures).
func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss * 1024          // kilobytes on Linux
    #else
    getrusage(RUSAGE_SELF, &usage)
    return usage.ru_maxrss                 // bytes on macOS
    #endif
}
