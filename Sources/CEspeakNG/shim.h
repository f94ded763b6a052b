/* RunWay's window onto libespeak-ng (Debian's libespeak-ng-dev): synchronous synthesis into a
 * callback, one voice per language. See Sources/RunWayVoice/EspeakSynthesizer.swift. */
#ifndef RUNWAY_CESPEAKNG_SHIM_H
#define RUNWAY_CESPEAKNG_SHIM_H
#include <espeak-ng/speak_lib.h>
#endif
