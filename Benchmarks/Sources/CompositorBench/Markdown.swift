import Foundation

/// Scenes whose content is rasterized again every frame: the raw-pixman floor replays only their
/// composites, so their cost over the floor is rasterization, not framework overhead.
let rasterizingScenes: Set<String> = ["text board", "text board (damage)", "path shapes", "stroke-only shapes"]

func signedBytes(_ bytes: Int) -> String {
    let sign = bytes < 0 ? "−" : "+"
    let magnitude = abs(bytes)
    if magnitude < 1024 { return "\(sign)\(magnitude) B" }
    if magnitude < 1 << 20 { return String(format: "%@%.1f KiB", sign, Double(magnitude) / 1024) }
    return String(format: "%@%.1f MiB", sign, Double(magnitude) / 1_048_576)
}

func cell(_ m: Measurement?) -> String {
    guard let m else { return "" }
    if m.unsupported != nil { return "n/a" }
    return String(format: m.framesPerSecond >= 100 ? "%.0f (%.0f)" : "%.1f (%.0f)", m.framesPerSecond, m.megapixelsPerSecond)
}

/// `a` over `b`: the median of the rounds' ratios (`PairedRatio`).
func ratio(_ a: Measurement?, _ b: Measurement?) -> String {
    guard let a, let b, let r = PairedRatio(a, over: b) else { return "" }
    return String(format: "%.2fx", r.median)
}

/// `a` over `b` with the lowest and highest round's ratio, when there were several rounds.
func ratioWithSpread(_ a: Measurement?, _ b: Measurement?) -> String {
    guard let a, let b, let r = PairedRatio(a, over: b) else { return "" }
    return r.rounds > 1 ? String(format: "%.2fx (%.2f-%.2f)", r.median, r.lowest, r.highest) : String(format: "%.2fx", r.median)
}

func milliseconds(_ m: Measurement?) -> String {
    guard let m, m.framesPerSecond > 0 else { return m?.unsupported != nil ? "n/a" : "" }
    return String(format: m.millisecondsPerFrame >= 10 ? "%.1f" : "%.2f", m.millisecondsPerFrame)
}

