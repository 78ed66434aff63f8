#pragma once
#include <pthread.h>
#include <stddef.h>

// A C library loaded with dlopen the first time it is needed, its functions resolved into a table of pointers and
// called through `static inline` wrappers with the library's own names: CCairo and CLibnotify are made this way, so
// that the commands that draw or post nothing never load cairo or libnotify and what those pull in.
//
// A module lists its functions as an X-macro, FUNCTIONS(F, V): F(return type, name, parameters, arguments), V(name,
// parameters, arguments) for void ones. With `CDL_TABLE` defined as the table's name, `CDL_POINTER`/`CDL_VOID_POINTER`
// declare the table's members, `CDL_WRAPPER`/`CDL_VOID_WRAPPER` the wrappers, and `CDL_SYMBOL`/`CDL_VOID_SYMBOL` the
// list that `cdl_load` resolves.

#define CDL_POINTER(type, name, params, args) type(*name) params;
#define CDL_VOID_POINTER(name, params, args) void(*name) params;
#define CDL_WRAPPER(type, name, params, args)                                                                         \
    static inline type name params { return CDL_TABLE.name args; }
#define CDL_VOID_WRAPPER(name, params, args)                                                                          \
    static inline void name params { CDL_TABLE.name args; }
#define CDL_SYMBOL(type, name, params, args) {#name, (void **)&CDL_TABLE.name},
#define CDL_VOID_SYMBOL(name, params, args) {#name, (void **)&CDL_TABLE.name},

/// One function to resolve: its name, and where its address goes.
struct cdl_symbol {
    const char *name;
    void **slot;
};

/// A library and its functions, loaded at most once per process. Define it with `CDL_LIBRARY`.
struct cdl_library {
    pthread_mutex_t lock;
    const char *soname;
    const struct cdl_symbol *symbols;
    size_t count;
    int done;
    int status;
    char error[512];
};

#define CDL_LIBRARY(soname, symbols)                                                                                  \
    {PTHREAD_MUTEX_INITIALIZER, soname, symbols, sizeof symbols / sizeof *symbols, 0, -1, ""}

/// dlopens the library and resolves every symbol, the first time it is called (later calls return the first
/// result). 0 on success; otherwise -1, and `cdl_error` says why in one line (dlerror's text, or the missing name).
int cdl_load(struct cdl_library *library);
const char *cdl_error(struct cdl_library *library);
