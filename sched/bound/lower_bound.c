/* netsched — the transmission lower bound of a collective on any fabric.
 * See lower_bound.h for what is computed and why it is valid. */
#include "sched/bound/lower_bound.h"
#include "platforms/routing/tree.h"
#include <igraph.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Messages that must leave a set of `inside` machines (holding the
 * broadcast root or not), towards the `outside` others. */
static double messages_out(NsCollective c, double inside, double outside, gboolean has_root,
                           uint32_t n_segments)
{
  if (inside == 0 || outside == 0)
    return 0;
  switch (c) {
  case NS_COLL_ALLTOALL: return inside * outside;
  case NS_COLL_ALLGATHER: return inside;
  case NS_COLL_BCAST: return has_root ? (double)n_segments : 0;
  /* Every segment's partial result must reach the root's side once... */
  case NS_COLL_REDUCE: return has_root ? 0 : (double)n_segments;
  /* ...and, in an all-reduce, each side's contributions the other side. */
  case NS_COLL_ALLREDUCE: return (double)n_segments;
  /* The v-collectives' bounds weigh each chunk by its size: not a count of
   * equal messages (analysis/bounds_collective.c). */
  case NS_COLL_ALLTOALLV:
  case NS_COLL_ALLGATHERV: return 0;
  }
  return 0;
}

typedef struct {
  const NsTopology *topo;
  NsCollective c;
  double bits;           /* bits per message */
  int root;
  uint32_t n_segments;
  gboolean fluid;        /* messages divisible (a vector of bytes, not whole segments) */
  NsLowerBound *best;
} Ctx;

/* A cut whose `n_links` directed links have bandwidths bw[]: granular when
 * they are equal. Keeps the cut when it beats the best so far. */
static void offer_cut(Ctx *x, double messages, const double *bw, int n_links, NsLowerBound cut)
{
  if (messages <= 0 || n_links <= 0)
    return;
  gboolean equal = TRUE;
  double capacity = 0;
  for (int i = 0; i < n_links; i++) {
    capacity += bw[i];
    equal = equal && bw[i] == bw[0];
  }
  if (equal && !x->fluid) {
    cut.load = (uint64_t)ceil(messages / n_links - 1e-9);
    cut.bandwidth = bw[0];
    cut.seconds = (double)cut.load * x->bits / bw[0];
  } else {
    cut.load = 0;
    cut.bandwidth = capacity;
    cut.seconds = messages * x->bits / capacity;
  }
  cut.n_links = n_links;
  if (cut.seconds > x->best->seconds * (1 + 1e-12)) {
    cut.n_bottlenecks = 1;
    *x->best = cut;
  } else if (cut.kind == NS_BOUND_LINK && x->best->kind == NS_BOUND_LINK &&
             fabs(cut.seconds - x->best->seconds) <= x->best->seconds * 1e-12) {
    x->best->n_bottlenecks++;
  }
}

static int compare_desc(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y);
}

/* The sorted bandwidths of machine m's links (fastest first) in `bw`; its ports. */
static int machine_ports(const NsTopology *t, int m, GArray *bw)
{
  int v = ns_topology_machine_node(t, m);
  g_array_set_size(bw, 0);
  const int *inc = ns_topology_incident(t, v);
  for (int k = 0; k < ns_topology_degree(t, v); k++)
    g_array_append_val(bw, ns_topology_link(t, inc[k])->bandwidth);
  qsort(bw->data, bw->len, sizeof(double), compare_desc);
  return MIN(ns_topology_machine_ports(t, m), (int)bw->len);
}

/* All-reduce, the machines together: every segment must be sent at least
 * 2(p−1) times in all. A partial result is a set of origins, a transfer
 * merges (or copies) the sender's set into the receiver's, and every
 * machine must end with all p origins: that is one-way ("directed")
 * gossip, which needs 2(p−1) calls (Harary & Schwenk 1974; the bound of
 * Patarasuk & Yuan 2009, "Bandwidth optimal all-reduce algorithms", in
 * bytes: 2(p−1)/p · n through some machine). So some machine sends, and
 * some machine receives, at least ⌈2(p−1)·S/p⌉ segments (2(p−1)/p of the
 * vector when it is divisible): the bound is the smallest time any
 * machine's ports need for that many, offered as that machine's. */
