// Hints to the processor and the kernel about memory the bulk loaders use.
#include "CPrefetch.h"

#include <stdint.h>
#include <sys/mman.h>

void kalends_advise_huge_pages(void *address, size_t length) {
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = (uintptr_t)2 << 20;
  uintptr_t start = ((uintptr_t)address + huge - 1) & ~(huge - 1);
  uintptr_t end = ((uintptr_t)address + length) & ~(huge - 1);
  if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
  (void)address;
  (void)length;
#endif
}
