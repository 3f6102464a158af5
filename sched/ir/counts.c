/* netsched — counters of derived facts (see counts.h). */
#include "sched/ir/counts_internal.h"

static gint64 counts[NS_N_COUNTS];

void ns_count_add(NsCount c)
{
  __atomic_add_fetch(&counts[c], 1, __ATOMIC_RELAXED);
}

guint64 ns_count_get(NsCount c)
{
  return (guint64)__atomic_load_n(&counts[c], __ATOMIC_RELAXED);
}

void ns_counts_reset(void)
{
  for (int c = 0; c < NS_N_COUNTS; c++)
    __atomic_store_n(&counts[c], 0, __ATOMIC_RELAXED);
}

const char *ns_count_name(NsCount c)
{
  static const char *const names[NS_N_COUNTS] = { "verify", "bound", "route-tables" };
  return names[c];
}
