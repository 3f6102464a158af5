/* netsched — allgather/ompi: Open MPI's "tuned" fixed decision for
 * MPI_Allgather (ompi_coll_tuned_allgather_intra_dec_fixed,
 * coll_tuned_decision_fixed.c, Open MPI 1.6 – 3.x; SimGrid's `ompi`
 * selector mirrors the same table). */
#include "sched/planners/registry.h"

/* Open MPI's threshold on the total gathered size (bytes). */
#define OMPI_AG_SMALL_TOTAL 50000

/*
 * ns_allgather_ompi — the MPI_Allgather Open MPI's tuned component picks
 * without a rules file, by p and total = msize·p (msize = each machine's
 * block, bytes):
 *  1. p == 2: the two-process exchange (ompi_..._two_procs), which is
 *     recursive doubling's single step (`rdb`);
 *  2. total < 50000: recursive doubling (`rdb`) when p is a power of two,
 *     else Bruck's concatenation (`bruck`);
 *  3. otherwise the ring (`ring`) for odd p, neighbor exchange
 *     (`neighbor`) for even p.
 * The schedule's algorithm name records the choice, e.g. "ompi(neighbor)".
 *
 * Params: msize. Errors: those of the chosen planner (none: neighbor is
 * only chosen for even p). Time: that of the choice, O(p²).
 * Source: Open MPI 1.6–3.x ompi/mca/coll/tuned/coll_tuned_decision_fixed.c
 * and coll_base_allgather.c.
 */
NsSchedule *ns_allgather_ompi(const NsTopology *topo, const NsPlanParams *params,
                              GError **error)
{
  int p = ns_topology_n_machines(topo);
  uint64_t total = params->msize * (uint64_t)p; /* msize <= 1TiB: no overflow */
  const char *choice;
  NsSchedule *s;
  if (p == 2 || (total < OMPI_AG_SMALL_TOTAL && (p & (p - 1)) == 0)) {
    choice = "rdb";
    s = ns_allgather_rdb(topo, params, error);
  } else if (total < OMPI_AG_SMALL_TOTAL) {
    choice = "bruck";
    s = ns_allgather_bruck(topo, params, error);
  } else if (p % 2 != 0) {
    choice = "ring";
    s = ns_allgather_ring(topo, params, error);
  } else {
    choice = "neighbor";
    s = ns_allgather_neighbor(topo, params, error);
  }
  if (s != NULL) {
    g_autofree char *name = g_strdup_printf("ompi(%s)", choice);
    ns_schedule_relabel(s, name, NULL);
  }
  return s;
}
