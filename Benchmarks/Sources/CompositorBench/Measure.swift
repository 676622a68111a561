import CCairoOracle
import CMallocInfo
import CPixman
import Foundation
import LayerKit

/// Frames drawn and the seconds they took.
public struct Sample: Codable, Sendable {
    public var frames: Int
    public var seconds: Double

    public init(frames: Int, seconds: Double) {
        self.frames = frames
        self.seconds = seconds
    }

    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
    public var millisecondsPerFrame: Double { frames > 0 ? seconds * 1000 / Double(frames) : 0 }
}

/// Monotonic seconds.
public func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Draws frames with `drawer` for at least `seconds` and `minimumFrames`, after `warmUp`
/// frames that are not timed (caches filled, pages touched, a damage history in place). The
/// time ends when the last frame is complete (`Drawer.finish()`).
public func measure(_ drawer: Drawer, seconds: Double, minimumFrames: Int = 3, warmUp: Int = 2,
                    startingAt first: Int = 0) -> Sample {
    var i = first
    for _ in 0..<warmUp { drawer.draw(frame: i); i += 1 }
    drawer.finish()
    let start = now()
    var frames = 0
    var elapsed = 0.0
    repeat {
        drawer.draw(frame: i)
        i += 1
        frames += 1
        elapsed = now() - start
    } while elapsed < seconds || frames < minimumFrames
    drawer.finish()
    return Sample(frames: frames, seconds: now() - start)
}

/// How far two frames are apart: the mean absolute difference of their channels (8-bit levels)
/// and the largest.
public func difference(_ a: [UInt32], _ b: [UInt32]) -> (mean: Double, largest: Int) {
    precondition(a.count == b.count)
    var total = 0, largest = 0
    for (p, q) in zip(a, b) where p != q {
        for shift in stride(from: 0, to: 32, by: 8) {
            let d = abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF))
            total += d
            largest = max(largest, d)
        }
    }
    return (Double(total) / Double(max(1, a.count * 4)), largest)
}

/// How far two pictures are apart at a coarser scale: the mean absolute difference (8-bit levels)
/// of their channels averaged over `block`×`block` squares. Glyphs placed a fraction of a pixel
/// apart by two text rasterizers barely count; a missing or misplaced shape still does.
public func coarseDifference(_ a: [UInt32], _ b: [UInt32], width: Int, block: Int = 4) -> Double {
    precondition(a.count == b.count && width > 0 && block > 0)
    let height = a.count / width
    var total = 0.0, count = 0
    for by in stride(from: 0, to: height - block + 1, by: block) {
        for bx in stride(from: 0, to: width - block + 1, by: block) {
            for shift in stride(from: 0, to: 32, by: 8) {
                var sa = 0, sb = 0
                for y in by..<by + block {
                    for x in bx..<bx + block {
                        sa += Int((a[y * width + x] >> UInt32(shift)) & 0xFF)
                        sb += Int((b[y * width + x] >> UInt32(shift)) & 0xFF)
                    }
                }
                total += Double(abs(sa - sb)) / Double(block * block)
                count += 1
            }
        }
    }
    return count > 0 ? total / Double(count) : 0
}

/// The process's resident memory in bytes (from /proc/self/statm).
public func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// What the numbers were measured on.
public struct Machine: Codable, Sendable {
    public var cpu: String
    public var cores: Int
    public var memoryGiB: Double
    public var system: String
    public var pixman: String
    public var cairo: String
    public var date: String

    public static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let pretty = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { String($0.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "Linux"
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return Machine(cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount,
                       memoryGiB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
                       system: pretty, pixman: String(cString: pixman_version_string()),
                       cairo: String(cString: cairo_version_string()), date: formatter.string(from: Date()))
    }

    public var summary: String {
        "\(cpu), \(cores) cores, \(memoryGiB) GiB, \(system); pixman \(pixman), cairo \(cairo); \(date)"
    }
}

/// Bytes the C heap has handed out and not taken back (glibc's `mallinfo2`): the arena's chunks
/// in use and the large blocks it maps on its own (frame-sized bitmaps among them).
public func heapBytes() -> Int {
    let info = mallinfo2()
    return Int(info.uordblks) + Int(info.hblkhd)
}
