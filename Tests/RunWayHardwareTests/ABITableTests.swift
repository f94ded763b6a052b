import CAlsa
import CEspeakNG
import CFlite
import CGPS
import CLinux
import CSQLite
import CSystemd
import CZlib
import Foundation
import Glibc
import RunWaySystem
import Testing

/// Issue 29's arm64 check, the Swift half. `Tests/Fixtures/abi/abi.tsv` lists each size, offset
/// and constant the shims and Swift rely on, with its value on x86_64 and on aarch64;
/// `scripts/cross-check.sh` (in `make test`) checks both columns with gcc and aarch64-linux-gnu-gcc.
/// Here: what Swift itself sees on this machine (its importer's layouts, Glibc's constants, the
/// shims' values) equals this architecture's column, and no Swift source writes down a number
/// that is one of the values that differ between the two: such a number would be right on one
/// architecture only.
@Suite("ABI table: what Swift sees equals the table's column for this architecture")
struct ABITableTests {
    struct Row {
        let name: String
        let values: [String: Int]
        let swift: Bool
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func table() throws -> [Row] {
        let text = try String(
            contentsOf: root.appendingPathComponent("Tests/Fixtures/abi/abi.tsv"), encoding: .utf8)
        return try text.split(separator: "\n").compactMap { line -> Row? in
            guard !line.hasPrefix("#"), !line.hasPrefix("name\t") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count >= 5, "a row with fewer than 5 fields: \(line)")
            let x86 = try #require(Int(fields[2]), "\(fields[0]): x86_64 value \(fields[2])")
            let arm = try #require(Int(fields[3]), "\(fields[0]): aarch64 value \(fields[3])")
            return Row(name: fields[0], values: ["x86_64": x86, "aarch64": arm], swift: fields[4] == "yes")
        }
    }

    #if arch(x86_64)
        static let column = "x86_64"
    #elseif arch(arm64)
        static let column = "aarch64"
    #else
        static let column = "none"
    #endif

    static func n<T: BinaryInteger>(_ value: T) -> Int { Int(value) }

