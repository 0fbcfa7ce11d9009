import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: importing what real clients write (the real binary)")
struct ClientJSONImportTests {
    @Test(
        "nav import of what a SwiftUI app writes: uppercase UUIDs restore the stack; other JSON in routes format is 65")
    func realClientJSON() throws {
        let cli = CLI()
        try cli.ok("demo")
        let menu = try cli.json("pizza", "list") as? [[String: Any]] ?? []
        let ids = menu.compactMap { $0["id"] as? String }.map { $0.uppercased() }
        let routes = "[" + ids.map { #"{"pizza":{"id":"\#($0)"}}"# }.joined(separator: ",") + "]"
        let file = cli.directory.path("routes.json")
        try Data(routes.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try cli.json("nav", "import", "marco", file) as? [String: Any]
        #expect(
            (imported?["state"] as? [String: Any])?["depth"] as? Int == ids.count, "\(String(describing: imported))")
        #expect((imported?["dropped"] as? [Any])?.isEmpty == true)

        let mixed = cli.directory.path("mixed.json")
        try Data(#"[{"pizza":{"id":"\#(ids[0])"}}, {"foo": 1}, 42]"#.utf8).write(to: URL(fileURLWithPath: mixed))
        let refused = try cli.run("nav", "import", "marco", mixed, "--format", "routes")
        #expect(refused.status == 65 && refused.stderr.contains("element 2 is not a route"), "\(refused)")
        let gone = cli.directory.path("gone.json")
        try Data(#"[{"pizza":{"id":"00000000-0000-4000-8000-000000000000"}}]"#.utf8).write(
            to: URL(fileURLWithPath: gone))
        let nothing = try cli.run("nav", "import", "marco", gone)
        #expect(nothing.status == 66 && nothing.stderr.contains("nothing was imported"), "\(nothing)")
        let state = try cli.json("nav", "show", "marco") as? [String: Any]
        #expect(state?["depth"] as? Int == ids.count)
        let empty = try cli.run("nav", "export", "marco", "--format", "navigation-path", "--type-name", "")
        #expect(empty.status == 65 && empty.stderr.contains("type-name: must not be empty"), "\(empty)")
        let link = try cli.run("nav", "open", "marco", "pizzeria://pizza/Porcini?utm_source=share#top")
        #expect(link.status == 0, "\(link)")
    }
}
