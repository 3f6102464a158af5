/* netsched — the verifier's first try on a switch tree of one depth: see
 * tree_links_internal.h. The route is the one ns_route_table_mark walks
 * (the lowest common ancestor's level is where two climbs first differ; an
 * edge down is the edge up with its low bit flipped), read from a record
 * per schedule machine instead of a row per node. */
#include "sched/verify/tree_links_internal.h"
#include <string.h>

/* How many transfers ahead the records are prefetched: far enough for an
 * L2 hit to arrive (a transfer takes about 15 ns), close enough to stay in
 * the first-level cache. */
#define PREFETCH_AHEAD 4

void ns_tree_links_init(NsTreeLinks *tl, const NsRouteTable *table, const int *node, int p,
                        int n_edges, const int *ports)
{
  *tl = (NsTreeLinks){ 0 };
  if (g_strcmp0(g_getenv("NETSCHED_VERIFY_TREE_LINKS"), "off") == 0)
    return;
  /* 16-bit edges and the marks' dummy (index n_edges) */
  if (table == NULL || table->rows == NULL || p < 1 || n_edges < 1 || n_edges > G_MAXUINT16)
    return;
  int depth = table->width, top = 0;
  if (depth < 1 || depth > NS_TREE_LINKS_LEVELS)
    return;
  for (int m = 0; m < p; m++) {
    if (node[m] < 0 || (ports != NULL && ports[m] < 1))
      return;
    top = MAX(top, node[m]);
  }
  g_autofree uint8_t *taken = g_new0(uint8_t, (gsize)top + 1); /* one machine a node */
  g_autofree NsTreeMachine *machine = g_new0(NsTreeMachine, (gsize)p);
  for (int m = 0; m < p; m++) {
    const int *row = ns_route_tree_row(table, node[m]);
    if (taken[node[m]]++ != 0 || row[table->stride - 1] != depth) /* a switch, another depth */
      return;
    for (int i = 0; i < depth; i++) {
      if (row[i] < 0 || row[i] >= n_edges)
        return;
      machine[m].up[i] = (uint16_t)row[i];
    }
  }
  *tl = (NsTreeLinks){ .table = table, .machine = g_steal_pointer(&machine), .depth = depth };
}

void ns_tree_links_clear(NsTreeLinks *tl)
{
  g_free(tl->machine);
  *tl = (NsTreeLinks){ 0 };
}

/* The walk for depth D (a constant in each caller below: the loops
 * unroll): both ends a level at a time, a level above the common ancestor
 * marking the dummy, which never reports (as ns_route_table_mark). */
static inline __attribute__((always_inline)) gboolean
unshared(const NsTreeMachine *machine, NsEdgeMarks *marks, const NsTransfer *trs,
         const uint32_t *idx, uint64_t n, NsTreeLinksResult *res, const int D)
{
  uint8_t *tag = marks->tag, group = marks->group;
  int dummy = marks->dummy, max_len = res->max_len;
  uint32_t most = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (i + PREFETCH_AHEAD < n) {
      const NsTransfer *ahead = &trs[idx != NULL ? idx[i + PREFETCH_AHEAD] : i + PREFETCH_AHEAD];
      __builtin_prefetch(&machine[ahead->src]);
      __builtin_prefetch(&machine[ahead->dst]);
    }
    const NsTransfer *tr = &trs[idx != NULL ? idx[i] : i];
    const NsTreeMachine *a = &machine[tr->src], *b = &machine[tr->dst];
    uint32_t differ = (uint32_t)1 << D; /* machines on distinct nodes differ within D */
    for (int k = 0; k < D; k++)
      differ |= (uint32_t)(a->up[k] != b->up[k]) << k;
    int s = __builtin_ctz(differ);
    uint64_t hit = 0;
    for (int k = 0; k < D; k++) {
      uint64_t on = k >= s;
      hit |= ns_edge_mark(tag, group, dummy, a->up[k], on);
      hit |= ns_edge_mark(tag, group, dummy, b->up[k] ^ 1, on);
    }
    if (hit != 0)
      return FALSE;
    max_len = MAX(max_len, 2 * (D - s) - 1); /* a route of 2 (D - s) >= 2 links */
    most = MAX(most, (uint32_t)tr->n_chunks);
  }
  res->max_len = max_len;
  res->most_chunks = most;
  return TRUE;
}

gboolean ns_tree_links_unshared(const NsTreeLinks *tl, NsEdgeMarks *marks, const NsTransfer *trs,
                                const uint32_t *idx, uint64_t n, NsTreeLinksResult *res)
{
  const NsTreeMachine *m = tl->machine;
  switch (tl->depth) {
  case 1:
    return unshared(m, marks, trs, idx, n, res, 1);
  case 2:
    return unshared(m, marks, trs, idx, n, res, 2);
  case 3:
    return unshared(m, marks, trs, idx, n, res, 3);
  default:
    return unshared(m, marks, trs, idx, n, res, 4);
  }
}
