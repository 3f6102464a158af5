/* netsched — the route table's layout (sched/ir/route.h), for the
 * verifier's link checks: a route read and marked inline, in the loop
 * that checks a phase's edges, saves a call and a copy of every route
 * (268 M routes of a 16,384-machine all-to-all; issue #24); the marks
 * are NsEdgeMarks. Everything else goes through
 * ns_route_table_route(). bench/bench_verify's walk floor marks with the
 * same ns_route_table_mark(), so it measures the walk the verifier does. */
#ifndef NETSCHED_SCHED_IR_ROUTE_TABLE_INTERNAL_H
#define NETSCHED_SCHED_IR_ROUTE_TABLE_INTERNAL_H

#include "sched/ir/route.h"
#include <string.h>

/* Tree rows are at most this many levels deep (a fixed-length walk pays
 * on short climbs; a deeper tree, a chain of switches, asks the topology). */
#define NS_ROUTE_TREE_MAX_LEVELS 31

/* One up-link of a fat-tree node: the edge climbing it and the node above
 * (-1, -1 past the node's up-links). */
typedef struct {
  int edge, node;
} UpSlot;

/* A level of a machine's own climb (the climb with its own key): the node
 * it stands on (-2: the climb ended below) and the edge up from it (-1:
 * none). */
typedef struct {
  int node, edge;
} FatStep;

/* Fat trees under d-mod-k and s-mod-k (platforms/routing/updown.h): a
 * route climbs from both ends with one machine's key until the climbs
 * meet, and the climb of the key's own machine (the destination under
 * d-mod-k, the source under s-mod-k) does not depend on the other end.
 * Per level l and machine m, step[l · stride + m] is m's own climb at
 * level l (level-major: the machines of a phase, in order, read
 * neighbouring steps). A route walks the other end's climb through the
 * up-links, one dependent load a level, until it meets the key's climb.
 *
 * Closed form (`closed`): on a k-ary n-tree the climb from machine a with
 * key K rewrites a's low digits into K's and keeps the high ones
 * (Petrini & Vanneschi 1997; Zahavi et al. 2010, d-mod-k): at level l it
 * goes up the edge the own climb of machine x_l goes up, x_l being a's
 * digits above l and K's up to l, and it meets K's climb at the first
 * level whose radix passes the highest bit where a and K differ (or whose
 * nodes every such x_l shares, the top). So the meeting level is read
 * from a table by that bit and every edge from a level's array, all at
 * once: no load waits for another. fat_table_new() takes the closed form
 * only where it holds for every pair: every radix (the product of the
 * arities up to a level) a power of two dividing p or passing it, every
 * own climb reaching the top, the node of m's climb at level l not
 * depending on m's digit l (by induction on l, the climb from a at level l
 * is then x_l's), and at each level the machines agreeing on the digits
 * up to it either all on one node or each on its own. */
typedef struct {
  int levels, slots;     /* the levels; up-links a node at most */
  int n_machines;        /* p */
  gsize stride;          /* a level's entries in `step` and `edge`: p + 16 (see fat_table_new) */
  gboolean by_source;    /* s-mod-k: the key's machine is the source */
  int *key_of;           /* per node: its machine index, -1 for a switch */
  FatStep *step;         /* per level, per machine: the own climbs */
  uint8_t *digit;        /* per machine: levels digits of its key */
  UpSlot *up;            /* per node: `slots` up-links */
  gboolean closed;       /* the closed form holds (see above) */
  int *edge;             /* closed: per level, per machine, step's edge */
  uint32_t mask[32];     /* closed: per level, radix - 1 (x_l = a ^ ((a ^ K) & mask)) */
  uint8_t meet[33];      /* closed: the meeting level by the bit length of a ^ K (levels: never) */
} FatTable;

/* Tree routing, where every machine is a leaf with one link to a switch
 * (platforms/routing/routing_tree.c): per node a row of `stride` ints, a
 * machine's fixed-depth climb read from the anchor switch down. row[i]
 * for i < depth is the edge climbing from level i + 1 of the machine's
 * path to level i (level 0 the anchor; row[depth - 1] the machine's own
 * edge up); row[i] for depth <= i < width is ~node, equal to no entry of
 * another row; row[stride - 1] is depth (0: a switch). A node has one
 * edge up, so two paths share their first s nodes below the anchor
 * exactly when their rows share their first s entries: the lowest common
 * ancestor's level is where the rows first differ, and every edge of the
 * route is read from the two rows — an edge down is the edge up with its
 * low bit flipped (an edge is 2·link + direction). 16 bytes a node on a
 * three-level tree (tree:16,32,32: 264 KiB, read two rows a route). */