    /// Each row marked `swift`, as Swift sees it.
    static let swiftValues: [String: Int] = [
        "sizeof(long)": MemoryLayout<CLong>.size,
        "sizeof(void *)": MemoryLayout<UnsafeRawPointer>.size,
        "sizeof(time_t)": MemoryLayout<time_t>.size,
        "little endian": 1.littleEndian == 1 ? 1 : 0,
        "O_RDONLY": n(O_RDONLY), "O_WRONLY": n(O_WRONLY), "O_RDWR": n(O_RDWR), "O_CREAT": n(O_CREAT),
        "O_EXCL": n(O_EXCL), "O_TRUNC": n(O_TRUNC), "O_NOCTTY": n(O_NOCTTY), "O_NONBLOCK": n(O_NONBLOCK),
        "O_CLOEXEC": n(O_CLOEXEC), "O_NOFOLLOW": n(O_NOFOLLOW), "O_DIRECTORY": n(O_DIRECTORY),
        "O_DIRECT": n(FileDescriptor.oDirect),
        "F_GETFL": n(F_GETFL), "F_SETFL": n(F_SETFL), "F_SETFD": n(F_SETFD), "FD_CLOEXEC": n(FD_CLOEXEC),
        "F_OK": n(F_OK), "LOCK_SH": n(LOCK_SH), "LOCK_EX": n(LOCK_EX), "LOCK_NB": n(LOCK_NB),
        "LOCK_UN": n(LOCK_UN),
        "sizeof(struct stat)": MemoryLayout<stat>.size,
        "offsetof(struct stat, st_mode)": MemoryLayout<stat>.offset(of: \.st_mode) ?? -1,
        "offsetof(struct stat, st_size)": MemoryLayout<stat>.offset(of: \.st_size) ?? -1,
        "S_IFMT": n(Glibc.S_IFMT), "S_IFREG": n(Glibc.S_IFREG), "S_IFDIR": n(Glibc.S_IFDIR),
        "S_IFLNK": n(Glibc.S_IFLNK),
        "EPERM": n(EPERM), "ENOENT": n(ENOENT), "EINTR": n(EINTR), "EIO": n(EIO), "ENXIO": n(ENXIO),
        "EBADF": n(EBADF), "EAGAIN": n(EAGAIN), "EWOULDBLOCK": n(EWOULDBLOCK), "ENOMEM": n(ENOMEM),
        "EACCES": n(EACCES), "EBUSY": n(EBUSY), "EEXIST": n(EEXIST), "EXDEV": n(EXDEV), "ENODEV": n(ENODEV),
        "ENOTDIR": n(ENOTDIR), "EISDIR": n(EISDIR), "EINVAL": n(EINVAL), "EMFILE": n(EMFILE),
        "EFBIG": n(EFBIG),
        "ENOSPC": n(ENOSPC), "EROFS": n(EROFS), "EPIPE": n(EPIPE), "ENAMETOOLONG": n(ENAMETOOLONG),
        "ELOOP": n(ELOOP), "ESTRPIPE": n(ESTRPIPE), "EBADMSG": n(EBADMSG), "EOPNOTSUPP": n(EOPNOTSUPP),
        "ETIMEDOUT": n(ETIMEDOUT), "ECONNREFUSED": n(ECONNREFUSED), "EDQUOT": n(EDQUOT),
        "SIGINT": n(SIGINT), "SIGKILL": n(SIGKILL), "SIGPIPE": n(SIGPIPE), "SIGTERM": n(SIGTERM),
        "_SC_CLK_TCK": n(_SC_CLK_TCK),
        "AF_UNIX": n(AF_UNIX), "SOCK_STREAM": n(SOCK_STREAM.rawValue),
        "SOCK_CLOEXEC": n(SOCK_CLOEXEC.rawValue),
        "SOL_SOCKET": n(SOL_SOCKET), "SO_RCVTIMEO": n(SO_RCVTIMEO), "MSG_NOSIGNAL": n(MSG_NOSIGNAL),
        "MSG_DONTWAIT": n(MSG_DONTWAIT),
        "sizeof(struct sockaddr_un)": MemoryLayout<sockaddr_un>.size,
        "offsetof(struct sockaddr_un, sun_path)": MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? -1,
        "sizeof(sun_path)": MemoryLayout.size(ofValue: sockaddr_un().sun_path),
        "sizeof(struct timeval)": MemoryLayout<timeval>.size,
        "sizeof(struct timespec)": MemoryLayout<timespec>.size,
        "sizeof(struct pollfd)": MemoryLayout<pollfd>.size,
        "POLLIN": n(POLLIN), "POLLOUT": n(POLLOUT), "POLLERR": n(POLLERR), "POLLHUP": n(POLLHUP),
        "EFD_CLOEXEC": n(EFD_CLOEXEC), "EFD_NONBLOCK": n(EFD_NONBLOCK),
        "NL_NOHOST": n(NL_NOHOST), "NL_NOCONNECT": n(NL_NOCONNECT),
        "sizeof(rw_gps_report)": MemoryLayout<rw_gps_report>.size,
        "offsetof(rw_gps_report, mode)": MemoryLayout<rw_gps_report>.offset(of: \.mode) ?? -1,
        "offsetof(rw_gps_report, time)": MemoryLayout<rw_gps_report>.offset(of: \.time) ?? -1,
        "offsetof(rw_gps_report, lat)": MemoryLayout<rw_gps_report>.offset(of: \.lat) ?? -1,
        "offsetof(rw_gps_report, alt_msl)": MemoryLayout<rw_gps_report>.offset(of: \.alt_msl) ?? -1,
        "sizeof(sqlite3_int64)": MemoryLayout<sqlite3_int64>.size,
        "sizeof(uLong)": MemoryLayout<uLong>.size,
        "sizeof(snd_pcm_sframes_t)": MemoryLayout<snd_pcm_sframes_t>.size,
        "SND_PCM_FORMAT_S16_LE": n(SND_PCM_FORMAT_S16_LE.rawValue),
        "SND_PCM_ACCESS_RW_INTERLEAVED": n(SND_PCM_ACCESS_RW_INTERLEAVED.rawValue),
        "SND_PCM_NONBLOCK": n(SND_PCM_NONBLOCK),
        "sizeof(espeak_EVENT)": MemoryLayout<espeak_EVENT>.size,
        "offsetof(espeak_EVENT, user_data)": MemoryLayout<espeak_EVENT>.offset(of: \.user_data) ?? -1,
        "offsetof(cst_wave, sample_rate)": MemoryLayout<cst_wave>.offset(of: \.sample_rate) ?? -1,
        "offsetof(cst_wave, num_samples)": MemoryLayout<cst_wave>.offset(of: \.num_samples) ?? -1,
        "offsetof(cst_wave, samples)": MemoryLayout<cst_wave>.offset(of: \.samples) ?? -1,
        "sizeof(sd_bus_error)": MemoryLayout<sd_bus_error>.size,
    ]

