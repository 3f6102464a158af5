/* netsched — the route table's layout (sched/ir/route.h), for the
 * verifier's link checks: a tree route read inline, in the loop that marks
 * its edges, saves a call and a copy of every route (268 M routes of a
 * 16,384-machine all-to-all; issue #24). Everything else goes through
 * ns_route_table_route(). */
#ifndef NETSCHED_SCHED_IR_ROUTE_TABLE_INTERNAL_H
#define NETSCHED_SCHED_IR_ROUTE_TABLE_INTERNAL_H

#include "sched/ir/route.h"

/* Tree routing, where every machine is a leaf with one link to a switch:
 * per node, the row of a machine's switch and the edge up to it (8
 * bytes: the only per-machine data a route reads), and one row of
 * `stride` ints per switch: row[0] is the number of edges from the
 * switch up to the anchor switch; row[1 + i] for i = 0..len is the i-th
 * node of its path from the anchor down (node 0 the anchor, node len the
 * switch); row[1 + width + i] is the edge climbing from node i + 1 to
 * node i. An edge down is the edge up with its low bit flipped (an edge
 * is 2·link + direction). The switches' rows are few (528 on 16,384
 * machines) and stay in cache. */
typedef struct {
  int row;               /* the row of the machine's switch; -1: not a machine */
  int edge;              /* the edge from the machine up to its switch */
} Leaf;

/* One up-link of a fat-tree node: the edge climbing it and the node above
 * (-1, -1 past the node's up-links). */
typedef struct {
  int edge, node;
} UpSlot;

/* Fat trees under d-mod-k and s-mod-k (platforms/routing/updown.h): a
 * route climbs from both ends with one machine's key until the climbs
 * meet, and the climb of the key's own machine (the destination under
 * d-mod-k, the source under s-mod-k) does not depend on the other end.
 * So per machine K: its own climb with its own key — the node at each
 * level and the edge up from it, a row of 2 · levels ints (64 bytes on a
 * 7-level tree) — and its key's digits (a byte a level); per node its
 * up-links at a fixed stride (8 bytes each). A route walks the other
 * end's climb up to the level where it meets the row, then copies the
 * row's edges down: one load a level on the climbing side and no
 * division, against two climbs through the routing's tables. */
typedef struct {
  int levels, slots;     /* row width (the levels); up-links a node at most */
  gboolean by_source;    /* s-mod-k: the key's machine is the source */
  int *key_of;           /* per node: its machine index, -1 for a switch */
  int *rows;             /* per machine: node[levels] then edge[levels] (-2: no node) */
  uint8_t *digit;        /* per machine: levels digits of its key */
  UpSlot *up;            /* per node: `slots` up-links */
} FatTable;

struct NsRouteTable {
  const NsTopology *topo;
  Leaf *leaf;            /* per node; NULL: the topology routes */
  int *rows;             /* per switch, stride ints */
  int stride, width;     /* width: the longest switch path to the anchor + 1 */
  FatTable *fat;         /* dmodk, smodk: the climbs; NULL otherwise */
};

/* The route between two machines of a switch tree from the table (what
 * ns_route_table_route() returns for them), or -1 when the table does not
 * hold it: a switch, the same node twice, fat-tree or topology routing. */
static inline int ns_route_table_tree_route(const NsRouteTable *rt, int src, int dst, int *edges)
{
  if (rt->leaf == NULL || rt->fat != NULL)
    return -1;
  Leaf a = rt->leaf[src], b = rt->leaf[dst];
  if (a.row < 0 || b.row < 0 || src == dst)
    return -1;
  int n = 0;
  edges[n++] = a.edge;
  if (a.row != b.row) { /* between the two switches: their paths below the deepest shared node */
    const int *ra = rt->rows + (gsize)a.row * (gsize)rt->stride;
    const int *rb = rt->rows + (gsize)b.row * (gsize)rt->stride;
    int la = ra[0], lb = rb[0], common = 0;
    const int *na = ra + 1, *nb = rb + 1, *ua = ra + 1 + rt->width, *ub = rb + 1 + rt->width;
    while (common < la && common < lb && na[common + 1] == nb[common + 1])
      common++;
    for (int i = la - 1; i >= common; i--)
      edges[n++] = ua[i];
    for (int i = common; i < lb; i++)
      edges[n++] = ub[i] ^ 1;
  }
  edges[n++] = b.edge ^ 1;
  return n;
}

#endif
