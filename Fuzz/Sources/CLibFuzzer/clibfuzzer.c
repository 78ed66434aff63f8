// Declarations only (see include/clibfuzzer.h); SwiftPM wants a source file in every C target.
#include "clibfuzzer.h"
