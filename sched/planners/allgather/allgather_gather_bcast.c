/* netsched — allgather/gather-bcast: binary-tree gather, binary-tree bcast. */
#include "sched/planners/registry.h"
#include <string.h>

static int heap_depth(int k)
{
  int d = 0;
  for (k++; k > 1; k >>= 1)
    d++;
  return d;
}

/* Machines of the subtree of k in the heap-ordered binary tree over
 * 0..p−1 (children of k: 2k+1, 2k+2); in[m] = TRUE for them. Returns how
 * many. */
static int mark_subtree(int p, int k, gboolean *in)
{
  int n = 0;
  for (int lo = k, hi = k; lo < p; lo = 2 * lo + 1, hi = 2 * hi + 2)
    for (int m = lo; m <= MIN(hi, p - 1); m++) {
      in[m] = TRUE;
      n++;
    }
  return n;
}

/*
 * ns_allgather_gather_bcast — the repository's Gather-Bcast all-gather
 * (dissertation §4.1.1.1: "first gathers all data to one node and then
 * broadcasts the data to all nodes", both as binary trees; estimated time
 * lg(p)(α + nβ) + (lg(p)−1)θ + γ for the gather and
 * lg(p)(α + pnβ) + (lg(p)−1)θ + γ for the broadcast).
 *
 * The tree: machine 0 is the root, the children of k are 2k+1 and 2k+2
 * (the binary tree of the repository's broadcast, n_k → n_2k+1, n_2k+2);
 * depth D = ⌊lg p⌋.
 * Steps:
 *  1. Gather, one phase per level ℓ = D, D−1, …, 1: every machine of depth
 *     ℓ sends its parent the blocks of its whole subtree (received from its
 *     children in the earlier phases), combined in one transfer.
 *  2. Broadcast, one phase per level ℓ = 0, 1, …, D−1: every machine of
 *     depth ℓ (holding all p blocks by then) sends each child the blocks
 *     that child lacks: all but those of the child's subtree, which it sent
 *     up in step 1. (A library sends the whole buffer, p blocks; the IR
 *     carries each block to each machine exactly once, so the verifier can
 *     check the data flow — the broadcast moves p − |subtree| blocks.)
 * Phases 2D. A parent receives from (gather) and sends to (broadcast) both
 * its children in one phase, as the lg(p)-step estimate assumes, so the
 * verifier finds the two transfers on the parent's machine link and the
 * 1-port model violated: this is not a contention-free algorithm.
 * Time O(p²). Errors: none.
 */
NsSchedule *ns_allgather_gather_bcast(const NsTopology *topo, const NsPlanParams *params,
                                      GError **error)
{
  int p = ns_topology_n_machines(topo), depth = heap_depth(p - 1);
  NsSchedule *s =
      ns_schedule_for_topology(topo, NS_COLL_ALLGATHER, "gather-bcast", params->msize);
  gboolean *in = g_new(gboolean, p);
  uint32_t *chunks = g_new(uint32_t, p);
  for (int level = depth; level >= 1; level--) {
    ns_schedule_begin_phase(s);
    for (int k = (1 << level) - 1; k < MIN(p, (1 << (level + 1)) - 1); k++) {
      memset(in, 0, sizeof(gboolean) * (size_t)p);
      mark_subtree(p, k, in);
      uint32_t n = 0;
      for (int m = 0; m < p; m++)
        if (in[m])
          chunks[n++] = (uint32_t)m;
      ns_schedule_add_chunks(s, k, (k - 1) / 2, n, chunks);
    }
  }
  for (int level = 0; level < depth; level++) {
    ns_schedule_begin_phase(s);
    for (int k = (1 << level) - 1; k < MIN(p, (1 << (level + 1)) - 1); k++)
      for (int c = 2 * k + 1; c <= MIN(2 * k + 2, p - 1); c++) {
        memset(in, 0, sizeof(gboolean) * (size_t)p);
        mark_subtree(p, c, in);
        uint32_t n = 0;
        for (int m = 0; m < p; m++)
          if (!in[m])
            chunks[n++] = (uint32_t)m;
        ns_schedule_add_chunks(s, k, c, n, chunks);
      }
  }
  g_free(in);
  g_free(chunks);
  return s;
}
