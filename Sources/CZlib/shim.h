#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit2 (a macro) for a raw deflate stream, as a ZIP member holds one: no zlib header, a 32 KiB window.
static inline int czlib_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

#endif
