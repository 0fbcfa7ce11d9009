import Foundation
import PizzeriaServices

/// `pizzeria config …`: the booking settings stored in the database.
enum ConfigCommands {
    static let command = Command(
        name: "config",
        abstract: "Show or change the settings: slot length, capacity, lead time, opening hours, time zone.",
        subcommands: [show, set])

    static let key = Argument(
        "key",
        help: SettingKey.allCases.map(spelling).joined(separator: ", ") + ", require-staff, "
            + shopKeys.joined(separator: ", ") + ".",
        completion: .choices(SettingKey.allCases.map(spelling) + ["require-staff"] + shopKeys))
    /// The shop's details and default VAT rate (the `shop` row).
    static let shopKeys = ["shop-name", "shop-address", "vat-number", "vat-rate", "phone-region", "language"]
    static let value = Argument("value", help: "The new value.")

    static let show = Command(
        name: "show",
        abstract: "Show the settings.",
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let shown = Shown(
                settings: try pizzeria.settings.current(), shop: try pizzeria.payments.shop(),
                requireStaff: try pizzeria.staff.isRequired())
            try context.emit(shown) { text(shown) }
            return .ok
        })

    /// Every setting `config show` shows: the booking settings, whether changes need staff, and
    /// the shop's details. JSON: the settings' members, `require_staff` and `shop` (the shop's
    /// details as `payment shop` prints them).
    struct Shown: Encodable {
        let settings: Settings
        let shop: ShopDetails
        let requireStaff: Bool

        private enum CodingKeys: String, CodingKey { case requireStaff = "require_staff", shop }

        func encode(to encoder: Encoder) throws {
            try settings.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(requireStaff, forKey: .requireStaff)
            try container.encode(shop, forKey: .shop)
        }
    }

    static let set = Command(
        name: "set",
        abstract: "Change one setting (validated).",
        discussion: "KEY is one of:\n"
            + SettingKey.allCases.map { "  \(spelling($0).padding(to: 21)) \($0.rule)" }.joined(separator: "\n")
            + "\n  " + "require-staff".padding(to: 21)
            + " on or off: changes need a known staff name whose role covers them (see `staff`)"
            + "\n  " + "shop-name".padding(to: 21) + " the receipt's head: 1 to 80 characters ('' clears it)"
            + "\n  " + "shop-address".padding(to: 21) + " one line, 1 to 200 characters ('' clears it)"
            + "\n  " + "vat-number".padding(to: 21) + " 2 to 20 capital letters and digits, such as IT01234567890"
            + "\n  " + "vat-rate".padding(to: 21)
            + " the VAT of categories without their own, in %: 10 (default), 22, 5.5 (`category vat` sets one)"
            + "\n  " + "phone-region".padding(to: 21)
            + " the shop's country for national phone numbers (IT: 081 555 1234 is stored +390815551234; '' clears it)"
            + "\n  " + "language".padding(to: 21)
            + " it (default) or en: the notifier's ready-made messages (notify run --template)",
        arguments: [key, value],
        options: [HoursCommands.keepOrders],
        examples: [
            "pizzeria config set slot-capacity 20", "pizzeria config set lead-minutes 20",
            "pizzeria config set opening-hours 11:30-22:00", "pizzeria config set time-zone Europe/Rome",
        ],
        run: { invocation in
            let context = invocation.context
            let name = try invocation[key]
            if name == "require-staff" {
                let text = try invocation[value]
                guard ["on", "off"].contains(text) else {
                    throw ValidationError([
                        FieldError(field: "require-staff", message: "must be on or off, not '\(text)'")
                    ])
                }
                let pizzeria = try context.open(.requireCurrent)
                try pizzeria.staff.setRequired(text == "on")
                struct RequireStaff: Encodable {
                    let requireStaff: Bool; enum CodingKeys: String, CodingKey { case requireStaff = "require_staff" }
                }
                try context.emit(RequireStaff(requireStaff: text == "on")) {
                    text == "on"
                        ? "require-staff: on (changes need a known --by or $PIZZERIA_STAFF whose role covers them).\n"
                        : "require-staff: off.\n"
                }
                return .ok
            }
            if shopKeys.contains(name) {
                let text = try invocation[value].trimmingCharacters(in: .whitespaces)
                let change: ShopChange =
                    switch name {
                    case "shop-name": .name(text.isEmpty ? nil : text)
                    case "shop-address": .address(text.isEmpty ? nil : text)
                    case "vat-number":
                        .vatNumber(text.isEmpty ? nil : text.uppercased().replacingOccurrences(of: " ", with: ""))
                    case "phone-region": .phoneRegion(try region(text))
                    case "language": .language(try language(text))
                    default: .vatRate(try VATRate.parse(text))
                    }
                let shop = try context.open(.requireCurrent).payments.update(change)
                try context.emit(shop) {
                    "Shop: \(shop.name ?? "(no name)"), \(shop.address ?? "(no address)"), VAT number \(shop.vatNumber ?? "(none)"), "
                        + "VAT \(shop.vatRate) where a category has none, phone numbers "
                        + (shop.phoneRegion.map { "of \($0) without a +" } ?? "international only")
                        + ", messages in \(shop.language.rawValue).\n"
                }
                return .ok
            }
            guard let key = SettingKey.allCases.first(where: { spelling($0) == name }) else {
                var error = invocation.usage("unknown setting '\(name)'")
                if let close = Spelling.closest(to: name, among: SettingKey.allCases.map(spelling)) {
                    error.suggestion = "did you mean '\(close)'?"
                }
                throw error
            }
            let settings: Settings
            let pizzeria = try context.open(.requireCurrent)
            do {
                settings = try pizzeria.settings.update(
                    key, parsing: try invocation[value], keepOrders: invocation[HoursCommands.keepOrders])
            } catch SettingsError.invalidValue(let key, let value) {
                throw ValidationError([FieldError(field: spelling(key), message: "must be \(key.rule), not '\(value)'")]
                )
            } catch SettingsError.conflictsWithBookings(let key, let slots) {
                let shown =
                    slots.prefix(5).joined(separator: ", ") + (slots.count > 5 ? ", and \(slots.count - 5) more" : "")
                throw Refusal(
                    "\(spelling(key)): the new value does not fit \(slots.count) future slot\(slots.count == 1 ? "" : "s") already booked: \(shown)",
                    hint: "see `pizzeria order list`; cancel or move those orders first")
            }
            let shown = Shown(
                settings: settings, shop: try pizzeria.payments.shop(), requireStaff: try pizzeria.staff.isRequired())
            try context.emit(shown) { text(shown) }
            return .ok
        })

    /// The CLI's spelling of a setting.
    /// A phone region by its ISO code, or `nil` for `''` (international numbers only).
    static func language(_ text: String) throws -> ShopLanguage {
        guard let language = ShopLanguage(rawValue: text.lowercased()) else {
            throw ValidationError([
                FieldError(
                    field: "language",
                    message: "must be " + ShopLanguage.allCases.map(\.rawValue).joined(separator: " or ")
                        + ", not '\(text)'")
            ])
        }
        return language
    }

    static func region(_ text: String) throws -> PhoneRegion? {
        guard !text.isEmpty else { return nil }
        guard let region = PhoneRegion.named(text) else {
            throw ValidationError([
                FieldError(
                    field: "phone-region",
                    message: "must be a country code such as IT (known: "
                        + PhoneRegion.known.map(\.code).joined(separator: ", ") + "), not '\(text)'")
            ])
        }
        return region
    }

    static func spelling(_ key: SettingKey) -> String {
        switch key {
        case .slotMinutes: "slot-minutes"
        case .slotCapacity: "slot-capacity"
        case .openingHours: "opening-hours"
        case .timeZone: "time-zone"
        case .bookingHorizonDays: "booking-horizon-days"
        case .leadMinutes: "lead-minutes"
        }
    }

    static func text(_ shown: Shown) -> String {
        let settings = shown.settings, shop = shown.shop
        var table = Table("SETTING", "VALUE")
        table.add("slot-minutes", "\(settings.slotMinutes)")
        table.add("slot-capacity", "\(settings.slotCapacity) pizzas")
        table.add("opening-hours", settings.openingHours + " (see `pizzeria hours show`)")
        table.add("lead-minutes", "\(settings.leadMinutes) minutes")
        table.add(
            "time-zone", settings.timeZone.identifier + (settings.storedTimeZone == nil ? " (this machine's)" : ""))
        table.add("booking-horizon-days", "\(settings.bookingHorizonDays) days")
        table.add("require-staff", shown.requireStaff ? "on" : "off")
        table.add("shop-name", shop.name ?? "(not set)")
        table.add("shop-address", shop.address ?? "(not set)")
        table.add("vat-number", shop.vatNumber ?? "(not set)")
        table.add("vat-rate", "\(shop.vatRate) (categories without their own; see `category list`)")
        table.add("phone-region", shop.phoneRegion?.code ?? "(not set: numbers are given with +country)")
        table.add("language", shop.language.rawValue + " (the notifier's ready-made messages)")
        return table.rendered + CapacityCommands.stateText(settings)
    }
}
