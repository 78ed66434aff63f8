#include "cw8x11.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cdynamiclibrary.h"

// Xlib's and XSync's types, as X11/Xlib.h and X11/extensions/sync.h lay them out.
typedef struct _XDisplay Display;
typedef unsigned long XID;
typedef XID XSyncCounter;
typedef XID XSyncAlarm;
typedef struct {
    int hi;
    unsigned int lo;
} XSyncValue;
typedef struct {
    char *name;
    XSyncCounter counter;
    XSyncValue resolution;
} XSyncSystemCounter;
enum { XSyncAbsolute = 0 };
enum { XSyncPositiveTransition = 0, XSyncNegativeTransition = 1 };
typedef struct {
    XSyncCounter counter;
    int value_type;
    XSyncValue wait_value;
    int test_type;
} XSyncTrigger;
typedef struct {
    XSyncTrigger trigger;
    XSyncValue delta;
    int events;
    int state;
} XSyncAlarmAttributes;
typedef struct {
    int type;
    unsigned long serial;
    int send_event;
    Display *display;
    XSyncAlarm alarm;
    XSyncValue counter_value;
    XSyncValue alarm_value;
    unsigned long time;
    int state;
} XSyncAlarmNotifyEvent;
typedef union {
    int type;
    XSyncAlarmNotifyEvent alarm;
    long pad[24];
} XEvent;
#define XSyncCACounter (1L << 0)
#define XSyncCAValueType (1L << 1)
#define XSyncCAValue (1L << 2)
#define XSyncCATestType (1L << 3)
#define XSyncCADelta (1L << 4)
#define XSyncCAEvents (1L << 5)
#define XSyncAlarmNotify 1

static struct {
    Display *(*XOpenDisplay)(const char *);
    int (*XConnectionNumber)(Display *);
    int (*XPending)(Display *);
    int (*XNextEvent)(Display *, XEvent *);
    int (*XFlush)(Display *);
    int (*XCloseDisplay)(Display *);
    void *(*XSetErrorHandler)(int (*)(Display *, void *));
    void (*XSetIOErrorExitHandler)(Display *, void (*)(Display *, void *), void *);
} x11;
static struct {
    int (*XSyncQueryExtension)(Display *, int *, int *);
    int (*XSyncInitialize)(Display *, int *, int *);
    XSyncSystemCounter *(*XSyncListSystemCounters)(Display *, int *);
    void (*XSyncFreeSystemCounterList)(XSyncSystemCounter *);
    XSyncAlarm (*XSyncCreateAlarm)(Display *, unsigned long, XSyncAlarmAttributes *);
    int (*XSyncQueryCounter)(Display *, XSyncCounter, XSyncValue *);
} xsync;

static const struct cdl_symbol x11_symbols[] = {
    {"XOpenDisplay", (void **)&x11.XOpenDisplay},       {"XConnectionNumber", (void **)&x11.XConnectionNumber},
    {"XPending", (void **)&x11.XPending},               {"XNextEvent", (void **)&x11.XNextEvent},
    {"XFlush", (void **)&x11.XFlush},                   {"XCloseDisplay", (void **)&x11.XCloseDisplay},
    {"XSetErrorHandler", (void **)&x11.XSetErrorHandler},
    // libX11 1.7 and later (Debian 12 has 1.8.4): without it, a server that goes away ends the whole process.
    {"XSetIOErrorExitHandler", (void **)&x11.XSetIOErrorExitHandler},
};
static const struct cdl_symbol xsync_symbols[] = {
    {"XSyncQueryExtension", (void **)&xsync.XSyncQueryExtension},
    {"XSyncInitialize", (void **)&xsync.XSyncInitialize},
    {"XSyncListSystemCounters", (void **)&xsync.XSyncListSystemCounters},
    {"XSyncFreeSystemCounterList", (void **)&xsync.XSyncFreeSystemCounterList},
    {"XSyncCreateAlarm", (void **)&xsync.XSyncCreateAlarm},
    {"XSyncQueryCounter", (void **)&xsync.XSyncQueryCounter},
};
static struct cdl_library x11_library = CDL_LIBRARY("libX11.so.6", x11_symbols);
static struct cdl_library xsync_library = CDL_LIBRARY("libXext.so.6", xsync_symbols);

