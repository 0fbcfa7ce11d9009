import PizzeriaServices

/// Turns any error into its `error: …` lines on stderr and its exit code. One place decides,
/// so every command reports the same failure the same way: the services classify the error
/// (``FailureReport``), the CLI adds its exit code and its hints.
enum ErrorReport {
    static func report(_ error: Error, console: Console) -> ExitCode {
        switch error {
        case let usage as UsageError:
            var text = "error: \(usage.message)\n"
            if let suggestion = usage.suggestion { text += "hint: \(suggestion)\n" }
            text += "usage: \(Help.usageLine(usage.command, path: usage.path))\n"
            text += "  See '\(usage.path.joined(separator: " ")) --help' for more information.\n"
            console.err(text)
            return .usage

        case let io as FileError:
            console.error(io.message)
            return .io

        default:
            let report = FailureReport(error)
            for (index, message) in report.messages.enumerated() {
                console.error(
                    message, hint: index == report.messages.count - 1 ? hint(for: error, report: report) : nil)
            }
            return exitCode(report.category)
        }
    }

    static func exitCode(_ category: FailureCategory) -> ExitCode {
        switch category {
        case .invalidInput, .unusableDatabase: .invalidInput
        case .notFound: .notFound
        case .refused: .refused
        case .busy: .busy
        case .io: .io
        case .internal: .internal
        }
    }

    /// What to do next, in the CLI's words.
    static func hint(for error: Error, report: FailureReport) -> String? {
        if let hint = serviceHint(error) { return hint }
        switch report.remedy {
        case .migrate:
            return "run `pizzeria init` to bring the schema up to date (pending migrations, views and triggers)"
        case .createDatabase: return "create it with `pizzeria init` (or pass --db PATH / set PIZZERIA_DB)"
        case .useAnotherFile: return "point --db at a Pizzeria database, or at a new file to create one"
        case .chooseAnotherDestination: return "choose a new file name"
        case .retryLater: return "try again in a moment"
        case nil: return nil
        }
    }
}

extension ErrorReport {
    /// Advice for a service error, naming the command that helps. The services describe the
    /// problem; only the CLI knows its own commands.
    static func serviceHint(_ error: Error) -> String? {
        switch error {
        case let refusal as Refusal: return refusal.hint
        case MenuError.notFound: return "see `pizzeria pizza list --all`"
        case MenuError.ambiguous: return "type more of the name or the id"
        case UserError.ambiguous: return "give the handle: `pizzeria user find TEXT` lists who matches"
        case MenuError.conflict(let pizza, _): return "look at `pizzeria pizza show \(pizza.id.short)` and edit again"
        case MenuError.duplicateName(_, let existing) where existing.isArchived:
            return "restore it with `pizzeria pizza restore \(existing.id.short)`"
        case OrderError.slotFull, OrderError.orderTooLarge:
            return "see `pizzeria slots` for slots with room; staff may book a quarter over a slot's capacity "
                + "with --override REASON, or spread a party over consecutive slots with --split"
        case OrderError.partyDoesNotFit, OrderError.partyStationDoesNotFit:
            return "see `pizzeria slots` for a run of slots with room, or start the party earlier"
        case OrderError.overMargin:
            return "book the rest in another slot, or spread the party over consecutive slots with --split"
        case OrderError.stationFull:
            return "see `pizzeria slots --available ITEM...` for slots where the whole order fits; staff may book "
                + "a quarter over a station's capacity with --override REASON"
        case OrderError.stationOverMargin:
            return "book the rest in another slot, or raise the station's capacity"
        case OrderError.closedWeekday, OrderError.closedDate, OrderError.outsideOpeningHours, OrderError.tooSoon:
            return "see `pizzeria hours show` for the week and the exceptions"
        case ScheduleError.wouldOrphan:
            return "add --keep-orders to apply it anyway (the orders stay booked), or move or cancel those orders first"
        case ScheduleError.tooManyExceptions: return "remove past exceptions with `pizzeria hours clear DATE..DATE`"
        case OrderError.notFound: return "see `pizzeria order list`"
        case OrderError.soldOut:
            return "`pizzeria pizza available ITEM` or `pizzeria modifier available GROUP MODIFIER` ends a limit "
                + "(`sold-out --left N` raises it); or leave the item out"
        case OrderError.keyReused: return "use a new key for a new order"
        case OrderError.unpaidAtCollection(let order, _):
            return "`pizzeria order collect \(order.short) --pay cash|card|online|voucher [--tendered EUR]`, "
                + "or `--unpaid REASON` to hand it over owing"
        case PaymentError.reasonRequired(let order, _):
            return
                "`pizzeria order cancel \(order.short) --reason TEXT`, then `pizzeria order refund \(order.short) --reason TEXT`"
        case PaymentError.partyNothingDue(let order):
            return
                "`pizzeria order receipt \(order.short)` shows the party's payments; a payment taken twice is put right with `order refund --party`"
        case PaymentError.nothingDue(let order, _), PaymentError.overBalance(let order, _, _):
            return
                "`pizzeria order show \(order.short)` lists its payments; a payment taken twice is put right with `order refund`"
        case PaymentError.refundTooLarge(let order, _, _), PaymentError.nothingToRefund(let order):
            return "`pizzeria order show \(order.short)` lists what was paid and refunded"
        case FeedError.foreignCursor:
            return "replay this file's whole history with `--after 0`, or watch from now on without --after; "
                + "a notifier: `pizzeria notify reset NAME --from now` (or --from start)"
        case NotifyError.held(let name, _):
            return
                "stop the running one first (Ctrl-C or kill), or run another notifier under another --name than \(name)"
        case NotifyError.notFound:
            return "`pizzeria notify list` shows the notifiers"
        case NotifyError.gaveUp(let name, _, _, _):
            return
                "fix the command, then run the notifier again: it starts with this event (`notify list` shows \(name)'s failures)"
        case UserError.notFound(let reference):
            return
                "add it with `pizzeria user add \(UserRules.normalizeHandle(reference))`, or see `pizzeria user list`"
        case NavigationError.malformedLink:
            return "deep links look like pizzeria://pizza/ID, pizzeria://order/ID or pizzeria://pizza/ID/pizza/ID2"
        case NavigationError.sheetAlreadyOpen: return "`pizzeria sheet dismiss USER` discards it"
        case NavigationError.noSheet: return "open one with `pizzeria sheet open USER add` or `… edit PIZZA`"
        case is FencedForMove, PlacementError.moving:
            return "retry in a moment; `pizzeria shops where` says which node serves the shop"
        case PlacementError.elsewhere(_, let node, _): return "address it on node \(node) (`pizzeria shops where`)"
        case PlacementError.notPlaced: return "`pizzeria shops where` lists the placed shops"
        case PlacementError.noNode: return "`pizzeria shops nodes` lists the nodes"
        case PlacementError.noPlacementFile:
            return "check --placement / $PIZZERIA_PLACEMENT; `pizzeria shops node add` makes a new placement"
        case DataError.damagedRow:
            return "fix the row with sqlite3, or restore a backup; `pizzeria check` checks the whole file"
        default: return nil
        }
    }
}

/// Reading or writing a file other than the database failed.
struct FileError: Error {
    let message: String
}
