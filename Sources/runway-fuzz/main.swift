// `runway-fuzz TARGET [ARGS…]`: one of `FuzzEntry.targets` (trace, pressure, mission, control,
// configuration).
//
// Built by `make fuzz` with `-sanitize=fuzzer,address -D FUZZING`: ARGS are libFuzzer's (a corpus
// folder, -max_total_time=…). Built normally: ARGS are files, each run once through the target
// (a regression replay of a corpus or of a crasher).
import Foundation
import RunWayCLI

let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzEntry.targets.first(where: { $0.name == arguments[1] }) else {
    FileHandle.standardError.write(
        Data("usage: runway-fuzz \(FuzzEntry.targets.map(\.name).joined(separator: "|")) [ARGS…]\n".utf8))
    exit(2)
}
let run = target.run

#if FUZZING
    typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: Callback
    ) -> Int32

    nonisolated(unsafe) var selected: (@Sendable ([UInt8]) -> Void)? = run

    /// libFuzzer's archive refers to this symbol; the driver below calls the same code.
    @_cdecl("LLVMFuzzerTestOneInput")
    func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        selected?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
    // libFuzzer sees the program name and its own arguments, not the target's name.
    var fuzzerArguments = [arguments[0]] + arguments.dropFirst(2)
    var argc = Int32(fuzzerArguments.count)
    var pointers: [UnsafeMutablePointer<CChar>?] = fuzzerArguments.map { strdup($0) } + [nil]
    let status = pointers.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
        return runFuzzerDriver(&argc, &argv) { data, size in
            let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
            selected?(bytes)
            return 0
        }
    }
    exit(status)
#else
    var count = 0
    for path in arguments.dropFirst(2) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
        let files =
            isDirectory.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).map { path + "/" + $0 }
            : [path]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            run(Array(data))
            count += 1
        }
    }
    print("runway-fuzz \(arguments[1]): \(count) inputs ran")
    exit(0)
#endif
