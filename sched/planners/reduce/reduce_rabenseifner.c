/* netsched — reduce/rabenseifner: MPICH's Rabenseifner reduce, a
 * reduce-scatter by recursive halving followed by a binomial gather of the
 * blocks to the root.
 *
 * Faraj's dissertation §4.1.1.1, "Algorithms for MPI_Reduce" (MPICH Rab:
 * "a reduce-scatter followed by a gather. The reduce-scatter is realized
 * by recursive halving while the gather is realized by binomial tree");
 * Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication
 * Operations in MPICH", IJHPCA 2005, §4.4 (and §4.5 for the halving);
 * as MPICH 4.0 codes it (MPIR_Reduce_intra_reduce_scatter_gather).
 */
#include "sched/planners/registry.h"
#include "platforms/model/error.h"

/* Most block moves (chunks over all transfers) a schedule may hold: the
 * halving alone moves p'(p' − 1) blocks, 2^26 (256 MiB of chunk pool) is
 * p' = 4096; the verifier stops earlier (its origin sets, P·p'·P bits). */
#define RABENSEIFNER_MAX_BLOCK_MOVES (UINT64_C(1) << 26)

/* Blocks [lo, lo + n) a rank of the power-of-two group holds after `steps`
 * halvings: at the step of distance 2^i the rank with bit i clear keeps
 * the lower half (MPICH's "newrank < newdst" branch). */
typedef struct {
  uint32_t lo, n;
} BlockRange;

static BlockRange held_after(uint32_t newrank, uint32_t pof2, int steps)
{
  BlockRange r = { 0, pof2 };
  for (int i = 0; i < steps; i++) {
    r.n /= 2;
    if (newrank & (1u << i))
      r.lo += r.n;
  }
  return r;
}

/* One transfer of the blocks in `r`, combining or copying. */
static void add_range(NsSchedule *s, int src, int dst, BlockRange r, gboolean combine,
                      uint32_t *scratch)
{
  for (uint32_t k = 0; k < r.n; k++)
    scratch[k] = r.lo + k;
  if (combine)
    ns_schedule_add_combine(s, src, dst, r.n, scratch);
  else
    ns_schedule_add_chunks(s, src, dst, r.n, scratch);
}

/* MPICH's machine of a rank of the power-of-two group: the survivors of
 * the fold are the even ranks below 2·rem, then everyone above. */
static int real_rank(uint32_t newrank, int rem)
{
  return newrank < (uint32_t)rem ? (int)newrank * 2 : (int)newrank + rem;
}

/*
 * ns_reduce_rabenseifner — MPICH's reduce_scatter_gather.
 *
 * Steps (p' = the largest power of two <= P, rem = P − p', L = log2 p'):
 *  1. Fold (rem > 0, one phase): every odd machine below 2·rem sends its
 *     whole vector to the machine before it, which combines; the odd ones
 *     then wait (MPICH keeps the even ones so that root 0 need not be
 *     sent to afterwards). The p' others are ranks 0..p'−1 of the group.
 *  2. Reduce-scatter by recursive halving (L phases): at distance
 *     2^i, i = 0..L−1, ranks r and r XOR 2^i exchange halves of what they
 *     hold, combining — r with bit i clear keeps the lower half. The
 *     vector is cut into p' blocks (MPICH: count/p' elements, the first
 *     count mod p' one more; netsched counts bytes as elements), so each
 *     rank ends with one fully combined block.
 *  3. If the root was folded away (odd, below 2·rem): rank 0 copies its
 *     block to the root, which takes rank 0's place (one phase).
 *  4. Binomial gather (L phases): at distance 2^i, i = L−1 down to 0,
 *     every rank on the far side of the root's group sends all it holds
 *     (2^(L−1−i) blocks) to its partner and stops — plain copies: the
 *     blocks are complete.
 *  Phases: 2L, plus 1 when P is not a power of two, plus 1 more when the
 *  root was folded away. 1-port (full duplex in the halving); not
 *  topology-aware. Unequal blocks go in as chunk sizes
 *  (ns_schedule_set_chunk_bytes); `segment` is not used.
 *
 * Params: msize, root. Errors: NS_ERROR_INPUT for a bad root;
 * NS_ERROR_UNSUPPORTED when msize < p' (MPICH requires count >= p' and
 * chooses binomial otherwise) or when the block moves exceed
 * RABENSEIFNER_MAX_BLOCK_MOVES (p' > 4096). Any topology. Time and memory
 * O(P + p'^2): the halving moves p'(p' − 1) blocks.
 */
