// Start-up trick, bench row "w8 add posting a milestone / notify-send" (bench/README.md, "Start-up tricks").
//
// For `w8 add`, `edit` and `rm`, which may post, two threads start before `main`:
// - the libnotify thread, which loads libnotify at once, then waits for its body: the loop of W8Libnotify's
//   LibnotifyThread, given by `clibnotify_thread_take` at the claim. A claim that comes during the load neither
//   creates a thread nor waits for the load; the loop's first job waits for it.
// - before it, the thread that will open the database, parked (CW8Linux's `cw8_thread_prestart`, W8Runtime's
//   `DatabasePrefetch`). `dlopen` holds the loader's TLS lock while it maps and relocates the 13 libraries, and a
//   `pthread_create` waits for that lock: started in `main`, the database's thread waited for the whole load.
// In every other command, no thread starts: `clibnotify_thread_take` fails and LibnotifyThread starts its own.
#define _GNU_SOURCE  // pthread_setname_np
#include "clibnotify.h"
#include "cw8linux.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Asked here, before the thread starts, so that the Swift runtime's backtracer constructor does not wait for the
// loader lock the thread's dlopen holds.
extern char *swift_copyAuxiliaryExecutablePath(const char *name);

static void early_load(void) {
    pthread_setname_np(pthread_self(), "w8.libnotify");
    clibnotify_load();
}

static struct cw8_parked early = CW8_PARKED(early_load);

int clibnotify_thread_take(void *(*body)(void *), void *context) {
    pthread_t thread;
    if (cw8_parked_claim(&early, &thread) != 0) return -1;
    cw8_parked_give(&early, body, context);
    return 0;
}

__attribute__((constructor)) static void clibnotify_start_early(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 2 || (strcmp(argv[1], "add") != 0 && strcmp(argv[1], "edit") != 0 && strcmp(argv[1], "rm") != 0)) {
        return;
    }
    free(swift_copyAuxiliaryExecutablePath("swift-backtrace"));
    (void)cw8_thread_prestart();  // if it fails, DatabasePrefetch creates its thread itself
    // If it fails, the first post loads libnotify, and LibnotifyThread starts a thread of its own.
    (void)cw8_parked_start(&early, 1);
}
