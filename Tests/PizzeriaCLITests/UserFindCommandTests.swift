import Foundation
import PizzeriaTestSupport
import Testing

/// Finding a customer at the counter by part of a handle, name or phone (the real binary).
@Suite("CLI: user find")
struct UserFindCommandTests {
    @Test("by name in any case, by phone digits in any format, wildcards taken literally, erased customers never found")
    func find() throws {
        let cli = CLI()
        try cli.ok("init")
        try cli.ok("user", "add", "anna", "--name", "Anna Rossi", "--phone", "+39 333 123 4567")
        try cli.ok("user", "add", "marco", "--name", "Marco 50%_off")
        try cli.ok("user", "add", "luca", "--name", "Luca Rossi")
        func handles(_ text: String) throws -> [String] {
            (try cli.json("user", "find", text) as? [[String: Any]] ?? []).compactMap { $0["handle"] as? String }
        }
        #expect(try handles("ROSSI") == ["anna", "luca"])
        #expect(try handles("333 123") == ["anna"])
        #expect(try handles("0039 333-123") == ["anna"])
        #expect(try handles("%") == ["marco"])
        #expect(try handles("zzz").isEmpty)
        try cli.ok("user", "erase", "luca", "--yes")
        #expect(try handles("rossi") == ["anna"])
        #expect(try cli.run("user", "find", "").status == 65)
    }
}
