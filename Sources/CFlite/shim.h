/* RunWay's window onto flite (Debian's flite1-dev): English voices synthesised to a wave in
 * memory. See Sources/RunWayVoice/FliteSynthesizer.swift.
 *
 * Nothing here is linked: runwayd loads libflite and the one voice library it speaks with
 * (dlopen, RunWayVoice's SharedLibrary) when it first speaks. Linked, every voice's library was
 * mapped and relocated at start whether it spoke or not: rms and slt alone were 3.3 MiB of
 * runwayd's RSS (issue 29). The types below are the functions' own, taken from flite's headers
 * with __typeof__, so a call through a pointer found by dlsym is checked as a linked call is.
 * The libraries opened (scripts/cross-check.sh opens each for x86_64 and aarch64; a test checks
 * the list against FliteSynthesizer's voices):
 * opened at run time: libflite.so.1 libflite_cmu_us_kal16.so.1 libflite_cmu_us_rms.so.1 libflite_cmu_us_slt.so.1 libflite_cmu_us_kal.so.1
 */
#ifndef RUNWAY_CFLITE_SHIM_H
#define RUNWAY_CFLITE_SHIM_H
#include <flite/flite.h>
typedef __typeof__(&flite_init) runway_flite_init_f;
typedef __typeof__(&flite_text_to_wave) runway_flite_text_to_wave_f;
typedef __typeof__(&feat_set_float) runway_feat_set_float_f;
typedef __typeof__(&delete_wave) runway_delete_wave_f;
/* Each voice library's one entry point, register_cmu_us_NAME (not in flite's headers). */
typedef cst_voice *(*runway_flite_register_voice_f)(const char *voxdir);
#endif
