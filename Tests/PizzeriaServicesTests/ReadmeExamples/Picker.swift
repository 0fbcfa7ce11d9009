// README-EXAMPLE-BEGIN
import PizzeriaServices

func pickerExample(_ pizzeria: Pizzeria) async throws -> SlotAvailability {
    // Two bakers on Friday and Saturday evenings: 20 pizzas per slot instead of slot-capacity.
    guard let evening = HoursSyntax.interval("18:30-21:00") else { throw CancellationError() }
    try await pizzeria.write { try $0.capacity.set([.weekday(.friday), .weekday(.saturday)], evening, capacity: 20) }

    // The checkout's pickup-time picker: the next five slots that can take four pizzas now.
    let answer = try await pizzeria.read { try $0.orders.availableSlots(pizzas: 4, limit: 5) }
    if answer.slots.isEmpty { print(answer.message ?? "") }  // "not taking orders until 21:00: oven repair"
    for slot in answer.slots { print(slot.local, slot.offset, slot.remaining, slot.capacityRule ?? "slot-capacity") }
    return answer
}
// README-EXAMPLE-END
