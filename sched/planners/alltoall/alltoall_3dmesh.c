/* netsched — alltoall/3dmesh: the all-to-all as an all-gather of all data on
 * a logical x × y × z mesh (Faraj, dissertation §4.1.1.1, "3D mesh
 * algorithm"). */
#include "sched/planners/alltoall/alltoall_alldata_internal.h"
#include "sched/planners/registry.h"

/* The factoring p = x · y · z, x ≤ y ≤ z, "close to ∛p": the one with the
 * smallest x + y + z (so the fewest phases (x−1)+(y−1)+(z−1)); among equal
 * sums the largest x, then the largest y. A prime p gives 1 × 1 × p, a
 * product of two primes q ≤ r gives 1 × q × r. Time O(p^{2/3}). */
static void factor3(int p, int dims[3])
{
  int best = -1;
  for (int x = 1; (int64_t)x * x * x <= p; x++) {
    if (p % x != 0)
      continue;
    int q = p / x;
    for (int y = x; (int64_t)y * y <= q; y++) {
      if (q % y != 0)
        continue;
      int z = q / y;
      /* x, then y, only grow, so "<=" keeps the largest x, then y, on ties. */
      if (best < 0 || x + y + z <= best) {
        best = x + y + z;
        dims[0] = x;
        dims[1] = y;
        dims[2] = z;
      }
    }
  }
}

/*
 * ns_alltoall_3dmesh — the dissertation's 3D mesh all-to-all (§4.1.1.1):
 * the 2D mesh algorithm on "a logical x × y × z mesh"; estimated time
 * 3(∛p−1)α + (p−1)pnβ + 2θ + γ: "this algorithm sends fewer messages, but
 * consists of three phases" (phase groups, one per dimension).
 *
 * Steps:
 *  0. Factoring: p = x·y·z with x ≤ y ≤ z minimising x+y+z (ties: largest
 *     x, then y). Machine i sits at (i mod x, ⌊i/x⌋ mod y, ⌊i/(xy)⌋).
 *     Primes give 1 × 1 × p (p−1 phases that each carry a whole block of
 *     p−1 chunks), 2·prime gives 1 × 2 × q: correct, costly, and not
 *     treated by the paper.
 *  1. x dimension, phases j = 1 .. x−1: every machine sends its block (p−1
 *     chunks) to the machine j further along x (mod x).
 *  2. y dimension, phases j = 1 .. y−1: every machine sends the x blocks it
 *     holds to the machine j further along y (mod y).
 *  3. z dimension, phases j = 1 .. z−1: every machine sends its x·y blocks
 *     to the machine j further along z (mod z).
 *  4. (local) every machine keeps the chunks addressed to it.
 * Same data model as 2dmesh: a transfer carries all the data its sender
 * holds (the paper's "all data"; see sched/planners/alltoall/alltoall_2dmesh.c). 1-port:
 * each step is a ring shift inside one dimension.
 * Phases (x−1)+(y−1)+(z−1); chunks moved p·(p−1)², (p−1)² per machine
 * (the paper's (p−1)·p messages of n bytes less the self-messages).
 * Time and memory O(p³). Errors: NS_ERROR_UNSUPPORTED beyond the IR's
 * 32-bit chunk pool (p > 1626).
 */
NsSchedule *ns_alltoall_3dmesh(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  int p = ns_topology_n_machines(topo);
  if (!ns_alldata_check_size(p, "3dmesh", error))
    return NULL;
  int dims[3] = { 1, 1, MAX(p, 1) };
  factor3(p, dims);
  uint32_t n_phases = (uint32_t)(dims[0] + dims[1] + dims[2] - 3);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "3dmesh", params->msize);
  ns_schedule_reserve(s, n_phases, (uint64_t)p * n_phases);
  g_autoptr(NsAllData) st = ns_alldata_new(p);
  ns_alldata_mesh(st, s, 3, dims);
  return s;
}
