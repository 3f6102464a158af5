/* netsched — bcast/scatter-allgather: MPICH's broadcast for large
 * messages, a binomial scatter followed by a ring all-gather.
 *
 * Faraj dissertation §3.4.1 ("the msize-byte message is first distributed
 * to the P machines by a scatter operation (each machine gets msize/P-byte
 * data). After that, an all-gather operation is performed", Table 3.7:
 * 2·T(msize)), §4.1.1.1 (Scatter-Allgather); Thakur, Rabenseifner & Gropp,
 * IJHPCA 2005, §4.1 (MPICH: binomial scatter, ring all-gather for long
 * messages).
 */
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/* Segments of the block of relative rank r: [r·b, min((r+1)·b, X)). */
static void block_range(int64_t r, int64_t b, int64_t x, int64_t *lo, int64_t *hi)
{
  *lo = MIN(r * b, x);
  *hi = MIN((r + 1) * b, x);
}

/* Adds src -> dst carrying segments [lo, hi); starts the step's phase on
 * its first transfer, so steps without transfers leave no empty phase. */
static void add_range(NsSchedule *s, gboolean *open, int src, int dst, int64_t lo, int64_t hi,
                      uint32_t *buf)
{
  if (lo >= hi)
    return;
  if (!*open) {
    ns_schedule_begin_phase(s);
    *open = TRUE;
  }
  for (int64_t c = lo; c < hi; c++)
    buf[c - lo] = (uint32_t)c;
  ns_schedule_add_chunks(s, src, dst, (uint32_t)(hi - lo), buf);
}

/*
 * ns_bcast_scatter_allgather — binomial scatter of the segments, then a
 * ring all-gather.
 *
 * Steps:
 *  1. Segments. With params->segment = 0 the message is cut into P blocks
 *     of ⌈msize/P⌉ bytes, one segment each (MPICH's scatter_size); with a
 *     segment size, X = ⌈msize/segment⌉ segments. Relative rank
 *     r = (m − root) mod P owns the block of segments [r·b, (r+1)·b) ∩
 *     [0, X) with b = ⌈X/P⌉ — MPICH's rule at segment granularity (the
 *     last ranks own nothing when X is not a multiple of P).
 *  2. Scatter (binomial, MPICH): for d = 2^(⌈log2 P⌉−1), ..., 2, 1, every
 *     rank r ≡ 0 (mod 2d) with r + d < P sends rank r + d the blocks of
 *     ranks r+d .. min(r+2d, P)−1 in one transfer (several chunks). One
 *     phase per d; rank r then holds the blocks of its binomial subtree
 *     r .. r + lowbit(r) − 1 (the root: all).
 *  3. All-gather (ring, MPICH): in step t = 0 .. P−2 every rank r sends
 *     rank r+1 (mod P) the block of rank (r − t) mod P. One phase per step.
 *     Where the paper and MPICH are silent for the IR: MPICH sends every
 *     block around the whole ring, redelivering blocks a rank already got
 *     in the scatter; the verifier counts a second delivery as a failure,
 *     so netsched leaves those transfers out (and steps left empty). A
 *     rank still holds every block it forwards: it got it in the scatter or
 *     in the previous step.
 * Every phase is 1-port; contention depends on the numbering (not
 * topology-aware). Phases: ⌈log2 P⌉ + at most P − 1.
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS transfers.
 * Any topology. Time O(P^2 + X·P), memory O(X) plus the schedule.
 */
NsSchedule *ns_bcast_scatter_allgather(const NsTopology *topo, const NsPlanParams *params,
                                       GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsPlanParams pp = *params;
  if (pp.segment == 0)
    pp.segment = pp.msize / (uint64_t)p + (pp.msize % (uint64_t)p != 0);
  uint32_t x32;
  uint64_t seg;
  if (!ns_bcast_segments(topo, &pp, "scatter-allgather", &x32, &seg, error))
    return NULL;
  const int64_t x = x32, b = (x + p - 1) / p, root = params->root;
  NsSchedule *s = ns_bcast_schedule_new(topo, "scatter-allgather", params->root, x32, seg);
  uint32_t *buf = g_new(uint32_t, (gsize)x);
#define MACHINE(r) ((int)((root + (r)) % p))

  int64_t top = 1;
  while (top * 2 < p)
    top *= 2;
  for (int64_t d = top; d >= 1; d /= 2) {
    gboolean open = FALSE;
    for (int64_t r = 0; r + d < p; r += 2 * d) {
      int64_t lo, hi, unused;
      block_range(r + d, b, x, &lo, &unused);
      block_range(MIN(r + 2 * d, p) - 1, b, x, &unused, &hi);
      add_range(s, &open, MACHINE(r), MACHINE(r + d), lo, hi, buf);
    }
  }

  for (int64_t t = 0; t + 1 < p; t++) {
    gboolean open = FALSE;
    for (int64_t r = 0; r < p; r++) {
      int64_t q = (r + 1) % p, blk = ((r - t) % p + p) % p;
      /* Does q hold block blk since the scatter (its binomial subtree)? */
      gboolean held = q == 0 || (blk >= q && blk < MIN(q + (q & -q), (int64_t)p));
      if (held)
        continue;
      int64_t lo, hi;
      block_range(blk, b, x, &lo, &hi);
      add_range(s, &open, MACHINE(r), MACHINE(q), lo, hi, buf);
    }
  }
#undef MACHINE
  g_free(buf);
  return s;
}
