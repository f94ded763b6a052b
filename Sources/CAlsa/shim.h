/* RunWay's window onto libasound (Debian's libasound2-dev): a playback PCM opened by device
 * name, or from a configuration given as text (the tests' `file` PCM). See
 * Sources/RunWayVoice/AlsaOutput.swift. */
#ifndef RUNWAY_CALSA_SHIM_H
#define RUNWAY_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
