/* netsched — greedy phase packing for links of different speeds. See
 * phase_packing_internal.h for what is proven and what is heuristic. */
#include "sched/planners/common/phase_packing_internal.h"
#include "sched/planners/registry.h"
#include "sched/ir/route.h"
#include <string.h>

typedef struct {
  double *load;          /* per directed edge: rates placed */
  uint16_t *sends, *recvs; /* per schedule machine */
} Packed;

typedef struct {
  const NsTopology *topo;
  const NsSchedule *s;
  int p, n_edges;
  int *node;             /* schedule machine -> topology node */
  int *ports;            /* per schedule machine */
  GPtrArray *phases;     /* Packed */
  GArray *members;       /* per packed phase: GArray of transfer ids */
  uint32_t *send_floor, *recv_floor; /* phases below are full for the machine */
  /* Per machine, a bit per phase: its sends (receives) are at its ports.
   * Candidate phases for a transfer come 64 at a time from these. */
  GArray **send_full, **recv_full; /* uint64 words */
  GArray **edge_full;    /* per directed edge: phases that cannot take even the slowest
                            transfer any more */
  double min_rate;       /* the smallest link bandwidth: no transfer is slower */
  GHashTable *received;  /* (chunk, machine) -> packed phase + 1; NULL for a direct
                            schedule, whose transfers forward nothing */
  int *route;
  NsRouter *router;
} Packer;

gboolean ns_topology_mixed_speeds(const NsTopology *topo)
{
  for (int i = 1; i < ns_topology_n_links(topo); i++)
    if (ns_topology_link(topo, i)->bandwidth != ns_topology_link(topo, 0)->bandwidth)
      return TRUE;
  return FALSE;
}

static gpointer key(uint32_t chunk, int machine)
{
  return GSIZE_TO_POINTER(((gsize)chunk << 20) ^ (gsize)machine ^ ((gsize)1 << 62));
}

/* Both halves of the 64-bit key matter (g_direct_hash keeps the low 32). */
static guint key_hash(gconstpointer k)
{
  guint64 x = (guint64)GPOINTER_TO_SIZE(k);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (guint)x;
}

static Packed *phase(Packer *k, uint32_t i)
{
  while (k->phases->len <= i) {
    Packed *ph = g_new(Packed, 1);
    ph->load = g_new0(double, k->n_edges);
    ph->sends = g_new0(uint16_t, k->p);
    ph->recvs = g_new0(uint16_t, k->p);
    g_ptr_array_add(k->phases, ph);
    GArray *m = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    g_ptr_array_add((GPtrArray *)k->members, m);
  }
  return g_ptr_array_index(k->phases, i);
}

static void packed_free(gpointer data)
{
  Packed *ph = data;
  g_free(ph->load);
  g_free(ph->sends);
  g_free(ph->recvs);
  g_free(ph);
}

/* The first packed phase a transfer may go in: after its sender received
 * every chunk it sends that is not the sender's own. */
static uint32_t earliest(Packer *k, const NsTransfer *tr)
{
  const NsSchedule *s = k->s;
  const uint32_t *chunks = ns_schedule_chunks(s, tr);
  uint32_t lo = 0;
  for (uint32_t c = 0; c < tr->n_chunks; c++) {
    int owner = s->collective == NS_COLL_ALLTOALL    ? (int)(chunks[c] / (uint32_t)k->p)
                : s->collective == NS_COLL_ALLGATHER ? (int)chunks[c]
                                                     : s->root;
    if (owner == tr->src || k->received == NULL)
      continue;
    uint32_t got = GPOINTER_TO_UINT(g_hash_table_lookup(k->received, key(chunks[c], tr->src)));
    lo = MAX(lo, got); /* got = packed phase + 1 */
  }
  return lo;
}

static gboolean bit(const GArray *words, uint32_t i)
{
  return i / 64 < words->len && (g_array_index(words, uint64_t, i / 64) >> (i % 64) & 1);
}

static void set_bit(GArray *words, uint32_t i)
{
  if (words->len <= i / 64)
    g_array_set_size(words, i / 64 + 1); /* zero-filled */
  g_array_index(words, uint64_t, i / 64) |= (uint64_t)1 << (i % 64);
}

