/* netsched — d-mod-k and s-mod-k routing on levelled fat trees.
 *
 * A k-ary n-tree (Petrini & Vanneschi 1997; the QsNet and InfiniBand fat
 * tree) and, generally, any levelled up/down network: machines are level 0
 * and a switch's level is its hop distance from the nearest machine; every
 * link joins two adjacent levels. The up-links of a node are its links to
 * the next level, in link-id order (the generators declare them in port
 * order). Nodes of level l with up-links all have the same number u_l.
 *
 * Route from s to d with key K (d-mod-k: K = d, Zahavi et al. 2010; s-mod-k:
 * K = s, both machine indices): at level l a message climbs through up-link
 * ⌊K / (u_0 · u_1 · … · u_(l-1))⌋ mod u_l. Both s and d climb with the same
 * key until they reach the same switch — in a k-ary n-tree at the level of
 * their nearest common ancestors, as the climb from s rewrites s's low
 * digits into K's and keeps the high ones — and the route is s's climb
 * followed by d's climb reversed. On a full k-ary n-tree, d-mod-k sends
 * every message towards d through one switch per level, so the shift
 * permutations (i -> i+j mod p) are contention-free (Zahavi et al.).
 *
 * The set-up checks the levels and that every pair meets (for every key
 * at once, updown_check_pairs), so a route always exists.
 */
#include "platforms/model/error.h"
#include "platforms/model/topology_internal.h"
#include "platforms/routing/updown.h"
#include <stdlib.h>

typedef struct {
  int *level;           /* per node */
  int *up_start, *up;   /* up-links of node v: up[up_start[v] .. up_start[v+1]) */
  int *up_edge;         /* per up-link slot: the directed edge climbing it */
  int *up_node;         /* per up-link slot: the node it climbs to */
  int n_levels;         /* highest level + 1 */
  int *arity;           /* per level: u_l (0 at the top) */
  int *log2_arity;      /* per level: log2 u_l when u_l is a power of two, else -1 */
  gboolean by_source;   /* s-mod-k */
} UpDown;

static void updown_free(NsTopology *t)
{
  UpDown *u = t->routing_data;
  if (u == NULL)
    return;
  g_free(u->level);
  g_free(u->up_start);
  g_free(u->up);
  g_free(u->up_edge);
  g_free(u->up_node);
  g_free(u->arity);
  g_free(u->log2_arity);
  g_free(u);
  t->routing_data = NULL;
}

/* Climbs from machine nodes a and b with `key` until they meet; writes
 * a's climb into up_a and b's into up_b (edges in climbing order).
 * Returns the number of levels climbed, or -1 when they never meet.
 * Both start at level 0 and climb one level a step, so the up-link digit
 * ⌊K / stride_l⌋ mod u_l is the same for both and is taken by successive
 * division (⌊⌊K / a⌋ / b⌋ = ⌊K / ab⌋), a shift and a mask when u_l is a
 * power of two; the edge and the node above come from per-slot tables.
 * This is the verifier's inner loop on fat trees. */
static int climb(const UpDown *u, int a, int b, uint64_t key, int *up_a, int *up_b)
{
  int steps = 0;
  uint32_t rest = (uint32_t)key; /* a machine index: < 2^31, 32-bit division */
  while (a != b) {
    int sa = u->up_start[a], sb = u->up_start[b];
    if (sa == u->up_start[a + 1] || sb == u->up_start[b + 1])
      return -1;
    int j, shift = u->log2_arity[steps];
    if (shift >= 0) { /* k-ary n-trees: k a power of two, no division */
      j = (int)(rest & ((1u << shift) - 1));
      rest >>= shift;
    } else {
      uint32_t arity = (uint32_t)u->arity[steps];
      j = (int)(rest % arity);
      rest /= arity;
    }
    up_a[steps] = u->up_edge[sa + j];
    up_b[steps] = u->up_edge[sb + j];
    a = u->up_node[sa + j];
    b = u->up_node[sb + j];
    steps++;
  }
  return steps;
}

