import Foundation

#if FUZZING
    /// libFuzzer's driver (compiler-rt), run from this executable's own entry point: SwiftPM links an
    /// executable target's entry point as `pizzeria_fuzz_main`, so libFuzzer's `main` is not used.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    @_cdecl("pizzeria_fuzz_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments) { bytes, size in fuzzOneInput(bytes, size) }
    }

    /// One input, as libFuzzer hands it over (also the symbol its own `main` would call).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        guard let bytes else { return 0 }
        selectedTarget.run(Data(bytes: bytes, count: count))
        return 0
    }

    private let selectedTarget: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["PIZZERIA_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let message = Data("PIZZERIA_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue))\n".utf8)
            try? FileHandle.standardError.write(contentsOf: message)
            exit(64)
        }
        return target
    }()
#else
    /// Without the fuzzer: runs every file of the seed corpora (`Fuzz/corpus/TARGET/`) through its
    /// target, so the properties are checked by every test run (`pizzeria-fuzz [CORPUS-DIR]`).
    @main
    struct ReplayCorpus {
        static func main() {
            let root = CommandLine.arguments.dropFirst().first ?? "Fuzz/corpus"
            var inputs = 0
            for target in FuzzTarget.allCases {
                let directory = URL(fileURLWithPath: root).appendingPathComponent(target.rawValue)
                let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                guard !files.isEmpty else {
                    let message = Data("no seed corpus for \(target.rawValue) in \(directory.path)\n".utf8)
                    try? FileHandle.standardError.write(contentsOf: message)
                    exit(66)
                }
                for file in files.sorted() {
                    guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path)
                    else { continue }
                    target.run(data)
                    inputs += 1
                }
            }
            print(
                "pizzeria-fuzz: \(inputs) corpus inputs replayed through \(FuzzTarget.allCases.count) targets, every property held"
            )
        }
    }
#endif
