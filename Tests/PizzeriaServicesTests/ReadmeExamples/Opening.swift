import Foundation
// README-EXAMPLE-BEGIN
import PizzeriaServices

func openingExample(path: String) async throws -> Pizzeria {
    // Durable by default: every acknowledged write survives power loss. `.fast` trades the last
    // commits before a power loss for fewer syncs; `.external` leaves checkpoints to a replicator.
    var configuration = PizzeriaConfiguration()
    configuration.busyTimeoutMilliseconds = 5_000
    configuration.durability = .durable
    configuration.checkpoints = .automatic
    // Creates the file (mode 0600) and applies migrations as needed. Open once, share everywhere:
    // Pizzeria and its services are Sendable.
    return try await Pizzeria.open(path: path, configuration: configuration)
}
// README-EXAMPLE-END
