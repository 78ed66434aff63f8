#include "clibnotify.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct clibnotify_table clibnotify_functions;

#define CDL_TABLE clibnotify_functions
static const struct cdl_symbol symbols[] = {
    CLIBNOTIFY_FUNCTIONS(CDL_SYMBOL, CDL_VOID_SYMBOL) CLIBNOTIFY_VARIADIC(CDL_SYMBOL)};
// libnotify's own dependencies (GIO, GObject, GLib, gdk-pixbuf) come with it; dlsym finds their functions too.
static struct cdl_library library = CDL_LIBRARY("libnotify.so.4", symbols);

int clibnotify_load(void) { return cdl_load(&library); }

const char *clibnotify_error(void) { return cdl_error(&library); }

// `w8 add`, `edit` and `rm` may post a notification; libnotify and the 13 libraries it brings take longer to load
// than the Swift runtime and Foundation take to start. So for these commands this constructor starts loading them on
// a thread of their own before `main` (glibc passes an executable's constructors main's arguments); the first
// `clibnotify_load` then waits for that load, or finds it done. It runs third of the executable's constructors,
// after the Swift runtime registers the image; the runtime's backtracer constructor, which comes later, asks
// `dladdr` where the runtime is, and `dladdr` waits for the loader lock that a `dlopen` holds until it is done. The
// runtime answers that question once, so it is asked here, before the thread starts: the main thread then starts
// Swift with the loader to itself.
extern char *swift_copyAuxiliaryExecutablePath(const char *name);

static void *load_early(void *unused) {
    (void)unused;
    clibnotify_load();
    return NULL;
}

__attribute__((constructor)) static void clibnotify_load_early(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 2 || (strcmp(argv[1], "add") != 0 && strcmp(argv[1], "edit") != 0 && strcmp(argv[1], "rm") != 0)) {
        return;
    }
    free(swift_copyAuxiliaryExecutablePath("swift-backtrace"));
    pthread_attr_t attributes;
    pthread_t thread;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_create(&thread, &attributes, load_early, NULL);  // if it fails, the first post loads libnotify itself
    pthread_attr_destroy(&attributes);
}
