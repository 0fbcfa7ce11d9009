// swift-tools-version:6.0
// An outside service built on PizzeriaServices, as another team would write it: it depends on
// the Pizzeria package by path and uses only its public API. scripts/test builds and runs it.
import PackageDescription

let package = Package(
    name: "KitchenService",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Pizzeria", path: "../..")],
    targets: [
        .executableTarget(
            name: "KitchenService", dependencies: [.product(name: "PizzeriaServices", package: "Pizzeria")])
    ],
    swiftLanguageModes: [.v6]
)
