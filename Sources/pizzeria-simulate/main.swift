import Foundation
import PizzeriaServices

// pizzeria-simulate: a whole shop on a real file, driven by a seeded generator — random evenings
// of bookings, parties, overrides, moves, edits, delays, the kitchen, cancellations and undos,
// payments and refunds, menu and stock changes, erasures, notifier deliveries and hand-written
// SQL — checking after every step that money, capacity, stock, the history, erasures and `check`
// agree with the simulator's own model. A failure is shrunk to the fewest steps that still fail
// and written out to replay (`--replay FILE`). See docs/SIMULATION.md.

struct Options {
    var seed: UInt64 = 1
    var evenings = 3
    var steps = 150
    var cliShare = 0.1
    var replay: String?
    var out: String?
    var shrink = true
    var keep: String?
    /// A deliberate mistake in the simulator's own bookkeeping, to prove a failure is found,
    /// shrunk and replayed (`money`: every third payment is recorded a cent short).
    var inject: String?
    var quiet = false
    /// Print each refusal.
    var verbose = false
    /// Print each step and how it ended (what two runs of one seed must print alike).
    var trace = false
}

let usage = """
    usage: pizzeria-simulate [--seed N] [--evenings K] [--steps S] [--cli-share F] [--out FILE]
                             [--replay FILE] [--no-shrink] [--keep DIR] [--quiet]
      --seed N        the generator's seed (default 1): the same seed, the same run, on any machine
      --evenings K    evenings to simulate (default 3), each up to S steps (default 150) and a close
      --cli-share F   the share of steps run through the pizzeria binary (default 0.1; 0 for none)
      --out FILE      where a failing run's shrunk steps are written (default ./simulate-failure-SEED.json)
      --replay FILE   replay the steps of FILE (what --out wrote) and check every invariant after each
      --keep DIR      keep the shop's file in DIR
      --verbose       print every refusal (what the shop said no to, and why)
      --trace         print every step and how it ended (two runs of one seed print the same)
    exit: 0 every invariant held; 1 an invariant failed (its steps printed and written); 64 usage
    """

func parse(_ arguments: [String]) -> Options? {
    var options = Options()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        func value() -> String? { rest.popFirst() }
        switch argument {
        case "--seed": guard let v = value().flatMap(UInt64.init) else { return nil }; options.seed = v
        case "--evenings": guard let v = value().flatMap(Int.init), v >= 0 else { return nil }; options.evenings = v
        case "--steps": guard let v = value().flatMap(Int.init), v > 0 else { return nil }; options.steps = v
        case "--cli-share":
            guard let v = value().flatMap(Double.init), (0...1).contains(v) else { return nil }
            options.cliShare = v
        case "--replay": guard let v = value() else { return nil }; options.replay = v
        case "--out": guard let v = value() else { return nil }; options.out = v
        case "--keep": guard let v = value() else { return nil }; options.keep = v
        case "--inject": guard let v = value() else { return nil }; options.inject = v
        case "--no-shrink": options.shrink = false
        case "--quiet": options.quiet = true
        case "--verbose": options.verbose = true
        case "--trace": options.trace = true
        case "--help", "-h":
            print(usage)
            exit(0)
        default: return nil
        }
    }
    return options
}

/// The `pizzeria` binary built beside this one.
func siblingBinary() -> String? {
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let path = me.deletingLastPathComponent().appendingPathComponent("pizzeria").path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
}

/// A fresh shop in a new directory.
func freshShop(keep: String?) throws -> (Shop, URL) {
    let directory =
        keep.map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("pizzeria-simulate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("shop.sqlite").path
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    return (try Shop(path: path, binary: siblingBinary()), directory)
}

/// Applies `step` and checks the invariants; a ``Finding`` says what failed.
func run(_ step: Step, on shop: Shop, inject: String?) throws -> Outcome {
    let outcome = try shop.apply(step)
    if inject == "money", step.kind == .pay, outcome == .done, step.number % 3 == 0, let label = step.order,
        let last = shop.model.orders[label]?.paid.popLast()
    {
        shop.model.orders[label]?.paid.append(last - 1)
    }
    let full = step.kind == .hand || step.kind == .close || step.kind == .erase || step.number % 10 == 0
    try Invariants.verify(shop, full: full)
    if step.kind == .erase || step.kind == .close { try Invariants.erasedBytes(shop) }
    return outcome
}

/// Replays `steps` on a fresh shop; the finding they end in, if any, and how many ran.
func replay(_ steps: [Step], inject: String?) -> (Finding?, Int) {
    let keep = ProcessInfo.processInfo.environment["PIZZERIA_SIMULATE_KEEP"]
    guard let (shop, directory) = try? freshShop(keep: keep) else { return (nil, 0) }
    defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }
    for (index, step) in steps.enumerated() {
        do {
            _ = try run(step, on: shop, inject: inject)
        } catch let finding as Finding {
            return (finding, index + 1)
        } catch {
            return (Finding(invariant: "error", detail: "\(error)"), index + 1)
        }
    }
    do {
        try Invariants.verify(shop, full: true)
    } catch let finding as Finding {
        return (finding, steps.count)
    } catch {
        return (Finding(invariant: "error", detail: "\(error)"), steps.count)
    }
    return (nil, steps.count)
}

