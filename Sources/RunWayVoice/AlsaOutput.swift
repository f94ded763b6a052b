import CAlsa
import Glibc
import RunWayCore

/// A playback PCM of libasound. Not Sendable: an `snd_pcm_t` must be driven from one thread at
/// a time, and the daemon drives its output from one thread of its own.
public final class AlsaOutput {
    /// The device (or configuration PCM) name, as opened.
    public let device: String
    private var handle: OpaquePointer?
    /// The configuration tree a `configuration:` PCM was opened from, kept until `close` because
    /// the PCM's plugins were built from it.
    private var configuration: OpaquePointer?

    /// The latency asked of ALSA, µs: 100 ms of buffer, so a stop (`shouldStop`, then a drop)
    /// is heard within about a tenth of a second while a scheduler delay shorter than that
    /// does not underrun. (Chosen, not yet measured on the board's card.)
    public static let latency: UInt32 = 100_000
    /// Seconds a write (or the drain) may make no progress before the device counts as stalled.
    public static let stallLimit = 2.0

    /// libasound's own stderr lines silenced, once per process (`rw_alsa_quiet`): every failure
    /// reaches the caller as a `VoiceError` naming the device.
    private static let quiet: Void = rw_alsa_quiet()

    /// Opens `device` (an `aplay -L` name: "default", "plughw:1,0", …) for playback. The open is
    /// non-blocking, so a device another program holds fails at once (`.deviceBusy`) instead of
    /// waiting for it; the PCM is then switched back to blocking mode.
    public init(device: String) throws(VoiceError) {
        Self.quiet
        self.device = device
        var pcm: OpaquePointer?
        let code = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard code == 0, let pcm else { throw Self.openingError(code, device: device) }
        snd_pcm_nonblock(pcm, 0)
        handle = pcm
    }

    /// Opens the PCM named `pcm` in ALSA configuration text `configuration`, which is all the
    /// configuration it sees (the system's alsa.conf is not loaded): a slave must be defined in
    /// the text, e.g. `pcm.capture { type file slave { pcm { type null } } file "/tmp/a.raw" format "raw" }`.
    public init(configuration text: String, pcm name: String) throws(VoiceError) {
        Self.quiet
        device = name
        var top: OpaquePointer?
        var code = snd_config_top(&top)
        guard code == 0, let top else {
            throw .configurationInvalid(code: code, message: VoiceError.alsaMessage(code))
        }
        var input: OpaquePointer?
        code = snd_input_buffer_open(&input, text, text.utf8.count)
        if code == 0, let input {
            code = snd_config_load(top, input)
            snd_input_close(input)
        }
        guard code == 0 else {
            snd_config_delete(top)
            throw .configurationInvalid(code: code, message: VoiceError.alsaMessage(code))
        }
        var pcm: OpaquePointer?
        code = snd_pcm_open_lconf(&pcm, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK, top)
        guard code == 0, let pcm else {
            snd_config_delete(top)
            throw Self.openingError(code, device: name)
        }
        snd_pcm_nonblock(pcm, 0)
        handle = pcm
        configuration = top
    }

    deinit { close() }

    /// What an open's (negative errno) code means.
    static func openingError(_ code: Int32, device: String) -> VoiceError {
        switch -code {
        case EBUSY, EAGAIN: .deviceBusy(device: device)
        // ENOENT: no PCM by that name; EINVAL: a card index that does not exist ("hw:99");
        // ENODEV/ENXIO: the card has gone or the device number is not there.
        case ENOENT, ENODEV, ENXIO, EINVAL: .deviceMissing(device: device, code: code)
        default: .deviceFailed(device: device, code: code, message: VoiceError.alsaMessage(code))
        }
    }

    private func failed(_ code: Int32) -> VoiceError {
        .deviceFailed(device: device, code: code, message: VoiceError.alsaMessage(code))
    }

