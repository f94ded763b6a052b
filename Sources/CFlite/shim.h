/* RunWay's window onto flite (Debian's flite1-dev): English voices synthesised to a wave in
 * memory. See Sources/RunWayVoice/FliteSynthesizer.swift. */
#ifndef RUNWAY_CFLITE_SHIM_H
#define RUNWAY_CFLITE_SHIM_H
#include <flite/flite.h>
cst_voice *register_cmu_us_slt(const char *voxdir);
cst_voice *register_cmu_us_kal(const char *voxdir);
cst_voice *register_cmu_us_kal16(const char *voxdir);
cst_voice *register_cmu_us_rms(const char *voxdir);
#endif
