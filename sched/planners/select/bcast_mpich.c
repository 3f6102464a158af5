/* netsched — bcast/mpich: MPICH's size-dependent MPI_Bcast. */
#include "sched/planners/registry.h"

/* MPICH's MPIR_CVAR_BCAST_SHORT_MSG_SIZE, _LONG_MSG_SIZE (bytes) and
 * _MIN_PROCS. */
#define MPICH_BCAST_SHORT_MSG 12288
#define MPICH_BCAST_LONG_MSG 524288
#define MPICH_BCAST_MIN_PROCS 8

/*
 * ns_bcast_mpich — the MPI_Bcast of MPICH (Thakur, Rabenseifner & Gropp,
 * "Optimization of Collective Communication Operations in MPICH", IJHPCA
 * 2005, §4.1; MPIR_Bcast_intra in MPICH 1.2.7 – 3.x), by message size
 * msize (bytes, the whole message) and p:
 *  1. msize < 12288 or p < 8: the binomial tree (`binomial`), unsegmented;
 *  2. msize < 524288 and p a power of two: MPICH scatters the message
 *     (binomial) and all-gathers it by recursive doubling. netsched has no
 *     scatter + recursive-doubling broadcast, so this branch plans
 *     `scatter-allgather` (binomial scatter + ring all-gather) — an
 *     approximation: the same scatter and the same data per machine, but
 *     p−1 all-gather steps instead of lg p (the label, like branch 3's,
 *     is "mpich(scatter-allgather)": it names the schedule planned);
 *  3. otherwise scatter + ring all-gather (`scatter-allgather`).
 * MPICH does not segment these algorithms, so params->segment is ignored
 * (set to 0 on a copy: binomial sends the whole message, the scatter cuts
 * it into p blocks of ⌈msize/p⌉). The schedule's algorithm name records
 * the choice, e.g. "mpich(binomial)", "mpich(scatter-allgather)".
 *
 * Params: msize, root. Errors: those of the chosen planner
 * (NS_ERROR_INPUT for a bad root). Time: that of the choice, O(p²).
 */
NsSchedule *ns_bcast_mpich(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsPlanParams pp = *params;
  pp.segment = 0;
  const char *choice;
  NsSchedule *s;
  if (params->msize < MPICH_BCAST_SHORT_MSG || p < MPICH_BCAST_MIN_PROCS) {
    choice = "binomial";
    s = ns_bcast_binomial(topo, &pp, error);
  } else if (params->msize < MPICH_BCAST_LONG_MSG && (p & (p - 1)) == 0) {
    choice = "scatter-allgather"; /* MPICH: scatter + recursive doubling */
    s = ns_bcast_scatter_allgather(topo, &pp, error);
  } else {
    choice = "scatter-allgather";
    s = ns_bcast_scatter_allgather(topo, &pp, error);
  }
  if (s != NULL) {
    g_autofree char *name = g_strdup_printf("mpich(%s)", choice);
    ns_schedule_relabel(s, name, NULL);
  }
  return s;
}
