/* netsched — alltoall/bruck: Bruck et al.'s log-step all-to-all (Faraj,
 * dissertation §4.1.1.1, "Bruck algorithm", citing Bruck, Ho, Kipnis, Upfal
 * and Weathersby, IEEE TPDS 8(11), 1997 [7] and Thakur, Rabenseifner and
 * Gropp [77]). */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"

/* Chunks Bruck moves among p machines: p · Σ_{k=1}^{p−1} popcount(k)
 * (machine i sends in step b every relative index k with bit b set). */
static uint64_t bruck_chunk_moves(int p)
{
  uint64_t per_machine = 0;
  for (int k = 1; k < p; k++)
    for (unsigned v = (unsigned)k; v != 0; v &= v - 1)
      per_machine++;
  return per_machine * (uint64_t)p;
}

/*
 * ns_alltoall_bruck — Bruck's index algorithm with radix 2, the
 * dissertation's "another lg(p)-step algorithm that sends less extra data
 * in comparison to the recursive doubling algorithm" (§4.1.1.1); estimated
 * time for p a power of two lg(p)α + (np/2)lg(p)β + (lg(p)−1)θ + γ, and it
 * "also works ... when the number of processes is not a power of two".
 *
 * Steps (Bruck et al. [7], index algorithm, r = 2):
 *  1. local rotation: machine i puts its message for (i + k) mod p at
 *     relative index k, k = 0 .. p−1 (index 0 is its own and never moves);
 *  2. for b = 0 .. ⌈lg p⌉−1 (one phase each): machine i sends to
 *     (i + 2^b) mod p, in one transfer, every index k whose bit b is set,
 *     and receives the same indices from (i − 2^b) mod p, which replace
 *     its own at those indices;
 *  3. local inverse rotation: index k of machine i now holds the message
 *     from (i − k) mod p.
 * The chunk at index k of machine i before step b is therefore the message
 * (o, o + k) with o = (i − (k mod 2^b)) mod p: it has travelled the low bits
 * of k already. Each message thus hops once per set bit of k along
 * o → o + 2^{b_1} → … → o + k, held by intermediates in between, and
 * reaches its destination exactly once, at the step of k's highest bit.
 * Every transfer lists those real chunks, so the verifier replays the
 * intermediate hops. 1-port: one send and one receive per machine and
 * phase. Phases ⌈lg p⌉ (0 for p = 1); chunks moved p·Σ_{k<p} popcount(k),
 * which is (p/2)·lg p per machine for p a power of two (the paper's
 * (np/2)lg(p)β).
 * Time and memory O(p² log p). Errors: NS_ERROR_UNSUPPORTED when the
 * chunks exceed the IR's 32-bit chunk pool (p > 24,500).
 */
NsSchedule *ns_alltoall_bruck(const NsTopology *topo, const NsPlanParams *params,
                              GError **error)
{
  int p = ns_topology_n_machines(topo);
  uint64_t moves = bruck_chunk_moves(p);
  if (moves >= G_MAXUINT32) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "alltoall/bruck among %d machines would move %" G_GUINT64_FORMAT
                " chunks, more than a schedule can hold (%u); use ring or pair instead",
                p, moves, G_MAXUINT32 - 1);
    return NULL;
  }
  int steps = 0;
  while (steps < 31 && (1 << steps) < p)
    steps++;
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "bruck", params->msize);
  ns_schedule_reserve(s, (uint32_t)steps, (uint64_t)p * (uint64_t)steps);
  GArray *chunks = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  for (int b = 0; b < steps; b++) {
    int dist = 1 << b, low = dist - 1;
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++) {
      g_array_set_size(chunks, 0);
      for (int k = dist; k < p; k++) {
        if ((k & dist) == 0)
          continue;
        int o = ((i - (k & low)) % p + p) % p;
        uint32_t c = ns_a2a_chunk(p, o, (o + k) % p);
        g_array_append_val(chunks, c);
      }
      ns_schedule_add_chunks(s, i, (i + dist) % p, chunks->len,
                             (const uint32_t *)(const void *)chunks->data);
    }
  }
  g_array_unref(chunks);
  return s;
}
