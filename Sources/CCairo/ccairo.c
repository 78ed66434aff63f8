#include "ccairo.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct ccairo_table ccairo_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status = -1;
static char error[512];

static void load(void) {
    void *library = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, sizeof error, "%s", dlerror());
        return;
    }
    void *symbol;
#define CCAIRO_RESOLVE(name)                                                                                          \
    if (!(symbol = dlsym(library, #name))) {                                                                          \
        snprintf(error, sizeof error, "libcairo.so.2 has no %s", #name);                                              \
        dlclose(library);                                                                                             \
        return;                                                                                                       \
    }                                                                                                                 \
    *(void **)&ccairo_functions.name = symbol;
#define CCAIRO_RESOLVE_F(type, name, params, args) CCAIRO_RESOLVE(name)
#define CCAIRO_RESOLVE_V(name, params, args) CCAIRO_RESOLVE(name)
    CCAIRO_FUNCTIONS(CCAIRO_RESOLVE_F, CCAIRO_RESOLVE_V)
    status = 0;
}

int ccairo_load(void) {
    pthread_once(&once, load);
    return status;
}

const char *ccairo_error(void) { return status == 0 ? "" : error; }
