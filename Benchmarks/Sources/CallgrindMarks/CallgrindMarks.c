#include "CallgrindMarks.h"

// valgrind's headers come with its Debian package, which count-instructions.sh installs before building.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CALLGRIND_MARKS_COMPILED 1
#else
#define CALLGRIND_MARKS_COMPILED 0
#endif

int callgrind_marks_available(void) {
#if CALLGRIND_MARKS_COMPILED
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}

void callgrind_marks_zero(void) {
#if CALLGRIND_MARKS_COMPILED
    CALLGRIND_ZERO_STATS;
#endif
}

void callgrind_marks_dump(const char *reason) {
#if CALLGRIND_MARKS_COMPILED
    CALLGRIND_DUMP_STATS_AT(reason);
#else
    (void)reason;
#endif
}
