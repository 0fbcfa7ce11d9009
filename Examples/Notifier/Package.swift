// swift-tools-version:6.0
// A notifier's command, as the team that sends the shop's texts would write it: it reads the event
// `pizzeria notify run --exec` hands it (the documented JSON on stdin) and renders an SMS and an
// e-mail in Italian or English into an outbox directory, once per event token. Foundation only: the
// JSON shape is the contract. scripts/test builds and runs it.
import PackageDescription

let package = Package(
    name: "Notifier",
    platforms: [.macOS(.v15)],
    targets: [.executableTarget(name: "pizzeria-notifier", path: "Sources/Notifier")],
    swiftLanguageModes: [.v6]
)
