/* netsched — allgather/mpich: MPICH's size-dependent MPI_Allgather. */
#include "sched/planners/registry.h"

/* MPICH's MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE and _SHORT_MSG_SIZE (bytes of
 * the whole gathered vector). */
#define MPICH_AG_LONG_MSG 524288
#define MPICH_AG_SHORT_MSG 81920

/*
 * ns_allgather_mpich — the MPI_Allgather of MPICH (Thakur, Rabenseifner &
 * Gropp, "Optimization of Collective Communication Operations in MPICH",
 * IJHPCA 2005, §4.2; MPIR_Allgather_intra in MPICH 1.2.7 – 3.x), chosen
 * by p and the total size total = msize·p (msize = each machine's block):
 *  1. p a power of two and total < 524288: recursive doubling (`rdb`);
 *  2. else total < 81920: Bruck's concatenation (`bruck`);
 *  3. else the ring (`ring`).
 * The schedule's algorithm name records the choice, e.g. "mpich(ring)".
 *
 * Params: msize. Errors: those of the chosen planner (none). Time: that
 * of the choice, O(p²).
 */
NsSchedule *ns_allgather_mpich(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  int p = ns_topology_n_machines(topo);
  uint64_t total = params->msize * (uint64_t)p; /* msize <= 1TiB: no overflow */
  gboolean pow2 = (p & (p - 1)) == 0;
  const char *choice;
  NsSchedule *s;
  if (pow2 && total < MPICH_AG_LONG_MSG) {
    choice = "rdb";
    s = ns_allgather_rdb(topo, params, error);
  } else if (total < MPICH_AG_SHORT_MSG) {
    choice = "bruck";
    s = ns_allgather_bruck(topo, params, error);
  } else {
    choice = "ring";
    s = ns_allgather_ring(topo, params, error);
  }
  if (s != NULL) {
    g_autofree char *name = g_strdup_printf("mpich(%s)", choice);
    ns_schedule_relabel(s, name, NULL);
  }
  return s;
}
