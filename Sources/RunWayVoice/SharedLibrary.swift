import Glibc

/// A speech engine's C library, opened when a voice first needs it (`dlopen`) instead of linked.
///
/// Linked, each library is mapped and relocated when the process starts, whether it ever speaks
/// or not: flite's voices rms and slt alone were 3.3 MiB of runwayd's RSS, libespeak-ng and the
/// libraries it needs 1.8 MiB, on a board whose default English speaks with flite's kal16 and
/// whose voice is often the buzzer alone (issue 29). Opened here, only the engine and the voice
/// that speak are ever mapped.
///
/// A library is opened once and never closed: flite keeps a registered voice for the process,
/// libespeak-ng its globals. Its symbols stay local (`RTLD_LOCAL`), reached only through
/// `function(_:as:)`; every one it needs is resolved at once (`RTLD_NOW`), so a broken install
/// is found when the library opens, not midway through an utterance.
struct SharedLibrary {
    /// The file name the dynamic loader looks for, e.g. "libflite_cmu_us_kal16.so.1".
    let name: String
    /// The Debian package that installs it, named in the error when it is missing.
    let package: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `name` (the loader's search path: the soname Debian's runtime package installs).
    static func open(_ name: String, package: String) throws(VoiceError) -> SharedLibrary {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw .libraryMissing(library: name, package: package, reason: lastError())
        }
        return SharedLibrary(name: name, package: package, handle: handle)
    }

    /// The function `symbol`, as the C function pointer type `type` (the shims' `__typeof__`
    /// types, so its signature is the header's).
    func function<Function>(_ symbol: String, as type: Function.Type) throws(VoiceError) -> Function {
        precondition(MemoryLayout<Function>.size == MemoryLayout<UnsafeRawPointer>.size)
        guard let address = dlsym(handle, symbol) else {
            throw .libraryMissing(library: name, package: package, reason: Self.lastError())
        }
        return unsafeBitCast(address, to: Function.self)
    }

    /// dlerror's text for the call that just failed.
    private static func lastError() -> String {
        guard let text = dlerror() else { return "no reason given" }
        return String(cString: text)
    }
}
