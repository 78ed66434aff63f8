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

static struct {
    pthread_mutex_t lock;
    pthread_cond_t given;
    int started, taken;
    void *(*body)(void *);
    void *context;
} early = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL, NULL};

static void *early_main(void *unused) {
    (void)unused;
    pthread_setname_np(pthread_self(), "w8.libnotify");
    clibnotify_load();
    pthread_mutex_lock(&early.lock);
    while (early.body == NULL) pthread_cond_wait(&early.given, &early.lock);
    void *(*body)(void *) = early.body;
    void *context = early.context;
    pthread_mutex_unlock(&early.lock);
    return body(context);
}

int clibnotify_thread_take(void *(*body)(void *), void *context) {
    pthread_mutex_lock(&early.lock);
    int taken = early.started && !early.taken;
    if (taken) {
        early.taken = 1;
        early.body = body;
        early.context = context;
        pthread_cond_signal(&early.given);
    }
    pthread_mutex_unlock(&early.lock);
    return taken ? 0 : -1;
}

__attribute__((constructor)) static void clibnotify_start_early(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 2 || (strcmp(argv[1], "add") != 0 && strcmp(argv[1], "edit") != 0 && strcmp(argv[1], "rm") != 0)) {
        return;
    }
    free(swift_copyAuxiliaryExecutablePath("swift-backtrace"));
    (void)cw8_thread_prestart();  // if it fails, DatabasePrefetch creates its thread itself
    pthread_attr_t attributes;
    pthread_t thread;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // If it fails, the first post loads libnotify, and LibnotifyThread starts a thread of its own.
    pthread_mutex_lock(&early.lock);
    if (pthread_create(&thread, &attributes, early_main, NULL) == 0) early.started = 1;
    pthread_mutex_unlock(&early.lock);
    pthread_attr_destroy(&attributes);
}
