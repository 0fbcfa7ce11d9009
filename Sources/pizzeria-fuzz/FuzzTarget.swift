import Foundation
import Synchronization
import PizzeriaCLI
import PizzeriaServices

/// The parsers that take text from people and programs, each with the properties a fuzzer checks:
/// never crash or hang, and what parses formats back to text that parses to the same value.
enum FuzzTarget: String, CaseIterable {
    case money
    case pickupTime = "pickup-time"
    case deepLink = "deep-link"
    case importRoutes = "import-routes"
    case importNavigationPath = "import-navigation-path"
    case arguments
    case hours
    case dates
    case phone
    case cursor
    case terminalText = "terminal-text"

    /// Runs one input; a broken property stops the process (that is how a fuzzer learns of it).
    func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        switch self {
        case .money: Self.money(text)
        case .pickupTime: Self.pickupTime(text)
        case .deepLink: Self.deepLink(text)
        case .importRoutes: Self.importPath(text, format: .routes)
        case .importNavigationPath: Self.importPath(text, format: .navigationPath)
        case .arguments: Self.arguments(data)
        case .hours: Self.hours(text)
        case .dates: Self.dates(text)
        case .phone: Self.phone(text)
        case .cursor: Self.cursor(text)
        case .terminalText: Self.terminalText(text)
        }
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        guard condition else {
            try? FileHandle.standardError.write(contentsOf: Data("property broken: \(message())\n".utf8))
            abort()
        }
    }

    static func money(_ text: String) {
        guard case .success(let money) = Money.parse(text) else { return }
        require(money.cents > 0 && money <= Money.maximum, "\(text) parsed to \(money.cents)")
        require(Money.parse(money.plain) == .success(money), "\(text) → \(money.plain) does not parse back")
        require(Money.parse(money.formatted) == .success(money), "\(text) → \(money.formatted) does not parse back")
    }

    static let rome = TimeZone(identifier: "Europe/Rome") ?? .current
    static let now = Date(timeIntervalSince1970: 1_798_761_600)

    static func pickupTime(_ text: String) {
        guard case .success(let date) = PickupTime.parse(text, timeZone: rome, now: now) else { return }
        let withOffset = PickupTime.withOffset(date, in: rome)
        require(
            PickupTime.parse(withOffset, timeZone: rome, now: now) == .success(date),
            "\(text) → \(withOffset) does not parse back")
        let utc = PickupTime.utc(date)
        require(PickupTime.fromUTC(utc) == date, "\(text) → \(utc) does not read back")
    }

    static func deepLink(_ text: String) {
        guard let pairs = try? DeepLink.parse(text) else { return }
        require(!pairs.isEmpty && pairs.count <= DeepLink.maximumRoutes, "\(text): \(pairs.count) pairs")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let rebuilt =
            "pizzeria://"
            + pairs.map { pair in
                "\(pair.kind)/\(pair.reference.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
            }.joined(separator: "/")
        guard let again = try? DeepLink.parse(rebuilt) else {
            return require(false, "\(text) → \(rebuilt) does not parse back")
        }
        require(
            again.map(\.kind) == pairs.map(\.kind) && again.map(\.reference) == pairs.map(\.reference),
            "\(text) → \(rebuilt)")
    }

    static func importPath(_ text: String, format: NavigationFormat) {
        let type = NavigationFormat.defaultRouteTypeName
        guard let elements = try? NavigationCodec.parse(text, format: format, routeTypeName: type) else { return }
        require(elements.count <= NavigationLimits.maximumDepth, "\(elements.count) elements")
        guard let exported = try? NavigationCodec.export(elements, format: format, routeTypeName: type) else {
            return require(false, "\(text): parsed but does not export")
        }
        let kept = format == .routes ? elements.filter { $0.route != nil } : elements
        let again = try? NavigationCodec.parse(exported.text, format: format, routeTypeName: type)
        require(again == kept, "\(text) → \(exported.text) does not parse back")
    }

    /// `hours set` and `--osm`: what parses exports to OSM text that parses to the same week,
    /// every interval shorter than a day (or the whole day), no two overlapping.
    static func hours(_ text: String) {
        if let intervals = try? HoursSyntax.intervals(text) {
            let week = Week.everyDay(intervals)
            require(intervals.count <= Week.maximumIntervalsPerDay, "\(text): \(intervals.count) intervals")
            require(
                intervals.allSatisfy { $0.end - $0.start <= 1440 && $0.end > $0.start },
                "\(text): an interval of no or more than 24 hours")
            require(
                (try? HoursSyntax.osm(HoursSyntax.osm(week))) == week || intervals.isEmpty,
                "\(text) → \(HoursSyntax.osm(week)) does not parse back")
        }
        if let week = try? HoursSyntax.osm(text) {
            require(
                (try? HoursSyntax.osm(HoursSyntax.osm(week))) == week || week.isClosedAllWeek,
                "\(text) → \(HoursSyntax.osm(week)) does not parse back")
        }
        if let days = try? HoursSyntax.days(text) { require(!days.isEmpty, "\(text): no days") }
    }

    /// Dates and ranges: what parses lies in the supported range and reads back from its text.
    static func dates(_ text: String) {
        let today = LocalDate("2026-12-01") ?? LocalDate.supported.lowerBound
        guard let range = try? HoursSyntax.dateRange(text, today: today) else { return }
        require(
            LocalDate.supported.contains(range.first) && LocalDate.supported.contains(range.last),
            "\(text) out of range")
        require(range.count <= ScheduleException.maximumDays, "\(text): \(range.count) days")
        require(
            (try? HoursSyntax.dateRange(range.description, today: today)) == range,
            "\(text) → \(range) does not parse back")
    }

    /// Phone numbers as people type them: what normalises is E.164 as the schema's CHECK wants it
    /// (`+`, a first digit 1–9, 8 to 15 ASCII digits), and normalising it again changes nothing.
    static func phone(_ text: String) {
        guard let number = UserRules.normalizePhone(text) else { return }
        let digits = number.utf8.dropFirst()
        require(
            number.hasPrefix("+") && (8...15).contains(digits.count) && digits.allSatisfy { (48...57).contains($0) }
                && digits.first != 48, "\(text.debugDescription) → \(number.debugDescription)")
        require(UserRules.normalizePhone(number) == number, "\(number) does not normalise to itself")
    }

    /// A feed cursor: what parses prints as `0` or `POSITION.xxxxxxxx` and parses back to itself.
    static func cursor(_ text: String) {
        guard let cursor = EventCursor(text) else { return }
        let printed = cursor.description
        require(printed.utf8.count <= EventCursor.maximumLength, "\(text.debugDescription) → \(printed) is too long")
        require(EventCursor(printed) == cursor, "\(text.debugDescription) → \(printed) does not parse back")
        require((cursor.position == 0) == (printed == "0"), "\(text.debugDescription) → \(printed)")
    }

    /// Text written for people: nothing a terminal would act on gets through, and text with
    /// nothing to escape is written exactly as it is.
    static func terminalText(_ text: String) {
        let written = Mutex("")
        let console = Console(out: { piece in written.withLock { $0 += piece } }, err: { _ in })
        console.out(text)
        let shown = written.withLock { $0 }
        // What a terminal would act on (the separators only break lines, but are escaped too).
        func acts(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
        require(
            !shown.unicodeScalars.contains(where: acts),
            "\(text.debugDescription) was shown with raw controls: \(shown.debugDescription)")
        let plain = !text.unicodeScalars.contains { acts($0) || $0.value == 0x2028 || $0.value == 0x2029 }
        require(
            !plain || shown == text,
            "\(text.debugDescription) had nothing to escape but was shown as \(shown.debugDescription)")
    }

    /// The input split at NUL bytes into arguments, as `argv` would be.
    static func arguments(_ data: Data) {
        let arguments = data.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        _ = PizzeriaCLI.check(arguments: arguments)
    }
}
