/// What a navigation event records: a router operation on the stack, or a sheet operation.
///
/// The one list of actions in Swift. The schema lists them in one `CHECK` of
/// `navigation_events.action`, and its triggers that keep `users.last_stack_change` (the user's
/// latest stack change, migration 33) leave the sheet actions — the ones named `sheet_…` — out
/// with `action NOT GLOB 'sheet_*'`; a test checks that all three agree.
public enum NavigationAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Routes pushed on top.
    case push
    /// Routes popped from the top.
    case pop
    /// Back to a depth or to a route.
    case popTo = "pop_to"
    /// Back to the menu.
    case popToRoot = "pop_to_root"
    /// The whole stack replaced.
    case replace
    /// A deep link opened: its routes replace the stack.
    case openURL = "open_url"
    /// A stack restored from an export.
    case `import`
    /// A random pizza pushed.
    case random
    /// A sheet opened.
    case sheetOpen = "sheet_open"
    /// A field of the sheet's draft set.
    case sheetSet = "sheet_set"
    /// The sheet's draft saved.
    case sheetSave = "sheet_save"
    /// The sheet dismissed.
    case sheetDismiss = "sheet_dismiss"

    /// Whether it changes the stack (the sheet actions do not).
    public var changesStack: Bool { !rawValue.hasPrefix("sheet_") }
}