static void allreduce_gossip_bound(Ctx *x)
{
  const NsTopology *t = x->topo;
  int p = ns_topology_n_machines(t);
  if (p < 2)
    return;
  double share = 2.0 * (p - 1) * (double)x->n_segments / p;
  if (!x->fluid)
    share = ceil(share - 1e-9);
  GArray *bw = g_array_new(FALSE, FALSE, sizeof(double));
  NsLowerBound least = { .seconds = G_MAXDOUBLE }, none = { .seconds = 0 };
  for (int m = 0; m < p; m++) {
    int ports = machine_ports(t, m, bw);
    /* this machine's time for `share` segments, as offer_cut reckons it */
    NsLowerBound *keep = x->best;
    NsLowerBound mine = none;
    x->best = &mine;
    NsLowerBound cut = { .kind = NS_BOUND_PORT_SEND, .machine = m, .edge = -1, .dim = -1,
                         .node = -1 };
    offer_cut(x, share, (const double *)bw->data, ports, cut);
    x->best = keep;
    if (mine.seconds > 0 && mine.seconds < least.seconds)
      least = mine;
  }
  g_array_unref(bw);
  if (least.seconds < G_MAXDOUBLE && least.seconds > x->best->seconds * (1 + 1e-12)) {
    least.n_bottlenecks = 1;
    *x->best = least;
  }
}

/* A machine sends (receives) through its `ports` fastest links. */
static void port_bounds(Ctx *x)
{
  const NsTopology *t = x->topo;
  int p = ns_topology_n_machines(t);
  GArray *bw = g_array_new(FALSE, FALSE, sizeof(double));
  for (int m = 0; m < p; m++) {
    int ports = machine_ports(t, m, bw);
    double sends = 0, recvs = 0;
    switch (x->c) {
    case NS_COLL_ALLTOALL: sends = recvs = p - 1; break;
    case NS_COLL_ALLGATHER: sends = 1; recvs = p - 1; break;
    case NS_COLL_BCAST:
      sends = m == x->root ? x->n_segments : 0;
      recvs = m == x->root ? 0 : x->n_segments;
      break;
    /* a non-root's contribution to every segment must leave it; the root
     * needs every segment from the others */
    case NS_COLL_REDUCE:
      sends = m == x->root ? 0 : x->n_segments;
      recvs = m == x->root ? x->n_segments : 0;
      break;
    /* the same, every machine both (the machines together: below) */
    case NS_COLL_ALLREDUCE: sends = recvs = x->n_segments; break;
    case NS_COLL_ALLTOALLV:
    case NS_COLL_ALLGATHERV: break;
    }
    NsLowerBound cut = { .kind = NS_BOUND_PORT_SEND, .machine = m, .edge = -1, .dim = -1,
                         .node = -1 };
    offer_cut(x, sends, (const double *)bw->data, ports, cut);
    cut.kind = NS_BOUND_PORT_RECV;
    offer_cut(x, recvs, (const double *)bw->data, ports, cut);
  }
  g_array_unref(bw);
  if (x->c == NS_COLL_ALLREDUCE)
    allreduce_gossip_bound(x);
}

/* One link separating `below` machines (behind directed edge `up`, which
 * leaves them) from the rest. */
static void link_cut(Ctx *x, int up, int below, gboolean root_below)
{
  const NsTopology *t = x->topo;
  double p = ns_topology_n_machines(t);
  double bw = ns_topology_link(t, ns_edge_link(up))->bandwidth;
  NsLowerBound cut = { .kind = NS_BOUND_LINK, .machine = -1, .edge = up, .dim = -1, .node = -1 };
  offer_cut(x, messages_out(x->c, below, p - below, root_below, x->n_segments), &bw, 1, cut);
  cut.edge = up ^ 1;
  offer_cut(x, messages_out(x->c, p - below, below, !root_below, x->n_segments), &bw, 1, cut);
}

