#ifndef KALENDS_CPREFETCH_H
#define KALENDS_CPREFETCH_H

/// Asks the processor to bring the cache line at `address` in ahead of its use (a hint: it never
/// faults, and does nothing on an address that is not mapped).
static inline void kalends_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
