// swift-tools-version:6.0
// A load generator built on PizzeriaServices as an outside service would be: eight tills book
// as fast as group commit takes them, logging each acknowledged order. scripts/stress-replication
// runs it under Litestream while killing things; scripts/test builds it and runs it briefly.
import PackageDescription

let package = Package(
    name: "TillStress",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Pizzeria", path: "../..")],
    targets: [
        .executableTarget(name: "TillStress", dependencies: [.product(name: "PizzeriaServices", package: "Pizzeria")])
    ],
    swiftLanguageModes: [.v6]
)