static uint64_t word(const GArray *words, guint w)
{
  return w < words->len ? g_array_index(words, uint64_t, w) : 0;
}

/* The first phase >= i where neither the sender's sends nor the
 * receiver's receives nor a link of the route are full: 64 phases a step. */
static uint32_t next_free(const Packer *k, const NsTransfer *tr, int len, uint32_t i)
{
  const GArray *a = k->send_full[tr->src], *b = k->recv_full[tr->dst];
  for (;;) {
    guint w = i / 64;
    uint64_t busy = word(a, w) | word(b, w);
    for (int e = 0; e < len; e++)
      busy |= word(k->edge_full[k->route[e]], w);
    busy |= ((uint64_t)1 << (i % 64)) - 1; /* phases below i */
    if (busy != ~(uint64_t)0)
      return w * 64 + (uint32_t)__builtin_ctzll(~busy);
    i = (w + 1) * 64;
  }
}

static gboolean fits(Packer *k, uint32_t i, const NsTransfer *tr, int len, double rate)
{
  Packed *ph = phase(k, i);
  if (ph->sends[tr->src] >= k->ports[tr->src] || ph->recvs[tr->dst] >= k->ports[tr->dst])
    return FALSE;
  for (int e = 0; e < len; e++) {
    double bw = ns_topology_link(k->topo, ns_edge_link(k->route[e]))->bandwidth;
    if (ph->load[k->route[e]] + rate > bw * (1 + 1e-9))
      return FALSE;
  }
  return TRUE;
}

static void place(Packer *k, uint32_t i, uint64_t t, const NsTransfer *tr, int len, double rate)
{
  Packed *ph = phase(k, i);
  ph->sends[tr->src]++;
  ph->recvs[tr->dst]++;
  for (int e = 0; e < len; e++) {
    int d = k->route[e];
    ph->load[d] += rate;
    if (ph->load[d] + k->min_rate > ns_topology_link(k->topo, ns_edge_link(d))->bandwidth * (1 + 1e-9))
      set_bit(k->edge_full[d], i);
  }
  g_array_append_val((GArray *)g_ptr_array_index((GPtrArray *)k->members, i), t);
  const uint32_t *chunks = ns_schedule_chunks(k->s, tr);
  for (uint32_t c = 0; k->received != NULL && c < tr->n_chunks; c++)
    g_hash_table_insert(k->received, key(chunks[c], tr->dst), GUINT_TO_POINTER(i + 1));
  if (ph->sends[tr->src] >= k->ports[tr->src])
    set_bit(k->send_full[tr->src], i);
  if (ph->recvs[tr->dst] >= k->ports[tr->dst])
    set_bit(k->recv_full[tr->dst], i);
  /* Advance the floors past phases now full for these machines. */
  while (bit(k->send_full[tr->src], k->send_floor[tr->src]))
    k->send_floor[tr->src]++;
  while (bit(k->recv_full[tr->dst], k->recv_floor[tr->dst]))
    k->recv_floor[tr->dst]++;
}

/* A direct schedule: every transfer sends only its sender's own data, so
 * transfers may be placed in any order. */
static gboolean direct(const NsSchedule *s)
{
  int p = s->n_machines;
  for (uint64_t t = 0; t < ns_schedule_n_transfers(s); t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    const uint32_t *c = ns_schedule_chunks(s, tr);
    for (uint32_t k = 0; k < tr->n_chunks; k++) {
      int owner = s->collective == NS_COLL_ALLTOALL    ? (int)(c[k] / (uint32_t)p)
                  : s->collective == NS_COLL_ALLGATHER ? (int)c[k]
                                                       : s->root;
      if (owner != tr->src)
        return FALSE;
    }
  }
  return TRUE;
}

typedef struct {
  uint64_t t;
  double critical;       /* busiest link time on its route (quantised) */
  int group_shift;       /* (group(dst) - group(src)) mod groups */
  int shift;             /* (rank(dst) - rank(src)) mod largest group */
  int src;
} Order;

