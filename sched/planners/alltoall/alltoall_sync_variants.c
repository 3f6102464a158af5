/* netsched — the synchronised variants of the ring and pair families
 * (dissertation §4.1.1.1): "ring/pair with light barrier", "with MPI
 * barrier" and "with N MPI barriers".
 *
 * Each variant has the phases of its base algorithm and records, as the
 * schedule's sync_scheme, the synchronisation it is named after; the
 * simulator uses it unless told otherwise (--sync):
 *   <base>-light-barrier  "light": before each transfer the receiver, once
 *                         it has reached the phase, sends its sender a small
 *                         ready message (the light-weight barrier)
 *   <base>-mpi-barrier    "barrier-all": an MPI barrier between every two phases
 *   <base>-n-barrier      "barrier-partial-none:BS": N = ⌈log2 p⌉ barriers, one
 *                         every BS = (p−1)/(N+1) phases
 * Time and errors: those of the base planner.
 */
#include "sched/planners/registry.h"
#include "sched/ir/sync.h"

static NsSchedule *variant(NsSchedule *s, const char *name, const char *scheme)
{
  if (s != NULL)
    ns_schedule_relabel(s, name, scheme);
  return s;
}

#define NS_SYNC_VARIANTS(base)                                                              \
  NsSchedule *ns_alltoall_##base##_light_barrier(const NsTopology *topo,                   \
                                                  const NsPlanParams *params, GError **error) \
  {                                                                                         \
    return variant(ns_alltoall_##base(topo, params, error), #base "-light-barrier", "light"); \
  }                                                                                         \
  NsSchedule *ns_alltoall_##base##_mpi_barrier(const NsTopology *topo,                     \
                                                const NsPlanParams *params, GError **error) \
  {                                                                                         \
    return variant(ns_alltoall_##base(topo, params, error), #base "-mpi-barrier",          \
                   "barrier-all");                                                          \
  }                                                                                         \
  NsSchedule *ns_alltoall_##base##_n_barrier(const NsTopology *topo,                       \
                                              const NsPlanParams *params, GError **error)   \
  {                                                                                         \
    g_autofree char *scheme = ns_sync_n_barrier_scheme(ns_topology_n_machines(topo));      \
    return variant(ns_alltoall_##base(topo, params, error), #base "-n-barrier", scheme);   \
  }

NS_SYNC_VARIANTS(ring)
NS_SYNC_VARIANTS(pair)
