/* netsched — allgather/neighbor: the neighbor-exchange all-gather. */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"

/*
 * ns_allgather_neighbor — neighbor exchange (Chen, Kale et al., "Performance
 * evaluation of allgather algorithms on terascale Linux cluster with fast
 * Ethernet", HPCAsia 2005; Open MPI's
 * ompi_coll_base_allgather_intra_neighborexchange, the large-message
 * MPI_Allgather of its fixed decision for even p).
 *
 * Steps, p even (one phase each):
 *  0. machines pair up: even i exchanges its own block with i+1 (odd i
 *     with i−1). Afterwards both hold the pair's two blocks {2j, 2j+1}.
 *  k = 1 .. p/2 − 1: the partner of even i is i−1 at odd k and i+1 at
 *     even k; of odd i, i+1 at odd k and i−1 at even k (mod p). Every
 *     machine sends its partner the two blocks it received in step k−1 —
 *     at step 1 its pair's two blocks, its own and the one of step 0 —
 *     and receives the partner's two.
 * Why every block arrives exactly once: with pairs P_j = {2j, 2j+1}, the
 * even machine of P_j receives at steps 1, 2, 3, 4, … the pairs P_{j−1},
 * P_{j+1}, P_{j−2}, P_{j+2}, … and the odd one P_{j+1}, P_{j−1}, P_{j+2},
 * P_{j−2}, … (indices mod p/2): alternately from either side, moving
 * outward, so the p/2 − 1 steps bring each of the other p/2 − 1 pairs
 * exactly once (the verifier checks it). Phases p/2, each a perfect
 * matching (1-port); p·(p−1) block deliveries; a transfer carries 1 block
 * at step 0 and 2 after. Not topology-aware.
 *
 * Params: msize (each machine's block). Errors: NS_ERROR_UNSUPPORTED for
 * odd p (the pairing needs an even number of machines; use ring or
 * bruck). Time O(p²) (p/2 phases of p transfers).
 */
NsSchedule *ns_allgather_neighbor(const NsTopology *topo, const NsPlanParams *params,
                                  GError **error)
{
  int p = ns_topology_n_machines(topo);
  if (p % 2 != 0) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "allgather/neighbor needs an even number of machines (the topology has %d); "
                "use ring or bruck instead",
                p);
    return NULL;
  }
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLGATHER, "neighbor", params->msize);
  ns_schedule_reserve(s, (uint32_t)(p / 2), (uint64_t)p * (uint64_t)(p / 2));
  /* last[i]: the even index 2j of the pair of blocks {2j, 2j+1} machine i
   * received in the previous step (after step 0: its own pair). */
  int *last = g_new(int, p), *next = g_new(int, p);

  ns_schedule_begin_phase(s);
  for (int i = 0; i < p; i++) {
    ns_schedule_add(s, i, i % 2 == 0 ? i + 1 : i - 1, (uint32_t)i);
    last[i] = i - i % 2;
  }
  for (int k = 1; k < p / 2; k++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++) {
      gboolean down = (i % 2 == 0) == (k % 2 == 1); /* partner i−1 */
      int partner = down ? (i - 1 + p) % p : (i + 1) % p;
      uint32_t chunks[2] = { (uint32_t)last[i], (uint32_t)last[i] + 1 };
      ns_schedule_add_chunks(s, i, partner, 2, chunks);
      next[partner] = last[i];
    }
    int *t = last;
    last = next;
    next = t;
  }
  g_free(last);
  g_free(next);
  return s;
}
