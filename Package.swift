// swift-tools-version:6.0
// Pizzeria: a SQLite-backed booking backend for a pizzeria.
// No package dependencies: the toolchain and the system libsqlite3 only.
import PackageDescription

// scripts/fuzz sets PIZZERIA_FUZZ=1: the fuzzed modules get libFuzzer's coverage and
// AddressSanitizer, and pizzeria-fuzz links libFuzzer (which brings its own main). Build tools
// (the migration embedder) are left alone. Normal builds see none of this.
let fuzzing = Context.environment["PIZZERIA_FUZZ"] == "1"
let fuzzed: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"]), .define("FUZZING")] : []
let fuzzLinked: [LinkerSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])] : []

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
            swiftSettings: fuzzed,
            plugins: ["EmbedMigrations"]
        ),

        // Domain models, validation, stores (SQL) and the flows the app and the CLI share.
        .target(name: "PizzeriaServices", dependencies: ["PizzeriaStorage"], swiftSettings: fuzzed),

        // The command tree, argument parsing and output; in a library so tests run it in-process.
        .target(name: "PizzeriaCLI", dependencies: ["PizzeriaServices"], swiftSettings: fuzzed),
        .executableTarget(name: "pizzeria", dependencies: ["PizzeriaCLI"]),

        // The reference workload of ../shared/BENCHMARK.md, against a raw-C-API baseline.
        .executableTarget(
            name: "pizzeria-bench",
            dependencies: ["PizzeriaServices", "CPizzeriaSQLite", "CSyncLatencyVFS"]
        ),
        // A platform of shops measured: creating, opening, migrating many shop files (scripts/bench-shops).
        .executableTarget(name: "pizzeria-bench-shops", dependencies: ["PizzeriaServices", "PizzeriaStorage"]),
        // The benchmark's model of a slower device: a delegating VFS that delays each xSync.
        .target(name: "CSyncLatencyVFS", dependencies: ["CPizzeriaSQLite"]),

        // The whole-shop simulator: seeded random evenings against the real code, its invariants
        // checked after every step (docs/SIMULATION.md; scripts/simulate).
        .executableTarget(
            name: "pizzeria-simulate", dependencies: ["PizzeriaServices", "PizzeriaStorage", "CPizzeriaSQLite"]),

        // Fuzz targets for the parsers (scripts/fuzz builds them with libFuzzer; a plain build
        // replays the seed corpora in Fuzz/corpus).
        .executableTarget(name: "pizzeria-fuzz", dependencies: ["PizzeriaCLI", "PizzeriaServices"],
                         swiftSettings: fuzzed, linkerSettings: fuzzLinked),

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
