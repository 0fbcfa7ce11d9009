import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// National phone numbers in the shop's country (migration 24).
@Suite("Phone numbers in the shop's country")
struct PhoneRegionTests {
    @Test("with phone-region IT, a Naples landline and a mobile typed nationally are stored in E.164; without, refused")
    func national() throws {
        let f = try OrderFixture()
        let users = f.pizzeria.users
        let refused = #expect(throws: ValidationError.self) { try users.add(handle: "gino", phone: "081 555 1234") }
        #expect(refused?.errors.first?.message.contains("phone region") == true)
        try f.pizzeria.payments.update(.phoneRegion(PhoneRegion.named("it")))
        #expect(try f.pizzeria.payments.shop().phoneRegion?.code == "IT")
        #expect(try users.add(handle: "gino", phone: "081 555 1234").phone == "+390815551234")
        #expect(try users.add(handle: "rita", phone: "333 123 4567").phone == "+393331234567")
        #expect(try users.add(handle: "yves", phone: "0033 6 12 34 56 78").phone == "+33612345678")
        #expect(try users.add(handle: "hans", phone: "+49 30 1234567").phone == "+49301234567")
        #expect(throws: ValidationError.self) { try users.add(handle: "nope", phone: "12") }
        // The counter finds them by the number as people say it.
        #expect(try users.find("081 555 1234").map(\.handle) == ["gino"])
        #expect(try users.find("+39 081 5551234").map(\.handle) == ["gino"])
    }

    @Test("a region that drops its trunk 0: France")
    func france() {
        let fr = PhoneRegion.named("FR")
        #expect(UserRules.normalizePhone("06 12 34 56 78", region: fr) == "+33612345678")
        #expect(UserRules.normalizePhone("01.42.68.53.00", region: fr) == "+33142685300")
        #expect(UserRules.normalizePhone("06 12 34 56 78") == nil)
        #expect(UserRules.normalizePhone("+33612345678", region: fr) == "+33612345678")
    }
}
