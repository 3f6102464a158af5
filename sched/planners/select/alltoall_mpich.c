/* netsched — alltoall/mpich: MPICH's message-size-dependent choice. */
#include "sched/planners/registry.h"

/*
 * ns_alltoall_mpich — the MPI_Alltoall of MPICH as Faraj & Yuan §6
 * describe it (after Thakur, Rabenseifner & Gropp 2004), chosen by message
 * size exactly as MPICH does:
 *  1. msize <= 256 bytes: Bruck's algorithm (`bruck`);
 *  2. 256 < msize <= 32768: all sends posted at once in the order
 *     i->i+1, ..., i->i+p-1 (`spread`);
 *  3. msize > 32768: the pairwise exchange (`pair`) when p is a power of
 *     two, else the ring (`ring`).
 * The schedule's algorithm name records the choice, e.g. "mpich(ring)".
 * Time: that of the chosen planner. Errors: those of the chosen planner.
 */
NsSchedule *ns_alltoall_mpich(const NsTopology *topo, const NsPlanParams *params,
                              GError **error)
{
  int p = ns_topology_n_machines(topo);
  const char *choice;
  NsSchedule *s;
  if (params->msize <= 256) {
    choice = "bruck";
    s = ns_alltoall_bruck(topo, params, error);
  } else if (params->msize <= 32768) {
    choice = "spread";
    s = ns_alltoall_spread(topo, params, error);
  } else if ((p & (p - 1)) == 0) {
    choice = "pair";
    s = ns_alltoall_pair(topo, params, error);
  } else {
    choice = "ring";
    s = ns_alltoall_ring(topo, params, error);
  }
  if (s != NULL) {
    g_autofree char *name = g_strdup_printf("mpich(%s)", choice);
    ns_schedule_relabel(s, name, NULL);
  }
  return s;
}
