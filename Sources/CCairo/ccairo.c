#include "ccairo.h"

struct ccairo_table ccairo_functions;

#define CDL_TABLE ccairo_functions
static const struct cdl_symbol symbols[] = {CCAIRO_FUNCTIONS(CDL_SYMBOL, CDL_VOID_SYMBOL)};
static struct cdl_library library = CDL_LIBRARY("libcairo.so.2", symbols);

int ccairo_load(void) { return cdl_load(&library); }

const char *ccairo_error(void) { return cdl_error(&library); }