    /// Plays `pcm` (S16_LE mono at its own rate; ALSA resamples if the device cannot take it) in
    /// ~20 ms writes, asking `shouldStop` before each. Returns false when stopped (what was
    /// queued is dropped, so the sound stops within a write), true when every sample has been
    /// played out. One underrun (or suspend) per call is recovered; a device that fails mid-play
    /// (-ENODEV, -EIO: unplugged) throws `.deviceFailed`; no progress for `stallLimit` seconds
    /// throws `.deviceStalled`.
    public func play(_ pcm: PCMBuffer, shouldStop: () -> Bool) throws(VoiceError) -> Bool {
        guard let handle else { throw failed(-EBADF) }
        guard pcm.sampleRate > 0 else { throw failed(-EINVAL) }
        var code = snd_pcm_set_params(
            handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(pcm.sampleRate), 1,
            Self.latency)
        guard code == 0 else { throw failed(code) }
        let chunk = max(1, pcm.sampleRate / 50)
        let clock = ContinuousClock()
        var lastProgress = clock.now
        var recovered = false
        var offset = 0

        /// An error from a wait or a write: an underrun or suspend is recovered once, anything
        /// else stops the stream and is thrown.
        func handleError(_ code: Int32) throws(VoiceError) {
            if code == -EAGAIN { return }
            if (code == -EPIPE || code == -ESTRPIPE) && !recovered {
                recovered = true
                let result = snd_pcm_recover(handle, code, 1)
                if result == 0 { return }
                snd_pcm_drop(handle)
                throw failed(result)
            }
            snd_pcm_drop(handle)
            throw failed(code)
        }

        while offset < pcm.samples.count {
            if shouldStop() {
                snd_pcm_drop(handle)
                return false
            }
            if clock.now - lastProgress > .seconds(Self.stallLimit) {
                snd_pcm_drop(handle)
                throw .deviceStalled(device: device, seconds: Self.stallLimit)
            }
            // Waits at most 100 ms for room, so a stop or a stall is noticed between waits;
            // with room for a whole period the write below never blocks.
            code = snd_pcm_wait(handle, 100)
            if code < 0 {
                try handleError(code)
                continue
            }
            let room = snd_pcm_avail_update(handle)
            if room < 0 {
                try handleError(Int32(room))
                continue
            }
            let frames = min(chunk, pcm.samples.count - offset, Int(room))
            if frames == 0 { continue }
            let written = pcm.samples.withUnsafeBufferPointer { samples in
                snd_pcm_writei(handle, samples.baseAddress! + offset, snd_pcm_uframes_t(frames))
            }
            if written < 0 {
                try handleError(Int32(written))
                continue
            }
            if written > 0 {
                offset += Int(written)
                lastProgress = clock.now
            }
        }
        if shouldStop() {
            snd_pcm_drop(handle)
            return false
        }
        try drain(handle, rate: pcm.sampleRate)
        return true
    }

    /// Plays out what is queued, without blocking: the drain is started in non-blocking mode
    /// and its end awaited for the queued audio's length plus `stallLimit`.
    private func drain(_ handle: OpaquePointer, rate: Int) throws(VoiceError) {
        var queued: snd_pcm_sframes_t = 0
        if snd_pcm_delay(handle, &queued) < 0 { queued = 0 }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(Double(max(0, queued)) / Double(rate) + Self.stallLimit)
        snd_pcm_nonblock(handle, 1)
        defer { snd_pcm_nonblock(handle, 0) }
        let code = snd_pcm_drain(handle)
        guard code == -EAGAIN else {
            if code < 0 { throw failed(code) }
            return
        }
        while snd_pcm_state(handle) == SND_PCM_STATE_DRAINING {
            if clock.now > deadline {
                snd_pcm_drop(handle)
                throw .deviceStalled(device: device, seconds: Self.stallLimit)
            }
            usleep(10_000)
        }
    }

    /// Closes the PCM (idempotent).
    public func close() {
        if let handle { snd_pcm_close(handle) }
        handle = nil
        if let configuration { snd_config_delete(configuration) }
        configuration = nil
    }
}