static int updown_route(const NsTopology *t, int src, int dst, int *edges)
{
  const UpDown *u = t->routing_data;
  uint64_t key = (uint64_t)t->node_machine[u->by_source ? src : dst];
  int up_b[64];
  int l = climb(u, src, dst, key, edges, up_b);
  /* never -1: updown_check_pairs proved at set-up that every pair meets */
  g_assert(l >= 0);
  for (int k = 0; k < l; k++) /* d's climb reversed: down edges */
    edges[l + k] = up_b[l - 1 - k] ^ 1;
  return 2 * l;
}

/* The routes towards machine `dst_machine` under d-mod-k (the key is the
 * destination): machine d climbs with its own key to d_1, d_2, ...; a
 * message at a node v of level l meets d's climb when v = d_l and then
 * goes down it, else climbs through up-link digit l of the key — exactly
 * climb()'s rule, so the tree holds every route towards d. Under s-mod-k
 * the same tree, reversed, holds the routes from d (see topology.h). */
static gboolean updown_next_hops(const NsTopology *t, int dst_machine, int *next_edge)
{
  const UpDown *u = t->routing_data;
  int n = (int)t->nodes->len;
  int on_climb[64], down[64], digit[64]; /* per level: d_l, the edge down from it, digit */
  uint32_t rest = (uint32_t)dst_machine;
  int v = t->machine_node[dst_machine];
  for (int l = 0; l < u->n_levels; l++)
    down[l] = -1;
  for (int l = 0; l < u->n_levels; l++) {
    on_climb[l] = v;
    digit[l] = -1;
    if (u->arity[l] == 0 || u->up_start[v] == u->up_start[v + 1])
      continue;
    digit[l] = (int)(rest % (uint32_t)u->arity[l]);
    rest /= (uint32_t)u->arity[l];
    if (l + 1 < u->n_levels) {
      down[l + 1] = u->up_edge[u->up_start[v] + digit[l]] ^ 1;
      v = u->up_node[u->up_start[v] + digit[l]];
    }
  }
  for (int w = 0; w < n; w++) {
    int l = u->level[w];
    if (w == on_climb[l])
      next_edge[w] = down[l];
    else if (digit[l] >= 0 && u->up_start[w] + digit[l] < u->up_start[w + 1])
      next_edge[w] = u->up_edge[u->up_start[w] + digit[l]];
    else
      next_edge[w] = -1;
  }
  return TRUE;
}

