/// A one-line progress report on standard error, redrawn in place (`\r`), for long work on a
/// terminal (`backup`, `nav import`). Silent when standard error is not a terminal, so logs and
/// pipes get only the result.
final class ProgressLine {
    private let console: Console
    private let label: String
    private let enabled: Bool
    private var shownPercent = -1

    init(_ label: String, context: Context) {
        self.console = context.console
        self.label = label
        self.enabled = context.terminal.showsProgress
    }

    /// Shows `done` of `total` when the whole percentage changed.
    func update(_ done: Int, of total: Int, unit: String) {
        guard enabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != shownPercent else { return }
        shownPercent = percent
        console.errFormatted("\r\(label): \(percent)% (\(done) of \(total) \(unit))\u{1B}[K")
    }

    /// Clears the line (the result follows on stdout).
    func finish() {
        guard enabled, shownPercent >= 0 else { return }
        console.errFormatted("\r\u{1B}[K")
    }
}