static void tree_cuts(Ctx *x)
{
  const NsTopology *t = x->topo;
  int root_node = ns_topology_machine_node(t, MAX(x->root, 0));
  for (int v = 0; v < ns_topology_n_nodes(t); v++) {
    if (ns_tree_parent(t, v) < 0)
      continue;
    /* Is the root machine in v's subtree? Climb from it. */
    gboolean root_below = FALSE;
    for (int u = root_node; u >= 0 && !root_below; u = ns_tree_parent(t, u))
      root_below = u == v;
    link_cut(x, ns_tree_up_edge(t, v), ns_tree_machines_below(t, v), root_below);
  }
}

/* Bridges of a general graph (igraph): each separates the subtree of a BFS
 * tree below it — every spanning tree contains every bridge. */
static void bridge_cuts(Ctx *x)
{
  const NsTopology *t = x->topo;
  int n = ns_topology_n_nodes(t), m = ns_topology_n_links(t);
  igraph_vector_int_t ends, bridges;
  igraph_vector_int_init(&ends, 2 * (igraph_integer_t)m);
  for (int i = 0; i < m; i++) {
    VECTOR(ends)[2 * i] = ns_topology_link(t, i)->a;
    VECTOR(ends)[2 * i + 1] = ns_topology_link(t, i)->b;
  }
  igraph_t g;
  igraph_vector_int_init(&bridges, 0);
  if (igraph_create(&g, &ends, n, IGRAPH_UNDIRECTED) == IGRAPH_SUCCESS) {
    if (igraph_bridges(&g, &bridges) == IGRAPH_SUCCESS && igraph_vector_int_size(&bridges) > 0) {
      /* BFS tree from node 0: parent link and machines below. */
      int *order = g_new(int, n), *via = g_new(int, n), *below = g_new0(int, n);
      gboolean *root_below = g_new0(gboolean, n);
      for (int v = 0; v < n; v++)
        via[v] = -2;
      int head = 0, tail = 0;
      order[tail++] = 0;
      via[0] = -1;
      while (head < tail) {
        int v = order[head++];
        const int *inc = ns_topology_incident(t, v);
        for (int k = 0; k < ns_topology_degree(t, v); k++) {
          int w = ns_topology_link_other(t, inc[k], v);
          if (via[w] == -2) {
            via[w] = inc[k];
            order[tail++] = w;
          }
        }
      }
      int root_node = ns_topology_machine_node(t, MAX(x->root, 0));
      for (int i = tail - 1; i >= 0; i--) {
        int v = order[i];
        below[v] += ns_topology_node_machine(t, v) >= 0;
        root_below[v] = root_below[v] || v == root_node;
        if (via[v] >= 0) {
          int parent = ns_topology_link_other(t, via[v], v);
          below[parent] += below[v];
          root_below[parent] = root_below[parent] || root_below[v];
        }
      }
      for (igraph_integer_t i = 0; i < igraph_vector_int_size(&bridges); i++) {
        int li = (int)VECTOR(bridges)[i];
        const NsLink *l = ns_topology_link(t, li);
        int child = via[l->a] == li ? l->a : l->b;
        int up = 2 * li + (l->a == child ? 0 : 1);
        link_cut(x, up, below[child], root_below[child]);
      }
      g_free(order);
      g_free(via);
      g_free(below);
      g_free(root_below);
    }
    igraph_destroy(&g);
  }
  igraph_vector_int_destroy(&bridges);
  igraph_vector_int_destroy(&ends);
}

/* The two halves of every grid dimension: coordinates below ⌊N/2⌋ and the
 * rest (for a ring of p nodes: ⌈p²/8⌉ messages a link, Lemma 1). */
