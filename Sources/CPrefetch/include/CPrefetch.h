#ifndef KALENDS_CPREFETCH_H
#define KALENDS_CPREFETCH_H

#include <stddef.h>

/// Asks the processor to bring the cache line at `address` in ahead of its use (a hint: it never
/// faults, and does nothing on an address that is not mapped).
static inline void kalends_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// Asks the kernel to back the whole 2 MiB pages within `length` bytes from `address` with
/// transparent huge pages when they are first touched (`madvise(MADV_HUGEPAGE)`): one page fault
/// instead of 512 for a large buffer filled once. A hint: errors, and systems without transparent
/// huge pages, leave the memory as it is.
void kalends_advise_huge_pages(void *address, size_t length);

#endif
