/* netsched — the verifier's first try on a switch tree of one depth: see
 * tree_links_internal.h. The route is the one ns_route_table_mark walks
 * (the lowest common ancestor's level is where two climbs first differ; an
 * edge down is the edge up with its low bit flipped), read from a record
 * per schedule machine instead of a row per node. */
#include "sched/verify/tree_links_internal.h"

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
  g_autofree uint64_t *climb = g_new0(uint64_t, (gsize)p);
  for (int m = 0; m < p; m++) {
    const int *row = ns_route_tree_row(table, node[m]);
    if (taken[node[m]]++ != 0 || row[table->stride - 1] != depth) /* a switch, another depth */
      return;
    for (int i = 0; i < depth; i++) {
      if (row[i] < 0 || row[i] >= n_edges)
        return;
      climb[m] |= (uint64_t)row[i] << (16 * i);
    }
  }
  *tl = (NsTreeLinks){ .table = table, .climb = g_steal_pointer(&climb), .depth = depth };
}

void ns_tree_links_clear(NsTreeLinks *tl)
{
  g_free(tl->climb);
  *tl = (NsTreeLinks){ 0 };
}

/* The walk for depth D (a constant in each caller below: the loops
 * unroll): both ends a level at a time, a level above the common ancestor
 * marking the dummy, which never reports (as ns_route_table_mark). */
static inline __attribute__((always_inline)) gboolean
unshared(const uint64_t *climb, NsEdgeMarks *marks, const NsTransfer *trs, const uint32_t *idx,
         uint64_t n, NsTreeLinksResult *res, const int D)
{
  uint8_t *tag = marks->tag, group = marks->group;
  int dummy = marks->dummy, max_len = res->max_len;
  uint32_t most = 0;
  for (uint64_t i = 0; i < n; i++) {
    const NsTransfer *tr = &trs[idx != NULL ? idx[i] : i];
    uint64_t a = climb[tr->src], b = climb[tr->dst];
    /* the first level where they differ (machines on distinct nodes differ
     * within D levels; the levels past D are 0 in both) */
    int s = __builtin_ctzll(a ^ b) >> 4;
    uint64_t hit = 0;
    for (int k = 0; k < D; k++) {
      uint64_t on = k >= s;
      hit |= ns_edge_mark(tag, group, dummy, (int)(uint16_t)(a >> (16 * k)), on);
      hit |= ns_edge_mark(tag, group, dummy, (int)(uint16_t)(b >> (16 * k)) ^ 1, on);
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
  const uint64_t *m = tl->climb;
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