static void bisection_cuts(Ctx *x)
{
  const NsTopology *t = x->topo;
  int sizes[NS_MAX_DIMS];
  gboolean wrap;
  int n_dims = ns_topology_grid(t, sizes, &wrap);
  int p = ns_topology_n_machines(t);
  GArray *out_bw = g_array_new(FALSE, FALSE, sizeof(double));
  GArray *in_bw = g_array_new(FALSE, FALSE, sizeof(double));
  for (int d = 0; d < n_dims; d++) {
    int a = sizes[d] / 2;
    if (a == 0)
      continue;
    g_array_set_size(out_bw, 0);
    g_array_set_size(in_bw, 0);
    gboolean root_inside = FALSE;
    for (int m = 0; m < p; m++) {
      int c[NS_MAX_DIMS];
      ns_topology_machine_coords(t, m, c);
      if (c[d] >= a)
        continue;
      root_inside = root_inside || m == x->root;
      int v = ns_topology_machine_node(t, m);
      const int *inc = ns_topology_incident(t, v);
      for (int k = 0; k < ns_topology_degree(t, v); k++) {
        int w = ns_topology_link_other(t, inc[k], v);
        int mw = ns_topology_node_machine(t, w), cw[NS_MAX_DIMS];
        ns_topology_machine_coords(t, mw, cw);
        if (cw[d] < a)
          continue;
        double bw = ns_topology_link(t, inc[k])->bandwidth;
        g_array_append_val(out_bw, bw);
        g_array_append_val(in_bw, bw);
      }
    }
    double inside = (double)p * a / sizes[d];
    NsLowerBound cut = { .kind = NS_BOUND_BISECTION, .machine = -1, .edge = -1, .dim = d,
                         .node = -1 };
    offer_cut(x, messages_out(x->c, inside, p - inside, root_inside, x->n_segments),
              (const double *)out_bw->data, (int)out_bw->len, cut);
    offer_cut(x, messages_out(x->c, p - inside, inside, !root_inside, x->n_segments),
              (const double *)in_bw->data, (int)in_bw->len, cut);
  }
  g_array_unref(out_bw);
  g_array_unref(in_bw);
}

/* Levelled fat trees (dmodk, smodk routing) and Clos graphs (ecmp): the
 * machines reachable downwards from a switch form a block; the cut around a block is every
 * link leaving the nodes whose downward machines lie inside it. Bit sets
 * of machines per node; skipped (the port bounds remain) when that would
 * cost more than 2^30 word operations. */
static void block_cuts(Ctx *x)
{
  const NsTopology *t = x->topo;
  int n = ns_topology_n_nodes(t), p = ns_topology_n_machines(t);
  gsize words = ((gsize)p + 63) / 64;
  if ((double)n * n * words > (double)(1u << 30))
    return;
  int *level = g_new(int, n), *order = g_new(int, n);
  int head = 0, tail = 0;
  for (int v = 0; v < n; v++) {
    level[v] = ns_topology_node_machine(t, v) >= 0 ? 0 : -1;
    if (level[v] == 0)
      order[tail++] = v;
  }
  while (head < tail) {
    int v = order[head++];
    const int *inc = ns_topology_incident(t, v);
    for (int k = 0; k < ns_topology_degree(t, v); k++) {
      int w = ns_topology_link_other(t, inc[k], v);
      if (level[w] < 0) {
        level[w] = level[v] + 1;
        order[tail++] = w;
      }
    }
  }
  uint64_t *below = g_new0(uint64_t, (gsize)n * words);
  for (int i = 0; i < tail; i++) { /* levels ascend along `order` */
    int v = order[i], mv = ns_topology_node_machine(t, v);
    uint64_t *bv = below + (gsize)v * words;
    if (mv >= 0)
      bv[mv / 64] |= (uint64_t)1 << (mv % 64);
    const int *inc = ns_topology_incident(t, v);
    for (int k = 0; k < ns_topology_degree(t, v); k++) {
      int w = ns_topology_link_other(t, inc[k], v);
      if (level[w] == level[v] - 1)
        for (gsize j = 0; j < words; j++)
          bv[j] |= below[(gsize)w * words + j];
    }
  }
  gboolean *inside = g_new(gboolean, n);
  GArray *out_bw = g_array_new(FALSE, FALSE, sizeof(double));
  GArray *in_bw = g_array_new(FALSE, FALSE, sizeof(double));
  for (int v = 0; v < n; v++) {
    if (level[v] < 1)
      continue;
    const uint64_t *bv = below + (gsize)v * words;
    int count = 0;
    for (gsize j = 0; j < words; j++)
      count += __builtin_popcountll(bv[j]);
    if (count == p)
      continue;
    /* Nodes whose downward machines lie in v's block. */
    for (int w = 0; w < n; w++) {
      gboolean sub = level[w] >= 0 && level[w] <= level[v];
      for (gsize j = 0; j < words && sub; j++)
        sub = (below[(gsize)w * words + j] & ~bv[j]) == 0;
      inside[w] = sub;
    }
    g_array_set_size(out_bw, 0);
    g_array_set_size(in_bw, 0);
    for (int w = 0; w < n; w++) {
      if (!inside[w])
        continue;
      const int *inc = ns_topology_incident(t, w);
      for (int k = 0; k < ns_topology_degree(t, w); k++)
        if (!inside[ns_topology_link_other(t, inc[k], w)]) {
          double bw = ns_topology_link(t, inc[k])->bandwidth;
          g_array_append_val(out_bw, bw);
          g_array_append_val(in_bw, bw);
        }
    }
    gboolean root_inside = x->root >= 0 && (bv[x->root / 64] >> (x->root % 64) & 1);
    NsLowerBound cut = { .kind = NS_BOUND_BLOCK, .machine = -1, .edge = -1, .dim = -1,
                         .node = v };
    offer_cut(x, messages_out(x->c, count, p - count, root_inside, x->n_segments),
              (const double *)out_bw->data, (int)out_bw->len, cut);
    offer_cut(x, messages_out(x->c, p - count, count, !root_inside, x->n_segments),
              (const double *)in_bw->data, (int)in_bw->len, cut);
  }
  g_array_unref(out_bw);
  g_array_unref(in_bw);
  g_free(inside);
  g_free(below);
  g_free(level);
  g_free(order);
}

