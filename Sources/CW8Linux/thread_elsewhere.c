// Start-up trick, bench row "w8 add posting a milestone / notify-send" (bench/README.md, "Start-up tricks").
#define _GNU_SOURCE  // sched_getcpu, CPU_SET, pthread_attr_setaffinity_np, pthread_setaffinity_np
#include "cw8linux.h"

#include <errno.h>
#include <sched.h>

// The thread `cw8_thread_prestart` started, parked until the first `cw8_thread_start_elsewhere` gives it its body.
static struct cw8_parked parked = CW8_PARKED(NULL);

int cw8_thread_prestart(void) { return cw8_parked_start(&parked, 0); }

/// Gives `body` to the parked thread, moved to `allowed` first; false when there is none to give it to.
static int give_to_parked(void *(*body)(void *), void *context, const cpu_set_t *allowed, uint64_t *thread) {
    pthread_t claimed;
    if (cw8_parked_claim(&parked, &claimed) != 0) return 0;
    (void)pthread_setaffinity_np(claimed, sizeof *allowed, allowed);  // if it fails, it runs anywhere
    *thread = (uint64_t)claimed;
    cw8_parked_give(&parked, body, context);
    return 1;
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
