import Foundation

/// The arrays a thread's text layouts and coverage drawings reuse from one text to the next.
///
/// A board of figures that change every frame lays out and draws a hundred lines a frame; each
/// line's seven arrays, allocated and freed anew, cost about a fifth of its instructions.
/// A layout takes the arrays it fills from here (`take`), and the content pass gives a layout's
/// storage back once it has drawn it (`TextLayout.recycle()`). Taking leaves empty arrays
/// behind, so a layout made while another is under way on the same thread simply allocates.
/// Per thread, in a thread-specific slot (`ThreadSpecific`): no lock, and no storage shared
/// between the threads of a content pass.
///
/// The arrays are read and written only by their thread, so their accesses skip the runtime's
/// exclusivity checks (`@exclusivity(unchecked)`), which cost more than the swaps they guarded.
final class TextScratch {
    @exclusivity(unchecked) var glyphs: [TextLayout.PlacedGlyph] = []
    @exclusivity(unchecked) var lines: [Range<Int>] = []
    @exclusivity(unchecked) var styles: [TextLayout.Style] = []
    @exclusivity(unchecked) var shaped: [TextLayout.Shaped] = []
    @exclusivity(unchecked) var breaks: [(pieces: Range<Int>, endsParagraph: Bool)] = []
    @exclusivity(unchecked) var run = TextLayout.PlacedRun()

    /// Arrays of more elements than this are not kept: one huge text must not leave its storage
    /// behind on every thread that drew it.
    static let keptElements = 4096

    /// The calling thread's scratch, made on first use.
    static var current: TextScratch {
        if let scratch = slot.value { return scratch }
        let scratch = TextScratch()
        slot.set(scratch)
        return scratch
    }

    /// Kept for the thread, released when it exits.
    private static let slot = ThreadSpecific<TextScratch>()

    /// The (empty) array kept in `slot`; an empty array is left there.
    @inline(__always)
    static func take<Element>(_ slot: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &slot)
        return taken
    }

    /// Keeps `array`'s storage in `slot`, emptied (unless it is too large to keep, or no larger
    /// than what the slot holds).
    static func give<Element>(_ array: inout [Element], to slot: inout [Element]) {
        guard array.capacity <= keptElements, array.capacity > slot.capacity else { return }
        array.removeAll(keepingCapacity: true)
        swap(&array, &slot)
    }
}