NsSchedule *ns_reduce_rabenseifner(const NsTopology *topo, const NsPlanParams *params,
                                   GError **error)
{
  int p = ns_topology_n_machines(topo);
  int root = params->root;
  if (root < 0 || root >= p) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "reduce/rabenseifner: root %d is not a machine index (0..%d)", root, p - 1);
    return NULL;
  }
  uint32_t pof2 = 1;
  int steps = 0;
  while ((int64_t)pof2 * 2 <= p) {
    pof2 *= 2;
    steps++;
  }
  if (params->msize < pof2) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "reduce/rabenseifner: %" G_GUINT64_FORMAT " bytes do not split into %u "
                    "blocks of at least 1 byte (MPICH needs count >= %u and takes binomial "
                    "below it)",
                    params->msize, pof2, pof2);
    return NULL;
  }
  int rem = p - (int)pof2;
  /* fold, halving, gather (L·p'/2), the folded root's block */
  uint64_t moves = (uint64_t)rem * pof2 + (uint64_t)pof2 * (pof2 - 1) +
                   (uint64_t)steps * pof2 / 2 + 1;
  if (moves > RABENSEIFNER_MAX_BLOCK_MOVES) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "reduce/rabenseifner: %u blocks on %d machines make %" G_GUINT64_FORMAT
                    " block moves, above the limit of %" G_GUINT64_FORMAT,
                    pof2, p, moves, (guint64)RABENSEIFNER_MAX_BLOCK_MOVES);
    return NULL;
  }
  uint64_t base = params->msize / pof2, extra = params->msize % pof2;
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_REDUCE, "rabenseifner", base);
  s->root = root;
  s->n_segments = pof2;
  if (extra != 0) {
    g_autofree uint64_t *sizes = g_new(uint64_t, pof2);
    for (uint32_t b = 0; b < pof2; b++)
      sizes[b] = base + (b < extra);
    if (!ns_schedule_set_chunk_bytes(s, sizes, pof2, error)) {
      ns_schedule_free(s);
      return NULL;
    }
  }
  g_autofree uint32_t *scratch = g_new(uint32_t, pof2);
  BlockRange all = { 0, pof2 };

  if (rem > 0) {
    ns_schedule_begin_phase(s);
    for (int r = 1; r < 2 * rem; r += 2)
      add_range(s, r, r - 1, all, TRUE, scratch);
  }
  for (int i = 0; i < steps; i++) {
    ns_schedule_begin_phase(s);
    for (uint32_t r = 0; r < pof2; r++)
      add_range(s, real_rank(r, rem), real_rank(r ^ (1u << i), rem),
                held_after(r ^ (1u << i), pof2, i + 1), TRUE, scratch);
  }
  /* The root's place in the group; a folded-away root takes rank 0's. */
  gboolean leftover = root < 2 * rem && root % 2 != 0;
  uint32_t newroot = leftover ? 0 : root < 2 * rem ? (uint32_t)root / 2 : (uint32_t)(root - rem);
  if (leftover) {
    ns_schedule_begin_phase(s);
    add_range(s, real_rank(0, rem), root, held_after(0, pof2, steps), FALSE, scratch);
  }
  for (int i = steps - 1; i >= 0; i--) {
    uint32_t bit = 1u << i;
    ns_schedule_begin_phase(s);
    for (uint32_t r = 0; r < pof2; r++) {
      /* Still in the gather: r agrees with the root's group above bit i;
       * it sends when it is on the other side of bit i. */
      if ((r >> (i + 1)) != (newroot >> (i + 1)) || (r & bit) == (newroot & bit))
        continue;
      uint32_t to = r ^ bit;
      int dst = leftover && to == 0 ? root : real_rank(to, rem);
      add_range(s, real_rank(r, rem), dst, held_after(r, pof2, i + 1), FALSE, scratch);
    }
  }
  return s;
}
