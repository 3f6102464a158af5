/* netsched — bcast/kary-cf: pipelined broadcast along a contention-free
 * k-ary tree, the extension of Algorithm 5 that the dissertation sketches.
 *
 * Faraj dissertation §3.4.2.2, last paragraph before Figure 3.29 ("Algorithm
 * 5 can be easily extended to compute general k-ary trees. S(i,j) can be
 * basically partitioned into k sub-arrays which form the k subtrees.
 * Precautions must be taken to prevent the communications from the root to
 * a subtree from causing contention with communications in the
 * subtrees."); Table 3.7 (k-ary tree: k·T(msize)).
 */
#include "platforms/model/error.h"
#include "sched/planners/bcast/bcast_dfs_internal.h"
#include "sched/planners/bcast/bcast_pipeline_internal.h"

#define KARY_DEFAULT_ARITY 3
#define KARY_MAX_MACHINES 4096
/* Refuse searches of more than ~10^10 steps (minutes). */
#define KARY_MAX_WORK 1e10

#define INF G_MAXUINT16

/* Search state for one root position i: the partitions of m_{i+1}..m_q
 * into r consecutive blocks (r = 1..arity), each block B a subtree
 * tree(B), the block starts after the first being children of m_i that
 * pass the contention test. L[r][q] = the smallest possible max height of
 * the blocks, from[r][q] = the start of the last block in that partition
 * (the smallest on ties). */
typedef struct {
  int n, arity;
  uint16_t *L;     /* (arity + 1) x n */
  int *from;       /* (arity + 1) x n */
} Row;

static inline uint16_t *row_l(Row *w, int r) { return w->L + (gsize)r * w->n; }
static inline int *row_from(Row *w, int r) { return w->from + (gsize)r * w->n; }

/* Fills the row of root i for q in i+1..qmax from the heights best[k][q],
 * k > i (all final: the search runs i = P-1 down to 0). */
static void search_row(const NsBcastDfs *d, const uint16_t *best, Row *w, int i, int qmax)
{
  const int n = d->n;
  uint16_t *l1 = row_l(w, 1);
  int *f1 = row_from(w, 1);
  for (int q = i + 1; q <= qmax; q++) {
    l1[q] = best[(gsize)(i + 1) * n + q];
    f1[q] = i + 1;
  }
  for (int r = 2; r <= w->arity; r++) {
    const uint16_t *prev = row_l(w, r - 1);
    uint16_t *lr = row_l(w, r);
    int *fr = row_from(w, r);
    for (int q = i + 1; q <= qmax; q++) {
      uint16_t h = INF;
      int from = -1;
      /* The last block is m_k..m_q; the r-1 blocks before cover
       * m_{i+1}..m_{k-1}, so k >= i + r. */
      for (int k = i + r; k <= q; k++) {
        if (prev[k - 1] == INF || !ns_bcast_dfs_can_send(d, i, k))
          continue;
        uint16_t v = MAX(prev[k - 1], best[(gsize)k * n + q]);
        if (v < h) {
          h = v;
          from = k;
        }
      }
      lr[q] = h;
      fr[q] = from;
    }
  }
}

/* Number of subtrees m_i takes for tree(i,q) and its height: as in
 * Algorithm 5, two or more children whenever there are two or more
 * machines below m_i (one child for a single machine; arity 1 gives the
 * linear tree); the lowest height, then the fewest children. */
static int choose_r(Row *w, int i, int q, uint16_t *height)
{
  int r_min = q - i >= 2 && w->arity >= 2 ? 2 : 1, r_best = r_min;
  uint16_t h = INF;
  for (int r = r_min; r <= w->arity; r++)
    if (row_l(w, r)[q] < h) {
      h = row_l(w, r)[q];
      r_best = r;
    }
  *height = h;
  return r_best;
}

