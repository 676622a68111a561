import ArgumentParser
import Foundation

/// A time of day written `HH:MM:SS` (24-hour) on the command line.
public struct TimeOfDay: ExpressibleByArgument, Equatable, Sendable {
    /// Seconds since midnight.
    public var seconds: TimeInterval

    /// Parses "09:30:15".
    public init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let h = parts[0], let m = parts[1], let s = parts[2],
              (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s) else { return nil }
        seconds = TimeInterval(h * 3600 + m * 60 + s)
    }
}

/// A time zone named by its identifier on the command line ("Europe/Berlin", "UTC").
public struct ZoneArgument: ExpressibleByArgument, Sendable {
    /// The zone.
    public var zone: TimeZone

    /// Parses an identifier TimeZone knows.
    public init?(argument: String) {
        guard let zone = TimeZone(identifier: argument) else { return nil }
        self.zone = zone
    }

    /// Wraps `zone`.
    public init(_ zone: TimeZone) { self.zone = zone }

    /// How help shows the default: "the system's, Europe/Berlin".
    public var defaultValueDescription: String { "the system's, \(zone.identifier)" }
}

/// The time a clock shows: now, or a fixed time of day for reproducible output.
public struct ClockTimeOptions: ParsableArguments {
    /// `--time`; nil: now.
    @Option(help: ArgumentHelp("Start at this time of day (24-hour) instead of now, for reproducible output.",
                               valueName: "HH:MM:SS"))
    public var time: TimeOfDay?

    /// `--timezone`.
    @Option(help: ArgumentHelp("The time zone of the current time.", valueName: "zone"))
    public var timezone = ZoneArgument(.current)

    /// The defaults (argument-parser fills in what the command line says).
    public init() {}

    /// Seconds since local midnight at which the clock starts.
    public func startTime(now: Date = Date()) -> TimeInterval {
        if let time { return time.seconds }
        return now.timeIntervalSince(startOfDay(now))
    }

    /// Local midnight of the day `now` falls on.
    public func startOfDay(_ now: Date = Date()) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timezone.zone
        return calendar.startOfDay(for: now)
    }
}