static void lower_bound(const NsTopology *topo, NsCollective c, uint64_t msize, int root,
                        uint32_t n_segments, gboolean fluid, NsLowerBound *out)
{
  *out = (NsLowerBound){ .kind = NS_BOUND_PORT_RECV, .machine = -1, .edge = -1, .dim = -1,
                         .node = -1 };
  Ctx x = { .topo = topo, .c = c, .bits = (double)msize * 8.0,
            .root = c == NS_COLL_BCAST || c == NS_COLL_REDUCE ? root : -1,
            .n_segments = MAX(n_segments, 1), .fluid = fluid, .best = out };
  port_bounds(&x);
  switch (ns_topology_routing(topo)) {
  case NS_ROUTING_TREE:
    tree_cuts(&x);
    break;
  case NS_ROUTING_DMODK:
  case NS_ROUTING_SMODK:
    block_cuts(&x);
    break;
  case NS_ROUTING_ECMP: /* any graph, and on leaf/spines the block of a leaf */
    bridge_cuts(&x);
    block_cuts(&x);
    break;
  default:
    bridge_cuts(&x);
    break;
  }
  bisection_cuts(&x);
}

/**
 * \function ns_lower_bound
 * \brief The transmission lower bound of a collective over any routing.
 *
 * The largest of the machines' port bounds (1-port, k-port, all-port) and
 * the cut bounds (tree links or graph bridges, grid bisections, fat-tree
 * and leaf/spine blocks), in whole messages when a cut's links have one
 * speed; ties keep the first found in that order.
 *
 * \param topo A finalized topology.
 * \param c The collective.
 * \param msize Bytes of a chunk (an all-to-all message, an all-gather block,
 *        a broadcast or reduction segment).
 * \param root The broadcast's or reduce's root machine (ignored otherwise).
 * \param n_segments The broadcast's or reduction's number of segments (ignored otherwise).
 * \param out Filled with the bound, its kind and what binds.
 * \errors none: every finalized topology has a bound.
 * \complexity O(|V| + |E|) plus O(blocks · |M| / 64) for levelled fat trees.
 * \source Faraj and Yuan §3 (the bottleneck link); Liu Gang et al., Lemma 1
 *         (grid bisections); Harary & Schwenk 1974 and Patarasuk & Yuan 2009 (all-reduce);
 *         docs/architecture.md, "Two lower bounds"; docs/verify.md, "Bounds of the reductions".
 */
