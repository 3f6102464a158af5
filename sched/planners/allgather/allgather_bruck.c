/* netsched — allgather/bruck: Bruck et al.'s concatenation algorithm. */
#include "sched/planners/registry.h"

/*
 * ns_allgather_bruck — the Bruck all-gather (dissertation §4.1.1.1, "Bruck
 * algorithm", after Bruck et al., IEEE TPDS 1997, and Thakur, Rabenseifner
 * & Gropp 2004 §4.1), any p.
 *
 * Steps, for k = 0 .. ⌈lg p⌉ − 1 (one phase each), with dist = 2^k:
 *  machine i sends to (i − dist) mod p the blocks it holds,
 *  i, i+1, …, i+cnt−1 (mod p), cnt = min(dist, p − dist), and receives from
 *  (i + dist) mod p the blocks i+dist … i+dist+cnt−1.
 * After phase k machine i holds blocks i … i+2^(k+1)−1 (mod p); the last
 * phase sends only the p − 2^k blocks still missing, so every block
 * reaches every machine exactly once for any p. (The final local rotation
 * of the receive buffer moves no data.) 1-port: one send and one receive
 * per machine per phase. Phases ⌈lg p⌉; a transfer carries ≤ p/2 chunks.
 * Time O(p²). Errors: none.
 */
NsSchedule *ns_allgather_bruck(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLGATHER, "bruck", params->msize);
  uint32_t *chunks = g_new(uint32_t, p);
  for (int dist = 1; dist < p; dist *= 2) {
    int cnt = MIN(dist, p - dist);
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++) {
      for (int c = 0; c < cnt; c++)
        chunks[c] = (uint32_t)((i + c) % p);
      ns_schedule_add_chunks(s, i, (i - dist + p) % p, (uint32_t)cnt, chunks);
    }
  }
  g_free(chunks);
  return s;
}