struct NsRouteTable {
  const NsTopology *topo;
  int *rows;             /* per node, stride ints; NULL: not tree routing, or past the bound */
  int stride, width;     /* width: the deepest machine's depth */
  FatTable *fat;         /* dmodk, smodk: the climbs; NULL otherwise */
};

/* The row of node v of a tree table. */
static inline const int *ns_route_tree_row(const NsRouteTable *rt, int v)
{
  return rt->rows + (gsize)v * (gsize)rt->stride;
}

/* The levels two rows share below the anchor (the lowest common
 * ancestor's level): where they first differ, without a branch a level. */
static inline int ns_route_tree_shared(const int *ra, const int *rb, int width)
{
  uint32_t differ = (uint32_t)1 << width; /* rows of two machines differ within width */
  for (int i = 0; i < width; i++)
    differ |= (uint32_t)(ra[i] != rb[i]) << i;
  return __builtin_ctz(differ);
}

/* Are src and dst two machines the tree rows route (not a switch, not the
 * same node)? */
static inline gboolean ns_route_tree_pair(const NsRouteTable *rt, int src, int dst)
{
  return rt->rows != NULL && src != dst && ns_route_tree_row(rt, src)[rt->stride - 1] > 0 &&
         ns_route_tree_row(rt, dst)[rt->stride - 1] > 0;
}

/* The route between two machines of a switch tree from the table (what
 * ns_route_table_route() returns for them), or -1 when the table does not
 * hold it: a switch, the same node twice, fat-tree or topology routing. */
static inline int ns_route_table_tree_route(const NsRouteTable *rt, int src, int dst, int *edges)
{
  if (!ns_route_tree_pair(rt, src, dst))
    return -1;
  const int *ra = ns_route_tree_row(rt, src), *rb = ns_route_tree_row(rt, dst);
  int da = ra[rt->stride - 1], db = rb[rt->stride - 1];
  int s = ns_route_tree_shared(ra, rb, rt->width), n = 0;
  for (int i = da - 1; i >= s; i--) /* up from the source to the common ancestor */
    edges[n++] = ra[i];
  for (int i = s; i < db; i++)      /* down to the destination */
    edges[n++] = rb[i] ^ 1;
  return n;
}

/* The closed form's meeting level of the climbs from machines a and key
 * (see FatTable): f->levels when they never meet. */
static inline int ns_fat_meet(const FatTable *f, uint32_t a, uint32_t key)
{
  uint32_t x = a ^ key;
  return f->meet[x != 0 ? 32 - __builtin_clz(x) : 0];
}

/* The route between two machines of a fat tree from the climbs (see
 * FatTable), or -1 when the table does not hold it (a switch, a climb that
 * never meets: ns_topology_route() answers). The other end climbs with the
 * key's digits until it stands on the key machine's own climb (the level
 * where the routing's two climbs meet); the route is the source's climb,
 * then the destination's climb reversed. */
static inline int ns_route_table_fat_route(const NsRouteTable *rt, int src, int dst, int *edges)
{
  const FatTable *f = rt->fat;
  int ks = f->key_of[src], kd = f->key_of[dst];
  if (ks < 0 || kd < 0)
    return -1;
  int key = f->by_source ? ks : kd, w = f->levels, l = 0;
  int up[32], down[32]; /* the source's climb, the destination's */
  if (f->closed) {
    uint32_t other = (uint32_t)(f->by_source ? kd : ks), diff = other ^ (uint32_t)key;
    l = ns_fat_meet(f, other, (uint32_t)key);
    if (l >= w)
      return -1;
    for (int k = 0; k < l; k++) {
      const int *at = f->edge + (gsize)k * f->stride;
      int climbed = at[other ^ (diff & f->mask[k])], mine = at[key];
      up[k] = f->by_source ? mine : climbed;
      down[k] = f->by_source ? climbed : mine;
    }
  } else {
    const uint8_t *digit = f->digit + (gsize)key * (gsize)w;
    int *climbed = f->by_source ? down : up, *mine = f->by_source ? up : down;
    int a = f->by_source ? dst : src;
    while (a != f->step[(gsize)l * f->stride + (gsize)key].node) {
      if (l + 1 >= w)
        return -1;
      UpSlot s = f->up[(gsize)a * (gsize)f->slots + digit[l]];
      if (s.edge < 0)
        return -1;
      climbed[l] = s.edge;
      mine[l] = f->step[(gsize)l * f->stride + (gsize)key].edge;
      l++;
      a = s.node;
    }
  }
  for (int k = 0; k < l; k++) {
    edges[k] = up[k];
    edges[l + k] = down[l - 1 - k] ^ 1;
  }
  return 2 * l;
}

