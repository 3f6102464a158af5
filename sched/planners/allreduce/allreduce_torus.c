/* netsched — allreduce/torus: the all-port torus allreduce, the all-port
 * all-gather of allgather/torus run backwards as the reduce-scatter, then
 * forwards as the all-gather.
 *
 * The all-gather is Šoch & Tvrdík's translated broadcast tree (Euro-Par'98;
 * Bermond, Kodate & Pérennes 1996 for the bound), sched/planners/allgather/
 * allgather_torus.c. Running a schedule of broadcast trees backwards with
 * combining receipts is the classical duality of broadcast and reduction
 * (reduce-scatter = all-gather reversed; Patarasuk & Yuan, JPDC 2009, §3,
 * use it for the ring); reduce-scatter + all-gather is Rabenseifner's
 * allreduce (Faraj dissertation §4.1.1.1).
 */
#include "sched/planners/allreduce/allreduce_common_internal.h"

/*
 * ns_allreduce_torus — reversed torus all-gather, torus all-gather, on p
 * blocks of n/p.
 *
 * Steps:
 *  1. The vector is cut into p blocks (the first n mod p a byte larger);
 *     block m is machine m's.
 *  2. Reduce-scatter: the phases of allgather/torus backwards, every
 *     transfer u -> v carrying blocks B turned into v -> u combining B. In
 *     the all-gather, v got each block of B once and forwarded it to its
 *     subtree of that block's tree in later phases; backwards, that subtree
 *     has combined into v before v passes block b on, so each contribution
 *     reaches b's owner once. The translated trees use each directed link
 *     once a round, and so do their reverses: every port of every machine
 *     busy, contention-free under the all-port model.
 *  3. All-gather: allgather/torus on the blocks, copies.
 * Phases 2⌈(P − 1)/Δ⌉ where the all-gather reaches its bound (Δ: ports of
 * a machine, 4 on a 2-D torus): 32 on 8 × 8, each moving one block of
 * n/P per port — 2(P − 1)/(Δ P) · n per machine, the all-port bound's
 * bandwidth term. A fabric that is not a torus is refused by
 * allgather/torus. Params: msize (n). Errors: NS_ERROR_UNSUPPORTED when
 * n < p or the fabric is not a torus. Time: allgather/torus's, twice.
 */
NsSchedule *ns_allreduce_torus(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s =
      ns_allreduce_new(topo, "torus", params->msize, (uint32_t)p, NS_BLOCKS_SPREAD, error);
  if (s == NULL)
    return NULL;
  uint32_t *own = g_new(uint32_t, p);
  for (int m = 0; m < p; m++)
    own[m] = (uint32_t)m;
  gboolean ok = ns_allreduce_append_allgather(s, topo, "torus", own, TRUE, error) &&
                ns_allreduce_append_allgather(s, topo, "torus", own, FALSE, error);
  g_free(own);
  if (!ok) {
    ns_schedule_free(s);
    return NULL;
  }
  return s;
}
