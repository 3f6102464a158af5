/* netsched — routing a schedule's transfers (see route.h). A route of a
 * transfer's own is a simple path (no node twice), so it has fewer edges
 * than the topology has nodes. */
#include "sched/ir/route.h"
#include "sched/ir/route_table_internal.h"
#include "sched/ir/counts_internal.h"
#include "platforms/model/error.h"
#include "platforms/routing/updown.h"
#include <string.h>

/* Rows hold at most this many ints (64 MiB): a deep tree (a chain of
 * switches) would need |S| · depth; it is routed by the topology. */
#define ROUTE_TABLE_MAX_INTS ((gsize)1 << 24)

struct NsRouter {
  const NsTopology *topo;
  NsRouteTable *table;   /* the topology's routes, walked without routing work */
  const NsSchedule *s;
  const int *node;
  int *own_node;         /* ns_router_for: the machine map it owns */
  GHashTable *own;       /* transfer + 1 -> index + 1 into spans */
  GArray *spans;         /* {first, n} into edges */
  GArray *edges;         /* int */
  int max_len;
};

typedef struct {
  int first, n;
} Span;

/**
 * \function ns_router_free
 * \brief Frees a router.
 *
 * \param r The router (NULL is accepted).
 * \errors none.
 * \complexity O(routes).
 * \source docs/schedule-format.md (routes).
 */
void ns_router_free(NsRouter *r)
{
  if (r == NULL)
    return;
  if (r->own != NULL)
    g_hash_table_unref(r->own);
  if (r->spans != NULL)
    g_array_unref(r->spans);
  if (r->edges != NULL)
    g_array_unref(r->edges);
  ns_route_table_free(r->table);
  g_free(r->own_node);
  g_free(r);
}

/* The lowest-id link between two nodes, or -1. */
static int link_between(const NsTopology *t, int a, int b)
{
  const int *inc = ns_topology_incident(t, a);
  for (int k = 0; k < ns_topology_degree(t, a); k++)
    if (ns_topology_link_other(t, inc[k], a) == b)
      return inc[k];
  return -1;
}

static gboolean resolve(NsRouter *r, const NsTransferRoute *tr, GError **error)
{
  const NsTopology *t = r->topo;
  const NsTransfer *x = ns_schedule_transfer(r->s, tr->transfer);
  const char *const *names = (const char *const *)&g_ptr_array_index(r->s->route_names, tr->first);
  int prev = -1;
  Span span = { (int)r->edges->len, 0 };
  for (uint32_t k = 0; k < tr->n; k++) {
    int v = ns_topology_find_node(t, names[k]);
    if (v < 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "transfer #%u: route through '%s', which "
                      "is not a node of %s", tr->transfer, names[k], ns_topology_source(t));
      return FALSE;
    }
    for (uint32_t j = 0; j < k; j++)
      if (strcmp(names[j], names[k]) == 0) {
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "transfer #%u: its route visits '%s' "
                        "twice", tr->transfer, names[k]);
        return FALSE;
      }
    if (k == 0 && v != r->node[x->src]) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "transfer #%u: its route starts at '%s', "
                      "not at its source '%s'", tr->transfer, names[k], r->s->machines[x->src]);
      return FALSE;
    }
    if (k > 0) {
      int li = link_between(t, prev, v);
      if (li < 0) {
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "transfer #%u: its route steps from '%s' "
                        "to '%s', which no link joins", tr->transfer, names[k - 1], names[k]);
        return FALSE;
      }
      int e = 2 * li + (ns_topology_link(t, li)->a == prev ? 0 : 1);
      g_array_append_val(r->edges, e);
      span.n++;
    }
    prev = v;
  }
  if (prev != r->node[x->dst]) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "transfer #%u: its route ends at '%s', not "
                    "at its destination '%s'", tr->transfer, names[tr->n - 1],
                    r->s->machines[x->dst]);
    return FALSE;
  }
  g_array_append_val(r->spans, span);
  g_hash_table_insert(r->own, GSIZE_TO_POINTER((gsize)tr->transfer + 1),
                      GUINT_TO_POINTER(r->spans->len));
  r->max_len = MAX(r->max_len, span.n);
  return TRUE;
}

