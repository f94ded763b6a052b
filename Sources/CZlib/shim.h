/* RunWay's window onto zlib (Debian's zlib1g-dev): deflate for the raw-log journal's records
 * and its CRC-32. */
#ifndef RUNWAY_CZLIB_SHIM_H
#define RUNWAY_CZLIB_SHIM_H

#include <zlib.h>

#endif
