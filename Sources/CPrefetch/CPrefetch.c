// The module is the header's inline function; this file gives SwiftPM a source to build.
#include "CPrefetch.h"
