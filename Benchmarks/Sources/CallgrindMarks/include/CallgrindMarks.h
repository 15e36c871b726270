// Marks for valgrind's callgrind around the part of a run that is counted.
//
// Under callgrind, `callgrind_marks_zero` sets every count to zero and `callgrind_marks_dump` writes the
// counts since then to a dump of their own, so that start-up, warm-up and shut-down stay out of a
// figure. Outside valgrind, or when this target was compiled without valgrind's headers, both do
// nothing and `callgrind_marks_available` returns 0.
#ifndef CALLGRIND_MARKS_H
#define CALLGRIND_MARKS_H

/// Returns 1 when the marks reach callgrind: compiled with valgrind's headers and running under valgrind.
int callgrind_marks_available(void);

/// Sets callgrind's counts to zero.
void callgrind_marks_zero(void);

/// Writes callgrind's counts since the last zero to a dump named `reason`.
void callgrind_marks_dump(const char *reason);

#endif
