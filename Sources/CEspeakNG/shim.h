/* RunWay's window onto libespeak-ng (Debian's libespeak-ng-dev): synchronous synthesis into a
 * callback, one voice per language. See Sources/RunWayVoice/EspeakSynthesizer.swift.
 *
 * Nothing here is linked: libespeak-ng is loaded (dlopen, RunWayVoice's SharedLibrary) when the
 * first espeak-ng synthesiser is made, which runwayd does only when the configuration's language
 * or engine asks for it. Linked, it was mapped at every start with the two dozen libraries it
 * needs (pcaudio, PulseAudio, X11, sndfile, FLAC, Vorbis, Opus, mpg123, lame): 1.8 MiB of
 * runwayd's RSS for a voice the default English never uses (issue 29). The types below are the
 * functions' own, taken from speak_lib.h with __typeof__. The library opened (scripts/cross-check.sh
 * opens it for x86_64 and aarch64):
 * opened at run time: libespeak-ng.so.1
 */
#ifndef RUNWAY_CESPEAKNG_SHIM_H
#define RUNWAY_CESPEAKNG_SHIM_H
#include <espeak-ng/speak_lib.h>
typedef __typeof__(&espeak_Initialize) runway_espeak_initialize_f;
typedef __typeof__(&espeak_SetSynthCallback) runway_espeak_set_synth_callback_f;
typedef __typeof__(&espeak_SetVoiceByName) runway_espeak_set_voice_by_name_f;
typedef __typeof__(&espeak_SetParameter) runway_espeak_set_parameter_f;
typedef __typeof__(&espeak_Synth) runway_espeak_synth_f;
#endif