/**
 * \function ns_router_new
 * \brief Resolves a schedule's own routes against a topology.
 *
 * \param topo A finalized topology.
 * \param s The schedule.
 * \param node Schedule machine to topology node (ns_schedule_machine_nodes()); kept, not copied.
 * \param error Set on failure (see errors).
 * \return The router (ns_router_free() it), or NULL.
 * \errors NS_ERROR_INPUT "transfer #T: route ...: what is wrong" for an unknown node name, a
 *        route that does not start at the transfer's source or end at its destination, visits a
 *        node twice, or steps between two nodes no link joins.
 * \complexity O(Σ route lengths · degree).
 * \source docs/schedule-format.md (routes).
 */
NsRouter *ns_router_new(const NsTopology *topo, const NsSchedule *s, const int *node,
                        GError **error)
{
  ns_count_add(NS_COUNT_ROUTE_TABLE);
  NsRouter *r = g_new0(NsRouter, 1);
  r->topo = topo;
  r->s = s;
  r->node = node;
  r->table = ns_route_table_new(topo);
  r->max_len = ns_topology_max_route_len(topo);
  if (s->routes == NULL || s->routes->len == 0)
    return r;
  r->own = g_hash_table_new(g_direct_hash, g_direct_equal);
  r->spans = g_array_new(FALSE, FALSE, sizeof(Span));
  r->edges = g_array_new(FALSE, FALSE, sizeof(int));
  for (guint i = 0; i < s->routes->len; i++) {
    const NsTransferRoute *tr = &g_array_index(s->routes, NsTransferRoute, i);
    if (tr->transfer >= ns_schedule_n_transfers(s)) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "a route for transfer #%u, which does not "
                      "exist", tr->transfer);
      ns_router_free(r);
      return NULL;
    }
    if (!resolve(r, tr, error)) {
      ns_router_free(r);
      return NULL;
    }
  }
  return r;
}

/**
 * \function ns_router_is_own
 * \brief Whether a transfer takes a route of its own.
 *
 * \param r The router.
 * \param t The transfer.
 * \return TRUE for an own route.
 * \errors none.
 * \complexity O(log routes).
 * \source docs/schedule-format.md (routes).
 */
gboolean ns_router_is_own(const NsRouter *r, uint64_t t)
{
  return r->own != NULL && g_hash_table_contains(r->own, GSIZE_TO_POINTER((gsize)t + 1));
}

/**
 * \function ns_router_route
 * \brief The directed edges of a transfer: its own route or the topology's.
 *
 * \param r The router.
 * \param t The transfer.
 * \param edges Receives the edges (capacity ns_router_max_len()).
 * \return The number of edges.
 * \errors none.
 * \complexity O(route length).
 * \source docs/schedule-format.md (routes).
 */
int ns_router_route(const NsRouter *r, uint64_t t, int *edges)
{
  if (r->own != NULL) {
    guint i = GPOINTER_TO_UINT(g_hash_table_lookup(r->own, GSIZE_TO_POINTER((gsize)t + 1)));
    if (i > 0) {
      const Span *sp = &g_array_index(r->spans, Span, i - 1);
      memcpy(edges, &g_array_index(r->edges, int, sp->first), sizeof(int) * (size_t)sp->n);
      return sp->n;
    }
  }
  const NsTransfer *x = ns_schedule_transfer(r->s, t);
  return ns_route_table_route(r->table, r->node[x->src], r->node[x->dst], edges);
}

/**
 * \function ns_router_table
 * \brief The route table of every transfer, when none takes a route of its own.
 *
 * \param r The router.
 * \return The router's table, or NULL when the schedule gives a transfer a route of its own.
 * \errors none.
 * \complexity O(1).
 * \source docs/verify.md (Cost).
 */
const NsRouteTable *ns_router_table(const NsRouter *r) { return r->own == NULL ? r->table : NULL; }

/**
 * \function ns_router_max_len
 * \brief The capacity an edges buffer needs for any transfer.
 *
 * \param r The router.
 * \return The capacity.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md (routes).
 */
int ns_router_max_len(const NsRouter *r) { return MAX(r->max_len, 1); }

/**
 * \function ns_router_for
 * \brief The route table of a schedule on a topology, with its own machine map.
 *
 * The one route table of a (topology, schedule) that its consumers share: the verifier
 * (NsVerifyOptions.router), the sync sets, the bounds, the simulator and its link analysis.
 * The machine map (ns_schedule_machine_nodes()) is owned by the router and freed with it.
 *
 * \param topo A finalized topology.
 * \param s The schedule.
 * \param error Set on failure (see errors).
 * \return The router (ns_router_free() it), or NULL.
 * \errors NS_ERROR_INPUT "schedule machine 'x' is not a machine of topology T" from the machine
 *        map, or "transfer #T: route ...: what is wrong" from ns_router_new().
 * \complexity O(|M|) for the machine map plus O(Σ route lengths · degree) (ns_router_new()).
 * \source docs/schedule-format.md (routes); docs/architecture.md, "Routing is an object".
 */