static gboolean updown_build_levels(NsTopology *t, UpDown *u, GError **error)
{
  int n = (int)t->nodes->len;
  u->level = g_new(int, n);
  int *queue = g_new(int, n);
  int head = 0, tail = 0;
  for (int v = 0; v < n; v++) {
    u->level[v] = -1;
    if (t->node_machine[v] >= 0) {
      u->level[v] = 0;
      queue[tail++] = v;
    }
  }
  while (head < tail) {
    int v = queue[head++];
    for (int k = t->inc_start[v]; k < t->inc_start[v + 1]; k++) {
      int w = ns_topology_link_other(t, t->inc[k], v);
      if (u->level[w] < 0) {
        u->level[w] = u->level[v] + 1;
        queue[tail++] = w;
      }
    }
  }
  g_free(queue);
  u->n_levels = 0;
  for (int v = 0; v < n; v++)
    u->n_levels = MAX(u->n_levels, u->level[v] + 1);
  if (u->n_levels > 32) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, t->routing_line,
                    "%s routing: %d levels (at most 32)", ns_routing_kind_name(t->routing),
                    u->n_levels);
    return FALSE;
  }
  for (guint i = 0; i < t->links->len; i++) {
    const NsLink *l = &g_array_index(t->links, NsLink, i);
    if (abs(u->level[l->a] - u->level[l->b]) != 1) {
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, l->line,
                      "%s routing needs a levelled fat tree: link %s-%s joins two nodes of "
                      "level %d (levels count hops from the machines)",
                      ns_routing_kind_name(t->routing),
                      g_array_index(t->nodes, NsNode, l->a).name,
                      g_array_index(t->nodes, NsNode, l->b).name, u->level[l->a]);
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean updown_build_ports(NsTopology *t, UpDown *u, GError **error)
{
  int n = (int)t->nodes->len;
  u->up_start = g_new0(int, n + 1);
  u->up = g_new(int, t->links->len + 1);
  u->arity = g_new0(int, u->n_levels);
  int *holder = g_new(int, u->n_levels); /* a node of each level, for messages */
  for (int l = 0; l < u->n_levels; l++)
    holder[l] = -1;
  int fill = 0;
  gboolean ok = TRUE;
  for (int v = 0; v < n && ok; v++) {
    u->up_start[v] = fill;
    for (int k = t->inc_start[v]; k < t->inc_start[v + 1]; k++) /* link-id order */
      if (u->level[ns_topology_link_other(t, t->inc[k], v)] == u->level[v] + 1)
        u->up[fill++] = t->inc[k];
    int count = fill - u->up_start[v], l = u->level[v];
    if (count == 0)
      continue;
    if (u->arity[l] == 0) {
      u->arity[l] = count;
      holder[l] = v;
    } else if (u->arity[l] != count) {
      ns_set_error_at(error, NS_ERROR_INPUT, t->source, g_array_index(t->nodes, NsNode, v).line,
                      "%s routing: '%s' has %d up-links but '%s' on the same level %d has %d",
                      ns_routing_kind_name(t->routing), g_array_index(t->nodes, NsNode, v).name,
                      count, g_array_index(t->nodes, NsNode, holder[l]).name, l, u->arity[l]);
      ok = FALSE;
    }
  }
  u->up_start[n] = fill;
  g_free(holder);
  u->log2_arity = g_new(int, u->n_levels);
  for (int l = 0; l < u->n_levels; l++) {
    int a = u->arity[l];
    u->log2_arity[l] = a > 0 && (a & (a - 1)) == 0 ? g_bit_nth_lsf((gulong)a, -1) : -1;
  }
  u->up_edge = g_new(int, fill + 1);
  u->up_node = g_new(int, fill + 1);
  for (int v = 0; v < n && ok; v++)
    for (int k = u->up_start[v]; k < u->up_start[v + 1]; k++) {
      u->up_edge[k] = ns_edge_from_link(t, u->up[k], v);
      u->up_node[k] = ns_topology_link_other(t, u->up[k], v);
    }
  return ok;
}

/* The level-`level` nodes that the climbs of all machines reach with the
 * keys K ≡ prefix (mod stride) (stride: the product of the arities below
 * `level`, capped at p), deduplicated in nodes[0 .. n). Climbs that meet
 * stay together (same node, same digit), so every pair meets with those
 * keys exactly when these nodes narrow to one before the climbs end.
 * Recurses on each next digit j whose smallest key prefix + j·stride is a
 * machine index. FALSE with *bad_key (a key some pair fails with) when a
 * node can climb no further while others remain. */
static gboolean converges(const UpDown *u, int p, int level, uint64_t prefix, uint64_t stride,
                          const int *nodes, int n, int *mark, int *stamp, uint64_t *bad_key)
{
  if (n == 1)
    return TRUE;
  for (int i = 0; i < n; i++)
    if (u->up_start[nodes[i]] == u->up_start[nodes[i] + 1]) {
      *bad_key = prefix;
      return FALSE;
    }
  int arity = u->arity[level];
  uint64_t next_stride = MIN(stride * (uint64_t)arity, (uint64_t)p);
  int *next = g_new(int, n);
  gboolean ok = TRUE;
  for (int j = 0; j < arity && ok && prefix + (uint64_t)j * stride < (uint64_t)p; j++) {
    int m = 0;
    ++*stamp;
    for (int i = 0; i < n; i++) {
      int w = u->up_node[u->up_start[nodes[i]] + j];
      if (mark[w] != *stamp) {
        mark[w] = *stamp;
        next[m++] = w;
      }
    }
    ok = converges(u, p, level + 1, prefix + (uint64_t)j * stride, next_stride, next, m, mark,
                   stamp, bad_key);
  }
  g_free(next);
  return ok;
}

/* Every machine pair must meet: proved for every key at once by
 * converges(), so that updown_route's climb never fails (a sample of the
 * pairs, as before, missed the one pair of a 4161-machine tree whose
 * climbs part: tests/test_updown.c). Time: the nodes the climbs reach, per
 * level and key prefix until they narrow to one — O(p · levels) on a
 * k-ary n-tree, where the keys agreeing on l digits reach p/k^l switches
 * of level l. */
static gboolean updown_check_pairs(NsTopology *t, UpDown *u, GError **error)
{
  int p = t->n_machines, n = (int)t->nodes->len;
  int *nodes = g_new(int, p), *mark = g_new0(int, n), stamp = 0;
  for (int m = 0; m < p; m++)
    nodes[m] = t->machine_node[m];
  uint64_t key = 0;
  gboolean ok = converges(u, p, 0, 0, 1, nodes, p, mark, &stamp, &key);
  g_free(nodes);
  g_free(mark);
  if (ok)
    return TRUE;
  /* A pair that fails with `key`: the key is one end's machine index. */
  int a_up[64], b_up[64], fixed = (int)key, other = 0;
  while (other < p && (other == fixed || climb(u, t->machine_node[other], t->machine_node[fixed],
                                               key, a_up, b_up) >= 0))
    other++;
  g_assert(other < p); /* converges() found the nodes apart */
  int s = u->by_source ? fixed : other, d = u->by_source ? other : fixed;
  ns_set_error_at(error, NS_ERROR_INPUT, t->source, t->routing_line,
                  "%s routing: climbing from '%s' and '%s' never meets (not a fat tree in "
                  "which every pair has a common ancestor reached by the %s rule)",
                  ns_routing_kind_name(t->routing), ns_topology_machine_name(t, s),
                  ns_topology_machine_name(t, d), ns_routing_kind_name(t->routing));
  return FALSE;
}

static gboolean updown_build(NsTopology *t, GError **error)
{
  UpDown *u = g_new0(UpDown, 1);
  u->by_source = t->routing == NS_ROUTING_SMODK;
  t->routing_data = u;
  if (!updown_build_levels(t, u, error) || !updown_build_ports(t, u, error) ||
      !updown_check_pairs(t, u, error)) {
    updown_free(t);
    return FALSE;
  }
  t->max_route_len = 2 * (u->n_levels - 1);
  return TRUE;
}

static char *updown_describe(const NsTopology *t)
{
  const UpDown *u = t->routing_data;
  GString *arity = g_string_new(NULL);
  for (int l = 0; l + 1 < u->n_levels; l++)
    g_string_append_printf(arity, "%s%d", l ? "," : "", u->arity[l]);
  char *text = g_strdup_printf(
      "%s on a %d-level fat tree (up-links per level %s): climb to the nearest common ancestor "
      "level taking up-link floor(%s / stride) mod k, then down the unique way",
      u->by_source ? "smodk" : "dmodk", u->n_levels - 1, arity->str,
      u->by_source ? "source" : "destination");
  g_string_free(arity, TRUE);
  return text;
}

const NsRoutingOps ns_routing_dmodk_ops = {
  .kind = NS_ROUTING_DMODK,
  .build = updown_build,
  .route = updown_route,
  .next_hops = updown_next_hops,
  .describe = updown_describe,
  .free_data = updown_free,
};

const NsRoutingOps ns_routing_smodk_ops = {
  .kind = NS_ROUTING_SMODK,
  .build = updown_build,
  .route = updown_route,
  .next_hops = updown_next_hops,
  .describe = updown_describe,
  .free_data = updown_free,
};

/**
 * \function ns_updown_links
 * \brief A levelled fat tree's up-links, as the dmodk and smodk routing holds them.
 *
 * The arrays are the routing's own (valid while the topology lives, read only): per node
 * its level and its up-link slots, per slot the directed edge and the node above, per
 * level the number of up-links, so a caller can lay out the routes it walks many times.
 *
 * \param topo A finalized topology.
 * \param out Receives the arrays (left alone when FALSE is returned).
 * \return TRUE under dmodk and smodk routing, else FALSE.
 * \errors none.
 * \complexity O(1).
 * \source Zahavi et al. 2010 (d-mod-k on k-ary n-trees); docs/verify.md (Cost).
 */
gboolean ns_updown_links(const NsTopology *topo, NsUpDownLinks *out)
{
  NsRoutingKind kind = ns_topology_routing(topo);
  if (kind != NS_ROUTING_DMODK && kind != NS_ROUTING_SMODK)
    return FALSE;
  const UpDown *u = topo->routing_data;
  *out = (NsUpDownLinks){ .n_levels = u->n_levels, .level = u->level, .arity = u->arity,
                          .up_start = u->up_start, .up_edge = u->up_edge,
                          .up_node = u->up_node, .by_source = u->by_source };
  return TRUE;
}
