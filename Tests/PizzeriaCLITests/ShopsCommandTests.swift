import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: many pizzerias, one file each, by name (shops …, --shop; the real binary)")
struct ShopsCommandTests {
    @Test("shops create/list/check/backup/migrate/remove; --shop runs any command on one shop; names cannot escape")
    func platform() throws {
        var cli = CLI()
        let directory = cli.directory.path("pizzerie")
        cli.environment["PIZZERIA_SHOPS"] = directory
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T16:00:00Z"
        let created = try cli.ok("shops", "create", "Napoli-Centro").stdout
        #expect(created.hasPrefix("Created shop napoli-centro at \(directory)/"), "\(created)")
        try cli.ok("shops", "create", "vomero")
        #expect(try cli.run("shops", "create", "vomero").status == 1)
        for bad in ["../etc", "a/b", "x.sqlite", ""] {
            let refused = try cli.run("shops", "create", bad)
            #expect(refused.status == 65 && refused.stderr.contains("name: must be 1 to 63"), "\(bad): \(refused)")
        }
        let listed = try cli.json("shops", "list", "--json") as? [[String: Any]]
        #expect(listed?.compactMap { $0["name"] as? String } == ["napoli-centro", "vomero"])
        let path = try #require(listed?.first?["path"] as? String)
        #expect(path.hasPrefix(directory + "/") && path.hasSuffix("/napoli-centro.sqlite"))
        #expect(try cli.ok("shops", "list", "--csv").stdout.hasPrefix("name,path\r\n"))
        // Any command on one shop; each shop's data its own.
        try cli.ok("--shop", "vomero", "pizza", "add", "--name", "Margherita", "--price", "6")
        #expect(try cli.ok("--shop", "vomero", "pizza", "list").stdout.contains("Margherita"))
        #expect(try cli.ok("--shop", "napoli-centro", "pizza", "list").stdout.contains("Margherita") == false)
        let missing = try cli.run("--shop", "nowhere", "pizza", "list")
        #expect(missing.status == 66, "\(missing)")
        #expect(try cli.run("--shop", "vomero", "--db", cli.directory.path("x.sqlite"), "pizza", "list").status == 64)
        var bare = cli
        bare.environment["PIZZERIA_SHOPS"] = nil
        let noDirectory = try bare.run("--shop", "vomero", "pizza", "list")
        #expect(noDirectory.status == 65 && noDirectory.stderr.contains("--shops DIR"), "\(noDirectory)")
        #expect(try bare.run("shops", "list").status == 64)
        #expect(try bare.ok("--shops", directory, "shops", "list").stdout.contains("vomero"))
        // Check, back up, migrate every shop.
        let checked = try cli.ok("shops", "check").stdout
        #expect(checked.contains("napoli-centro  ok") && checked.contains("vomero         ok"), "\(checked)")
        let backup = cli.directory.path("vomero-backup.sqlite")
        try cli.ok("shops", "backup", "vomero", "--to", backup)
        #expect(try cli.ok("--db", backup, "pizza", "list").stdout.contains("Margherita"))
        let migrated = try cli.ok("shops", "migrate", "--jobs", "2").stdout
        #expect(migrated.hasPrefix("2 shops: 0 migrated, 2 already current, 0 failed"), "\(migrated)")
        #expect(try cli.run("shops", "remove", "vomero").status == 64)
        try cli.ok("shops", "remove", "vomero", "--yes")
        #expect(try cli.run("--shop", "vomero", "pizza", "list").status == 66)
        #expect(try cli.run("shops", "backup", "vomero", "--to", cli.directory.path("y.sqlite")).status == 66)
    }
}