static int compare_order(const void *a, const void *b)
{
  const Order *x = a, *y = b;
  if (x->critical != y->critical)
    return x->critical > y->critical ? -1 : 1;
  if (x->group_shift != y->group_shift)
    return x->group_shift - y->group_shift;
  if (x->shift != y->shift)
    return x->shift - y->shift;
  if (x->src != y->src)
    return x->src - y->src;
  return (x->t > y->t) - (x->t < y->t);
}

/* The order transfers are placed in. A direct schedule goes first-fit
 * decreasing: transfers crossing the link that needs the longest time come
 * first, and among equals in shift order — first between groups of
 * machines (those behind one switch), then within them (rank i -> i+j) —
 * whose consecutive runs have distinct senders and receivers and spread
 * over all groups at once, so that they pack into full matchings.
 * Otherwise, the schedule's own order, which data flow needs. */
static uint64_t *placement_order(Packer *k)
{
  const NsSchedule *s = k->s;
  uint64_t n = ns_schedule_n_transfers(s);
  uint64_t *order = g_new(uint64_t, n + 1);
  if (!direct(s)) {
    for (uint64_t t = 0; t < n; t++)
      order[t] = t;
    return order;
  }
  double *busy = g_new0(double, k->n_edges);
  for (uint64_t t = 0; t < n; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    int len = ns_router_route(k->router, t, k->route);
    for (int e = 0; e < len; e++)
      busy[k->route[e]] += (double)tr->n_chunks /
                           ns_topology_link(k->topo, ns_edge_link(k->route[e]))->bandwidth;
  }
  /* Groups: the machines behind the same first link's far end (the switch
   * a machine hangs from, or itself in a direct network), ranked within. */
  int *group = g_new(int, k->p), *rank = g_new(int, k->p);
  GHashTable *ids = g_hash_table_new(g_direct_hash, g_direct_equal);
  GArray *sizes = g_array_new(FALSE, TRUE, sizeof(int));
  int widest = 1;
  for (int m = 0; m < k->p; m++) {
    int v = k->node[m];
    int at = ns_topology_degree(k->topo, v) == 1
                 ? ns_topology_link_other(k->topo, ns_topology_incident(k->topo, v)[0], v)
                 : v;
    gpointer id = g_hash_table_lookup(ids, GINT_TO_POINTER(at + 1));
    if (id == NULL) {
      id = GINT_TO_POINTER(g_hash_table_size(ids) + 1);
      g_hash_table_insert(ids, GINT_TO_POINTER(at + 1), id);
      g_array_set_size(sizes, sizes->len + 1);
    }
    group[m] = GPOINTER_TO_INT(id) - 1;
    rank[m] = g_array_index(sizes, int, group[m])++;
    widest = MAX(widest, rank[m] + 1);
  }
  int groups = (int)sizes->len;
  Order *o = g_new(Order, n + 1);
  for (uint64_t t = 0; t < n; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    int len = ns_router_route(k->router, t, k->route);
    double critical = 0;
    for (int e = 0; e < len; e++)
      critical = MAX(critical, busy[k->route[e]]);
    /* Quantise: ties must compare equal despite rounding. */
    o[t] = (Order){ t, (double)(int64_t)(critical * 1e12 + 0.5),
                    (group[tr->dst] - group[tr->src] + groups) % groups,
                    (rank[tr->dst] - rank[tr->src] + widest) % widest, tr->src };
  }
  g_free(group);
  g_free(rank);
  g_hash_table_unref(ids);
  g_array_unref(sizes);
  qsort(o, n, sizeof(Order), compare_order);
  for (uint64_t t = 0; t < n; t++)
    order[t] = o[t].t;
  g_free(o);
  g_free(busy);
  return order;
}

