// Start-up trick, bench row "w8 add posting a milestone / notify-send" (bench/README.md, "Start-up tricks").
#define _GNU_SOURCE  // sched_getcpu, CPU_SET, pthread_attr_setaffinity_np
#include "cw8linux.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>

int cw8_thread_start_elsewhere(void *(*body)(void *), void *context, uint64_t *thread) {
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    int current = sched_getcpu();
    if (current >= 0 && current < CPU_SETSIZE) CPU_CLR(current, &allowed);
    if (CPU_COUNT(&allowed) == 0) {
        errno = EAGAIN;
        return -1;
    }
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
