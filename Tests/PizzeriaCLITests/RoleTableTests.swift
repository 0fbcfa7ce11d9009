import Foundation
@testable import PizzeriaCLI
import PizzeriaServices
import PizzeriaTestSupport
import Testing

/// Who may do what: one table of command → role (``AuditCommands/roles``), every command in it
/// real and taking `--by`, money given back a manager's.
@Suite("CLI: the role table — every changing command takes --by; refunds need a manager")
struct RoleTableTests {
    @Test("every command in the role table exists and takes --by")
    func everyChangingCommandTakesBy() throws {
        for (path, _) in AuditCommands.roles {
            var command = CommandTree.root
            for word in path.split(separator: " ") {
                let found = try #require(command.subcommand(named: String(word)), "no command '\(path)'")
                command = found
            }
            #expect(command.options.contains { $0.long == "by" }, "'\(path)' takes no --by")
            #expect(command.run != nil, "'\(path)' is not a command that runs")
        }
        for path in ["order refund", "order pay", "category vat", "config set", "user add", "pause", "hours close"] {
            #expect(AuditCommands.roles[path] != nil, "'\(path)' changes the shop but has no role")
        }
        #expect(AuditCommands.roles["order refund"] == .manager && AuditCommands.roles["order pay"] == .counter)
    }

    @Test("with require-staff on: --by names who acts on any changing command; a counter cannot refund (exit 1)")
    func rolesEnforced() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T09:00:00Z"
        try cli.ok("demo")
        try cli.ok("staff", "add", "giulia", "--role", "owner")
        try cli.ok("staff", "add", "marco", "--role", "counter")
        try cli.ok("staff", "add", "sara", "--role", "manager")
        try cli.ok("config", "set", "require-staff", "on", "--by", "giulia")
        // Commands that took no --by before: each names who acts, and the audit says so.
        try cli.ok("user", "add", "luigi", "--by", "marco")
        try cli.ok("pause", "--until", "10:00", "--reason", "forno", "--by", "sara")
        try cli.ok("category", "vat", "Bevande", "22", "--by", "sara")
        let audit = try cli.ok("audit", "--by", "sara").stdout
        #expect(audit.contains("pause") || audit.contains("settings"), "\(audit)")
        let nobody = try cli.run("user", "add", "pino")
        #expect(nobody.status == 1, "\(nobody)")
        try cli.ok("resume", "--by", "sara")
        let placed =
            try cli.json("order", "place", "anna", "--pickup", "19:30", "Porcini", "--by", "marco") as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        try cli.ok("order", "pay", id, "--method", "card", "--by", "marco")
        let refund = try cli.run("order", "refund", id, "--amount", "5", "--reason", "cold", "--by", "marco")
        #expect(refund.status == 1 && refund.stderr.contains("manager"), "\(refund)")
        try cli.ok("order", "refund", id, "--amount", "5", "--reason", "cold", "--by", "sara")
        // A void (cancelling an order that keeps money) is a manager's; an unpaid one the counter's.
        let void = try cli.run("order", "cancel", id, "--reason", "wrong order", "--by", "marco")
        #expect(void.status == 1 && void.stderr.contains("manager"), "\(void)")
        try cli.ok("order", "cancel", id, "--reason", "wrong order", "--by", "sara")
        let unpaid =
            try cli.json("order", "place", "anna", "--pickup", "20:00", "Porcini", "--by", "marco") as? [String: Any]
        try cli.ok("order", "cancel", try #require(unpaid?["id"] as? String), "--by", "marco")
        // Reading the close needs no one; recording a count of the drawer names who counted.
        try cli.ok("report", "close", "--date", "2026-12-04")
        let anonymous = try cli.run("report", "close", "--counted-cash", "10")
        #expect(anonymous.status == 1, "\(anonymous)")
        try cli.ok("report", "close", "--counted-cash", "10", "--by", "marco")
        #expect(try cli.sqlite("SELECT actor FROM drawer_counts;").stdout == "marco\n")
    }
}
