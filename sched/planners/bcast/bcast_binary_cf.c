/* netsched — bcast/binary-cf: pipelined broadcast along the contention-free
 * binary tree of Algorithm 5.
 *
 * Faraj dissertation §3.4.2.2 (Lemma 11, Figure 3.28 = Algorithm 5,
 * Theorem 5); Patarasuk, Faraj & Yuan, IPDPS 2006.
 */
#include "platforms/model/error.h"
#include "sched/planners/bcast/bcast_dfs_internal.h"
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/* The O(P^2) tables cost 6 bytes per interval: 100 MB at 4096 machines,
 * where the O(P^3) search takes tens of seconds. */
#define BINARY_CF_MAX_MACHINES 4096

/* Height of the complete binary tree on `nodes` nodes, ⌈log2(nodes+1)⌉ − 1:
 * no binary tree on that many nodes is lower. */
static int min_binary_height(int nodes)
{
  int h = 0;
  while (((int64_t)2 << h) - 1 < nodes)
    h++;
  return h;
}

/*
 * ns_bcast_binary_cf — pipelined broadcast on Algorithm 5's contention-free
 * binary tree.
 *
 * Steps (Figure 3.28):
 *  1. m_0 (= root) -> m_1 -> ... -> m_{P-1}: the linear tree of Algorithm 4
 *     (bcast_dfs_internal.h); S(i,j) = {m_i, ..., m_j}.
 *  2. Base cases, lines (2)–(12): tree(i,i) = {} (height 0);
 *     tree(i,i+1) = {m_i -> m_{i+1}} (1); tree(i,i+2) = {m_i -> m_{i+1},
 *     m_i -> m_{i+2}} (1).
 *  3. Lines (13)–(26), by increasing j − i: tree(i,j) = m_i with left child
 *     tree(i+1,k−1) and right child tree(k,j) for the k in (i+1, j] that
 *     minimises max(best[i+1][k−1], best[k][j]) + 1 among those where
 *     m_i -> m_k has no contention with tree(i+1,k−1) (line 17); on ties the
 *     smallest k (the paper's strict '>' in line 18).
 *  4. tree(0,P−1) is the broadcast tree (Theorem 5: contention-free, since
 *     by Lemma 11 only m_i -> m_k against tree(i+1,k−1) can clash). The X
 *     segments are pipelined down it (bcast_pipeline_internal.h): at most
 *     (X + H − 1)·2 phases, every phase contention-free and 1-port.
 *
 * Faster than the paper, same result: line 17 is decided in O(1) from the
 * DFS numbers (bcast_dfs_internal.h: the test does not depend on the shape of
 * tree(i+1,k−1), only on which switches its machines hang from), so the
 * search is O(P^3) instead of O(P^4); in addition the k loop stops at the
 * first k reaching the complete-binary-tree height ⌈log2(j−i+2)⌉ − 1, below
 * which no candidate can go, so the chosen k is still the paper's. The
 * tables are laid out so the k loop reads memory sequentially.
 * Where the paper is silent: the pipeline sends to the child with the
 * taller subtree first (the left one on ties); the tree is the paper's.
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED on a non-tree topology, more than 4096
 * machines, or more than NS_BCAST_MAX_TRANSFERS transfers.
 * Time O(P^3 + |V| + X·P); memory O(P^2 + X·P) (6·P^2 bytes).
 */
NsSchedule *ns_bcast_binary_cf(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "binary-cf", &x, &seg, error))
    return NULL;
  int n = ns_topology_n_machines(topo);
  if (n > BINARY_CF_MAX_MACHINES) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "bcast/binary-cf: %d machines; Algorithm 5's O(P^2) tables and O(P^3) "
                    "search are limited to %d machines (use linear-cf)",
                    n, BINARY_CF_MAX_MACHINES);
    return NULL;
  }
  g_autoptr(NsBcastDfs) d = ns_bcast_dfs_new(topo, params->root, error);
  if (d == NULL)
    return NULL;

  const gsize nn = (gsize)n * (gsize)n;
  uint16_t *best = g_new(uint16_t, nn);   /* best[i*n + j] = height of tree(i,j) */
  uint16_t *best_t = g_new(uint16_t, nn); /* best_t[j*n + k] = best[k][j] */
  uint16_t *index = g_new0(uint16_t, nn); /* right child k of tree(i,j), j >= i+2 */
  for (int i = 0; i < n; i++) {
    best[(gsize)i * n + i] = best_t[(gsize)i * n + i] = 0;
    if (i + 1 < n)
      best[(gsize)i * n + i + 1] = best_t[(gsize)(i + 1) * n + i] = 1;
  }
  for (int len = 2; len < n; len++) {
    const int lb = min_binary_height(len + 1);
    for (int i = 0; i + len < n; i++) {
      const int j = i + len;
      const uint16_t *left = best + (gsize)(i + 1) * n; /* left[k-1] = best[i+1][k-1] */
      const uint16_t *right = best_t + (gsize)j * n;    /* right[k] = best[k][j] */
      const int up = d->up[i], lo = d->sw[i + 1];
      int best_h = G_MAXINT, best_k = i + 2;
      for (int k = i + 2; k <= j; k++) {
        if (up < d->sw[k - 1] || d->down[k] > lo)
          continue; /* line 17: m_i -> m_k clashes with tree(i+1,k-1) */
        int h = MAX(left[k - 1], right[k]) + 1;
        if (h < best_h) {
          best_h = h;
          best_k = k;
          if (h == lb)
            break;
        }
      }
      /* k = i+2 always qualifies (tree(i+1,i+1) has no edge). */
      best[(gsize)i * n + j] = best_t[(gsize)j * n + i] = (uint16_t)best_h;
      index[(gsize)i * n + j] = (uint16_t)best_k;
    }
  }

  /* Unfold tree(0, P-1) top-down (parents are added before children). */
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(n, params->root);
  int *stack = g_new(int, 2 * (gsize)n + 2), top = 0;
  stack[top++] = 0;
  stack[top++] = n - 1;
  while (top > 0) {
    int j = stack[--top], i = stack[--top];
    if (j == i)
      continue;
    if (j == i + 1) {
      ns_bcast_tree_add(t, d->m[i], d->m[i + 1]);
      continue;
    }
    int k = index[(gsize)i * n + j];
    int h_left = best[(gsize)(i + 1) * n + k - 1], h_right = best[(gsize)k * n + j];
    if (h_right > h_left) {
      ns_bcast_tree_add(t, d->m[i], d->m[k]);
      ns_bcast_tree_add(t, d->m[i], d->m[i + 1]);
    } else {
      ns_bcast_tree_add(t, d->m[i], d->m[i + 1]);
      ns_bcast_tree_add(t, d->m[i], d->m[k]);
    }
    stack[top++] = i + 1;
    stack[top++] = k - 1;
    stack[top++] = k;
    stack[top++] = j;
  }
  g_free(stack);
  g_free(best);
  g_free(best_t);
  g_free(index);
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "binary-cf", x, seg);
}
