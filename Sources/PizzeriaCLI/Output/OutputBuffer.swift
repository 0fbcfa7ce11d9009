import Foundation

/// Bytes on their way to stdout, appended without the per-call checks of `[UInt8]` (uniqueness,
/// capacity, generic sequence paths): list output appends a few bytes at a time, tens of
/// thousands of times, and those checks were a quarter of `pizza list --json`.
///
/// A reference type so a ``JSONTextWriter`` and the list that flushes it share one buffer.
final class OutputBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    init(capacity: Int = 1 << 16) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Room for `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    func append(_ text: StaticString) { text.withUTF8Buffer { append($0) } }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

    /// `count` copies of `byte` (indentation, padding).
    func append(repeating byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        reserve(repeats)
        (base + count).initialize(repeating: byte, count: repeats)
        count += repeats
    }

    /// Forgets the bytes, keeping the memory.
    func removeAll() { count = 0 }

    /// The bytes written so far.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The bytes as text (they are UTF-8: everything appended is).
    var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}