    @Test("every row marked swift has Swift's value, and it is this architecture's column")
    func swiftSeesThisArchitecturesColumn() throws {
        try #require(Self.column != "none", "no column in abi.tsv for this architecture")
        let rows = try Self.table()
        let marked = rows.filter(\.swift)
        #expect(marked.count >= 90, "the table lost its Swift rows: \(marked.count)")
        for row in marked {
            let seen = try #require(
                Self.swiftValues[row.name], "\(row.name) is marked swift: add it to swiftValues")
            #expect(
                seen == row.values[Self.column],
                "\(row.name): Swift sees \(seen), abi.tsv's \(Self.column) says \(row.values[Self.column] ?? -1)"
            )
        }
        let unknown = Set(Self.swiftValues.keys).subtracting(marked.map(\.name))
        #expect(unknown.isEmpty, "swiftValues names rows abi.tsv does not mark swift: \(unknown.sorted())")
    }

    @Test("the values O_DIRECT, O_DIRECTORY, O_NOFOLLOW and the renameat2 syscall number differ")
    func theTableKnowsWhatDiffers() throws {
        let rows = try Self.table()
        let differing = Set(rows.filter { $0.values["x86_64"] != $0.values["aarch64"] }.map(\.name))
        for name in ["O_DIRECT", "O_DIRECTORY", "O_NOFOLLOW", "SYS_renameat2", "sizeof(struct stat)"] {
            #expect(differing.contains(name), "\(name) should differ between x86_64 and aarch64")
        }
    }

    /// Numbers in Swift sources that equal a constant that differs between the architectures
    /// (a flag or syscall number, not a size: sizes like 16 or 128 are everywhere), each allowed
    /// here only with the reason it is no such constant.
    static let allowed: [String: String] = [
        "RunWayCore/JSONParser.swift 0x10000": "UTF-16 surrogate pairs start at U+10000",
        "RunWayVoice/PCMBuffer.swift 32_768": "the 16-bit PCM sample's range",
        "RunWayExport/ChildProcess.swift 65_536": "how much of a child's output is kept",
    ]

    @Test("no Swift source writes down a constant whose value differs on arm64")
    func noArchitectureDependentLiterals() throws {
        let rows = try Self.table()
        let differing = rows.filter {
            $0.values["x86_64"] != $0.values["aarch64"] && !$0.name.hasPrefix("sizeof")
                && !$0.name.hasPrefix("offsetof") && $0.name != "char is signed"
        }
        let values = Set(differing.flatMap { $0.values.values })
        #expect(values.contains(16384) && values.contains(65536))
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap {
            $0 as? String
        }
        var found: [String] = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code =
                    line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                // Words of letters, digits, _ and .: a number literal is a word that starts with a digit.
                let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
                for word in words where word.first?.isNumber == true {
                    let literal = String(word)
                    let digits = literal.replacingOccurrences(of: "_", with: "")
                    let value: Int? =
                        switch digits.prefix(2) {
                        case "0x": Int(digits.dropFirst(2), radix: 16)
                        case "0o": Int(digits.dropFirst(2), radix: 8)
                        case "0b": Int(digits.dropFirst(2), radix: 2)
                        default: Int(digits)
                        }
                    guard let value, values.contains(value), Self.allowed["\(file) \(literal)"] == nil else {
                        continue
                    }
                    found.append("Sources/\(file):\(index + 1): \(literal)")
                }
            }
        }
        #expect(
            found.isEmpty,
            """
            a number that is an architecture-dependent constant on x86_64 or aarch64 (take it from the \
            C headers, e.g. through a shim, or add it to `allowed` with why it is no such constant): \
            \(found.joined(separator: ", "))
            """)
    }
}