NsSchedule *ns_schedule_pack_phases(const NsTopology *topo, const NsSchedule *s)
{
  Packer k = { .topo = topo, .s = s, .p = s->n_machines, .n_edges = ns_topology_n_edges(topo) };
  k.node = ns_schedule_machine_nodes(topo, s, NULL);
  k.router = k.node != NULL ? ns_router_new(topo, s, k.node, NULL) : NULL;
  if (k.router == NULL) { /* unknown machines or invalid own routes: the verifier says so */
    g_free(k.node);
    return ns_schedule_copy(s);
  }
  k.ports = g_new(int, k.p);
  for (int m = 0; m < k.p; m++)
    k.ports[m] = MIN(ns_topology_machine_ports(topo, ns_topology_node_machine(topo, k.node[m])),
                     G_MAXUINT16);
  k.phases = g_ptr_array_new_with_free_func(packed_free);
  k.members = (GArray *)g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  k.send_floor = g_new0(uint32_t, k.p);
  k.recv_floor = g_new0(uint32_t, k.p);
  k.edge_full = g_new(GArray *, k.n_edges);
  k.min_rate = G_MAXDOUBLE;
  for (int e = 0; e < k.n_edges; e++) {
    k.edge_full[e] = g_array_new(FALSE, TRUE, sizeof(uint64_t));
    k.min_rate = MIN(k.min_rate, ns_topology_link(topo, ns_edge_link(e))->bandwidth);
  }
  k.send_full = g_new(GArray *, k.p);
  k.recv_full = g_new(GArray *, k.p);
  for (int m = 0; m < k.p; m++) {
    k.send_full[m] = g_array_new(FALSE, TRUE, sizeof(uint64_t));
    k.recv_full[m] = g_array_new(FALSE, TRUE, sizeof(uint64_t));
  }
  k.received = direct(s) ? NULL : g_hash_table_new(key_hash, g_direct_equal);
  k.route = g_new(int, ns_router_max_len(k.router));
  uint64_t *order = placement_order(&k);
  for (uint64_t x = 0; x < ns_schedule_n_transfers(s); x++) {
    uint64_t t = order[x];
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    int len = ns_router_route(k.router, t, k.route);
    double rate = G_MAXDOUBLE;
    for (int e = 0; e < len; e++)
      rate = MIN(rate, ns_topology_link(topo, ns_edge_link(k.route[e]))->bandwidth);
    uint32_t i = next_free(&k, tr, len, MAX(earliest(&k, tr),
                                             MAX(k.send_floor[tr->src], k.recv_floor[tr->dst])));
    while (!fits(&k, i, tr, len, rate))
      i = next_free(&k, tr, len, i + 1);
    place(&k, i, t, tr, len, rate);
  }
  /* The packed schedule: same header, transfers in their new phases. */
  NsSchedule *out = ns_schedule_new(s->collective, s->algorithm, s->n_machines,
                                    (const char *const *)s->machines, s->msize);
  out->root = s->root;
  out->n_segments = s->n_segments;
  GPtrArray *members = (GPtrArray *)k.members;
  for (guint i = 0; i < members->len; i++) {
    GArray *m = g_ptr_array_index(members, i);
    ns_schedule_begin_phase(out);
    for (guint j = 0; j < m->len; j++) {
      uint64_t t = g_array_index(m, uint64_t, j);
      const NsTransfer *tr = ns_schedule_transfer(s, t);
      uint32_t copy = ns_schedule_add_chunks(out, tr->src, tr->dst, tr->n_chunks,
                                             ns_schedule_chunks(s, tr));
      const char *const *nodes;
      int n_nodes = ns_schedule_route_of(s, t, &nodes);
      if (n_nodes > 0) /* a route of its own travels with it */
        ns_schedule_set_route(out, copy, n_nodes, nodes);
    }
  }
  g_ptr_array_unref(k.phases);
  g_ptr_array_unref(members);
  if (k.received != NULL)
    g_hash_table_unref(k.received);
  g_free(k.node);
  g_free(k.ports);
  g_free(k.send_floor);
  g_free(k.recv_floor);
  for (int m = 0; m < k.p; m++) {
    g_array_unref(k.send_full[m]);
    g_array_unref(k.recv_full[m]);
  }
  g_free(k.send_full);
  g_free(k.recv_full);
  for (int e = 0; e < k.n_edges; e++)
    g_array_unref(k.edge_full[e]);
  g_free(k.edge_full);
  g_free(k.route);
  g_free(order);
  ns_router_free(k.router);
  return out;
}
