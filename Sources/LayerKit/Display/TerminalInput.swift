import CTerminal
import Foundation

/// A key typed into a terminal in raw mode, as far as a full-screen program cares.
enum TerminalKey: Hashable, Sendable {
    /// A character key: letters, digits, space, Enter ("\r"), …
    case character(Character)
    /// The Escape key on its own (not the start of an arrow or function key's sequence).
    case escape
    /// Ctrl-C (a byte, not a signal, in raw mode).
    case interrupt
    /// Any other key (arrows, function keys, other control keys): ignored by the presenter.
    case other

    /// The keys in `bytes`, read in one go from a raw terminal. An escape byte followed by `[`
    /// or `O` starts a key's sequence (up to its final byte); one at the end is the Escape key.
    static func parse(_ bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x1B:
                guard i + 1 < bytes.count else { keys.append(.escape); i += 1; continue }
                let next = bytes[i + 1]
                if next == UInt8(ascii: "[") {
                    // CSI: parameters and intermediates, then one final byte in 0x40…0x7E.
                    var end = i + 2
                    while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                    keys.append(.other)
                    i = end + 1
                } else if next == UInt8(ascii: "O") {
                    keys.append(.other)   // SS3: one more byte (F1–F4, keypad arrows)
                    i += 3
                } else if next == 0x1B {
                    keys.append(.escape)   // Escape pressed twice quickly
                    i += 1
                } else {
                    keys.append(.other)   // Alt+key
                    i += 2
                }
            case 0x03:
                keys.append(.interrupt)
                i += 1
            case 0x0D, 0x0A, 0x09, 0x20...0x7E:
                keys.append(.character(Character(UnicodeScalar(byte))))
                i += 1
            case 0x80...0xFF:
                // A UTF-8 sequence: its length from the lead byte.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = min(bytes.count, i + length)
                let text = String(decoding: bytes[i..<end], as: UTF8.self)
                keys.append(text.count == 1 && text != "\u{FFFD}" ? .character(text.first!) : .other)
                i = end
            default:
                keys.append(.other)
                i += 1
            }
        }
        return keys
    }
}

/// A terminal taken over by a full-screen program: keys read raw (no echo, no line editing),
/// and the signals that concern it — SIGWINCH, and SIGINT, SIGTERM and SIGHUP asking it to end —
/// delivered through a self-pipe, so that a loop can sleep in `poll` and still hear a key, a
/// resize or a request to end at once.
///
/// The signal handlers (C, in CTerminal) only write the signal's number to the pipe; a second
/// termination signal that arrives before the program restored the terminal restores it from
/// the handler and ends the process. One session can exist at a time (the handlers are
/// process-wide): `TerminalPresenter` owns it while it shows frames.
final class TerminalSession {
    /// Where keys are read from, if the program has a terminal for input.
    private(set) var inputDescriptor: Int32?
    private let signalDescriptor: Int32
    private var closed = false
    /// The input terminal hung up (closed): it is no longer polled, and counts as SIGHUP.
    private var hungUp = false

    /// What the session heard since it was last asked.
    struct Events {
        var keys: [TerminalKey] = []
        var resized = false
        /// SIGINT, SIGTERM or SIGHUP, if one arrived.
        var termination: Int32?
        var isEmpty: Bool { keys.isEmpty && !resized && termination == nil }
    }

    /// Starts the session: raw mode on `input` (when it is a terminal) and the signal handlers.
    ///
    /// - Parameters:
    ///   - restore: the escape sequence that gives the terminal back (main screen, cursor shown),
    ///     written by the handler only if the program cannot do it itself.
    /// - Throws: `DisplayError.cannotWrite` when the handlers cannot be installed.
    init(input: Int32?, output: Int32, restore: String) throws(DisplayError) {
        let signalDescriptor = restore.withCString { lk_terminal_signals_install(output, $0) }
        guard signalDescriptor >= 0 else {
            throw .cannotWrite(path: "the terminal", reason: "cannot watch for signals: \(String(cString: strerror(errno)))")
        }
        self.signalDescriptor = signalDescriptor
        if let input, isatty(input) != 0, lk_terminal_enter_raw(input) == 0 {
            inputDescriptor = input
        } else {
            inputDescriptor = nil
        }
    }

    deinit { close() }

    /// Restores the terminal's input settings and the previous signal handlers.
    func close() {
        guard !closed else { return }
        closed = true
        lk_terminal_restore_input()
        lk_terminal_signals_uninstall()
    }

    /// Reads what is waiting (never blocks).
    func read() -> Events {
        var events = Events()
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(signalDescriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            for signal in buffer[..<n] {
                if Int32(signal) == SIGWINCH { events.resized = true } else { events.termination = Int32(signal) }
            }
        }
        if let inputDescriptor {
            var bytes: [UInt8] = []
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(inputDescriptor, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                bytes += buffer[..<n]
            }
            events.keys = TerminalKey.parse(bytes)
        }
        if hungUp { events.termination = events.termination ?? SIGHUP }
        return events
    }

    /// Waits up to `seconds` for a key or a signal; true when one is waiting.
    func wait(seconds: TimeInterval) -> Bool {
        var descriptors = [pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0)]
        if let inputDescriptor { descriptors.append(pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)) }
        // poll's timeout is in whole milliseconds: round up, so a wait never ends early and spins.
        let milliseconds = Int32(min(max(0, (seconds * 1000).rounded(.up)), Double(Int32.max)))
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if descriptors.count > 1, descriptors[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            // The terminal is gone: polling it again would return at once, forever.
            hungUp = true
            inputDescriptor = nil
        }
        return ready > 0
    }
}
