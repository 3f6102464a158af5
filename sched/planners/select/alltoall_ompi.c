/* netsched — alltoall/ompi: Open MPI's "tuned" fixed decision for
 * MPI_Alltoall (ompi_coll_tuned_alltoall_intra_dec_fixed,
 * coll_tuned_decision_fixed.c, Open MPI 1.6 – 3.x; SimGrid's `ompi`
 * selector mirrors the same table). */
#include "sched/planners/registry.h"

/* Open MPI's thresholds (ompi_coll_tuned_alltoall_small_msg and
 * ompi_coll_tuned_alltoall_intermediate_msg, bytes per destination). */
#define OMPI_A2A_SMALL_MSG 200
#define OMPI_A2A_INTERMEDIATE_MSG 3000
/* Bruck is taken for small messages only above this many processes. */
#define OMPI_A2A_BRUCK_MIN_P 12

/*
 * basic_linear — Open MPI's ompi_coll_base_alltoall_intra_basic_linear:
 * every machine i first posts all its receives (from i+1, i+2, …), then
 * all its non-blocking sends "in reverse order", i->i−1, i->i−2, …,
 * i->i−(p−1) (mod p) — the mirror image of `spread` — then waits for all.
 * One NS_EXEC_POSTED phase whose list order is each sender's posting
 * order (receives are not transfers: only the send order is recorded).
 * Time O(p²). Cannot fail.
 */
static NsSchedule *basic_linear(const NsTopology *topo, uint64_t msize)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "basic-linear", msize);
  s->execution = NS_EXEC_POSTED;
  ns_schedule_reserve(s, 1, (uint64_t)p * (uint64_t)(p - 1));
  ns_schedule_begin_phase(s);
  for (int i = 0; i < p; i++)
    for (int j = 1; j < p; j++) {
      int d = (i - j + p) % p;
      ns_schedule_add(s, i, d, ns_a2a_chunk(p, i, d));
    }
  return s;
}

/*
 * ns_alltoall_ompi — the MPI_Alltoall Open MPI's tuned component picks
 * when no rules file is given, by machines p and per-destination message
 * size msize (bytes):
 *  1. p == 2: the two-process exchange (ompi_..._two_procs): one
 *     sendrecv between the two machines — netsched's `pair`;
 *  2. msize < 200 and p > 12: Bruck's algorithm (`bruck`);
 *  3. msize < 3000: basic linear — every machine posts all sends at once
 *     in the order i->i−1, i->i−2, …, i->i−(p−1) (built here, see
 *     basic_linear(); the schedule is named "basic-linear");
 *  4. otherwise Open MPI's "pairwise": step k = 1 .. p−1 sends to
 *     (i+k) mod p and receives from (i−k) mod p, which is netsched's
 *     `ring` (not the XOR `pair`).
 * The schedule's algorithm name records the choice, e.g. "ompi(ring)",
 * "ompi(basic-linear)".
 *
 * Params: msize. Errors: those of the chosen planner (none for these
 * four). Time: that of the choice, O(p²) for all of them.
 * Source: Open MPI 1.6–3.x ompi/mca/coll/tuned/coll_tuned_decision_fixed.c
 * and coll_base_alltoall.c (basic_linear, pairwise, bruck, two_procs).
 */
NsSchedule *ns_alltoall_ompi(const NsTopology *topo, const NsPlanParams *params,
                             GError **error)
{
  int p = ns_topology_n_machines(topo);
  const char *choice;
  NsSchedule *s;
  if (p == 2) {
    choice = "pair";
    s = ns_alltoall_pair(topo, params, error);
  } else if (params->msize < OMPI_A2A_SMALL_MSG && p > OMPI_A2A_BRUCK_MIN_P) {
    choice = "bruck";
    s = ns_alltoall_bruck(topo, params, error);
  } else if (params->msize < OMPI_A2A_INTERMEDIATE_MSG) {
    choice = "basic-linear";
    s = basic_linear(topo, params->msize);
  } else {
    choice = "ring";
    s = ns_alltoall_ring(topo, params, error);
  }
  if (s != NULL) {
    g_autofree char *name = g_strdup_printf("ompi(%s)", choice);
    ns_schedule_relabel(s, name, NULL);
  }
  return s;
}
