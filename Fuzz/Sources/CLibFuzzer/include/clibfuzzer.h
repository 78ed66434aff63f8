// libFuzzer's entry point for programs that have their own main(): it parses libFuzzer's flags from argv and
// calls `callback` with each input. Provided by the toolchain's libclang_rt.fuzzer, linked by -sanitize=fuzzer.
#pragma once

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
