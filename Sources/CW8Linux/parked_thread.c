// Start-up trick, bench row "w8 add posting a milestone / notify-send" (bench/README.md, "Start-up tricks"):
// threads started before `main`, while no `dlopen` holds the loader's TLS lock that `pthread_create` waits for.
#include "cw8linux.h"

#include <errno.h>

static void *parked_main(void *argument) {
    struct cw8_parked *parked = argument;
    if (parked->first) parked->first();
    pthread_mutex_lock(&parked->lock);
    while (parked->body == NULL) pthread_cond_wait(&parked->given, &parked->lock);
    void *(*body)(void *) = parked->body;
    void *context = parked->context;
    pthread_mutex_unlock(&parked->lock);
    return body(context);
}

int cw8_parked_start(struct cw8_parked *parked, int detached) {
    pthread_attr_t attributes;
    int failure = pthread_attr_init(&attributes);
    if (failure != 0) {
        errno = failure;
        return -1;
    }
    if (detached) failure = pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_mutex_lock(&parked->lock);
    if (failure == 0 && parked->started) failure = EEXIST;
    if (failure == 0) failure = pthread_create(&parked->thread, &attributes, parked_main, parked);
    if (failure == 0) parked->started = 1;
    pthread_mutex_unlock(&parked->lock);
    pthread_attr_destroy(&attributes);
    if (failure != 0) {
        errno = failure;
        return -1;
    }
    return 0;
}

int cw8_parked_claim(struct cw8_parked *parked, pthread_t *thread) {
    pthread_mutex_lock(&parked->lock);
    int claimed = parked->started && !parked->claimed;
    if (claimed) {
        parked->claimed = 1;
        *thread = parked->thread;
    }
    pthread_mutex_unlock(&parked->lock);
    return claimed ? 0 : -1;
}

void cw8_parked_give(struct cw8_parked *parked, void *(*body)(void *), void *context) {
    pthread_mutex_lock(&parked->lock);
    parked->body = body;
    parked->context = context;
    pthread_cond_signal(&parked->given);
    pthread_mutex_unlock(&parked->lock);
}
