/* netsched — the contention-aware variants (Tam & Wang §3.3): shuffle-ca,
 * shuffle-xor-ca, shuffle-color-ca (the paper's "sync+GW+CA") and gpe-ca
 * (its "pair+CA").
 *
 * The contention-aware permutation ϕ renumbers the machines before any
 * node contention-free permutation φ runs (eq. 5):
 *     logical id = ⌊physical id / d1⌋ + (physical id mod d1)·d2,
 * d1 machines on each of d2 switches, physical ids numbered switch by
 * switch (sched/planners/alltoall/tamwang.h). Logical ids that differ by one lie on
 * different switches, so with the shift permutation a machine of switch
 * s sends at step i to switch (s + i) mod d2 — consecutive steps go to
 * consecutive switches instead of d1 steps in a row to one switch, and the
 * uplinks' load is spread evenly in time (Figures 3–4).
 */
#include "sched/planners/alltoall/tamwang.h"

/*
 * ns_alltoall_shuffle_ca — Algorithm 2 (Tam & Wang §3.3): the synchronous
 * shuffle with the shift permutation on eq. 5's logical ids, under the
 * global window W_g (eq. 4). See ns_tw_shuffle() for the steps. Errors:
 * NS_ERROR_UNSUPPORTED when the switches hold different numbers of
 * machines.
 */
NsSchedule *ns_alltoall_shuffle_ca(const NsTopology *topo, const NsPlanParams *params,
                                   GError **error)
{
  return ns_tw_shuffle(topo, params, NS_TW_SHIFT, TRUE, "shuffle-ca", error);
}

/*
 * ns_alltoall_shuffle_xor_ca — the XOR permutation on eq. 5's logical ids:
 * the schedule of Figure 4 (§3.3). Errors: as shuffle-ca.
 */
NsSchedule *ns_alltoall_shuffle_xor_ca(const NsTopology *topo, const NsPlanParams *params,
                                       GError **error)
{
  return ns_tw_shuffle(topo, params, NS_TW_XOR, TRUE, "shuffle-xor-ca", error);
}

/*
 * ns_alltoall_shuffle_color_ca — the edge-colour permutation (Figure 2) on
 * eq. 5's logical ids. Errors: as shuffle-ca.
 */
NsSchedule *ns_alltoall_shuffle_color_ca(const NsTopology *topo, const NsPlanParams *params,
                                         GError **error)
{
  return ns_tw_shuffle(topo, params, NS_TW_COLOUR, TRUE, "shuffle-color-ca", error);
}

/*
 * ns_alltoall_gpe_ca — the generalized pairwise exchange (Algorithm 3,
 * §3.4) on eq. 5's logical ids: the paper's "pair+CA" (§4.2).
 *
 * Steps:
 *  1. Plan alltoall/gpe: round r pairs machine indices X and Y.
 *  2. Read X and Y as logical ids: the transfer goes from the machine of
 *     physical id ϕ⁻¹(X) to that of ϕ⁻¹(Y), carrying that pair's message.
 * Rounds stay perfect matchings (ϕ is a bijection), phased as gpe's.
 * Time O(p²). Errors: NS_ERROR_UNSUPPORTED when the switches hold
 * different numbers of machines.
 */
NsSchedule *ns_alltoall_gpe_ca(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  NsTwHierarchy h;
  if (!ns_tw_hierarchy(topo, &h, error))
    return NULL;
  NsSchedule *s = ns_alltoall_gpe(topo, params, error);
  if (s == NULL) {
    ns_tw_hierarchy_clear(&h);
    return NULL;
  }
  int p = h.p;
  for (uint64_t t = 0; t < ns_schedule_n_transfers(s); t++) {
    NsTransfer *tr = &g_array_index(s->transfers, NsTransfer, t);
    tr->src = h.machine[ns_tw_physical(&h, tr->src)];
    tr->dst = h.machine[ns_tw_physical(&h, tr->dst)];
    tr->chunk = ns_a2a_chunk(p, tr->src, tr->dst);
  }
  ns_schedule_relabel(s, "gpe-ca", NULL);
  ns_tw_hierarchy_clear(&h);
  return s;
}