/*
 * ns_bcast_kary_cf — pipelined broadcast on a contention-free k-ary tree
 * (k = params->arity, default 3).
 *
 * Steps (Algorithm 5 with k sub-arrays instead of two):
 *  1. m_0 (= root) -> ... -> m_{P-1}: Algorithm 4's linear tree.
 *  2. tree(i,j): m_i is the root; m_{i+1}..m_j is split into r consecutive
 *     sub-arrays B_1 = m_{i+1}..m_{k_1 - 1}, B_2 = m_{k_1}..m_{k_2 - 1},
 *     ..., B_r = m_{k_{r-1}}..m_j with 2 <= r <= k (r = 1 when j = i + 1),
 *     each sub-array forming its subtree tree(B_t) rooted at its first
 *     machine, a child of m_i. Height: 1 + max over t of best[B_t].
 *  3. The precaution: m_i -> m_{k_t} must not clash with the subtrees of
 *     B_1..B_t (all of m_{i+1}..m_{k_t − 1}); netsched requires it not to
 *     clash with any tree spanning m_{i+1}..m_{k_t − 1} — the O(1) test of
 *     Algorithm 5's line 17 (bcast_dfs_internal.h), a sufficient condition. The
 *     later subtrees, and the subtrees among themselves, cannot clash
 *     (Lemma 11), so tree(0, P−1) is contention-free as in Theorem 5.
 *  4. Among the admissible partitions, the lowest height; ties: fewer
 *     children, then (last block start first) the smallest split points.
 *     With k = 2 this is exactly Algorithm 5 (bcast/binary-cf), with k = 1
 *     Algorithm 4's linear tree (bcast/linear-cf).
 *  5. Pipeline the X segments down the tree (bcast_pipeline_internal.h): at most
 *     (X + H − 1)·k phases, contention-free and 1-port; children in the
 *     order of their sub-arrays.
 * The search runs i = P−1 down to 0; for each i one pass over (r, q, k)
 * computes every tree(i, q) at once: time O(k·P^3), memory O(P^2 + k·P)
 * (only the heights are kept; the chosen partitions are recomputed while
 * the final tree is unfolded, at most the same cost again).
 *
 * Params: msize, root, segment, arity (0 = 3; arity >= P−1 allows a flat
 * tree). Errors: NS_ERROR_INPUT for a bad root, msize 0 or arity < 0;
 * NS_ERROR_UNSUPPORTED on a non-tree topology, more than 4096 machines, a
 * search longer than ~10^10 steps (k·P^3/6), or more than
 * NS_BCAST_MAX_TRANSFERS transfers.
 */
NsSchedule *ns_bcast_kary_cf(const NsTopology *topo, const NsPlanParams *params,
                             GError **error)
{
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "kary-cf", &x, &seg, error))
    return NULL;
  if (params->arity < 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "bcast/kary-cf: arity must be positive (got %d)", params->arity);
    return NULL;
  }
  int n = ns_topology_n_machines(topo);
  int arity = params->arity == 0 ? KARY_DEFAULT_ARITY : MIN(params->arity, n - 1);
  arity = MAX(arity, 1);
  if (n > KARY_MAX_MACHINES || (double)arity * n * n * n / 6.0 > KARY_MAX_WORK) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "bcast/kary-cf: %d machines with arity %d: the O(k·P^3) search is limited "
                    "to %d machines and ~10^10 steps (use a smaller arity or linear-cf)",
                    n, arity, KARY_MAX_MACHINES);
    return NULL;
  }
  g_autoptr(NsBcastDfs) d = ns_bcast_dfs_new(topo, params->root, error);
  if (d == NULL)
    return NULL;

  uint16_t *best = g_new(uint16_t, (gsize)n * n); /* best[i*n + q], q >= i */
  Row w = { .n = n, .arity = arity };
  w.L = g_new(uint16_t, (gsize)(arity + 1) * n);
  w.from = g_new(int, (gsize)(arity + 1) * n);
  for (int i = n - 1; i >= 0; i--) {
    best[(gsize)i * n + i] = 0;
    if (i == n - 1)
      continue;
    search_row(d, best, &w, i, n - 1);
    for (int q = i + 1; q < n; q++) {
      uint16_t h;
      choose_r(&w, i, q, &h);
      best[(gsize)i * n + q] = (uint16_t)(h + 1);
    }
  }

  /* Unfold tree(0, P-1): recompute the row of each subtree root. */
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(n, params->root);
  int *stack = g_new(int, 2 * (gsize)n + 2), top = 0;
  int *starts = g_new(int, arity + 1);
  stack[top++] = 0;
  stack[top++] = n - 1;
  while (top > 0) {
    int q = stack[--top], i = stack[--top];
    if (q == i)
      continue;
    search_row(d, best, &w, i, q);
    uint16_t h;
    int r = choose_r(&w, i, q, &h);
    /* Block starts, last to first. */
    int end = q;
    for (int b = r; b >= 1; b--) {
      starts[b] = row_from(&w, b)[end];
      end = starts[b] - 1;
    }
    g_assert(starts[1] == i + 1);
    for (int b = 1; b <= r; b++) {
      int last = b < r ? starts[b + 1] - 1 : q;
      ns_bcast_tree_add(t, d->m[i], d->m[starts[b]]);
      stack[top++] = starts[b];
      stack[top++] = last;
    }
  }
  g_free(starts);
  g_free(stack);
  g_free(w.L);
  g_free(w.from);
  g_free(best);
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "kary-cf", x, seg);
}
