#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H

#include <stddef.h>

/// The bytes the process's heap has handed out and not taken back, in every arena, blocks mapped on
/// their own included (glibc's mallinfo2: uordblks + hblkhd); 0 where the C library does not say.
size_t heap_statistics_bytes_in_use(void);

/// Hands free memory at the top of every arena back to the system (glibc's malloc_trim); does nothing
/// elsewhere.
void heap_statistics_trim(void);

#endif
