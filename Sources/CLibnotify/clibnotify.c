#include "clibnotify.h"

struct clibnotify_table clibnotify_functions;

#define CDL_TABLE clibnotify_functions
static const struct cdl_symbol symbols[] = {
    CLIBNOTIFY_FUNCTIONS(CDL_SYMBOL, CDL_VOID_SYMBOL) CLIBNOTIFY_VARIADIC(CDL_SYMBOL)};
// libnotify's own dependencies (GIO, GObject, GLib, gdk-pixbuf) come with it; dlsym finds their functions too.
static struct cdl_library library = CDL_LIBRARY("libnotify.so.4", symbols);

int clibnotify_load(void) { return cdl_load(&library); }

const char *clibnotify_error(void) { return cdl_error(&library); }