NsRouter *ns_router_for(const NsTopology *topo, const NsSchedule *s, GError **error)
{
  int *node = ns_schedule_machine_nodes(topo, s, error);
  NsRouter *r = node != NULL ? ns_router_new(topo, s, node, error) : NULL;
  if (r == NULL)
    g_free(node);
  else
    r->own_node = node;
  return r;
}

/**
 * \function ns_router_fits
 * \brief Whether a router was built for this topology and this schedule's transfers.
 *
 * TRUE for the schedule's own router and for a copy of its header that shares its transfers,
 * routes and machines (the simulator's copy with its own sync edges): pointers are compared,
 * not contents.
 *
 * \param r The router (NULL: FALSE).
 * \param topo The topology.
 * \param s The schedule.
 * \return TRUE when `r` can route `s` on `topo`.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md (routes).
 */
gboolean ns_router_fits(const NsRouter *r, const NsTopology *topo, const NsSchedule *s)
{
  return r != NULL && r->topo == topo && r->s->transfers == s->transfers &&
         r->s->routes == s->routes && r->s->machines == s->machines;
}

/* Whether the closed form holds on a fat table whose own climbs are filled
 * (see FatTable), given each level's radix; fills its masks and meeting
 * levels when it does. O(|M| · levels + |V| · levels). */
static gboolean fat_closed_form(FatTable *f, const NsUpDownLinks *u, const uint32_t *radix,
                                int n_nodes)
{
  gsize p = (gsize)f->n_machines;
  int w = f->levels, bits[32];
  gboolean whole[32]; /* per level: the machines agreeing up to it share its node */
  for (int l = 0; l < w; l++) {
    if ((radix[l] & (radix[l] - 1)) != 0 || (radix[l] < p && p % radix[l] != 0))
      return FALSE;
    bits[l] = __builtin_ctz(radix[l]);
  }
  g_autofree int *seen = g_new(int, n_nodes);
  for (int l = 0; l < w; l++) {
    const FatStep *at = f->step + (gsize)l * f->stride;
    uint32_t below = l > 0 ? radix[l - 1] : 1; /* the weight of digit l */
    for (gsize m = 0; m < p; m++) {
      if (at[m].node < 0 || (l + 1 < w && at[m].edge < 0))
        return FALSE;
      /* m with digit l zeroed (a machine: a smaller index) */
      gsize base = u->arity[l] > 0 ? m - ((m / below) % (gsize)u->arity[l]) * below : m;
      if (at[base].node != at[m].node)
        return FALSE;
    }
    /* the machines agreeing on the digits up to l: m ≡ r mod radix */
    gboolean one_node = TRUE, own_nodes = TRUE;
    memset(seen, 0, sizeof(int) * (gsize)n_nodes);
    for (gsize r = 0; r < MIN((gsize)radix[l], p); r++)
      for (gsize m = r; m < p; m += radix[l]) {
        int v = at[m].node;
        one_node &= v == at[r].node;
        own_nodes &= seen[v] != (int)r + 1;
        seen[v] = (int)r + 1;
      }
    if (!one_node && !own_nodes)
      return FALSE;
    whole[l] = one_node;
    f->mask[l] = radix[l] - 1;
  }
  for (int len = 0; len <= 32; len++) { /* a ^ K below 2^len */
    f->meet[len] = (uint8_t)w;
    for (int l = w - 1; l >= 0; l--)
      if (whole[l] || len <= bits[l])
        f->meet[len] = (uint8_t)l;
  }
  return TRUE;
}

/* The fat-tree table, or NULL: not dmodk or smodk routing, or past the
 * table's bound. O(|V| · arity + |M| · levels). */
