// Start-up trick, bench row "w8 add posting a milestone / notify-send" (bench/README.md, "Start-up tricks"):
// for `w8 add`, `edit` and `rm`, which may post, libnotify starts loading on a thread of its own before `main`;
// the first `clibnotify_load` waits for that load or finds it done.
#include "clibnotify.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Asked here, before the thread starts, so that the Swift runtime's backtracer constructor does not wait for the
// loader lock the thread's dlopen holds.
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
