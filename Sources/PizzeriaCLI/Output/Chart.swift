import PizzeriaServices

/// Horizontal bar charts for a terminal: `slots` (each slot's load against its capacity) and
/// `report sales --by pizza` (collected and booked per pizza). Only on a terminal; `--json`, `--csv` and piped output
/// never change. Colours only when allowed (`NO_COLOR`); a full slot is marked in words too.
enum Chart {
    private static let full = "█", empty = "░"

    private enum Color: String {
        case red = "31", yellow = "33", green = "32", bold = "1"
    }

    private static func paint(_ text: String, _ color: Color, on display: Terminal.Display) -> String {
        display.color ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// `filled` of `width` cells.
    private static func bar(_ value: Int, of maximum: Int, width: Int) -> (filled: String, rest: String) {
        let cells = maximum > 0 ? min(width, Int((Double(value) / Double(maximum) * Double(width)).rounded(.up))) : 0
        return (String(repeating: full, count: cells), String(repeating: empty, count: width - cells))
    }

    static func slots(_ slots: [SlotUsage], day: String, display: Terminal.Display) -> String {
        guard !slots.isEmpty else { return "No slots: the opening hours are shorter than one slot.\n" }
        let labels = slots.map(\.local)
        let counts = slots.map { "\($0.booked)/\($0.capacity)" }
        let countWidth = counts.map(\.count).max() ?? 0
        let width = max(10, display.width - 5 - 2 - countWidth - 7)
        var text = "Slots on \(day) (booked / capacity)\n"
        for (index, slot) in slots.enumerated() {
            let (filled, rest) = bar(slot.booked, of: slot.capacity, width: width)
            let isFull = slot.remaining == 0
            let ratio = slot.capacity > 0 ? Double(slot.booked) / Double(slot.capacity) : 1
            let color: Color = isFull ? .red : ratio >= 0.75 ? .yellow : .green
            let count = String(repeating: " ", count: countWidth - counts[index].count) + counts[index]
            let mark =
                slot.state == .past || slot.state == .tooSoon
                ? " " + slot.state.label : isFull ? " " + paint("FULL", .red, on: display) : ""
            let bar = slot.state == .past ? filled + rest : paint(filled, color, on: display) + rest
            text += "\(labels[index]) \(bar) \(count)\(mark)\n"
        }
        return text
    }

    /// Collected pizzas as a solid bar (█), those still booked after it as a shaded one (▒).
    static func sales(_ report: SalesReport, _ words: PrintedWords, display: Terminal.Display) -> String {
        guard !report.rows.isEmpty else { return words.noOrdersInPeriod }
        let names = report.rows.map { TerminalText.escaped($0.label, .line) }.map {
            $0.count > 24 ? String($0.prefix(23)) + "…" : $0
        }
        let nameWidth = names.map(\.count).max() ?? 0
        let figures = report.rows.map {
            "\($0.quantity) · \($0.revenue.formatted)"
                + ($0.bookedQuantity > 0 ? " " + words.booked($0.bookedQuantity) : "")
        }
        let figureWidth = figures.map(\.count).max() ?? 0
        let width = max(10, display.width - nameWidth - figureWidth - 3)
        let maximum = report.rows.map { $0.quantity + $0.bookedQuantity }.max() ?? 0
        var text = ""
        for (index, row) in report.rows.enumerated() {
            let (both, _) = bar(row.quantity + row.bookedQuantity, of: maximum, width: width)
            let (collected, _) = bar(row.quantity, of: maximum, width: width)
            let booked = String(repeating: "▒", count: max(0, both.count - collected.count))
            let padding = String(repeating: " ", count: width - collected.count - booked.count)
            text +=
                names[index].padding(to: nameWidth) + " " + paint(collected, .green, on: display) + booked + padding
                + " " + figures[index] + "\n"
        }
        let total = words.salesTotal(items: report.quantity, revenue: report.revenue, booked: report.bookedValue)
        text += paint(total, .bold, on: display) + "\n"
        return text
    }
}