static FatTable *fat_table_new(const NsTopology *topo)
{
  NsUpDownLinks u;
  if (!ns_updown_links(topo, &u) || u.n_levels < 1 || u.n_levels > 32)
    return NULL;
  int n_nodes = ns_topology_n_nodes(topo), p = ns_topology_n_machines(topo), slots = 1;
  for (int l = 0; l < u.n_levels; l++)
    slots = MAX(slots, u.arity[l]);
  if (slots > 255) /* a digit is a byte */
    return NULL;
  gsize ints = (gsize)n_nodes * (gsize)(1 + 2 * slots) + ((gsize)p + 16) * (gsize)(4 * u.n_levels);
  if (ints > ROUTE_TABLE_MAX_INTS)
    return NULL;
  FatTable *f = g_new0(FatTable, 1);
  f->levels = u.n_levels;
  f->slots = slots;
  f->n_machines = p;
  f->by_source = u.by_source;
  f->key_of = g_new(int, n_nodes);
  f->up = g_new(UpSlot, (gsize)n_nodes * (gsize)slots);
  for (int v = 0; v < n_nodes; v++) {
    f->key_of[v] = ns_topology_node_machine(topo, v);
    for (int j = 0; j < slots; j++) {
      int k = u.up_start[v] + j;
      f->up[(gsize)v * (gsize)slots + (gsize)j] =
          k < u.up_start[v + 1] ? (UpSlot){ u.up_edge[k], u.up_node[k] } : (UpSlot){ -1, -1 };
    }
  }
  int w = f->levels;
  uint32_t radix[32];
  uint64_t r = 1;
  for (int l = 0; l < w; l++) { /* capped at 2^31: past p, x_l is the key itself */
    r = MIN(r * (uint64_t)MAX(u.arity[l], 1), (uint64_t)1 << 31);
    radix[l] = (uint32_t)r;
  }
  /* Levels 64 bytes apart modulo a power of two: with p a power of two,
   * a machine's entries at every level would fall in one cache set, and a
   * route reads two at each level (the 8-way L1 missed on most). */
  f->stride = (gsize)p + 16;
  f->step = g_new0(FatStep, f->stride * (gsize)w);
  f->digit = g_new0(uint8_t, (gsize)p * (gsize)w);
  for (int m = 0; m < p; m++) {
    uint8_t *digit = f->digit + (gsize)m * (gsize)w;
    uint32_t rest = (uint32_t)m; /* the digits as the routing takes them */
    for (int l = 0; l < w; l++) {
      f->step[(gsize)l * f->stride + (gsize)m] = (FatStep){ -2, -1 };
      if (u.arity[l] > 0) {
        digit[l] = (uint8_t)(rest % (uint32_t)u.arity[l]);
        rest /= (uint32_t)u.arity[l];
      }
    }
    int v = ns_topology_machine_node(topo, m);
    for (int l = 0; l < w; l++) { /* the machine's climb with its own key */
      FatStep *at = &f->step[(gsize)l * f->stride + (gsize)m];
      at->node = v;
      if (l + 1 >= w || u.up_start[v] + digit[l] >= u.up_start[v + 1])
        break;
      at->edge = u.up_edge[u.up_start[v] + digit[l]];
      v = u.up_node[u.up_start[v] + digit[l]];
    }
  }
  f->closed = fat_closed_form(f, &u, radix, n_nodes);
  if (f->closed) {
    f->edge = g_new(int, f->stride * (gsize)w);
    for (gsize k = 0; k < f->stride * (gsize)w; k++)
      f->edge[k] = f->step[k].edge;
  }
  return f;
}

/**
 * \function ns_route_table_free
 * \brief Frees a route table.
 *
 * \param rt The table (NULL is accepted).
 * \errors none.
 * \complexity O(1).
 * \source docs/verify.md (Cost).
 */
void ns_route_table_free(NsRouteTable *rt)
{
  if (rt == NULL)
    return;
  g_free(rt->rows);
  if (rt->fat != NULL) {
    g_free(rt->fat->key_of);
    g_free(rt->fat->step);
    g_free(rt->fat->edge);
    g_free(rt->fat->digit);
    g_free(rt->fat->up);
    g_free(rt->fat);
  }
  g_free(rt);
}

/**
 * \function ns_route_table_new
 * \brief The routes of a topology in a form walked without routing work.
 *
 * Under tree routing, every machine's path from the anchor switch (the first switch, as
 * tree routing roots its tree) as the edges up at each level, taken from
 * ns_topology_route(). Under dmodk and smodk routing (ns_updown_links()), every machine's
 * climb with its own key, level by level, and every node's up-links at a fixed stride; on
 * a k-ary n-tree whose arities multiply to powers of two (checked for every machine), the
 * closed form: a route's meeting level by the highest bit where its ends differ and its
 * edges from the levels' arrays, none waiting for another. Any other routing,
 * and a tree deeper than 31 levels or a table that would pass 64 MiB (a long chain of
 * switches), keeps nothing and routes through the topology.
 *
 * \param topo A finalized topology.
 * \return The table (ns_route_table_free() it).
 * \errors none.
 * \complexity O(|V| · depth) time and memory under tree routing, O(|V| · arity +
 *        (|M| + |V|) · levels) under dmodk and smodk, else O(1).
 * \source Faraj and Yuan §3 (a switched tree routes on its unique paths); Zahavi et al. 2010
 *         (d-mod-k); Petrini and Vanneschi 1997 (k-ary n-trees); docs/verify.md.
 */