/* The first try's marks: a byte per directed edge, the tag of the last
 * group (a phase, or a step) that crossed it, so that no group clears
 * them: a group is tagged 1..255 and the tags are zeroed once every 255
 * groups (faraj's phases have 17 transfers on average on 16,384
 * machines: a clear per group, or a bit per edge with its bookkeeping,
 * cost more). One more byte, `dummy`, takes the marks of a level a
 * fixed-length walk skips, and reports nothing. */
typedef struct {
  uint8_t *tag;          /* per directed edge, then the dummy */
  uint8_t group;         /* the group being marked, 1..255 */
  int dummy;             /* the number of edges: the dummy's index */
} NsEdgeMarks;

static inline void ns_edge_marks_init(NsEdgeMarks *m, int n_edges)
{
  m->dummy = MAX(n_edges, 0);
  m->tag = g_new0(uint8_t, (gsize)m->dummy + 1);
  m->group = 0;
}

static inline void ns_edge_marks_clear(NsEdgeMarks *m)
{
  g_free(m->tag);
  m->tag = NULL;
}

/* A new group, no edge marked. */
static inline void ns_edge_marks_next_group(NsEdgeMarks *m)
{
  if (++m->group == 0) { /* the tags wrapped: none of the marks is current */
    memset(m->tag, 0, (gsize)m->dummy + 1);
    m->group = 1;
  }
}

/* Marks directed edge e when `on` is 1 (0: the dummy takes the mark and
 * nothing is reported, without a branch), with the tags, group and dummy
 * held by the caller (locals the compiler keeps in registers); nonzero
 * when e was marked in this group already. */
static inline uint64_t ns_edge_mark(uint8_t *tag, uint8_t group, int dummy, int e, uint64_t on)
{
  int slot = on ? e : dummy;
  uint64_t was = (uint64_t)(tag[slot] == group) & on;
  tag[slot] = group;
  return was;
}

/* ns_edge_mark on the marks themselves, for one edge. */
static inline uint64_t ns_edge_marks_set(NsEdgeMarks *m, int e, uint64_t on)
{
  return ns_edge_mark(m->tag, m->group, m->dummy, e, on);
}

/* Marks the edges of the route from src to dst in `marks` (made for
 * ns_topology_n_edges() edges) and returns nonzero when one of them was
 * marked in the group already; *len receives the route's length. `route`
 * (capacity ns_topology_max_route_len()) is scratch for routes not read
 * from tree rows. On a tree, a fixed-length walk of the two rows, both
 * ends a level at a time: a level above the common ancestor or past a
 * machine's depth marks nothing and reports nothing (`on` 0), so no
 * branch depends on the route. O(depth). */
static inline uint64_t ns_route_table_mark_from(const NsRouteTable *rt, int src, int dst,
                                                int own_levels, NsEdgeMarks *marks, int *route,
                                                int *len);

static inline uint64_t ns_route_table_mark(const NsRouteTable *rt, int src, int dst,
                                           NsEdgeMarks *marks, int *route, int *len)
{
  return ns_route_table_mark_from(rt, src, dst, 0, marks, route, len);
}

/* ns_route_table_mark, but a route of the fat-tree closed form leaves its
 * lowest `own_levels` (0 or 1) levels unmarked: level 0 is the two
 * machines' own links, which a caller that makes sure no machine sends or
 * receives twice in the group need not mark (two routes share a machine's
 * own link only by sharing that machine as sender, or as receiver). Other
 * routes are marked whole: a mark too many can only send a group to the
 * full check. */
