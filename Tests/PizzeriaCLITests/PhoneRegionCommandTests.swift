import Foundation
import PizzeriaTestSupport
import Testing

/// `config set phone-region` and national numbers at the counter, on real files.
@Suite("CLI: phone numbers in the shop's country (the real binary)")
struct PhoneRegionCommandTests {
    @Test("a Naples landline is refused until the shop's country is set, then stored in E.164 and found as typed")
    func naplesLandline() throws {
        let cli = CLI()
        try cli.ok("init")
        let refused = try cli.run("user", "add", "gino", "--phone", "081 555 1234")
        #expect(refused.status == 65 && refused.stderr.contains("phone region"), "\(refused)")
        #expect(
            try cli.run("config", "set", "phone-region", "XX").stderr.contains("phone-region: must be a country code"))
        try cli.ok("config", "set", "phone-region", "it")
        let added = try cli.json("user", "add", "gino", "--phone", "081 555 1234") as? [String: Any]
        #expect(added?["phone"] as? String == "+390815551234")
        let found = try cli.json("user", "find", "081 5551234") as? [[String: Any]]
        #expect(found?.map { $0["handle"] as? String } == ["gino"])
        try cli.ok("config", "set", "phone-region", "")
        #expect(try cli.run("user", "add", "rita", "--phone", "333 123 4567").status == 65)
        #expect(try cli.sqlite("SELECT action FROM audit_log WHERE object = 'shop';").stdout == "set\nset\n")
    }
}