NsRouteTable *ns_route_table_new(const NsTopology *topo)
{
  NsRouteTable *rt = g_new0(NsRouteTable, 1);
  rt->topo = topo;
  rt->fat = fat_table_new(topo);
  if (ns_topology_routing(topo) != NS_ROUTING_TREE)
    return rt;
  int n_nodes = ns_topology_n_nodes(topo), width = 0;
  g_autofree int *path = g_new(int, MAX(ns_topology_max_route_len(topo), 1));
  int anchor = -1;
  for (int v = 0; v < n_nodes && anchor < 0; v++)
    if (ns_topology_node(topo, v)->kind == NS_NODE_SWITCH)
      anchor = v; /* tree routing roots its tree at the first switch */
  if (anchor < 0)
    return rt;
  for (int v = 0; v < n_nodes; v++) /* the deepest machine */
    if (ns_topology_node(topo, v)->kind == NS_NODE_MACHINE)
      width = MAX(width, ns_topology_route(topo, anchor, v, path));
  int stride = 4; /* depth entries and the depth: a power of two, rows aligned */
  while (stride < width + 1)
    stride *= 2;
  if (width < 1 || width > NS_ROUTE_TREE_MAX_LEVELS ||
      (gsize)n_nodes * (gsize)stride > ROUTE_TABLE_MAX_INTS)
    return rt; /* a deep chain of switches: the topology routes */
  rt->width = width;
  rt->stride = stride;
  rt->rows = g_new0(int, (gsize)n_nodes * (gsize)stride);
  for (int v = 0; v < n_nodes; v++) {
    int *row = rt->rows + (gsize)v * (gsize)stride;
    if (ns_topology_node(topo, v)->kind != NS_NODE_MACHINE)
      continue; /* depth 0: the topology routes from a switch */
    int depth = ns_topology_route(topo, anchor, v, path); /* down from the anchor */
    for (int i = 0; i < width; i++)
      row[i] = i < depth ? path[i] ^ 1 : ~v; /* the edge up: the edge down reversed */
    row[stride - 1] = depth;
  }
  return rt;
}

/**
 * \function ns_route_table_route
 * \brief The route between two nodes, as directed edges, from the table.
 *
 * The same edges, in the same order, as ns_topology_route(): under tree routing the
 * source machine's edge up, its switch's path up to the deepest node it shares with the
 * destination's switch's path, that path down, and the destination's edge; under dmodk
 * and smodk the climb from the end that is not the key's up to the key machine's own climb,
 * then down (or, s-mod-k, up) that climb.
 *
 * \param rt The table.
 * \param src The source node.
 * \param dst The destination node.
 * \param edges Receives the edges (capacity ns_topology_max_route_len()).
 * \return The number of edges (0 when src == dst).
 * \errors none.
 * \complexity O(levels): the tree's depth or the fat tree's levels, whatever the route's
 *             length (a fixed-length walk); O(route length) from the topology.
 * \source Faraj and Yuan §3 (unique paths of a switched tree); docs/verify.md.
 */
int ns_route_table_route(const NsRouteTable *rt, int src, int dst, int *edges)
{
  int n = rt->fat != NULL ? ns_route_table_fat_route(rt, src, dst, edges)
                           : ns_route_table_tree_route(rt, src, dst, edges);
  return n >= 0 ? n : ns_topology_route(rt->topo, src, dst, edges); /* a switch, or no table */
}

/**
 * \function ns_route_table_compact
 * \brief Whether a route table holds the topology's routes or asks the topology for each.
 *
 * \param rt The table.
 * \return TRUE under tree, dmodk and smodk routing when the table fits its 64 MiB bound.
 * \errors none.
 * \complexity O(1).
 * \source docs/verify.md (Cost).
 */
gboolean ns_route_table_compact(const NsRouteTable *rt)
{
  return rt->rows != NULL || rt->fat != NULL;
}
