#ifndef COREAPI_ZLIB_H
#define COREAPI_ZLIB_H

#include <zlib.h>

/// `inflateInit2`, a macro in zlib.h, as a function Swift can call.
static inline int CoreAPIZlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
