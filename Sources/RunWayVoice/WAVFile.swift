import Glibc
import RunWaySystem

/// RIFF WAVE files of 16-bit PCM: written mono, read mono or stereo (stereo is downmixed).
public enum WAVFile {
    /// The largest file `read` takes: 64 MiB, half an hour of 16-bit mono at 22 050 Hz. A
    /// callout or a recorded board test is seconds long; anything near this is not a prompt.
    public static let maximumFileSize = 64 << 20

    /// The file's bytes: a 44-byte header (RIFF, `fmt ` with PCM format 1, `data`), then the
    /// samples little-endian.
    public static func encode(_ pcm: PCMBuffer) -> [UInt8] {
        let dataSize = pcm.samples.count * 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + dataSize)
        func put32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func put16(_ value: UInt16) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: Array("RIFF".utf8))
        put32(UInt32(truncatingIfNeeded: 36 + dataSize))
        bytes.append(contentsOf: Array("WAVEfmt ".utf8))
        put32(16)
        put16(1)  // PCM
        put16(1)  // mono
        put32(UInt32(truncatingIfNeeded: pcm.sampleRate))
        put32(UInt32(truncatingIfNeeded: pcm.sampleRate * 2))  // bytes per second
        put16(2)  // bytes per frame
        put16(16)  // bits per sample
        bytes.append(contentsOf: Array("data".utf8))
        put32(UInt32(truncatingIfNeeded: dataSize))
        for sample in pcm.samples {
            let value = UInt16(bitPattern: sample)
            bytes.append(UInt8(value & 0xFF))
            bytes.append(UInt8(value >> 8))
        }
        return bytes
    }

    /// Parses a WAV file. Every length in it is checked against the bytes actually there, so a
    /// truncated or hostile file is a `.badWAV`, never a trap or a huge allocation.
    public static func decode(_ bytes: [UInt8]) throws(VoiceError) -> PCMBuffer {
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(
                bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }

        guard bytes.count >= 12 else { throw .badWAV("\(bytes.count) bytes is too short for a RIFF header") }
        guard tag(0) == "RIFF", tag(8) == "WAVE" else { throw .badWAV("no RIFF/WAVE header") }
        var format: (channels: Int, rate: Int, bits: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(offset)
            let size = Int(u32(offset + 4))
            let body = offset + 8
            let remaining = bytes.count - body
            switch id {
            case "fmt ":
                guard size >= 16, size <= remaining else {
                    throw .badWAV("the fmt chunk claims \(size) bytes and \(remaining) remain")
                }
                let code = u16(body)
                // 0xFFFE (extensible) carries its real format in a sub-format GUID whose first
                // two bytes are the plain format code.
                let plain = code == 0xFFFE && size >= 40 ? u16(body + 24) : code
                guard plain == 1 else { throw .badWAV("format code \(code) is not PCM") }
                format = (Int(u16(body + 2)), Int(u32(body + 4)), Int(u16(body + 14)))
            case "data":
                guard let format else { throw .badWAV("the data chunk comes before any fmt chunk") }
                guard size <= remaining else {
                    throw .badWAV("the data chunk claims \(size) bytes and \(remaining) remain (truncated?)")
                }
                return try samples(bytes[body..<body + size], format: format)
            default:
                guard size <= remaining else {
                    throw .badWAV("the \(id) chunk claims \(size) bytes, past the end")
                }
            }
            offset = body + size + (size & 1)  // chunks are padded to an even length
        }
        throw .badWAV(format == nil ? "no fmt chunk" : "no data chunk")
    }

    private static func samples(
        _ data: ArraySlice<UInt8>, format: (channels: Int, rate: Int, bits: Int)
    ) throws(VoiceError) -> PCMBuffer {
        guard format.bits == 16 else { throw .badWAV("\(format.bits)-bit samples (runway reads 16-bit)") }
        guard format.channels == 1 || format.channels == 2 else {
            throw .badWAV("\(format.channels) channels (runway reads mono or stereo)")
        }
        guard format.rate >= 1000, format.rate <= 384_000 else {
            throw .badWAV("a sample rate of \(format.rate) Hz")
        }
        let frameBytes = 2 * format.channels
        let frames = data.count / frameBytes
        var output = [Int16](repeating: 0, count: frames)
        var at = data.startIndex
        for index in 0..<frames {
            let left = Int16(bitPattern: UInt16(data[at]) | UInt16(data[at + 1]) << 8)
            if format.channels == 2 {
                let right = Int16(bitPattern: UInt16(data[at + 2]) | UInt16(data[at + 3]) << 8)
                output[index] = Int16((Int(left) + Int(right)) / 2)
            } else {
                output[index] = left
            }
            at += frameBytes
        }
        return PCMBuffer(sampleRate: format.rate, samples: output)
    }

    /// Writes `pcm` to `path` durably: a temporary file in the same folder (so the rename
    /// cannot cross filesystems), written, fsynced, renamed over `path`, and the folder fsynced,
    /// so a power cut leaves the old file or the new one, never half of one.
    public static func write(_ pcm: PCMBuffer, to path: String) throws(VoiceError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (folder == "/" ? "" : folder) + "/.\(name).partial-\(getpid())"
        func failed(_ error: Errno, _ at: String) -> VoiceError {
            .fileFailed(path: at, errno: error.rawValue)
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, permissions: 0o644)
        } catch { throw failed(error, temporary) }
        do {
            try fd.writeAll(encode(pcm))
            try fd.sync()
            try fd.close()
        } catch {
            try? fd.close()
            unlink(temporary)
            throw failed(error, path)
        }
        guard rename(temporary, path) == 0 else {
            let error = Errno.current
            unlink(temporary)
            throw failed(error, path)
        }
        if let directory = try? FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) {
            try? directory.sync()
            try? directory.close()
        }
    }

    /// Reads and decodes the WAV file at `path` (at most `maximumFileSize` bytes).
    public static func read(_ path: String) throws(VoiceError) -> PCMBuffer {
        func failed(_ error: Errno) -> VoiceError { .fileFailed(path: path, errno: error.rawValue) }
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC) } catch { throw failed(error) }
        defer { try? fd.close() }
        let size: Int
        do { size = Int(try fd.status().st_size) } catch { throw failed(error) }
        guard size <= maximumFileSize else {
            throw .badWAV("\(path) is \(size) bytes, more than the \(maximumFileSize) runway reads")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count: Int
            do { count = try fd.read(into: &bytes, from: filled) } catch { throw failed(error) }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(size - filled)
        return try decode(bytes)
    }
}
