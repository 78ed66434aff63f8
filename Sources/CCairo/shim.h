#pragma once
#include <cairo.h>
#include <cairo-svg.h>

// cairo's C API as it is: its enums and functions import into Swift without wrappers.
// Only W8Chart imports this module (and W8ChartTests, to decode the PNGs it writes).
