import Foundation
import PizzeriaTestSupport
import Testing

/// The whole-shop simulator (`pizzeria-simulate`, docs/SIMULATION.md), run as CI runs it: seeded
/// evenings hold every invariant, a seed runs the same steps on every run, and a failure is
/// found, shrunk, written and replayed.
@Suite("The whole-shop simulator: seeded evenings, every invariant, shrinking and replay")
struct SimulatorTests {
    let directory = TemporaryDirectory()

    func simulate(_ arguments: String...) throws -> ProcessResult {
        let binary = PizzeriaBinary.url.deletingLastPathComponent().appendingPathComponent("pizzeria-simulate")
        let running = try RunningProcess(
            executable: binary, arguments: arguments, in: directory.url, environment: PizzeriaBinary.environment([:]),
            stdin: nil)
        return try running.wait(timeout: 600)
    }

    @Test("two evenings of a seed hold every invariant, through the library and the binary, the same steps each run")
    func seededEvenings() throws {
        let first = try simulate("--seed", "11", "--evenings", "2", "--steps", "120", "--cli-share", "0.2", "--trace")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("2 evenings") && first.stdout.contains("every invariant held"), "\(first)")
        let second = try simulate("--seed", "11", "--evenings", "2", "--steps", "120", "--cli-share", "0.2", "--trace")
        let steps = { (result: ProcessResult) in result.stdout.split(separator: "\n").filter { $0.contains(" → ") } }
        #expect(!steps(first).isEmpty && steps(first) == steps(second))
        // Most kinds of step ran, and some of each outcome.
        for kind in ["book", "pay", "refund", "cancel", "advance", "hand", "notify"] {
            #expect(steps(first).contains { $0.contains(" \(kind) ") }, "no \(kind) step")
        }
    }

    @Test("a mistake in the bookkeeping is found, shrunk to a few steps, written, and replays")
    func shrinkAndReplay() throws {
        let out = directory.path("failure.json")
        let failed = try simulate("--seed", "1", "--evenings", "2", "--steps", "150", "--inject", "money", "--out", out)
        #expect(failed.status == 1 && failed.stdout.contains("FAILED money-records"), "\(failed)")
        let data = try #require(FileManager.default.contents(atPath: out))
        let steps = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(steps.count <= 8 && steps.contains { $0["kind"] as? String == "pay" }, "\(steps)")
        let again = try simulate("--replay", out, "--inject", "money")
        #expect(again.status == 1 && again.stdout.contains("FAILED money-records"), "\(again)")
        // Without the mistake the same steps hold: the shop was right.
        let sound = try simulate("--replay", out)
        #expect(sound.status == 0 && sound.stdout.contains("every invariant held"), "\(sound)")
    }

    @Test("bad arguments are a usage error")
    func usage() throws {
        let result = try simulate("--seed", "x")
        #expect(result.status == 64 && result.stderr.contains("usage:"))
    }
}