/// The fewest steps (removing chunks, then single steps) that still fail the same invariant.
func shrink(_ steps: [Step], invariant: String, inject: String?, say: (String) -> Void) -> [Step] {
    var current = steps
    var chunk = max(1, current.count / 2)
    var tries = 0
    while chunk >= 1 && tries < 400 {
        var removed = false
        var start = 0
        while start < current.count && tries < 400 {
            // The failing step itself stays: it is the last one.
            let end = min(start + chunk, current.count - 1)
            guard start < end else { break }
            var candidate = current
            candidate.removeSubrange(start..<end)
            tries += 1
            let (finding, ran) = replay(candidate, inject: inject)
            if let finding, finding.invariant == invariant {
                current = Array(candidate.prefix(ran))
                removed = true
                say("  shrunk to \(current.count) steps")
            } else {
                start = end
            }
        }
        if !removed { chunk /= 2 }
    }
    return current
}

func main() -> Int32 {
    guard let options = parse(Array(CommandLine.arguments.dropFirst())) else {
        try? FileHandle.standardError.write(contentsOf: Data((usage + "\n").utf8))
        return 64
    }
    func say(_ text: String) { if !options.quiet { print(text) } }
    func report(_ finding: Finding, steps: [Step]) -> Int32 {
        print("FAILED \(finding)")
        guard options.replay == nil else { return 1 }
        var shrunk = steps
        if options.shrink {
            say("shrinking \(steps.count) steps…")
            shrunk = shrink(steps, invariant: finding.invariant, inject: options.inject, say: say)
        }
        let (again, _) = replay(shrunk, inject: options.inject)
        print("the \(shrunk.count) steps that fail (\(again.map(\.description) ?? "not again: a flaky failure")):")
        for step in shrunk { print("  \(step)") }
        let out = options.out ?? "simulate-failure-\(options.seed).json"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let data = try? encoder.encode(shrunk), FileManager.default.createFile(atPath: out, contents: data) {
            print("written to \(out); replay: scripts/simulate --replay \(out)")
        }
        return 1
    }

    if let file = options.replay {
        guard let data = FileManager.default.contents(atPath: file),
            let steps = try? JSONDecoder().decode([Step].self, from: data)
        else {
            print("error: cannot read the steps of \(file)")
            return 65
        }
        say("replaying \(steps.count) steps of \(file)")
        let (finding, ran) = replay(steps, inject: options.inject)
        if let finding {
            print("step \(ran): \(steps[ran - 1])")
            return report(finding, steps: Array(steps.prefix(ran)))
        }
        print("replayed \(steps.count) steps: every invariant held")
        return 0
    }

    let shop: Shop
    do {
        (shop, _) = try freshShop(keep: options.keep)
    } catch {
        print("error: cannot set the shop up: \(error)")
        return 70
    }
    var generator = Generator(dice: Dice(seed: options.seed), cliShare: shop.binary == nil ? 0 : options.cliShare)
    var steps: [Step] = []
    var counts: [String: Int] = [:]
    let started = Date()
    for evening in 0..<options.evenings {
        var open = Step(.clock, generator.number + 1)
        generator.number += 1
        open.day = evening
        open.minutes = 17 * 60
        var index = 0
        while true {
            let step: Step
            if index == 0 {
                step = open
            } else if index <= options.steps,
                shop.clock.now < (try? Shop.instant(day: evening, minute: 23 * 60 + 15)) ?? .distantFuture
            {
                step = generator.next(shop, evening: evening)
            } else {
                generator.number += 1
                step = Step(.close, generator.number)
            }
            index += 1
            steps.append(step)
            do {
                let outcome = try run(step, on: shop, inject: options.inject)
                let key =
                    step.kind.rawValue + (outcome == .done ? "" : outcome == .skipped ? " (skipped)" : " (refused)")
                if options.trace {
                    print("\(step) → \(outcome == .done ? "done" : outcome == .skipped ? "skipped" : "refused")")
                }
                if options.verbose, let refusal = outcome.refusal {
                    print("  #\(step.number) \(step.kind.rawValue) refused: \(refusal.prefix(160))")
                }
                counts[key, default: 0] += 1
            } catch let finding as Finding {
                print("seed \(options.seed), evening \(evening), step \(step.number): \(step)")
                return report(finding, steps: steps)
            } catch {
                print("seed \(options.seed): \(error)")
                return report(Finding(invariant: "error", detail: "\(error)"), steps: steps)
            }
            if step.kind == .close { break }
        }
        say(
            "evening \(evening + 1): \(shop.model.booked.count) orders so far, \(steps.count) steps, every invariant held"
        )
    }
    let seconds = Date().timeIntervalSince(started)
    say(
        "seed \(options.seed): \(options.evenings) evenings, \(steps.count) steps in "
            + String(format: "%.1f s", seconds) + ", every invariant held")
    if !options.quiet {
        for (key, count) in counts.sorted(by: { $0.key < $1.key }) { print("  \(key): \(count)") }
    }
    return 0
}

exit(main())