static inline uint64_t ns_route_table_mark_from(const NsRouteTable *rt, int src, int dst,
                                                int own_levels, NsEdgeMarks *marks, int *route,
                                                int *len)
{
  uint64_t hit = 0;
  uint8_t *tag = marks->tag, group = marks->group;
  int dummy = marks->dummy;
  if (ns_route_tree_pair(rt, src, dst)) {
    const int *ra = ns_route_tree_row(rt, src), *rb = ns_route_tree_row(rt, dst);
    int da = ra[rt->stride - 1], db = rb[rt->stride - 1], w = rt->width;
    int s = ns_route_tree_shared(ra, rb, w);
    for (int i = 0; i < w; i++) {
      /* level i is on the route when s <= i < depth (one unsigned compare) */
      uint64_t on_a = (unsigned)(i - s) < (unsigned)(da - s);
      uint64_t on_b = (unsigned)(i - s) < (unsigned)(db - s);
      hit |= ns_edge_mark(tag, group, dummy, ra[i], on_a);
      hit |= ns_edge_mark(tag, group, dummy, rb[i] ^ 1, on_b);
    }
    *len = da + db - 2 * s;
    return hit;
  }
  const FatTable *f = rt->fat;
  if (f != NULL && f->closed && f->key_of[src] >= 0 && f->key_of[dst] >= 0) {
    /* the meeting level from its table, then a fixed-length marking of
     * the levels' edges, all read at once: a level at or above the
     * meeting marks nothing (`on` 0). The climbed edges go up from the
     * source, or (s-mod-k) down to the destination: reversed; the key
     * machine's the other way. */
    uint32_t ks = (uint32_t)f->key_of[src], kd = (uint32_t)f->key_of[dst];
    uint32_t key = f->by_source ? ks : kd, other = f->by_source ? kd : ks, diff = other ^ key;
    int meet = ns_fat_meet(f, other, key);
    if (meet < f->levels) {
      int flip_other = f->by_source ? 1 : 0, flip_own = 1 - flip_other;
      const int *at = f->edge + (gsize)own_levels * f->stride;
      for (int l = own_levels; l + 1 < f->levels; l++, at += f->stride) { /* none up from the top */
        uint64_t on = l < meet;
        hit |= ns_edge_mark(tag, group, dummy, at[other ^ (diff & f->mask[l])] ^ flip_other, on);
        hit |= ns_edge_mark(tag, group, dummy, at[key] ^ flip_own, on);
      }
      *len = 2 * meet;
      return hit;
    }
  } else if (f != NULL && f->key_of[src] >= 0 && f->key_of[dst] >= 0) {
    /* the climb from the end that is not the key's, up to the key
     * machine's own climb, and that climb: both a level at a time */
    int key = f->by_source ? f->key_of[src] : f->key_of[dst], w = f->levels, l = 0;
    const FatStep *own = f->step + key; /* level l at own[l · stride] */
    gsize p = f->stride;
    const uint8_t *digit = f->digit + (gsize)key * (gsize)w;
    int a = f->by_source ? dst : src;
    /* the climbed edges go up from the source, or (s-mod-k) down to the
     * destination: reversed; the key machine's the other way */
    int flip_climbed = f->by_source ? 1 : 0, flip_key = 1 - flip_climbed;
    uint64_t climbed = 0;
    while (a != own[(gsize)l * p].node) {
      if (l + 1 >= w)
        break;
      UpSlot s = f->up[(gsize)a * (gsize)f->slots + digit[l]];
      if (s.edge < 0)
        break;
      climbed |= ns_edge_mark(tag, group, dummy, s.edge ^ flip_climbed, 1);
      climbed |= ns_edge_mark(tag, group, dummy, own[(gsize)l * p].edge ^ flip_key, 1);
      l++;
      a = s.node;
    }
    if (a == own[(gsize)l * p].node) {
      *len = 2 * l;
      return climbed;
    }
    /* Never met (the routing's set-up proves every pair meets): the
     * topology's route is marked too. The climb's extra marks can only
     * report an edge crossed twice where none is, which sends the phase
     * to the full check, never the other way. */
    hit = climbed;
  }
  int n = rt->fat != NULL ? ns_route_table_fat_route(rt, src, dst, route) : -1;
  if (n < 0) /* a switch, the same node, a table past its bound, another routing */
    n = ns_route_table_route(rt, src, dst, route);
  for (int k = 0; k < n; k++)
    hit |= ns_edge_mark(tag, group, dummy, route[k], 1);
  *len = n;
  return hit;
}

#endif