/// The whole report as markdown.
public func renderMarkdown(_ report: Report, drawers: [String], allCores: String, allCoresMemcpy: String? = nil) -> String {
    var out: [String] = []
    func line(_ s: String = "") { out.append(s) }
    line("# Compositor throughput: LayerKit beside cairo, raw pixman and memcpy")
    line()
    line("Measured on \(report.machine.summary). \(report.build == "release" ? "Release build" : "A \(report.build) build: its numbers mean little").")
    line("Each cell is frames per second")
    line("(megapixels per second), the median of \(report.rounds) round(s) of \(report.secondsPerMeasurement) s;")
    line("in each round every renderer draws in turn, so all see the same machine. A ratio (÷) is the")
    line("median of the rounds' own ratios: both drawers of a round saw the same state of the machine.")
    line()

    let resolutions = report.measurements.filter { $0.table == "main" }.map(\.resolution).uniqued()
    let hasAllCores = drawers.contains(allCores) && report.measurements.contains { $0.drawer == allCores }
    let memcpyCores = allCoresMemcpy.flatMap { name in report.measurements.contains { $0.drawer == name } ? name : nil }
    for resolution in resolutions {
        let rows = report.measurements.filter { $0.table == "main" && $0.resolution == resolution }
        line("## \(resolution)")
        line()
        var header = "| scene | LayerKit 1 core |"
        if hasAllCores { header += " \(allCores) |" }
        header += " \(cairoFromScratch) | \(cairoBitmaps) | raw pixman | memcpy | LayerKit ÷ cairo from scratch | LayerKit cost ÷ pixman floor |"
        if hasAllCores { header += " all cores ÷ 1 |" }
        if memcpyCores != nil { header += " memcpy: all cores ÷ 1 |" }
        line(header)
        line("|" + String(repeating: "---|", count: 1) + String(repeating: "---:|", count: header.filter { $0 == "|" }.count - 2))
        for scene in rows.map(\.scene).uniqued() {
            let get = { (d: String) in report.find("main", scene, resolution, d) }
            var row = "| \(scene) | \(cell(get("LayerKit 1 core"))) |"
            if hasAllCores { row += " \(cell(get(allCores))) |" }
            row += " \(cell(get(cairoFromScratch))) | \(cell(get(cairoBitmaps))) | \(cell(get("raw pixman"))) | \(cell(get("memcpy"))) |"
            row += " \(ratio(get("LayerKit 1 core"), get(cairoFromScratch))) |"
            let floor = ratio(get("raw pixman"), get("LayerKit 1 core"))
            row += " \(floor)\(rasterizingScenes.contains(scene) && !floor.isEmpty ? " ¹" : "") |"
            if hasAllCores { row += " \(ratio(get(allCores), get("LayerKit 1 core"))) |" }
            if let memcpyCores { row += " \(ratio(get(memcpyCores), get("memcpy"))) |" }
            line(row)
        }
        line()
    }
    if !resolutions.isEmpty {
        line("\(cairoFromScratch): cairo draws each frame as a cairo program would (vectors, text, images,")
        line("its own shadow blurs); the targets are judged against it. \(cairoBitmaps): cairo composites")
        line("the bitmaps LayerKit composites (its stores, images, pre-blurred shadows), which is not how a")
        line("cairo program draws and is slower than the vectors where stores sit at fractional offsets.")
        line("LayerKit ÷ cairo above 1 means LayerKit draws more frames; the cost ÷ floor is LayerKit's time")
        line("per frame over the time pixman alone takes for the same composites. \"clock tick\" frames go")
        line("through damage tracking (LayerKit repaints what the hands moved through; cairo redraws the")
        line("whole clock, which is an immediate-mode program's tick). n/a: cairo's matrices are affine, so")
        line("it cannot draw the perspective scenes. ¹ LayerKit rasterizes these scenes' paths or text every")
        line("frame; the floor only replays the composites, so the ratio is rasterization cost, not")
        line("framework overhead.")
        if hasAllCores {
            line("LayerKit on all cores submits its frames back to back (`Renderer.submit`): each frame paints")
            line("on the helpers while the next is prepared and updated; the last is waited for in the time.")
            line("One core renders and waits (`render`), which is the same there.")
        }
        if memcpyCores != nil {
            line("memcpy: all cores ÷ 1 is what copying a frame gains from all cores on this machine, measured")
            line("beside each scene (the copy split in bands as LayerKit paints): a frame bound by memory")
            line("traffic cannot scale further than that.")
        }
        line()
    }

    if !report.targets.isEmpty {
        line("## Targets")
        line()
        line("| from | target | measured | met | note |")
        line("|---|---|---|---|---|")
        for t in report.targets {
            line("| \(t.source) | \(t.target) | \(t.measured) | \(t.met.map { $0 ? "yes" : "**no**" } ?? "—") | \(t.note) |")
        }
        line()
    }

    let layerRows = report.measurements.filter { $0.table == "main" && $0.resolution == "1080p" && $0.scene.hasSuffix(" layers") }
    if !layerRows.isEmpty {
        line("## Scaling: layer count (1080p, milliseconds per frame)")
        line()
        line("| layers | LayerKit 1 core | µs per layer | raw pixman | cairo from scratch | with shadows: LayerKit 1 core | raw pixman |")
        line("|---:|---:|---:|---:|---:|---:|---:|")
        for scene in layerRows.map(\.scene).uniqued() {
            let n = Int(scene.split(separator: " ")[0]) ?? 1
            let get = { (s: String, d: String) in report.find("main", s, "1080p", d) }
            let lk = get(scene, "LayerKit 1 core")
            let perLayer = lk.map { String(format: "%.2f", $0.millisecondsPerFrame * 1000 / Double(n)) } ?? ""
            line("| \(n) | \(milliseconds(lk)) | \(perLayer) | \(milliseconds(get(scene, "raw pixman"))) | \(milliseconds(get(scene, cairoFromScratch))) | "
                 + "\(milliseconds(get(scene + " + shadows", "LayerKit 1 core"))) | \(milliseconds(get(scene + " + shadows", "raw pixman"))) |")
        }
        line()
    }

    let damageRows = report.measurements.filter { $0.table == "damage" }
    if !damageRows.isEmpty {
        line("## Scaling: damaged area (1080p, one core, milliseconds per frame)")
        line()
        line("A full-frame picture with one rectangle moving a pixel a frame; the damage is the rectangle.")
        line()
        line("| damaged area | LayerKit, damage | LayerKit, full frame | raw pixman, full frame | damage speed-up |")
        line("|---:|---:|---:|---:|---:|")
        for scene in damageRows.map(\.scene).uniqued() {
            let get = { (d: String) in report.find("damage", scene, "1080p", d) }
            line("| \(scene.replacingOccurrences(of: "damage ", with: "")) | \(milliseconds(get("LayerKit 1 core, damage"))) | "
                 + "\(milliseconds(get("LayerKit 1 core, full frame"))) | \(milliseconds(get("raw pixman"))) | "
                 + "\(ratio(get("LayerKit 1 core, damage"), get("LayerKit 1 core, full frame"))) |")
        }
        line()
    }

    let staticRows = report.measurements.filter { $0.table == "static" }
    if !staticRows.isEmpty {
        line("## Scaling: layers at rest + 3 moving (1080p, one core, through damage)")
        line()
        line("n layers at rest (16-32 points, half solid colours, half images, not turned) in one container,")
        line("three 96-point squares moving above them; each frame goes into the same bitmap with no")
        line("invalidate, so LayerKit repaints only what the three moved through. Goal: flat in n")
        line(String(format: "(judged: the largest n within %.1fx of the smallest).", flatInCountLimit))
        line()
        line("| layers at rest | ms per frame | damaged pixels per frame | ÷ cost at the smallest n |")
        line("|---:|---:|---:|---:|")
        let smallest = staticRows.first
        for m in staticRows {
            line("| \(m.scene.split(separator: " ")[0]) | \(milliseconds(m)) | \(m.damagedPixels.map(String.init) ?? "") | "
                 + "\(ratio(smallest, m)) |")
        }
        line()
    }

    let idleRows = report.measurements.filter { $0.table == "idle" }
    if let clock = idleRows.first(where: { $0.scene == "clock" }) {
        line("## Idle frames (1080p, one core)")
        line()
        line("The clock rendered again at the same time into the same bitmap, nothing changed, beside a full")
        line("frame of the same clock in the same rounds. Goal: an idle frame ≤ 1 % of a full frame.")
        line()
        line("| frame | µs per frame | pixels repainted | ÷ full frame |")
        line("|---|---:|---:|---:|")
        let micro = { (m: Measurement) in m.framesPerSecond > 0 ? String(format: "%.1f", 1e6 / m.framesPerSecond) : "" }
        line("| \(clock.scene), full frame | \(micro(clock)) | \(clock.width * clock.height) | 100 % |")
        for m in idleRows where m.scene != clock.scene {
            let fraction = m.framesPerSecond > 0 && clock.framesPerSecond > 0 ? clock.framesPerSecond / m.framesPerSecond : 0
            line(String(format: "| %@ | %@ | %@ | %.3f %% |", m.scene, micro(m), m.damagedPixels.map(String.init) ?? "",
                        fraction * 100))
        }
        line()
    }

    if let b = report.tickBreakdown {
        line("## Where the clock tick's time goes (\(b.resolution), one core)")
        line()
        line("Timed side by side in the same rounds through LayerKit's public API; the damage is the tick's")
        line(String(format: "own region: %d pixels in %d rectangles, %.1f %% of the frame.", b.damagedPixels, b.damageRects,
                    Double(b.damagedPixels) / Double(max(1, b.framePixels)) * 100))
        line()
        line("| part | ms per tick |")
        line("|---|---:|")
        line(String(format: "| the whole tick (`render(_:at:into:)`) | %.3f |", b.tickMilliseconds))
        line(String(format: "| snapshot, content pass and paint list (`composites(for:at:width:height:)`) | %.3f |", b.snapshotMilliseconds))
        line(String(format: "| damage and painting (the rest) | %.3f |", b.damageAndPaintMilliseconds))
        line(String(format: "| pixman alone: clearing and compositing the tick's %d composites within the damage (%@) | %.3f |",
                    b.compositesUnderDamage, b.floorDifferenceUnderDamage == 0 ? "the same pixels as LayerKit's"
                        : "pixels up to \(b.floorDifferenceUnderDamage) levels from LayerKit's", b.pixmanUnderDamageMilliseconds))
        for part in b.parts {
            line(String(format: "| pixman alone, only the %@ (%d composites; clearing included) | %.3f |",
                        part.category, part.composites, part.milliseconds))
        }
        line()
        line("The public API cannot split damage from painting, nor LayerKit's own painting by layer; that")
        line("would need \(b.missing).")
        line()
    }

    let resolutionRows = report.measurements.filter { $0.table == "resolution" }
    if !resolutionRows.isEmpty {
        line("## Scaling: resolution (full frames, megapixels per second)")
        line()
        line("| scene | resolution | LayerKit 1 core | \(hasAllCores ? allCores : "all cores") | raw pixman | ms per frame, 1 core |")
        line("|---|---|---:|---:|---:|---:|")
        for scene in resolutionRows.map(\.scene).uniqued() {
            for resolution in resolutionRows.filter({ $0.scene == scene }).map(\.resolution).uniqued() {
                let get = { (d: String) in report.find("resolution", scene, resolution, d) }
                let mp = { (m: Measurement?) in m.map { String(format: "%.0f", $0.megapixelsPerSecond) } ?? "" }
                line("| \(scene) | \(resolution) | \(mp(get("LayerKit 1 core"))) | \(mp(get(allCores))) | \(mp(get("raw pixman"))) | "
                     + "\(milliseconds(get("LayerKit 1 core"))) |")
            }
        }
        line()
    }

    if hasAllCores {
        line("## Scaling: cores (\(allCores.replacingOccurrences(of: "LayerKit ", with: "")) ÷ 1 core, full frames)")
        line()
        line("| scene | " + resolutions.joined(separator: " | ") + " |")
        line("|---|" + String(repeating: "---:|", count: resolutions.count))
        for scene in report.measurements.filter({ $0.table == "main" }).map(\.scene).uniqued() {
            // (In brackets: the lowest and highest round.)
            let cells = resolutions.map { r in
                ratioWithSpread(report.find("main", scene, r, allCores), report.find("main", scene, r, "LayerKit 1 core"))
            }
            line("| \(scene) | " + cells.joined(separator: " | ") + " |")
        }
        line()
    }

    if let soak = report.soak {
        line("## Memory soak")
        line()
        line("\(soak.frames) frames of the animated clock at \(soak.resolution) (60 frames a second of clock time,")
        line(String(format: "damage tracking, one core) in %.1f s. After 1000 warm-up frames → at the end:", soak.seconds))
        line()
        line("| | after warm-up | at the end | growth |")
        line("|---|---:|---:|---:|")
        line("| C heap in use | \(signedBytes(soak.heapBytesAfterWarmUp).dropFirst()) | \(signedBytes(soak.heapBytesAtEnd).dropFirst()) | \(signedBytes(soak.heapBytesAtEnd - soak.heapBytesAfterWarmUp)) |")
        line("| resident | \(signedBytes(soak.residentBytesAfterWarmUp).dropFirst()) | \(signedBytes(soak.residentBytesAtEnd).dropFirst()) | \(signedBytes(soak.residentBytesAtEnd - soak.residentBytesAfterWarmUp)) |")
        line("| cached backing stores | \(soak.cachedStoresAfterWarmUp) | \(soak.cachedStoresAtEnd) | \(soak.cachedStoresAtEnd - soak.cachedStoresAfterWarmUp) |")
        line("| cached bytes (stores and raster cache) | \(signedBytes(soak.cachedBytesAfterWarmUp).dropFirst()) | "
             + "\(signedBytes(soak.cachedBytesAtEnd).dropFirst()) | \(signedBytes(soak.cachedBytesAtEnd - soak.cachedBytesAfterWarmUp)) |")
        let raster = soak.rasterCacheBytes
        line("| raster cache (budget \(signedBytes(soak.rasterCacheBudget).dropFirst())) | \(signedBytes(raster.afterWarmUp).dropFirst()) | "
             + "\(signedBytes(raster.atEnd).dropFirst()) | \(signedBytes(raster.atEnd - raster.afterWarmUp)) |")
        line()
    }

    if !report.agreement.isEmpty {
        line("## Same pictures")
        line()
        line("Frame 0 of each scene drawn by each baseline, against LayerKit's: mean and largest channel")
        line("difference in 8-bit levels. The raw-pixman floor issues LayerKit's composites, so it must match")
        line("exactly; cairo draws with its own rasterizer, text and blur (from scratch) or its own filters")
        line("(LayerKit's bitmaps).")
        line()
        line("| scene | resolution | raw pixman | \(cairoFromScratch) | \(cairoBitmaps) |")
        line("|---|---|---:|---:|---:|")
        for key in report.agreement.map({ "\($0.scene)|\($0.resolution)" }).uniqued() {
            let parts = key.split(separator: "|").map(String.init)
            let get = { (d: String) -> String in
                guard let a = report.agreement.first(where: { $0.scene == parts[0] && $0.resolution == parts[1] && $0.drawer == d })
                else { return "n/a" }
                return a.largestDifference == 0 ? "identical" : String(format: "%.3f (max %d)", a.meanDifference, a.largestDifference)
            }
            line("| \(parts[0]) | \(parts[1]) | \(get("raw pixman")) | \(get(cairoFromScratch)) | \(get(cairoBitmaps)) |")
        }
        line()
    }
    return out.joined(separator: "\n")
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
