// Start-up trick, bench row "w8 add posting a milestone / notify-send" (bench/README.md, "Start-up tricks").
#define _GNU_SOURCE  // sched_getcpu, CPU_SET, pthread_attr_setaffinity_np, pthread_setaffinity_np
#include "cw8linux.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>

// The thread `cw8_thread_prestart` started, parked until the first `cw8_thread_start_elsewhere` gives it its body
// (set once, under `lock`).
static struct {
    pthread_mutex_t lock;
    pthread_cond_t given;
    int started, taken;
    pthread_t thread;
    void *(*body)(void *);
    void *context;
} parked = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, NULL, NULL};

static void *parked_main(void *unused) {
    (void)unused;
    pthread_mutex_lock(&parked.lock);
    while (parked.body == NULL) pthread_cond_wait(&parked.given, &parked.lock);
    void *(*body)(void *) = parked.body;
    void *context = parked.context;
    pthread_mutex_unlock(&parked.lock);
    return body(context);
}

int cw8_thread_prestart(void) {
    pthread_mutex_lock(&parked.lock);
    int failure = parked.started ? EEXIST : pthread_create(&parked.thread, NULL, parked_main, NULL);
    if (failure == 0) parked.started = 1;
    pthread_mutex_unlock(&parked.lock);
    if (failure != 0) {
        errno = failure;
        return -1;
    }
    return 0;
}

/// Gives `body` to the parked thread, moved to `allowed` first; false when there is none to give it to.
static int give_to_parked(void *(*body)(void *), void *context, const cpu_set_t *allowed, uint64_t *thread) {
    pthread_mutex_lock(&parked.lock);
    int given = parked.started && !parked.taken;
    if (given) {
        parked.taken = 1;
        (void)pthread_setaffinity_np(parked.thread, sizeof *allowed, allowed);  // if it fails, it runs anywhere
        parked.body = body;
        parked.context = context;
        *thread = (uint64_t)parked.thread;
        pthread_cond_signal(&parked.given);
    }
    pthread_mutex_unlock(&parked.lock);
    return given;
}

int cw8_thread_start_elsewhere(void *(*body)(void *), void *context, uint64_t *thread) {
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    int current = sched_getcpu();
    if (current >= 0 && current < CPU_SETSIZE) CPU_CLR(current, &allowed);
    if (CPU_COUNT(&allowed) == 0) {
        errno = EAGAIN;
        return -1;
    }
    if (give_to_parked(body, context, &allowed, thread)) return 0;
    pthread_attr_t attributes;
    int failure = pthread_attr_init(&attributes);
    if (failure == 0) failure = pthread_attr_setaffinity_np(&attributes, sizeof allowed, &allowed);
    pthread_t created;
    if (failure == 0) failure = pthread_create(&created, &attributes, body, context);
    pthread_attr_destroy(&attributes);
    if (failure != 0) {
        errno = failure;
        return -1;
    }
    *thread = (uint64_t)created;
    return 0;
}

int cw8_thread_join(uint64_t thread) {
    int failure = pthread_join((pthread_t)thread, NULL);
    if (failure != 0) {
        errno = failure;
        return -1;
    }
    return 0;
}
