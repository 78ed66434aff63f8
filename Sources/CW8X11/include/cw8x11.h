#pragma once

// The X server's idle time, for the presence watch (issue 39): the XSync extension's IDLETIME system counter, with
// two alarms, so that the X server says when the session becomes idle and when input comes back, and nothing polls.
// libX11.so.6 and libXext.so.6 are dlopened the first time (a machine without X never loads them); the types are
// those of X11/extensions/sync.h, whose layout is the X ABI. Only W8Libnotify imports this module.

/// Opens `$DISPLAY` and arms the alarms at `idle_ms` milliseconds of idle time. Returns the X connection's file
/// descriptor, for the caller's main loop to watch, or -1: `cw8x11_error` says why in one line.
int cw8x11_idle_open(unsigned long idle_ms);

/// Reads what the X server sent: 1 when the session became idle, 0 when input came back, -1 when neither, -2 when
/// the connection is gone (the X server went away; it is not used again).
int cw8x11_idle_dispatch(void);

/// Whether the session is idle now (the counter at or past `idle_ms`): 1, 0, or -1 when it cannot be read.
int cw8x11_idle_now(void);

const char *cw8x11_error(void);
