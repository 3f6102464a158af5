/* netsched — the verifier's table of message holders: allocation. See
 * message_holder_internal.h. */
#include "sched/verify/message_holder_internal.h"
#include <sys/mman.h>

/* Tables smaller than this come from the heap. */
#define MAPPED_BYTES ((uint64_t)4 << 20)

uint64_t *ns_holders_new(uint64_t n)
{
  uint64_t bytes = MAX(n, 1) * sizeof(uint64_t);
  if (bytes < MAPPED_BYTES)
    return g_new0(uint64_t, MAX(n, 1));
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    g_error("out of memory: %" G_GUINT64_FORMAT " bytes for the message holders", bytes);
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
#endif
  return p;
}

void ns_holders_free(uint64_t *table, uint64_t n)
{
  if (table == NULL)
    return;
  uint64_t bytes = MAX(n, 1) * sizeof(uint64_t);
  if (bytes < MAPPED_BYTES)
    g_free(table);
  else
    munmap(table, bytes);
}
