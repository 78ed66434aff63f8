#include "cdynamiclibrary.h"

#include <dlfcn.h>
#include <stdio.h>

static void load(struct cdl_library *library) {
    // The library's own dependencies come with it; dlsym searches them too.
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(library->error, sizeof library->error, "%s", dlerror());
        return;
    }
    for (size_t i = 0; i < library->count; i++) {
        void *symbol = dlsym(handle, library->symbols[i].name);
        if (!symbol) {
            snprintf(library->error, sizeof library->error, "%s has no %s", library->soname, library->symbols[i].name);
            dlclose(handle);
            return;
        }
        *library->symbols[i].slot = symbol;
    }
    library->status = 0;
}

int cdl_load(struct cdl_library *library) {
    pthread_mutex_lock(&library->lock);
    if (!library->done) {
        load(library);
        library->done = 1;
    }
    int status = library->status;
    pthread_mutex_unlock(&library->lock);
    return status;
}

const char *cdl_error(struct cdl_library *library) {
    pthread_mutex_lock(&library->lock);
    const char *error = library->status == 0 ? "" : library->error;
    pthread_mutex_unlock(&library->lock);
    return error;
}
