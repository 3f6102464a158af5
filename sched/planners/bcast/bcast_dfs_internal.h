/* netsched — the DFS machine order of Algorithm 4 and the contention test
 * of Algorithm 5, shared by bcast/linear-cf, bcast/binary-cf and
 * bcast/kary-cf (dissertation §3.4.2). Not a planner.
 *
 * Algorithm 4 (§3.4.2.1): number the switches s_0, s_1, ... in depth-first
 * order of the switch graph G' starting from the switch of the root machine
 * n_r; list the machines switch by switch in that order, n_r first. The
 * resulting order m_0 (= n_r), m_1, ..., m_{P-1} is the contention-free
 * linear tree (Theorem 4), and by Lemma 11 m_i -> m_j never shares a
 * directed edge with m_k -> m_l when i < j <= k < l. Choices where the
 * paper is silent: the DFS visits a switch's neighbours in the order of its
 * links in the topology; the machines of one switch follow in increasing
 * machine index (the root first on s_0).
 *
 * The contention test of Algorithm 5, line (17): "m_i -> m_k does not have
 * contention with tree[i+1][k-1]". netsched evaluates it in O(1) instead of
 * routing every edge of tree[i+1][k-1] (that is what makes the paper's
 * O(P^4) heuristic O(P^3)). Derivation — write a = s(m_i), c = s(m_k),
 * lo = s(m_{i+1}), hi = s(m_{k-1}) for the DFS numbers of the switches, so
 * a <= lo <= hi <= c; the link of m_i and the link of m_k are used by no
 * edge of tree[i+1][k-1], so only the switch-to-switch edges of
 * path(s_a -> s_c) matter; with the switch tree rooted at s_0 these are
 *   up edges   x -> parent(x) for x on the path from s_a up to (excluding)
 *              L = LCA(s_a, s_c); subtree(x) = [x, end(x)] in DFS numbers;
 *   down edges parent(y) -> y for y from below L down to s_c.
 * Every edge of tree[i+1][k-1] goes FORWARD (m_u -> m_v with u < v) and the
 * tree spans m_{i+1}..m_{k-1} from m_{i+1}. For an up edge x the machines of
 * the range inside subtree(x) form a prefix of the range (switches
 * lo..end(x)), for a down edge y those inside subtree(y) form a suffix
 * (switches y..hi); a spanning tree of forward edges rooted at the first
 * machine crosses from a prefix to the rest iff both are non-empty. Hence
 * the edge is used — whatever the shape of the tree — iff
 *   up x:   lo <= end(x) < hi,        down y:  lo < y <= hi.
 * The x with the smallest end(x) >= lo is z = LCA(s_a, s_lo) (ends grow up
 * the path; end(x) >= lo means s_lo is below x), and the y with the largest
 * y <= hi is w = LCA(s_hi, s_c). So
 *   m_i -> m_k is contention-free with tree[i+1][k-1]
 *       <=>  end(LCA(s_a, s_lo)) >= hi  and  LCA(s_hi, s_c) <= lo,
 * where the first term depends on i only and the second on k only:
 * ns_bcast_dfs_can_send() is two array look-ups and two comparisons. The
 * same holds against any forest of forward trees over consecutive blocks of
 * m_{i+1}..m_{k-1} as a sufficient condition (a forest uses a subset of the
 * edges a spanning tree of the whole range must use); kary-cf relies on
 * that. tests/test_bcast.c checks the predicate against routed trees.
 */
#ifndef NETSCHED_BCAST_DFS_H
#define NETSCHED_BCAST_DFS_H

#include "platforms/model/topology.h"

typedef struct {
  int n;            /* machines P */
  int *m;           /* m[i]: machine index of position i; m[0] = the root */
  int *sw;          /* sw[i]: DFS number of the switch of m[i] */
  int n_switches;
  int *switch_node; /* DFS number -> topology node id */
  int *sw_parent;   /* DFS number of the parent switch, -1 for s_0 */
  int *sw_depth;    /* depth below s_0 */
  int *sw_end;      /* largest DFS number in the subtree of a switch */
  int *up;          /* up[i] = end(LCA(s(m_i), s(m_{i+1}))), i < n - 1 */
  int *down;        /* down[k] = LCA(s(m_{k-1}), s(m_k)) as a DFS number, k >= 1 */
} NsBcastDfs;

/* Algorithm 4's order from `root` (a machine index) and the tables of the
 * contention test. Tree routing only: NULL with NS_ERROR_UNSUPPORTED
 * otherwise. Time O(|V| + P·depth), memory O(|V|). */
NsBcastDfs *ns_bcast_dfs_new(const NsTopology *topo, int root, GError **error);
void ns_bcast_dfs_free(NsBcastDfs *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsBcastDfs, ns_bcast_dfs_free)

/* TRUE when m_i -> m_k (0 <= i, i + 2 <= k < n) shares no directed edge
 * with any tree of forward edges spanning m_{i+1}..m_{k-1} from m_{i+1}
 * (Algorithm 5, line 17; derivation above). O(1). */
static inline gboolean ns_bcast_dfs_can_send(const NsBcastDfs *d, int i, int k)
{
  return d->up[i] >= d->sw[k - 1] && d->down[k] <= d->sw[i + 1];
}

#endif
