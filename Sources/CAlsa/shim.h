/* RunWay's window onto libasound (Debian's libasound2-dev): a playback PCM opened by device
 * name, or from a configuration given as text (the tests' `file` PCM). See
 * Sources/RunWayVoice/AlsaOutput.swift. */
#ifndef RUNWAY_CALSA_SHIM_H
#define RUNWAY_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/* libasound prints its own lines ("ALSA lib pcm.c:… Unknown PCM default") to stderr before
 * returning the error the Swift side turns into a VoiceError with the device's name; a handler
 * that drops them keeps runway's and runwayd's output to the one actionable message. The
 * handler is variadic, which Swift cannot write. */
static void rw_alsa_drop_message(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void rw_alsa_quiet(void) { snd_lib_error_set_handler(rw_alsa_drop_message); }
#endif
