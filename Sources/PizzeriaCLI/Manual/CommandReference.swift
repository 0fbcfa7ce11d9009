/// `docs/CLI.md`'s command table, generated from the command tree: each row's commands with
/// their usage lines as `--help` prints them, and what the reference says of them. The table is
/// between the `BEGIN/END GENERATED: command table` markers of docs/CLI.md; a test fails when it
/// is stale, and `PIZZERIA_WRITE_CLI_DOCS=1 swift test --filter CLIReferenceTests` rewrites it.
enum CommandReference {
    /// The rows, in the reference's order: the commands (paths in the tree) and what they do.
    /// Every runnable command is in exactly one row (a test checks); a row's text is what docs
    /// say beyond the one-line abstract of `--help`.
    static let rows: [(commands: [String], text: String)] = [
        (["init"], "create the database (mode 0600), or apply pending migrations"),
        (["migrations"], "applied and pending migrations, with checksums"),
        (
            ["check"],
            "`integrity_check`, `foreign_key_check`, schema version, settings every booking can use (a time zone set through `sqlite3` that no booking could read fails it; JSON `settings_problems`), the shop's own rules (`domain`: every derived value recomputed from its source, slots within capacity, future orders inside the hours or kept, erasures carried through, an audit entry's history row its own item's; JSON `domain_problems`), SQLite version and the WAL-reset mitigation, the checkpoint policy and the WAL; exit 0 if all pass, 65 if SQLite's checks, the schema or the settings fail, 1 if only the domain does. `--repair` recomputes derived data in one transaction and lists what it changed (JSON `repaired`)"
        ),
        (
            ["backup"],
            "online backup to a new file, consistent while others write and checked (`integrity_check`, `foreign_key_check`; a copy that fails is made again) before it is put in place; atomic: never overwrites, an interrupted backup leaves nothing at FILE, and the next backup into the directory removes a killed one's hidden `.FILE.XXXXXX.partial`"
        ),
        (
            ["shops create", "shops list", "shops check", "shops backup", "shops migrate", "shops remove"],
            "a platform of shops, one file each under `--shops DIR` (or `$PIZZERIA_SHOPS`) at `DIR/ab/cd/NAME.sqlite`; any command runs on one with `--shop NAME`; `migrate` upgrades every shop, resumable, `--jobs N` at once (exit 1 names the shops that failed); `check` exits 1 when a shop fails ([SHOPS.md](SHOPS.md))"
        ),
        (
            ["shops node add", "shops nodes", "shops where", "shops move"],
            "shops on nodes: the placement file (`--placement FILE` or `$PIZZERIA_PLACEMENT`) says which node serves which shop, and `--shop NAME` goes there (75 while it moves; 66 on another `--node`); `move` drains the shop (its old file fenced), restores it on the target from the old node's Litestream replica until the copy carries the fence and holds the same rows, switches the placement and removes the old file; a failure puts everything back (exit 1) ([SHOPS.md](SHOPS.md))"
        ),
        (
            ["demo"],
            "create the database if needed and put demo data on it: the tutorial's menu (Margherita €6.00, Porcini €12.00, Marinara €4.00), two users, orders for tomorrow, a walk through the menu; running it again duplicates nothing"
        ),
        (["pizza list"], "the menu (`--all` adds archived pizzas)"),
        (["pizza show"], "one pizza with its full history"),
        (["pizza add"], "the add sheet; `--category` puts it in a menu section (default `Pizze`)"),
        (["pizza edit"], "the edit sheet; refused if the pizza changed meanwhile; `--category` moves it"),
        (["pizza archive", "pizza restore"], "off the menu and back (pizzas are never deleted)"),
        (
            ["category list", "category add", "category edit", "category vat", "category remove"],
            "the menu's sections in order; `--station NAME` (default Forno) or `--no-station`/`--no-oven` for drinks handed over at the counter, whose items take no slot capacity (lines already booked keep what they were booked as); only an empty category can be removed; `category vat Bevande 22` sets a section's VAT rate (lines keep the rate they were booked at)"
        ),
        (
            ["station list", "station add", "station edit", "station remove"],
            "the kitchen's stations: `Forno` holds the slot capacity (renamed, never removed); another has `--capacity N` pieces per slot or no limit, and a booking, move, delay, edit or undo past it is refused naming the station; `category edit NAME --station S|--no-station` says where a section is prepared"
        ),
        (
            ["pizza variant add", "pizza variant edit", "pizza variant remove"],
            "an item's variants (sizes), each with its price; the default's price is the item's; order one as `PIZZA/VARIANT`"
        ),
        (["pizza allergens"], "declare the EU's 14 allergens an item contains (`gluten,milk` or `none`)"),
        (["pizza attach", "pizza detach"], "offer modifier groups with an item"),
        (
            ["menu export", "menu import"],
            "the whole menu as one JSON file ([docs/MENU.md](MENU.md)), or CSV with one row per variant; an import is one transaction, matched by name, `--dry-run` shows the differences"
        ),
        (
            ["pizza sold-out", "pizza available", "modifier sold-out", "modifier available"],
            "86 tonight: refused for pickups before the end of the service (or `--until`), `--left N` counts down with bookings and back with cancellations; back by itself"
        ),
        (
            ["modifier list", "modifier group add", "modifier group edit", "modifier add", "modifier edit"],
            "modifier groups (`--min`/`--max` per line; `--kind extra|removal|choice`, a choice's `--default`) and their modifiers (price 0–100.00, a removal's 0; allergens, `--variant-price Maxi=3`, `--archive`); order them as `PIZZA+MODIFIER`; a line names no choice to take its default"
        ),
        (["user add", "user list", "user show"], "users (`show` includes their orders)"),
        (
            ["user find"],
            "customers by part of their handle, name or phone number (any common format: `333 123`, `+39…`, a national `0…`); every list format"
        ),
        (["user edit"], "change a user; an empty value clears the name or phone"),
        (
            ["user erase"],
            "erase a customer's personal data at their request, from the file, its free pages and the `-wal`; future orders cancelled; orders stay for the books, under a pseudonym"
        ),
        (
            ["config show", "config set"],
            "`slot-minutes` (divides 60, default 15), `slot-capacity` (default 12), `lead-minutes` (0–1440; new files 15, files from before 0), `opening-hours` (the same intervals every day, such as `12:00-23:00`), `time-zone` (IANA name or `system`, the default), `booking-horizon-days` (default 365)"
        ),
        (["hours show"], "the week and the exceptions ahead; for a date or range, each day's effective hours and why"),
        (
            ["hours set"],
            "the hours of some weekdays (`mon`, `tue-thu`, `fri,sat`, `daily`; `12:00-14:30,18:30-01:00` or `closed`), or the whole week in OpenStreetMap syntax"
        ),
        (["hours close"], "close a date or range (`2026-12-25..2026-12-26`), or cut a time range out of their hours"),
        (["hours special"], "special hours replacing the weekday's"),
        (["hours clear"], "remove the exceptions of a date or range"),
        (
            ["hours export"],
            "the hours for a website: OpenStreetMap `opening_hours`, or schema.org `OpeningHoursSpecification` JSON-LD"
        ),
        (
            ["capacity show", "capacity set", "capacity clear"],
            "capacity by time: pizzas per slot for a time range on weekdays (`fri,sat 18:30-21:00 20`) or dates (`2026-12-31 19:00-23:00 30`)"
        ),
        (["pause", "resume"], "stop taking new bookings at once (ends by itself at `--until`), and take them again"),
        (["busy"], "a rush: MINUTES added to the lead time until TIME or `busy off`"),
        (
            ["order place"],
            "book an order; `ITEM` is `PIZZA[/VARIANT][+MODIFIER…][=QTY]` (1–20); `--override` lets staff book inside the lead time, during a pause or a quarter over a slot's capacity; `--split` spreads a party over consecutive slots as linked orders with one receipt"
        ),
        (["order list"], "orders by pickup time"),
        (["order show"], "lines with their price snapshots, total, note, version, the whole history (who, what, when)"),
        (["order move"], "move a placed order to another slot, checked like a booking (a pause does not stop it)"),
        (
            ["order board"],
            "the kitchen board: per slot what to bake (items with variants and modifiers) and each open order's state, `LATE 12 min` past its pickup, `DUE` within the lead time; `--json` for a screen, `--watch` redraws on every change, fitted to the terminal (the current slot, then late ones, `+N more`; laid out again on resize)"
        ),
        (
            ["order delay"],
            "the oven stopped: orders named, or every placed or preparing order of `--from`–`--to`, `--by-minutes` later in one transaction (hours, horizon, capacity; not the lead time or a pause); one that does not fit refuses it whole, naming each, unless `--best-effort`; the history says `delayed +N` and who"
        ),
        (["order edit"], "change a placed order's lines or note; added pizzas are checked like a booking"),
        (["order add"], "add drinks (items no station prepares) at the counter, until the order is collected"),
        (
            ["order discount", "order comp"],
            "a manager's discount (`--percent` or `--amount`) or a line given free, with the reason: off each VAT rate, the total and balance following, in the receipt and the cash-up by reason"
        ),
        (
            ["notify run", "notify list", "notify reset", "notify remove"],
            "tell customers: each order event of a notifier's kinds (default placed, moved, delayed, ready, no_show, cancelled, refunded) to `--exec CMD` as JSON on stdin and `PIZZERIA_*` variables, at least once and in order; the cursor lives in the file (`notify_cursors`), so a notifier killed at any instant resumes, redelivering the event in flight with `PIZZERIA_REDELIVERY=1` and the same token; a failing CMD is retried with backoff, reported, never skipped; one process per notifier"
        ),
        (
            ["order watch"],
            "the kitchen display: every new order and status change as it happens, from any process (`--json`: one object per line); Ctrl-C stops. Each event's cursor (`412.9f3a2c1b`, a string in JSON) resumes it; a cursor this file's history does not have (a restored backup, another file) is refused with exit 1"
        ),
        (
            ["order advance", "order cancel"],
            "`placed → preparing → ready → collected`; cancel from placed or preparing (`--reason`, required for a paid order, which then owes a refund); several orders at once, each in its own transaction and reported, the exit code the worst"
        ),
        (
            ["order pay", "order refund"],
            "payments (`--method cash|card|online|voucher`, the balance by default, `--reference` makes a retry harmless, `--tendered` gives the change) and refunds with a reason, newest payment first; the order's payment state is derived: unpaid, partially_paid, paid, partially_refunded, refunded, overpaid"
        ),
        (
            ["order receipt"],
            "the customer's receipt: shop, lines with variants and modifiers, VAT by rate, payments, refunds, change; `--width 32|42|48` for a thermal printer, `--format json` for a fiscal-printer bridge (not a fiscal document)"
        ),
        (
            ["order ticket"],
            "the kitchen's ticket of one order: pickup time, short id, customer, items with variants, modifiers (`senza basilico`; a choice's default left out) and line notes, no money; `--width 32|42|48` in display columns (CJK and emoji count as 2), `--json` for a printer bridge"
        ),
        (
            ["order bump"],
            "a station's part of an order done (`--station NAME`, as a kitchen screen's bump): it leaves that station's board; once every station of the order's lines is done the order is ready by itself"
        ),
        (
            ["order collect"],
            "hand over: from placed, preparing or ready to collected in one step (the history keeps each step)"
        ),
        (["order no-show"], "a ready order whose customer never came: `ready → no_show`"),
        (
            ["order undo"],
            "take back the order's last status change, within 10 minutes; an undone cancellation is checked like a booking"
        ),
        (
            ["slots"],
            "each slot of a day with booked and remaining capacity, its effective capacity and rule, and whether it can be booked now (`open`, `full`, `too soon`, `paused`, `past`); with `--available`, the pickup-time picker: the next K (1–100, default 10) slots that can take N pizzas (default 1) now"
        ),
        (
            ["report sales"],
            "revenue from collected orders, with booked, no-shows and cancellations apart, per service day (default) or pizza"
        ),
        (
            ["report close"],
            "the cash-up of a service day: orders by status, payments and refunds by method, VAT by rate (net, VAT, gross), cash expected in the drawer (`--opening-cash`), no-shows, collected orders left unpaid, orders owing a refund"
        ),
        (["nav show"], "the user's path over the menu, current and previous route, open sheet"),
        (["nav push"], "push one or several routes (`pizza:PIZZA`, `order:ORDER`, `category:CATEGORY`) in one change"),
        (["nav pop", "nav root"], "pop one, several, back to a depth, back to the menu"),
        (["nav random"], "push a random pizza from the menu (deterministic with a seed)"),
        (["nav open"], "open a deep link: its routes replace the stack"),
        (
            ["nav history", "nav stats"],
            "the user's latest events; the most viewed pizzas, with how each view came (push, random, deep link, import)"
        ),
        (["nav export"], "the stack as JSON for the app"),
        (["nav import"], "restore a stack; vanished routes are dropped and reported"),
        (
            ["sheet show", "sheet open", "sheet set", "sheet save", "sheet dismiss"],
            "the add/edit-pizza sheet over a user's stack, kept between runs"
        ),
        (
            ["audit"],
            "the audit trail: every change to pizzas, users, settings, hours and exceptions, capacity rules, pause, rush and staff — when, who, the object, old → new, the command that made it — and every order's history; `OBJECT` is `pizza:NAME`, `user:HANDLE`, `order:ID`, `hours`, `capacity`, `settings`, `staff:NAME` (or `pizza:` alone for all pizzas); every list format"
        ),
        (
            ["staff add", "staff list", "staff remove"],
            "who may act; with `config set require-staff on`, changes need a known `--by`/`$PIZZERIA_STAFF` whose role covers them"
        ),
        (
            ["completions"],
            "a shell completion script (commands, options, fixed values, and pizza names, handles, order ids from the database)"
        ),
        (["manual"], "the manual page in roff: `man -l <(pizzeria manual)`"),
    ]

    /// The Markdown table.
    static func table(_ root: Command = CommandTree.root) -> String {
        var text = "| command | what it does |\n|---|---|\n"
        for row in rows {
            let usages = row.commands.compactMap { path -> String? in
                let words = path.split(separator: " ").map(String.init)
                guard let command = find(words, in: root) else { return nil }
                let usage = Help.usageLine(command, path: words)
                return "`" + usage.replacingOccurrences(of: "|", with: "\\|") + "`"
            }
            text +=
                "| " + usages.joined(separator: ", ") + " | " + row.text.replacingOccurrences(of: "|", with: "\\|")
                + " |\n"
        }
        return text
    }

    /// The command at `path` below `root`.
    static func find(_ path: [String], in root: Command) -> Command? {
        var command = root
        for word in path {
            guard let next = command.subcommand(named: word) else { return nil }
            command = next
        }
        return command
    }
}
