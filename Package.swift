// swift-tools-version:6.0
// Pizzeria: a SQLite-backed booking backend for a pizzeria.
// No package dependencies: the toolchain and the system libsqlite3 only.
import PackageDescription

let package = Package(
    name: "Pizzeria",
    products: [
        // Embedders depend on these two; the CLI is the third product.
        .library(name: "PizzeriaStorage", targets: ["PizzeriaStorage"]),
        .library(name: "PizzeriaServices", targets: ["PizzeriaServices"]),
        .executable(name: "pizzeria", targets: ["pizzeria"]),
    ],
    targets: [
        // The system SQLite (Debian: libsqlite3-dev). Imported `internal` by the storage layer,
        // so embedders never see C symbols.
        .systemLibrary(
            name: "CPizzeriaSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),

        // Generic SQLite layer plus the schema (Migrations/ embedded at build time).
        .target(
            name: "PizzeriaStorage",
            dependencies: ["CPizzeriaSQLite"],
            plugins: ["EmbedMigrations"]
        ),

        // Domain models, validation, stores (SQL) and the flows the app and the CLI share.
        .target(name: "PizzeriaServices", dependencies: ["PizzeriaStorage"]),

        // The command tree, argument parsing and output; in a library so tests run it in-process.
        .target(name: "PizzeriaCLI", dependencies: ["PizzeriaServices"]),
        .executableTarget(name: "pizzeria", dependencies: ["PizzeriaCLI"]),

        // The reference workload of ../shared/BENCHMARK.md, against a raw-C-API baseline.
        .executableTarget(
            name: "pizzeria-bench",
            dependencies: ["PizzeriaServices", "CPizzeriaSQLite"]
        ),

        // Build-time tool: turns Migrations/*.sql into one Swift source file.
        .executableTarget(name: "pizzeria-embed-migrations"),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["pizzeria-embed-migrations"]
        ),

        // Helpers shared by the test targets: temporary directories, the binary runner, a pty.
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        .target(name: "PizzeriaTestSupport", dependencies: ["CPseudoTerminal"], path: "Tests/PizzeriaTestSupport"),
        .testTarget(name: "PizzeriaStorageTests", dependencies: ["PizzeriaStorage", "PizzeriaTestSupport"]),
        .testTarget(name: "PizzeriaServicesTests", dependencies: ["PizzeriaServices", "PizzeriaTestSupport"]),
        .testTarget(name: "PizzeriaCLITests", dependencies: ["PizzeriaCLI", "PizzeriaTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