// The connection and its alarms; used by one thread (the libnotify thread's loop).
static Display *display;
static int event_base;
static XSyncCounter idletime;
static XSyncAlarm idle_alarm, back_alarm;
static uint64_t idle_threshold;
static char error_text[512];
/// Set when the connection broke (the X server went away): Xlib must not be called on it again.
static int broken;

// Xlib's default handlers print and exit the process; an error or a lost server must only end this watch.
static int ignore_error(Display *d, void *event) {
    (void)d;
    (void)event;
    return 0;
}

static void connection_lost(Display *d, void *context) {
    (void)d;
    (void)context;
    broken = 1;
}

const char *cw8x11_error(void) { return error_text; }

static int fail(const char *what) {
    snprintf(error_text, sizeof error_text, "%s", what);
    if (display && !broken) x11.XCloseDisplay(display);
    display = 0;
    return -1;
}

static XSyncValue value_of(uint64_t value) {
    XSyncValue v = {(int)(value >> 32), (unsigned int)(value & 0xffffffffu)};
    return v;
}

static XSyncAlarm alarm_at(uint64_t value, int test_type) {
    XSyncAlarmAttributes attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.trigger.counter = idletime;
    attributes.trigger.value_type = XSyncAbsolute;
    attributes.trigger.wait_value = value_of(value);
    attributes.trigger.test_type = test_type;
    attributes.delta = value_of(0);
    attributes.events = 1;
    return xsync.XSyncCreateAlarm(display,
                                  XSyncCACounter | XSyncCAValueType | XSyncCAValue | XSyncCATestType | XSyncCADelta |
                                      XSyncCAEvents,
                                  &attributes);
}

int cw8x11_idle_open(unsigned long idle_ms) {
    if (cdl_load(&x11_library) != 0) return fail(cdl_error(&x11_library));
    if (cdl_load(&xsync_library) != 0) return fail(cdl_error(&xsync_library));
    if (display) return broken ? -1 : x11.XConnectionNumber(display);
    display = x11.XOpenDisplay(0);
    if (!display) return fail("cannot open $DISPLAY");
    x11.XSetErrorHandler(ignore_error);
    x11.XSetIOErrorExitHandler(display, connection_lost, 0);
    int error_base, major, minor;
    if (!xsync.XSyncQueryExtension(display, &event_base, &error_base) ||
        !xsync.XSyncInitialize(display, &major, &minor))
        return fail("the X server has no SYNC extension");
    int count = 0;
    XSyncSystemCounter *counters = xsync.XSyncListSystemCounters(display, &count);
    idletime = 0;
    for (int i = 0; i < count; i++)
        if (strcmp(counters[i].name, "IDLETIME") == 0) idletime = counters[i].counter;
    if (counters) xsync.XSyncFreeSystemCounterList(counters);
    if (!idletime) return fail("the X server has no IDLETIME counter");
    idle_threshold = idle_ms;
    // Idle: the counter rises past the threshold. Back: it falls below it again, as any input resets it to 0.
    idle_alarm = alarm_at(idle_ms, XSyncPositiveTransition);
    back_alarm = alarm_at(idle_ms > 0 ? idle_ms - 1 : 0, XSyncNegativeTransition);
    x11.XFlush(display);
    return x11.XConnectionNumber(display);
}

int cw8x11_idle_dispatch(void) {
    if (!display || broken) return -2;
    int result = -1;
    while (!broken && x11.XPending(display) > 0) {
        XEvent event;
        x11.XNextEvent(display, &event);
        if (event.type != event_base + XSyncAlarmNotify) continue;
        if (event.alarm.alarm == idle_alarm) result = 1;
        if (event.alarm.alarm == back_alarm) result = 0;
    }
    return broken ? -2 : result;
}

int cw8x11_idle_now(void) {
    if (!display || broken) return -1;
    XSyncValue value;
    if (!xsync.XSyncQueryCounter(display, idletime, &value)) return -1;
    uint64_t milliseconds = ((uint64_t)(unsigned int)value.hi << 32) | value.lo;
    return milliseconds >= idle_threshold;
}