void ns_lower_bound(const NsTopology *topo, NsCollective c, uint64_t msize, int root,
                    uint32_t n_segments, NsLowerBound *out)
{
  lower_bound(topo, c, msize, root, n_segments, FALSE, out);
}

/**
 * \function ns_lower_bound_reduction
 * \brief The lower bound of a reduce or all-reduce of a vector, however it is segmented.
 *
 * The larger of two valid bounds: the vector as divisible bytes (fluid:
 * every cut and port carries its share of n bytes, the machines together
 * 2(p−1)/p · n for an all-reduce) and, when `segment` is given, its
 * ⌊n / segment⌋ whole segments as indivisible messages (some link carries
 * ⌈messages / links⌉ of them).
 *
 * \param topo A finalized topology.
 * \param c NS_COLL_REDUCE or NS_COLL_ALLREDUCE.
 * \param n_bytes The vector's bytes (n >= 1).
 * \param segment Bytes of a segment (0: not segmented, the fluid bound only).
 * \param root The reduce's root machine (ignored for all-reduce).
 * \param out Filled with the bound, its kind and what binds (load 0 when fluid).
 * \errors none.
 * \complexity Twice that of ns_lower_bound().
 * \source docs/verify.md, "Bounds of the reductions".
 */
void ns_lower_bound_reduction(const NsTopology *topo, NsCollective c, uint64_t n_bytes,
                              uint64_t segment, int root, NsLowerBound *out)
{
  lower_bound(topo, c, MAX(n_bytes, 1), root, 1, TRUE, out);
  uint64_t whole = segment > 0 ? n_bytes / segment : 0;
  if (whole == 0 || whole > G_MAXUINT32)
    return;
  NsLowerBound granular;
  lower_bound(topo, c, segment, root, (uint32_t)whole, FALSE, &granular);
  if (granular.seconds > out->seconds * (1 + 1e-12))
    *out = granular;
}

/**
 * \function ns_lower_bound_describe
 * \brief What binds a lower bound, in words.
 *
 * E.g. "link s0->s1 (|M_u|·|M_v| = 768 messages at 10Gbps)" or the port
 * bound of a machine.
 *
 * \param topo The topology the bound was computed on.
 * \param b The bound.
 * \return Newly allocated text.
 * \errors none.
 * \complexity O(1) plus the names quoted.
 * \source docs/architecture.md, "Two lower bounds".
 */
char *ns_lower_bound_describe(const NsTopology *topo, const NsLowerBound *b)
{
  g_autofree char *what = NULL;
  switch (b->kind) {
  case NS_BOUND_PORT_SEND:
  case NS_BOUND_PORT_RECV: {
    if (b->machine < 0) { /* no cut carries anything (a size pattern's bound is elsewhere) */
      what = g_strdup("nothing");
      break;
    }
    g_autofree char *ports = ns_topology_machine_port_text(topo, b->machine);
    what = g_strdup_printf("%s of %s (%s)", b->kind == NS_BOUND_PORT_SEND ? "sending" : "receiving",
                           ns_topology_machine_name(topo, b->machine), ports);
    break;
  }
  case NS_BOUND_LINK:
    what = ns_topology_edge_name(topo, b->edge);
    break;
  case NS_BOUND_BISECTION:
    what = g_strdup_printf("bisection of dimension %d (%d links each way)", b->dim, b->n_links);
    break;
  case NS_BOUND_BLOCK:
    what = g_strdup_printf("the %d links leaving the block below %s", b->n_links,
                           ns_topology_node(topo, b->node)->name);
    break;
  }
  if (b->load > 0)
    return g_strdup_printf("%s: %" G_GUINT64_FORMAT " message%s a link at %.4g Gbit/s", what,
                           b->load, b->load == 1 ? "" : "s", b->bandwidth / 1e9);
  return g_strdup_printf("%s: %.4g Gbit/s in all", what, b->bandwidth / 1e9);
}
