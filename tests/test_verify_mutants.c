/* Mutation test of the verifier against an independent reference checker.
 *
 * Correct schedules come from the real planners on bundled and random
 * trees (some with pair-wise sync edges). Seeded mutation operators break
 * each in one small way; for every schedule, mutated or not, a brute-force
 * reference written here decides each check from its definition alone, and
 * ns_verify() must agree with it check by check. False accepts (the
 * reference says a check fails, the verifier passes it) and false rejects
 * are counted per operator; both must be zero.
 *
 * All-to-all originals declared store-and-forward (a relay's copy is
 * consumed when forwarded: Bruck and 2dmesh relay every message once) are
 * judged by the reference's own one-holder replay (ref_holdings_held),
 * with operators that forward a message the sender gave up.
 *
 * The reference shares no code with sched/: it reads the NsSchedule's
 * public arrays itself, routes over the topology's links itself and keeps
 * its own chunk holdings and orderings. It is quadratic in places on
 * purpose: obviously right matters more than fast on these small cases.
 */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "platforms/model/topology.h"
#include "sched/planners/registry.h"
#include "sched/ir/sync.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <string.h>

/* ======================================================================
 * A schedule as plain data, easy to mutate and to read
 * ====================================================================== */

typedef struct {
  int phase;
  int src, dst;
  guint first, n; /* chunks: pool[first .. first + n) */
} Xfer;

typedef struct {
  guint from, to; /* Xfer indices */
} Pair;

typedef struct {
  NsCollective coll;
  int p;               /* schedule machines */
  int root;            /* bcast */
  uint32_t n_segments; /* bcast */
  int n_phases;
  GArray *xfers;       /* Xfer; in phase order when read from a schedule */
  GArray *pool;        /* uint32_t; ranges are never changed, only appended */
  GArray *sync;        /* Pair */
  char *sync_scheme;   /* NULL if none */
  gboolean sync_set;   /* edges computed (perhaps none): the scheme is a claim to check;
                          FALSE: only the planner's recommendation */
  gboolean store_forward; /* alltoall: relays store and forward, one holder a message */
} Plan;

static Xfer *xf(const Plan *pl, guint i)
{
  return &g_array_index(pl->xfers, Xfer, i);
}

static const uint32_t *xf_chunks(const Plan *pl, const Xfer *x)
{
  return &g_array_index(pl->pool, uint32_t, x->first);
}

static guint plan_add_list(Plan *pl, guint n, const uint32_t *chunks)
{
  guint first = pl->pool->len;
  g_array_append_vals(pl->pool, chunks, n);
  return first;
}

static guint plan_append(Plan *pl, int phase, int src, int dst, guint n, const uint32_t *chunks)
{
  Xfer x = { .phase = phase, .src = src, .dst = dst, .n = n };
  x.first = plan_add_list(pl, n, chunks);
  g_array_append_val(pl->xfers, x);
  return pl->xfers->len - 1;
}

static void plan_free(Plan *pl)
{
  g_array_unref(pl->xfers);
  g_array_unref(pl->pool);
  g_array_unref(pl->sync);
  g_free(pl->sync_scheme);
  g_free(pl);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Plan, plan_free)

/* Reads the schedule's public arrays directly (no sched/ accessor), so the
 * reference sees exactly what was stored. */
static Plan *plan_read(const NsSchedule *s)
{
  Plan *pl = g_new0(Plan, 1);
  pl->coll = s->collective;
  pl->p = s->n_machines;
  pl->root = s->root;
  pl->n_segments = s->n_segments;
  pl->n_phases = (int)s->phase_start->len;
  pl->xfers = g_array_new(FALSE, FALSE, sizeof(Xfer));
  pl->pool = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  pl->sync = g_array_new(FALSE, FALSE, sizeof(Pair));
  pl->sync_scheme = g_strdup(s->sync_scheme);
  pl->sync_set = s->sync_set;
  pl->store_forward = s->store_forward;
  for (guint ph = 0; ph < s->phase_start->len; ph++) {
    guint start = g_array_index(s->phase_start, uint32_t, ph);
    guint end = ph + 1 < s->phase_start->len ? g_array_index(s->phase_start, uint32_t, ph + 1)
                                             : s->transfers->len;
    for (guint t = start; t < end; t++) {
      const NsTransfer *tr = &g_array_index(s->transfers, NsTransfer, t);
      const uint32_t *chunks =
          tr->n_chunks == 1 ? &tr->chunk : &g_array_index(s->chunk_pool, uint32_t, tr->chunk);
      plan_append(pl, (int)ph, tr->src, tr->dst, tr->n_chunks, chunks);
    }
  }
  g_assert_cmpuint(pl->xfers->len, ==, s->transfers->len);
  for (guint i = 0; i < s->sync->len; i++) {
    const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
    g_array_append_val(pl->sync, ((Pair){ e->from, e->to }));
  }
  return pl;
}

/* Transfer indices sorted by phase, keeping list order within a phase. */
static guint *plan_phase_order(const Plan *pl)
{
  guint n = pl->xfers->len;
  guint *start = g_new0(guint, (gsize)pl->n_phases + 1);
  for (guint i = 0; i < n; i++) {
    g_assert_cmpint(xf(pl, i)->phase, >=, 0);
    g_assert_cmpint(xf(pl, i)->phase, <, pl->n_phases);
    start[xf(pl, i)->phase + 1]++;
  }
  for (int ph = 0; ph < pl->n_phases; ph++)
    start[ph + 1] += start[ph];
  guint *order = g_new(guint, MAX(n, 1));
  for (guint i = 0; i < n; i++)
    order[start[xf(pl, i)->phase]++] = i;
  g_free(start);
  return order;
}

/* A new schedule like `like` (machines, collective, root, ...) holding the
 * plan, built phase by phase through the public API; sync edges follow
 * their transfers to the new indices. */
static NsSchedule *plan_write(const Plan *pl, const NsSchedule *like)
{
  NsSchedule *s = ns_schedule_new(like->collective, like->algorithm, pl->p, /* the first p */
                                  (const char *const *)like->machines, like->msize);
  s->root = like->root;
  s->n_segments = like->n_segments;
  s->execution = like->execution;
  s->store_forward = pl->store_forward;
  if (pl->sync_scheme != NULL)
    ns_schedule_relabel(s, like->algorithm, pl->sync_scheme);
  guint n = pl->xfers->len, next = 0;
  g_autofree guint *order = plan_phase_order(pl);
  g_autofree guint *index = g_new(guint, MAX(n, 1));
  for (int ph = 0; ph < pl->n_phases; ph++) {
    ns_schedule_begin_phase(s);
    for (; next < n && xf(pl, order[next])->phase == ph; next++) {
      const Xfer *x = xf(pl, order[next]);
      index[order[next]] = ns_schedule_add_chunks(s, x->src, x->dst, x->n, xf_chunks(pl, x));
    }
  }
  g_assert_cmpuint(next, ==, n);
  for (guint i = 0; i < pl->sync->len; i++) {
    Pair e = g_array_index(pl->sync, Pair, i);
    ns_schedule_add_sync(s, index[e.from], index[e.to]);
  }
  s->sync_set = s->sync_set || pl->sync_set;
  return s;
}

/* ---- the collective's chunks -------------------------------------------- */

static guint n_chunk_ids(const Plan *pl)
{
  switch (pl->coll) {
  case NS_COLL_ALLTOALL: return (guint)(pl->p * pl->p);
  case NS_COLL_ALLGATHER: return (guint)pl->p;
  case NS_COLL_BCAST: return pl->n_segments;
  default: break; /* the reductions and v-collectives have mutation tests of their own */
  }
  g_assert_not_reached();
}

/* Who holds chunk c from the start: alltoall (o,d) its origin o,
 * allgather block o its origin, bcast every segment the root. */
static int chunk_owner(const Plan *pl, uint32_t c)
{
  switch (pl->coll) {
  case NS_COLL_ALLTOALL: return (int)(c / (uint32_t)pl->p);
  case NS_COLL_ALLGATHER: return (int)c;
  case NS_COLL_BCAST: return pl->root;
  default: break;
  }
  g_assert_not_reached();
}

/* Is machine m a destination of chunk c (as opposed to a relay)? */
static gboolean chunk_wanted_by(const Plan *pl, uint32_t c, int m)
{
  if (m == chunk_owner(pl, c))
    return FALSE;
  return pl->coll != NS_COLL_ALLTOALL || (int)(c % (uint32_t)pl->p) == m;
}

/* Chunk ids a correct schedule may carry (alltoall: not o->o). */
static gboolean chunk_is_valid(const Plan *pl, uint32_t c)
{
  if (c >= n_chunk_ids(pl))
    return FALSE;
  return pl->coll != NS_COLL_ALLTOALL || c / (uint32_t)pl->p != c % (uint32_t)pl->p;
}

/* ======================================================================
 * Fabrics and routes
 * ====================================================================== */

/* A fabric to plan on: a constructor and its parameters. Fat trees and
 * tori are meant to become further constructors in `fabrics` below; a
 * fabric with several paths between two machines must also bring the
 * routing the verifier uses (`routes`), since a breadth-first path is the
 * route only on a tree. */
typedef struct Fabric Fabric;
typedef struct Net Net;
struct Fabric {
  NsTopology *(*make)(const Fabric *f);
  void (*routes)(Net *net); /* NULL: the unique tree path (routes_by_bfs) */
  const char *file;         /* bundled: a file of scenarios/topologies */
  uint64_t seed;            /* random trees: ns_shape_random's parameters */
  int machines, switches;   /* tori: the sizes (switches 0: a ring) */
  NsRandomKind kind;
  const char *only;         /* plan this algorithm only (NULL: every case) */
  gboolean by_source;       /* fat trees: s-mod-k routing (else d-mod-k) */
};

static NsTopology *bundled(const Fabric *f)
{
  return ns_test_topology(f->file);
}

static NsTopology *random_tree(const Fabric *f)
{
  GError *error = NULL;
  NsTopology *t = ns_shape_random(f->seed, f->machines, f->switches, f->kind, 100e6, 10e-6,
                                  &error);
  g_assert_no_error(error);
  return t;
}

static NsTopology *torus_grid(const Fabric *f)
{
  NsShapeOptions opt;
  ns_shape_options_init(&opt);
  int dims[2] = { f->machines, f->switches };
  GError *error = NULL;
  NsTopology *t = ns_shape_grid(dims, f->switches > 0 ? 2 : 1, TRUE, &opt, "", &error);
  g_assert_no_error(error);
  return t;
}

/* A k-ary n-tree (machines = k, switches = n) under d-mod-k, or s-mod-k
 * (`by_source`). The verifier reads these routes from its closed form (k a
 * power of two) or its climbs (sched/ir/route_table_internal.h); the
 * reference takes the topology's own, pair by pair. */
static NsTopology *fat_tree(const Fabric *f)
{
  NsShapeOptions opt;
  ns_shape_options_init(&opt);
  GError *error = NULL;
  NsTopology *t = ns_shape_fattree(f->machines, f->switches, &opt, "", &error);
  g_assert_no_error(error);
  if (!f->by_source)
    return t;
  NsTopology *smodk = ns_test_with_routing(t, "smodk");
  ns_topology_free(t);
  g_assert_cmpint(ns_topology_routing(smodk), ==, NS_ROUTING_SMODK);
  return smodk;
}

static void routes_by_topology(Net *net);

static const Fabric fabrics[] = {
  { bundled, NULL, .file = "faraj-fig1.topo" },
  { bundled, NULL, .file = "faraj-fig3-19.topo" },
  { bundled, NULL, .file = "bcast-interleaved.topo" },
  { bundled, NULL, .file = "faraj-a.topo" },
  { bundled, NULL, .file = "faraj-b.topo" },
  { bundled, NULL, .file = "faraj-c.topo" },
  { random_tree, NULL, .seed = 1, .machines = 3, .switches = 1, .kind = NS_RANDOM_UNIFORM },
  { random_tree, NULL, .seed = 2, .machines = 4, .switches = 2, .kind = NS_RANDOM_STAR },
  { random_tree, NULL, .seed = 3, .machines = 5, .switches = 3, .kind = NS_RANDOM_CHAIN },
  { random_tree, NULL, .seed = 4, .machines = 7, .switches = 4, .kind = NS_RANDOM_DEEP },
  { random_tree, NULL, .seed = 5, .machines = 8, .switches = 4, .kind = NS_RANDOM_UNBALANCED },
  { random_tree, NULL, .seed = 6, .machines = 9, .switches = 5, .kind = NS_RANDOM_UNIFORM },
  { random_tree, NULL, .seed = 7, .machines = 11, .switches = 4, .kind = NS_RANDOM_CHAIN },
  { random_tree, NULL, .seed = 8, .machines = 12, .switches = 6, .kind = NS_RANDOM_DEEP },
  { random_tree, NULL, .seed = 9, .machines = 13, .switches = 3, .kind = NS_RANDOM_STAR },
  { random_tree, NULL, .seed = 10, .machines = 16, .switches = 5, .kind = NS_RANDOM_UNBALANCED },
  { random_tree, NULL, .seed = 11, .machines = 17, .switches = 7, .kind = NS_RANDOM_UNIFORM },
  { random_tree, NULL, .seed = 12, .machines = 20, .switches = 6, .kind = NS_RANDOM_DEEP },
  { random_tree, NULL, .seed = 13, .machines = 24, .switches = 8, .kind = NS_RANDOM_CHAIN },
  /* Liu Gang et al.'s store-and-forward exchanges, on tori large enough
   * that no transfer takes a route of its own */
  { torus_grid, routes_by_topology, .machines = 12, .switches = 12, .only = "at2" },
  { torus_grid, routes_by_topology, .machines = 12, .switches = 16, .only = "at2" },
  { torus_grid, routes_by_topology, .machines = 16, .switches = 0, .only = "ar" },
  { torus_grid, routes_by_topology, .machines = 24, .switches = 0, .only = "ar" },
  /* k-ary n-trees: the shift permutations (ring) and pair's, contention-
   * free under d-mod-k and s-mod-k, checked by the link walks of the
   * closed form (k = 2, 4) and of the climbs (k = 3) */
  { fat_tree, routes_by_topology, .machines = 2, .switches = 3, .only = "ring" },
  { fat_tree, routes_by_topology, .machines = 4, .switches = 2, .only = "ring" },
  { fat_tree, routes_by_topology, .machines = 4, .switches = 2, .only = "pair" },
  { fat_tree, routes_by_topology, .machines = 2, .switches = 4, .only = "pair", .by_source = TRUE },
  { fat_tree, routes_by_topology, .machines = 2, .switches = 3, .only = "ring", .by_source = TRUE },
  { fat_tree, routes_by_topology, .machines = 3, .switches = 2, .only = "ring" },
};

static char *fabric_label(const Fabric *f)
{
  if (f->file != NULL)
    return g_strdup(f->file);
  if (f->make == fat_tree)
    return g_strdup_printf("gen:fattree:%d,%d%s", f->machines, f->switches,
                           f->by_source ? " smodk" : "");
  if (f->make == torus_grid)
    return f->switches > 0 ? g_strdup_printf("gen:torus:%dx%d", f->machines, f->switches)
                           : g_strdup_printf("gen:torus:%d", f->machines);
  return g_strdup_printf("random:%" G_GUINT64_FORMAT ",%d,%d,%s", f->seed, f->machines,
                         f->switches, ns_random_kind_name(f->kind));
}

/* Directed edges of every route between two topology machines, and each
 * directed edge's bandwidth (that of its link, full duplex). */
struct Net {
  const NsTopology *topo;
  int p;              /* topology machines */
  int n_edges;
  double *bw;         /* per directed edge */
  guint *route_first; /* route a -> b: edges[route_first[a*p+b] .. + route_len[a*p+b]) */
  guint *route_len;
  GArray *edges;      /* int */
};

/* Directed edge id of going over `link` from node `from`: 2*link from
 * link.a to link.b, 2*link+1 the other way (platforms/model/topology.h). */
static int directed_edge(const NsTopology *topo, int link, int from)
{
  return ns_topology_link(topo, link)->a == from ? 2 * link : 2 * link + 1;
}

/* Breadth-first search from machine a; each route to b is read back along
 * the parent links. On a tree this is the unique path. */
static void routes_from(Net *net, int a, int *via, int *queue)
{
  const NsTopology *topo = net->topo;
  int n_nodes = ns_topology_n_nodes(topo), src = ns_topology_machine_node(topo, a);
  for (int v = 0; v < n_nodes; v++)
    via[v] = -1;
  int head = 0, tail = 0;
  queue[tail++] = src;
  via[src] = -2;
  while (head < tail) {
    int x = queue[head++];
    const int *inc = ns_topology_incident(topo, x);
    for (int k = 0; k < ns_topology_degree(topo, x); k++) {
      int y = ns_topology_link_other(topo, inc[k], x);
      if (via[y] == -1) {
        via[y] = inc[k];
        queue[tail++] = y;
      }
    }
  }
  int *path = g_new(int, n_nodes);
  for (int b = 0; b < net->p; b++) {
    int len = 0;
    for (int x = ns_topology_machine_node(topo, b); x != src;) {
      int u = ns_topology_link_other(topo, via[x], x);
      path[len++] = directed_edge(topo, via[x], u);
      x = u;
    }
    net->route_first[a * net->p + b] = net->edges->len;
    net->route_len[a * net->p + b] = (guint)len;
    for (int k = len - 1; k >= 0; k--) /* read back from b: reverse */
      g_array_append_val(net->edges, path[k]);
  }
  g_free(path);
}

static void routes_by_bfs(Net *net)
{
  int n_nodes = ns_topology_n_nodes(net->topo);
  g_autofree int *via = g_new(int, n_nodes);
  g_autofree int *queue = g_new(int, n_nodes);
  for (int a = 0; a < net->p; a++)
    routes_from(net, a, via, queue);
}

/* A torus has many shortest paths: its routes are the topology's own
 * (dimension order), which define the fabric as its links do. */
static void routes_by_topology(Net *net)
{
  g_autofree int *path = g_new(int, ns_topology_max_route_len(net->topo) + 1);
  for (int a = 0; a < net->p; a++)
    for (int b = 0; b < net->p; b++) {
      int len = a == b ? 0 : ns_topology_route_machines(net->topo, a, b, path);
      net->route_first[a * net->p + b] = net->edges->len;
      net->route_len[a * net->p + b] = (guint)len;
      g_array_append_vals(net->edges, path, (guint)len);
    }
}

static void net_init(Net *net, const Fabric *f, const NsTopology *topo)
{
  net->topo = topo;
  net->p = ns_topology_n_machines(topo);
  net->n_edges = 2 * ns_topology_n_links(topo);
  net->bw = g_new(double, net->n_edges);
  for (int e = 0; e < net->n_edges; e++)
    net->bw[e] = ns_topology_link(topo, e / 2)->bandwidth;
  net->route_first = g_new(guint, (gsize)net->p * net->p);
  net->route_len = g_new(guint, (gsize)net->p * net->p);
  net->edges = g_array_new(FALSE, FALSE, sizeof(int));
  (f->routes != NULL ? f->routes : routes_by_bfs)(net);
}

static void net_clear(Net *net)
{
  g_free(net->bw);
  g_free(net->route_first);
  g_free(net->route_len);
  g_array_unref(net->edges);
}

/* ======================================================================
 * The originals: planned schedules to mutate
 * ====================================================================== */

typedef struct {
  NsCollective coll;
  const char *algorithm;
  uint64_t segment; /* bcast segment bytes, 0: one segment (scatter-allgather: P) */
  gboolean synced;  /* also with sender-all and receiver-all sync edges */
  gboolean store_forward; /* alltoall: declared store-and-forward (relays forward once) */
} PlanCase;

#define MSIZE 1024

static const PlanCase plan_cases[] = {
  { NS_COLL_ALLTOALL, "faraj", 0, TRUE, FALSE },
  { NS_COLL_ALLTOALL, "ring", 0, TRUE, FALSE },
  { NS_COLL_ALLTOALL, "pair", 0, FALSE, FALSE },
  { NS_COLL_ALLTOALL, "gpe", 0, FALSE, FALSE },
  { NS_COLL_ALLTOALL, "bruck", 0, TRUE, FALSE },
  { NS_COLL_ALLTOALL, "2dmesh", 0, FALSE, FALSE },
  { NS_COLL_ALLTOALL, "bruck", 0, TRUE, TRUE },
  { NS_COLL_ALLTOALL, "at2", 0, FALSE, TRUE },
  { NS_COLL_ALLTOALL, "ar", 0, FALSE, TRUE },
  { NS_COLL_ALLGATHER, "lr1", 0, TRUE, FALSE },
  { NS_COLL_ALLGATHER, "lr3", 0, FALSE, FALSE },
  { NS_COLL_ALLGATHER, "ring", 0, TRUE, FALSE },
  { NS_COLL_ALLGATHER, "bruck", 0, FALSE, FALSE },
  { NS_COLL_ALLGATHER, "rdb", 0, TRUE, FALSE },
  { NS_COLL_BCAST, "linear-cf", 0, FALSE, FALSE },
  { NS_COLL_BCAST, "linear-cf", 256, TRUE, FALSE },
  { NS_COLL_BCAST, "binary-cf", 0, FALSE, FALSE },
  { NS_COLL_BCAST, "binary-cf", 256, TRUE, FALSE },
  { NS_COLL_BCAST, "binomial", 0, FALSE, FALSE },
  { NS_COLL_BCAST, "binomial", 256, FALSE, FALSE },
  { NS_COLL_BCAST, "scatter-allgather", 0, FALSE, FALSE },
  { NS_COLL_BCAST, "scatter-allgather", 256, TRUE, FALSE },
};

static const char *const sync_schemes[] = { "sender-all", "receiver-all" };

/* Sync edges only on fabrics up to this size: the reference's transitive
 * closure is quadratic in transfers. */
#define SYNC_MAX_MACHINES 24

typedef struct {
  const NsTopology *topo;
  const Net *net;
  NsSchedule *s;
  int *tm;     /* schedule machine -> topology machine */
  char *label; /* "faraj-b.topo alltoall/faraj sender-all" */
} Original;

static NsSchedule *plan_case(const NsTopology *topo, const PlanCase *pc, const char *scheme)
{
  int p = ns_topology_n_machines(topo);
  NsPlanParams params = { .msize = MSIZE, .root = pc->coll == NS_COLL_BCAST ? p / 3 : 0,
                          .segment = pc->segment };
  GError *error = NULL;
  NsSchedule *s = ns_plan(topo, pc->coll, pc->algorithm, &params, &error);
  if (s == NULL) { /* e.g. pair on a non-power-of-two p */
    g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
    g_error_free(error);
    return NULL;
  }
  g_assert_cmpint(s->execution, ==, NS_EXEC_PHASED);
  s->store_forward = pc->store_forward;
  if (scheme != NULL) {
    NsSyncScheme sc;
    g_assert_true(ns_sync_scheme_parse(scheme, &sc, NULL));
    g_assert_true(ns_schedule_compute_sync(topo, s, &sc, NULL, &error));
    g_assert_no_error(error);
  }
  return s;
}

static void original_init(Original *o, const NsTopology *topo, const Net *net, NsSchedule *s,
                          const char *fabric, const PlanCase *pc, const char *scheme)
{
  o->topo = topo;
  o->net = net;
  o->s = s;
  o->tm = g_new(int, s->n_machines);
  for (int i = 0; i < s->n_machines; i++) {
    o->tm[i] = ns_topology_find_machine(topo, s->machines[i]);
    g_assert_cmpint(o->tm[i], >=, 0);
  }
  g_autofree char *seg =
      pc->segment ? g_strdup_printf(" segment=%" G_GUINT64_FORMAT, pc->segment) : g_strdup("");
  o->label = g_strdup_printf("%s %s/%s%s%s%s%s", fabric, ns_collective_name(pc->coll),
                             pc->algorithm, seg, scheme ? " sync=" : "", scheme ? scheme : "",
                             pc->store_forward ? " store-and-forward" : "");
}

static void original_clear(Original *o)
{
  ns_schedule_free(o->s);
  g_free(o->tm);
  g_free(o->label);
}

/* Route of a transfer between schedule machines a -> b. */
static const int *route_of(const Original *o, int a, int b, guint *len)
{
  guint k = (guint)(o->tm[a] * o->net->p + o->tm[b]);
  *len = o->net->route_len[k];
  return &g_array_index(o->net->edges, int, o->net->route_first[k]);
}

/* ======================================================================
 * The reference checker
 * ====================================================================== */

/* Kinds of redundant delivery (a chunk delivered to a machine that holds
 * it already), to tell the known verifier gaps from anything else. */
enum {
  RED_OWNER = 1,      /* to its origin (alltoall, allgather) or the bcast root */
  RED_DEST = 2,       /* to a destination a second time */
  RED_RELAY = 4,      /* to an alltoall intermediate a second time */
  RED_IN_XFER = 8,    /* listed twice in one transfer */
};

typedef struct {
  gboolean fails[NS_N_CHECKS];
  gboolean missing;   /* COMPLETE: a required (chunk, destination) never delivered */
  int redundant;      /* COMPLETE: RED_* kinds seen */
  gboolean cycle;     /* SYNC: program order + sync edges have a cycle */
  gboolean unordered; /* SYNC: two transfers contending across phases left unordered */
} Verdict;

/* End of the phase that starts at transfer `first` of a read plan. */
static guint phase_end(const Plan *pl, guint first)
{
  guint t = first;
  while (t < pl->xfers->len && xf(pl, t)->phase == xf(pl, first)->phase)
    t++;
  return t;
}

static int redundancy_kind(const Plan *pl, uint32_t c, int m, gboolean same_transfer)
{
  if (m == chunk_owner(pl, c))
    return RED_OWNER;
  if (same_transfer)
    return RED_IN_XFER;
  return chunk_wanted_by(pl, c, m) ? RED_DEST : RED_RELAY;
}

/* Data flow and completeness: replay who holds which chunk. A sender must
 * hold a chunk at the start of the phase; a chunk is delivered whether or
 * not its sender held it, and delivering it to a machine that holds it
 * already is redundant. */
static void ref_holdings(const Plan *pl, Verdict *v)
{
  guint ids = n_chunk_ids(pl), n = pl->xfers->len;
  g_autofree guint8 *held = g_new0(guint8, (gsize)pl->p * MAX(ids, 1));
  g_autofree guint *in_xfer = g_new0(guint, MAX(ids, 1)); /* transfer + 1 that delivered it */
  for (uint32_t c = 0; c < ids; c++)
    held[(gsize)chunk_owner(pl, c) * ids + c] = 1;
  for (guint a = 0, b; a < n; a = b) {
    b = phase_end(pl, a);
    for (guint t = a; t < b; t++) { /* before any of this phase's receipts */
      const Xfer *x = xf(pl, t);
      for (guint k = 0; k < x->n; k++) {
        uint32_t c = xf_chunks(pl, x)[k];
        g_assert_cmpuint(c, <, ids);
        if (!held[(gsize)x->src * ids + c])
          v->fails[NS_CHECK_DATAFLOW] = TRUE;
      }
    }
    for (guint t = a; t < b; t++) {
      const Xfer *x = xf(pl, t);
      for (guint k = 0; k < x->n; k++) {
        uint32_t c = xf_chunks(pl, x)[k];
        guint8 *h = &held[(gsize)x->dst * ids + c];
        if (*h)
          v->redundant |= redundancy_kind(pl, c, x->dst, in_xfer[c] == t + 1);
        *h = 1;
        in_xfer[c] = t + 1;
      }
    }
  }
  for (uint32_t c = 0; c < ids; c++)
    for (int m = 0; m < pl->p; m++)
      if (chunk_wanted_by(pl, c, m) && chunk_is_valid(pl, c) && !held[(gsize)m * ids + c])
        v->missing = TRUE;
  v->fails[NS_CHECK_COMPLETE] = v->missing || v->redundant != 0;
}

/* Data flow and completeness when the relays store and forward: every
 * message has one holder, its origin at first. A transfer may carry a
 * message only when its sender holds it at the start of the phase and has
 * not forwarded it earlier in the phase; the receiver holds it from the
 * receipt on (the last receiver in list order when a phase delivers it
 * more than once). A receipt is redundant at the origin, listed twice in
 * one transfer, at the destination a second time, and at a relay that
 * holds the message at that moment. */
static void ref_holdings_held(const Plan *pl, Verdict *v)
{
  guint ids = n_chunk_ids(pl), n = pl->xfers->len;
  g_autofree int *holder = g_new(int, MAX(ids, 1));
  g_autofree guint8 *gave_up = g_new0(guint8, MAX(ids, 1));   /* forwarded in this phase */
  g_autofree guint8 *delivered = g_new0(guint8, MAX(ids, 1));
  g_autofree guint *in_xfer = g_new0(guint, MAX(ids, 1)); /* transfer + 1 that delivered it */
  for (uint32_t c = 0; c < ids; c++)
    holder[c] = chunk_owner(pl, c);
  for (guint a = 0, b; a < n; a = b) {
    b = phase_end(pl, a);
    for (guint t = a; t < b; t++) {
      const Xfer *x = xf(pl, t);
      for (guint k = 0; k < x->n; k++) {
        uint32_t c = xf_chunks(pl, x)[k];
        g_assert_cmpuint(c, <, ids);
        if (holder[c] != x->src || gave_up[c])
          v->fails[NS_CHECK_DATAFLOW] = TRUE;
        else
          gave_up[c] = 1;
      }
    }
    for (guint t = a; t < b; t++) {
      const Xfer *x = xf(pl, t);
      for (guint k = 0; k < x->n; k++) {
        uint32_t c = xf_chunks(pl, x)[k];
        gboolean has = holder[c] == x->dst && !gave_up[c];
        if (x->dst == chunk_owner(pl, c))
          v->redundant |= RED_OWNER;
        else if (in_xfer[c] == t + 1)
          v->redundant |= RED_IN_XFER;
        else if (chunk_wanted_by(pl, c, x->dst)) {
          if (delivered[c])
            v->redundant |= RED_DEST;
          delivered[c] = 1;
        } else if (has)
          v->redundant |= RED_RELAY;
        holder[c] = x->dst;
        gave_up[c] = 0;
        in_xfer[c] = t + 1;
      }
    }
  }
  for (uint32_t c = 0; c < ids; c++)
    if (chunk_is_valid(pl, c) && !delivered[c])
      v->missing = TRUE;
  v->fails[NS_CHECK_COMPLETE] = v->missing || v->redundant != 0;
}

/* Contention by rates: a transfer runs at the smallest bandwidth on its
 * route, and a phase is contention-free when the rates crossing each
 * directed edge sum to at most its bandwidth (one transfer per edge on
 * uniform links). 1-port: one send and one receive per machine and phase. */
static void ref_links(const Plan *pl, const Original *o, Verdict *v)
{
  const Net *net = o->net;
  g_autofree double *load = g_new0(double, net->n_edges);
  g_autofree int *sends = g_new0(int, pl->p);
  g_autofree int *recvs = g_new0(int, pl->p);
  g_autoptr(GArray) touched = g_array_new(FALSE, FALSE, sizeof(int));
  for (guint a = 0, b; a < pl->xfers->len; a = b) {
    b = phase_end(pl, a);
    for (guint t = a; t < b; t++) {
      const Xfer *x = xf(pl, t);
      guint len;
      const int *route = route_of(o, x->src, x->dst, &len);
      double rate = G_MAXDOUBLE;
      for (guint k = 0; k < len; k++)
        rate = MIN(rate, net->bw[route[k]]);
      for (guint k = 0; k < len; k++) {
        if (load[route[k]] == 0)
          g_array_append_val(touched, route[k]);
        load[route[k]] += rate;
      }
      sends[x->src]++;
      recvs[x->dst]++;
    }
    for (guint i = 0; i < touched->len; i++) {
      int e = g_array_index(touched, int, i);
      if (load[e] > net->bw[e] * (1 + 1e-9))
        v->fails[NS_CHECK_CONTENTION] = TRUE;
      load[e] = 0;
    }
    g_array_set_size(touched, 0);
    for (guint t = a; t < b; t++) {
      const Xfer *x = xf(pl, t);
      if (sends[x->src] > 1 || recvs[x->dst] > 1)
        v->fails[NS_CHECK_PORT] = TRUE;
    }
    for (guint t = a; t < b; t++)
      sends[xf(pl, t)->src] = recvs[xf(pl, t)->dst] = 0;
  }
}

/* Program order as arcs: for every machine, every transfer it takes part
 * in (sending or receiving) in one phase precedes every one of its
 * transfers in the next phase it takes part in; transitivity gives the
 * rest. */
static void add_program_order(const Plan *pl, GArray *arcs)
{
  for (int m = 0; m < pl->p; m++) {
    g_autoptr(GArray) mine = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint t = 0; t < pl->xfers->len; t++)
      if (xf(pl, t)->src == m || xf(pl, t)->dst == m)
        g_array_append_val(mine, t);
    guint prev = 0, cur = 0; /* groups [prev, cur) and [cur, next) of mine */
    while (cur < mine->len) {
      guint next = cur;
      int ph = xf(pl, g_array_index(mine, guint, cur))->phase;
      while (next < mine->len && xf(pl, g_array_index(mine, guint, next))->phase == ph)
        next++;
      for (guint i = prev; i < cur; i++)
        for (guint j = cur; j < next; j++)
          g_array_append_val(arcs, ((Pair){ g_array_index(mine, guint, i),
                                            g_array_index(mine, guint, j) }));
      prev = cur;
      cur = next;
    }
  }
}

/* reach[u] = transfers reachable from u by a non-empty path (bit rows). */
static guint64 *reachability(guint n, const GArray *arcs, guint words)
{
  g_autofree guint *start = g_new0(guint, n + 1);
  g_autofree guint *succ = g_new(guint, arcs->len + 1);
  for (guint i = 0; i < arcs->len; i++)
    start[g_array_index(arcs, Pair, i).from + 1]++;
  for (guint u = 0; u < n; u++)
    start[u + 1] += start[u];
  g_autofree guint *fill = g_memdup2(start, sizeof(guint) * (n + 1));
  for (guint i = 0; i < arcs->len; i++)
    succ[fill[g_array_index(arcs, Pair, i).from]++] = g_array_index(arcs, Pair, i).to;
  guint64 *reach = g_new0(guint64, (gsize)n * words + 1);
  g_autofree guint *stack = g_new(guint, n + 1);
  for (guint u = 0; u < n; u++) {
    guint64 *row = &reach[(gsize)u * words];
    guint top = 0;
    stack[top++] = u;
    while (top > 0) {
      guint x = stack[--top];
      for (guint k = start[x]; k < start[x + 1]; k++) {
        guint y = succ[k];
        if (!(row[y / 64] >> (y % 64) & 1)) {
          row[y / 64] |= (guint64)1 << (y % 64);
          stack[top++] = y;
        }
      }
    }
  }
  return reach;
}

static gboolean reaches(const guint64 *reach, guint words, guint u, guint v)
{
  return reach[(gsize)u * words + v / 64] >> (v % 64) & 1;
}

/* Is some pair of transfers of different phases sharing a directed edge
 * not ordered earlier-phase-first? */
static gboolean contending_unordered(const Plan *pl, const Original *o, const guint64 *reach,
                                     guint words)
{
  g_autofree GArray **users = g_new0(GArray *, o->net->n_edges);
  for (guint t = 0; t < pl->xfers->len; t++) {
    guint len;
    const int *route = route_of(o, xf(pl, t)->src, xf(pl, t)->dst, &len);
    for (guint k = 0; k < len; k++) {
      if (users[route[k]] == NULL)
        users[route[k]] = g_array_new(FALSE, FALSE, sizeof(guint));
      g_array_append_val(users[route[k]], t);
    }
  }
  gboolean unordered = FALSE;
  for (int e = 0; e < o->net->n_edges; e++) {
    for (guint i = 0; users[e] != NULL && i < users[e]->len; i++)
      for (guint j = i + 1; j < users[e]->len; j++) {
        guint u = g_array_index(users[e], guint, i), w = g_array_index(users[e], guint, j);
        if (xf(pl, u)->phase < xf(pl, w)->phase && !reaches(reach, words, u, w))
          unordered = TRUE;
      }
    if (users[e] != NULL)
      g_array_unref(users[e]);
  }
  return unordered;
}

static gboolean scheme_orders_all_pairs(const char *scheme)
{
  return g_strcmp0(scheme, "sender-all") == 0 || g_strcmp0(scheme, "receiver-all") == 0;
}

/* Sync: program order plus the sync edges must be acyclic, and under
 * sender-all / receiver-all must order every two transfers of different
 * phases that share a directed edge. */
static void ref_sync(const Plan *pl, const Original *o, Verdict *v)
{
  /* A scheme without computed edges is only the planner's recommendation
   * (the simulator computes them): nothing to check but the edges. */
  gboolean pairwise = (pl->sync_set || pl->sync->len > 0) &&
                      scheme_orders_all_pairs(pl->sync_scheme);
  if (pl->sync->len == 0 && !pairwise)
    return;
  guint n = pl->xfers->len, words = (n + 63) / 64;
  g_autoptr(GArray) arcs = g_array_new(FALSE, FALSE, sizeof(Pair));
  add_program_order(pl, arcs);
  g_array_append_vals(arcs, pl->sync->data, pl->sync->len);
  g_autofree guint64 *reach = reachability(n, arcs, words);
  for (guint u = 0; u < n; u++)
    if (reaches(reach, words, u, u))
      v->cycle = TRUE;
  if (pairwise)
    v->unordered = contending_unordered(pl, o, reach, words);
  v->fails[NS_CHECK_SYNC] = v->cycle || v->unordered;
}

/* Coverage: the originals are planned for every machine of the topology,
 * so a plan with fewer machines does not cover it. */
static void ref_coverage(const Plan *pl, const Original *o, Verdict *v)
{
  v->fails[NS_CHECK_COVERAGE] = pl->p != ns_topology_n_machines(o->topo);
}

static void reference(const Plan *pl, const Original *o, Verdict *v)
{
  memset(v, 0, sizeof *v);
  ref_coverage(pl, o, v);
  for (guint t = 1; t < pl->xfers->len; t++)
    g_assert_cmpint(xf(pl, t - 1)->phase, <=, xf(pl, t)->phase);
  if (pl->store_forward && pl->coll == NS_COLL_ALLTOALL)
    ref_holdings_held(pl, v);
  else
    ref_holdings(pl, v);
  ref_links(pl, o, v);
  ref_sync(pl, o, v);
}

/* ======================================================================
 * Mutation operators (each returns FALSE when it does not apply)
 * ====================================================================== */

static guint pick(GRand *rng, guint n)
{
  g_assert_cmpuint(n, >, 0);
  return (guint)g_rand_int_range(rng, 0, (gint32)n);
}

static gboolean mutate_none(Plan *pl, GRand *rng)
{
  return TRUE;
}

/* Removes transfer i and the sync edges that name it. */
static void plan_remove(Plan *pl, guint i)
{
  g_array_remove_index(pl->xfers, i);
  guint w = 0;
  for (guint k = 0; k < pl->sync->len; k++) {
    Pair e = g_array_index(pl->sync, Pair, k);
    if (e.from == i || e.to == i)
      continue;
    e.from -= e.from > i;
    e.to -= e.to > i;
    g_array_index(pl->sync, Pair, w++) = e;
  }
  g_array_set_size(pl->sync, w);
}

/* A schedule left stale by a shrunk cluster: the last machine goes, with
 * every transfer it sends or receives and every chunk it originates or is
 * the destination of (all-to-all chunks renumbered for p - 1). */
static gboolean mutate_drop_machine(Plan *pl, GRand *rng)
{
  int gone = pl->p - 1, q = pl->p - 1;
  if (pl->p < 3 || (pl->coll == NS_COLL_BCAST && pl->root == gone))
    return FALSE;
  g_autoptr(GArray) kept = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  for (guint i = pl->xfers->len; i-- > 0;) {
    Xfer *x = xf(pl, i);
    if (x->src == gone || x->dst == gone) {
      plan_remove(pl, i);
      continue;
    }
    g_array_set_size(kept, 0);
    for (guint k = 0; k < x->n; k++) {
      uint32_t c = xf_chunks(pl, x)[k];
      if (pl->coll == NS_COLL_ALLTOALL) {
        int o = (int)(c / (uint32_t)pl->p), d = (int)(c % (uint32_t)pl->p);
        if (o == gone || d == gone)
          continue;
        c = (uint32_t)(o * q + d);
      } else if (pl->coll == NS_COLL_ALLGATHER && (int)c == gone) {
        continue;
      }
      g_array_append_val(kept, c);
    }
    if (kept->len == 0) {
      plan_remove(pl, i);
      continue;
    }
    x->first = plan_add_list(pl, kept->len, (const uint32_t *)(void *)kept->data);
    x->n = kept->len;
  }
  pl->p = q;
  return TRUE;
}

static gboolean mutate_drop(Plan *pl, GRand *rng)
{
  if (pl->xfers->len == 0)
    return FALSE;
  plan_remove(pl, pick(rng, pl->xfers->len));
  return TRUE;
}

/* Phase index in [0, n_phases] other than `not`; n_phases opens a new
 * last phase. */
static int other_phase(Plan *pl, GRand *rng, int not)
{
  int ph = (int)pick(rng, (guint)pl->n_phases);
  ph += ph >= not;
  if (ph == pl->n_phases)
    pl->n_phases++;
  return ph;
}

static gboolean mutate_dup_same_phase(Plan *pl, GRand *rng)
{
  if (pl->xfers->len == 0)
    return FALSE;
  Xfer x = *xf(pl, pick(rng, pl->xfers->len));
  g_array_append_val(pl->xfers, x);
  return TRUE;
}

static gboolean mutate_dup_other_phase(Plan *pl, GRand *rng)
{
  if (pl->xfers->len == 0)
    return FALSE;
  Xfer x = *xf(pl, pick(rng, pl->xfers->len));
  x.phase = other_phase(pl, rng, x.phase);
  g_array_append_val(pl->xfers, x);
  return TRUE;
}

/* A random transfer matching `want`, or -1 after a bounded search. */
static gint64 pick_where(const Plan *pl, GRand *rng, gboolean (*want)(const Plan *, const Xfer *))
{
  if (pl->xfers->len == 0)
    return -1;
  guint start = pick(rng, pl->xfers->len);
  for (guint k = 0; k < pl->xfers->len; k++) {
    guint i = (start + k) % pl->xfers->len;
    if (want(pl, xf(pl, i)))
      return i;
  }
  return -1;
}

static gboolean not_first_phase(const Plan *pl, const Xfer *x)
{
  return x->phase > 0;
}

static gboolean mutate_move_earlier(Plan *pl, GRand *rng)
{
  gint64 i = pick_where(pl, rng, not_first_phase);
  if (i < 0)
    return FALSE;
  xf(pl, (guint)i)->phase = (int)pick(rng, (guint)xf(pl, (guint)i)->phase);
  return TRUE;
}

static gboolean mutate_move_later(Plan *pl, GRand *rng)
{
  if (pl->xfers->len == 0)
    return FALSE;
  Xfer *x = xf(pl, pick(rng, pl->xfers->len));
  x->phase += 1 + (int)pick(rng, (guint)(pl->n_phases - x->phase));
  if (x->phase == pl->n_phases)
    pl->n_phases++;
  return TRUE;
}

static gboolean mutate_swap_phases(Plan *pl, GRand *rng)
{
  if (pl->xfers->len < 2)
    return FALSE;
  guint i = pick(rng, pl->xfers->len), start = pick(rng, pl->xfers->len);
  for (guint k = 0; k < pl->xfers->len; k++) {
    guint j = (start + k) % pl->xfers->len;
    if (xf(pl, j)->phase != xf(pl, i)->phase) {
      int ph = xf(pl, i)->phase;
      xf(pl, i)->phase = xf(pl, j)->phase;
      xf(pl, j)->phase = ph;
      return TRUE;
    }
  }
  return FALSE;
}

static gboolean mutate_swap_ends(Plan *pl, GRand *rng)
{
  if (pl->xfers->len == 0)
    return FALSE;
  Xfer *x = xf(pl, pick(rng, pl->xfers->len));
  int src = x->src;
  x->src = x->dst;
  x->dst = src;
  return TRUE;
}

/* Gives transfer i a new chunk list: its own with chunk k replaced by c
 * (insert FALSE) or with c inserted at position k (insert TRUE). */
static void rewrite_chunks(Plan *pl, guint i, guint k, uint32_t c, gboolean insert)
{
  Xfer x = *xf(pl, i);
  g_autofree uint32_t *list = g_new(uint32_t, x.n + 1);
  const uint32_t *old = xf_chunks(pl, &x);
  guint n = 0;
  for (guint j = 0; j < x.n; j++) {
    if (j == k)
      list[n++] = c;
    if (j != k || insert)
      list[n++] = old[j];
  }
  xf(pl, i)->first = plan_add_list(pl, n, list);
  xf(pl, i)->n = n;
}

static gboolean mutate_change_chunk(Plan *pl, GRand *rng)
{
  guint valid = 0;
  for (uint32_t c = 0; c < n_chunk_ids(pl); c++)
    valid += chunk_is_valid(pl, c);
  if (pl->xfers->len == 0 || valid < 2) /* e.g. a one-segment bcast */
    return FALSE;
  guint i = pick(rng, pl->xfers->len), k = pick(rng, xf(pl, i)->n);
  uint32_t old = xf_chunks(pl, xf(pl, i))[k], c;
  do
    c = pick(rng, n_chunk_ids(pl));
  while (c == old || !chunk_is_valid(pl, c));
  rewrite_chunks(pl, i, k, c, FALSE);
  return TRUE;
}

static gboolean mutate_dup_chunk(Plan *pl, GRand *rng)
{
  if (pl->xfers->len == 0)
    return FALSE;
  guint i = pick(rng, pl->xfers->len);
  uint32_t c = xf_chunks(pl, xf(pl, i))[pick(rng, xf(pl, i)->n)];
  rewrite_chunks(pl, i, pick(rng, xf(pl, i)->n), c, TRUE);
  return TRUE;
}

static gboolean mutate_merge_phases(Plan *pl, GRand *rng)
{
  if (pl->n_phases < 2)
    return FALSE;
  int k = (int)pick(rng, (guint)pl->n_phases - 1); /* k and k+1 become one */
  for (guint i = 0; i < pl->xfers->len; i++)
    xf(pl, i)->phase -= xf(pl, i)->phase > k;
  pl->n_phases--;
  return TRUE;
}

static gboolean mutate_split_phase(Plan *pl, GRand *rng)
{
  g_autofree guint *size = g_new0(guint, (gsize)pl->n_phases + 1);
  g_autoptr(GArray) big = g_array_new(FALSE, FALSE, sizeof(int));
  for (guint i = 0; i < pl->xfers->len; i++)
    size[xf(pl, i)->phase]++;
  for (int ph = 0; ph < pl->n_phases; ph++)
    if (size[ph] >= 2)
      g_array_append_val(big, ph);
  if (big->len == 0)
    return FALSE;
  int k = g_array_index(big, int, pick(rng, big->len));
  /* A random non-empty proper subset of phase k goes to the new phase
   * k+1: `moves` of its size[k] transfers, each still unseen one moving
   * with probability (still to move) / (still to see). */
  guint moves = 1 + pick(rng, size[k] - 1), seen = 0, moved = 0;
  for (guint i = 0; i < pl->xfers->len; i++) {
    Xfer *x = xf(pl, i);
    if (x->phase > k) {
      x->phase++;
    } else if (x->phase == k) {
      guint left = size[k] - seen++;
      if (pick(rng, left) < moves - moved) {
        x->phase = k + 1;
        moved++;
      }
    }
  }
  pl->n_phases++;
  return TRUE;
}

/* (transfer, chunk position) pairs whose receiver is not the chunk's
 * owner, optionally only alltoall intermediates. */
static GArray *receipts(const Plan *pl, gboolean relays_only)
{
  GArray *r = g_array_new(FALSE, FALSE, sizeof(Pair));
  for (guint i = 0; i < pl->xfers->len; i++) {
    const Xfer *x = xf(pl, i);
    for (guint k = 0; k < x->n; k++) {
      uint32_t c = xf_chunks(pl, x)[k];
      if (x->dst != chunk_owner(pl, c) && (!relays_only || !chunk_wanted_by(pl, c, x->dst)))
        g_array_append_val(r, ((Pair){ i, k }));
    }
  }
  return r;
}

/* A new last phase with the single transfer src -> dst carrying c. */
static void append_last_phase(Plan *pl, int src, int dst, uint32_t c)
{
  plan_append(pl, pl->n_phases++, src, dst, 1, &c);
}

/* A machine that received a chunk sends it back to its owner: an
 * allgather block to its origin, a bcast segment to the root, an alltoall
 * message to the machine it came from. */
static gboolean mutate_back_to_owner(Plan *pl, GRand *rng)
{
  g_autoptr(GArray) r = receipts(pl, FALSE);
  if (r->len == 0)
    return FALSE;
  Pair at = g_array_index(r, Pair, pick(rng, r->len));
  const Xfer *x = xf(pl, at.from);
  uint32_t c = xf_chunks(pl, x)[at.to];
  append_last_phase(pl, x->dst, chunk_owner(pl, c), c);
  return TRUE;
}

/* The owner sends a chunk again to a machine that received it already:
 * for alltoall an intermediate (relay) when the algorithm has any, else
 * the destination. */
static gboolean mutate_redeliver(Plan *pl, GRand *rng)
{
  g_autoptr(GArray) r = receipts(pl, TRUE);
  if (r->len == 0) {
    g_array_unref(r);
    r = receipts(pl, FALSE);
  }
  if (r->len == 0)
    return FALSE;
  Pair at = g_array_index(r, Pair, pick(rng, r->len));
  const Xfer *x = xf(pl, at.from);
  uint32_t c = xf_chunks(pl, x)[at.to];
  append_last_phase(pl, chunk_owner(pl, c), x->dst, c);
  return TRUE;
}

/* A machine that received a message as a relay sends it again, in a new
 * last phase, to its destination: with store-and-forward relays it gave
 * its copy up when it forwarded it. */
static gboolean mutate_forward_gone(Plan *pl, GRand *rng)
{
  if (pl->coll != NS_COLL_ALLTOALL)
    return FALSE;
  g_autoptr(GArray) r = receipts(pl, TRUE);
  if (r->len == 0)
    return FALSE;
  Pair at = g_array_index(r, Pair, pick(rng, r->len));
  const Xfer *x = xf(pl, at.from);
  uint32_t c = xf_chunks(pl, x)[at.to];
  append_last_phase(pl, x->dst, (int)(c % (uint32_t)pl->p), c);
  return TRUE;
}

/* A relay forwards a message it received a second time, in the same
 * phase as its first forwarding, to another machine. */
static gboolean mutate_forward_twice(Plan *pl, GRand *rng)
{
  if (pl->coll != NS_COLL_ALLTOALL || pl->p < 3)
    return FALSE;
  g_autoptr(GArray) fwd = g_array_new(FALSE, FALSE, sizeof(Pair)); /* relays' sends */
  for (guint i = 0; i < pl->xfers->len; i++) {
    const Xfer *x = xf(pl, i);
    for (guint k = 0; k < x->n; k++)
      if (x->src != chunk_owner(pl, xf_chunks(pl, x)[k]))
        g_array_append_val(fwd, ((Pair){ i, k }));
  }
  if (fwd->len == 0)
    return FALSE;
  Pair at = g_array_index(fwd, Pair, pick(rng, fwd->len));
  Xfer x = *xf(pl, at.from);
  uint32_t c = xf_chunks(pl, &x)[at.to];
  int z = (int)pick(rng, (guint)pl->p - 1);
  z += z >= x.src;
  if (z == x.dst)
    z = (z + 1) % pl->p == x.src ? (z + 2) % pl->p : (z + 1) % pl->p;
  plan_append(pl, x.phase, x.src, z, 1, &c);
  return TRUE;
}

static gboolean mutate_sync_drop(Plan *pl, GRand *rng)
{
  if (pl->sync->len == 0)
    return FALSE;
  g_array_remove_index(pl->sync, pick(rng, pl->sync->len));
  return TRUE;
}

static gboolean mutate_sync_reverse(Plan *pl, GRand *rng)
{
  if (pl->sync->len == 0)
    return FALSE;
  Pair *e = &g_array_index(pl->sync, Pair, pick(rng, pl->sync->len));
  *e = (Pair){ e->to, e->from };
  return TRUE;
}

/* A sync edge from a later transfer of machine m to an earlier one of m:
 * program order runs the other way, so the two close a cycle. */
static gboolean mutate_sync_cycle(Plan *pl, GRand *rng)
{
  for (int attempt = 0; attempt < 64 && pl->xfers->len > 0; attempt++) {
    guint a = pick(rng, pl->xfers->len);
    int m = pick(rng, 2) ? xf(pl, a)->src : xf(pl, a)->dst;
    g_autoptr(GArray) later = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint b = 0; b < pl->xfers->len; b++)
      if ((xf(pl, b)->src == m || xf(pl, b)->dst == m) && xf(pl, b)->phase > xf(pl, a)->phase)
        g_array_append_val(later, b);
    if (later->len > 0) {
      guint b = g_array_index(later, guint, pick(rng, later->len));
      g_array_append_val(pl->sync, ((Pair){ b, a }));
      return TRUE;
    }
  }
  return FALSE;
}

typedef struct {
  const char *name;
  gboolean (*apply)(Plan *pl, GRand *rng);
  guint reps; /* mutants per original */
} Operator;

static const Operator operators[] = {
  { "original", mutate_none, 1 },
  { "drop", mutate_drop, 1 },
  { "dup-same-phase", mutate_dup_same_phase, 1 },
  { "dup-other-phase", mutate_dup_other_phase, 1 },
  { "move-earlier", mutate_move_earlier, 1 },
  { "move-later", mutate_move_later, 1 },
  { "swap-phases", mutate_swap_phases, 1 },
  { "swap-src-dst", mutate_swap_ends, 1 },
  { "change-chunk", mutate_change_chunk, 1 },
  { "dup-chunk", mutate_dup_chunk, 1 },
  { "merge-phases", mutate_merge_phases, 1 },
  { "split-phase", mutate_split_phase, 1 },
  { "back-to-owner", mutate_back_to_owner, 1 },
  { "redeliver", mutate_redeliver, 1 },
  { "sync-drop", mutate_sync_drop, 2 },
  { "sync-reverse", mutate_sync_reverse, 2 },
  { "sync-cycle", mutate_sync_cycle, 1 },
  { "drop-machine", mutate_drop_machine, 1 },
  { "forward-gone", mutate_forward_gone, 3 },
  { "forward-twice", mutate_forward_twice, 3 },
};

#define N_OPS G_N_ELEMENTS(operators)

/* ======================================================================
 * Verifier versus reference
 * ====================================================================== */

static const NsCheck compared[] = { NS_CHECK_DATAFLOW, NS_CHECK_COMPLETE, NS_CHECK_CONTENTION,
                                    NS_CHECK_PORT, NS_CHECK_SYNC, NS_CHECK_COVERAGE };

enum { FALSE_ACCEPT, FALSE_REJECT };

/* Details of the smallest mismatching mutant of one kind, for the log. */
typedef struct {
  guint n_transfers;
  char *text;
} Repro;

/* The verifier gaps being closed (see known_gap). */
enum { GAP_A, GAP_B, GAP_C, N_GAPS, GAP_NONE = N_GAPS };

typedef struct {
  guint mutants;
  guint wrong[NS_N_CHECKS][2]; /* [check][FALSE_ACCEPT / FALSE_REJECT] */
  guint known[N_GAPS];         /* false accepts of the gaps (a)-(c) */
  guint lines[NS_N_CHECKS][2]; /* one-line reports printed */
  Repro smallest[NS_N_CHECKS][2];
} OpStats;

#define LINES_PER_KIND 3

static char *redundancy_names(int kinds)
{
  static const char *const names[] = { "to-owner", "dest-twice", "relay-twice", "in-one-transfer" };
  GString *out = g_string_new(NULL);
  for (guint i = 0; i < G_N_ELEMENTS(names); i++)
    if (kinds & (1 << i))
      g_string_append_printf(out, "%s%s", out->len ? "," : "", names[i]);
  if (out->len == 0)
    g_string_append(out, "none");
  return g_string_free(out, FALSE);
}

static const char *const gap_names[] = {
  [GAP_A] = "(a) sync cycle",
  [GAP_B] = "(b) redundant delivery",
  [GAP_C] = "(c) sync cycle, no pair-wise scheme",
};

/* Which known verifier gap a false accept belongs to: (a) program order
 * plus sync edges with a cycle went unnoticed, (b) a redundant delivery
 * (to the owner, a relay twice, twice in one transfer) went unnoticed,
 * (c) as (a) where the scheme is not pair-wise, so that the sync check
 * did not run at all. Anything else is a new disagreement. */
static int known_gap(const Verdict *v, const Plan *pl, NsCheck c)
{
  if (c == NS_CHECK_COMPLETE && v->redundant != 0 && !v->missing)
    return GAP_B;
  if (c == NS_CHECK_SYNC && v->cycle && !v->unordered)
    return scheme_orders_all_pairs(pl->sync_scheme) ? GAP_A : GAP_C;
  return GAP_NONE;
}

static char *describe_mutant(const Original *o, const Operator *op, guint32 seed,
                             const NsSchedule *m)
{
  GString *out = g_string_new(NULL);
  g_string_append_printf(out, "mutant %s, operator %s, seed %u: %u phases, %u transfers",
                         o->label, op->name, seed, ns_schedule_n_phases(m),
                         (guint)ns_schedule_n_transfers(m));
  for (uint32_t p = 0; p < ns_schedule_n_phases(m); p++) {
    g_autofree char *text = ns_schedule_phase_text(m, p, TRUE);
    g_string_append_printf(out, "\n    phase %u: %s", p, text);
  }
  if (m->sync->len > 0 || m->sync_scheme != NULL) {
    g_string_append_printf(out, "\n    sync (%s):", m->sync_scheme ? m->sync_scheme : "no scheme");
    for (guint i = 0; i < m->sync->len; i++) {
      const NsSyncEdge *e = &g_array_index(m->sync, NsSyncEdge, i);
      g_string_append_printf(out, " #%u->#%u", e->from, e->to);
    }
  }
  return g_string_free(out, FALSE);
}

static void note_mismatch(OpStats *st, const Original *o, const Operator *op, guint32 seed,
                          const NsSchedule *m, const Plan *seen, const Verdict *v, NsCheck c,
                          int dir, uint64_t failures)
{
  st->wrong[c][dir]++;
  int gap = dir == FALSE_ACCEPT ? known_gap(v, seen, c) : GAP_NONE;
  if (gap != GAP_NONE)
    st->known[gap]++;
  if (st->lines[c][dir]++ < LINES_PER_KIND) {
    g_autofree char *red = redundancy_names(v->redundant);
    g_test_message("%s: %s on %s, seed %u: check %s: reference %s, verifier %" G_GUINT64_FORMAT
                   " failures%s%s [redundant: %s; missing %d; cycle %d; unordered %d]",
                   dir == FALSE_ACCEPT ? "FALSE ACCEPT" : "FALSE REJECT", op->name, o->label,
                   seed, ns_check_name(c), v->fails[c] ? "fails" : "passes", failures,
                   gap != GAP_NONE ? ", known gap " : "", gap != GAP_NONE ? gap_names[gap] : "",
                   red, v->missing, v->cycle, v->unordered);
  }
  Repro *r = &st->smallest[c][dir];
  if (r->text == NULL || ns_schedule_n_transfers(m) < r->n_transfers) {
    g_free(r->text);
    r->text = describe_mutant(o, op, seed, m);
    r->n_transfers = (guint)ns_schedule_n_transfers(m);
  }
}

static void judge(const Original *o, const Operator *op, guint32 seed, const NsSchedule *m,
                  OpStats *st)
{
  g_autoptr(Plan) seen = plan_read(m);
  Verdict v;
  reference(seen, o, &v);
  /* 1-port explicitly: the reference checks 1-port whatever the default. */
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.port = NS_PORT_ONE;
  NsVerifyReport r = { 0 };
  GError *error = NULL;
  g_assert_true(ns_verify(o->topo, m, &opt, &r, &error));
  g_assert_no_error(error);
  for (guint k = 0; k < G_N_ELEMENTS(compared); k++) {
    NsCheck c = compared[k];
    gboolean verifier_fails = r.failures[c] > 0;
    if (verifier_fails != v.fails[c])
      note_mismatch(st, o, op, seed, m, seen, &v, c, v.fails[c] ? FALSE_ACCEPT : FALSE_REJECT,
                    r.failures[c]);
  }
  ns_verify_report_clear(&r);
}

/* Seed of mutant `rep` of operator `op` on original number `orig`. */
static guint32 mutant_seed(guint orig, guint op, guint rep)
{
  return (guint32)(orig * 7919u + op * 131u + rep + 1u) * 2654435761u;
}

/* Mutants of originals declared store-and-forward. */
static guint held_mutants;

static void mutate_original(const Original *o, guint orig_no, OpStats *stats)
{
  for (guint op = 0; op < N_OPS; op++)
    for (guint rep = 0; rep < operators[op].reps; rep++) {
      guint32 seed = mutant_seed(orig_no, op, rep);
      g_autoptr(GRand) rng = g_rand_new_with_seed(seed);
      g_autoptr(Plan) pl = plan_read(o->s);
      if (!operators[op].apply(pl, rng))
        continue;
      g_autoptr(NsSchedule) m = plan_write(pl, o->s);
      stats[op].mutants++;
      held_mutants += o->s->store_forward;
      judge(o, &operators[op], seed, m, &stats[op]);
    }
}

/* Plans every case of `coll` on `fabric` (plain and, when small enough,
 * with sync edges) and mutates each. */
static void run_fabric(const Fabric *f, NsCollective coll, guint *orig_no, OpStats *stats,
                       guint *n_originals)
{
  g_autoptr(NsTopology) topo = f->make(f);
  g_autofree char *label = fabric_label(f);
  Net net;
  net_init(&net, f, topo);
  for (guint i = 0; i < G_N_ELEMENTS(plan_cases); i++) {
    const PlanCase *pc = &plan_cases[i];
    if (pc->coll != coll || (f->only != NULL && strcmp(pc->algorithm, f->only) != 0))
      continue;
    gboolean sync = pc->synced && ns_topology_n_machines(topo) <= SYNC_MAX_MACHINES;
    for (gint k = -1; k < (sync ? (gint)G_N_ELEMENTS(sync_schemes) : 0); k++) {
      const char *scheme = k < 0 ? NULL : sync_schemes[k];
      NsSchedule *s = plan_case(topo, pc, scheme);
      if (s == NULL)
        continue;
      Original o;
      original_init(&o, topo, &net, s, label, pc, scheme);
      mutate_original(&o, (*orig_no)++, stats);
      (*n_originals)++;
      original_clear(&o);
    }
  }
  net_clear(&net);
}

/* Prints the collective's table and the smallest mismatch of each kind;
 * adds its false accepts and rejects to the totals. */
static void report(NsCollective coll, OpStats *stats, guint n_originals, guint *all_accepts,
                   guint *all_rejects)
{
  guint total = 0, accepts = 0, rejects = 0, known = 0;
  g_test_message("%s: %u originals; per operator: mutants, false accepts / false rejects per "
                 "check (dataflow complete contention port sync coverage)",
                 ns_collective_name(coll), n_originals);
  for (guint op = 0; op < N_OPS; op++) {
    const OpStats *st = &stats[op];
    GString *line = g_string_new(NULL);
    for (guint k = 0; k < G_N_ELEMENTS(compared); k++) {
      guint fa = st->wrong[compared[k]][FALSE_ACCEPT], fr = st->wrong[compared[k]][FALSE_REJECT];
      g_string_append_printf(line, " %u/%u", fa, fr);
      accepts += fa;
      rejects += fr;
    }
    g_test_message("  %-16s %5u mutants |%s | known gaps a/b/c %u/%u/%u", operators[op].name,
                   st->mutants, line->str, st->known[GAP_A], st->known[GAP_B], st->known[GAP_C]);
    g_string_free(line, TRUE);
    total += st->mutants;
    for (int g = 0; g < N_GAPS; g++)
      known += st->known[g];
  }
  g_test_message("%s: %u mutants, %u false accepts (%u of the known gaps (a)-(c)), %u false "
                 "rejects",
                 ns_collective_name(coll), total, accepts, known, rejects);
  for (guint op = 0; op < N_OPS; op++)
    for (guint k = 0; k < G_N_ELEMENTS(compared); k++)
      for (int dir = 0; dir < 2; dir++) {
        Repro *r = &stats[op].smallest[compared[k]][dir];
        if (r->text == NULL)
          continue;
        g_test_message("smallest %s of %s on check %s: %s",
                       dir == FALSE_ACCEPT ? "false accept" : "false reject", operators[op].name,
                       ns_check_name(compared[k]), r->text);
        g_free(r->text);
      }
  *all_accepts += accepts;
  *all_rejects += rejects;
}

static void mutate_collective(NsCollective coll, guint *accepts, guint *rejects)
{
  OpStats stats[N_OPS];
  memset(stats, 0, sizeof stats);
  guint orig_no = 1000 * (guint)coll, n_originals = 0;
  for (guint f = 0; f < G_N_ELEMENTS(fabrics); f++)
    run_fabric(&fabrics[f], coll, &orig_no, stats, &n_originals);
  guint total = 0;
  for (guint op = 0; op < N_OPS; op++)
    total += stats[op].mutants;
  g_assert_cmpuint(total, >=, 300);
  report(coll, stats, n_originals, accepts, rejects);
}

/* All three collectives in one test case, so that every table is printed
 * before the verdict. */
static void test_mutants(void)
{
  guint accepts = 0, rejects = 0;
  mutate_collective(NS_COLL_ALLTOALL, &accepts, &rejects);
  mutate_collective(NS_COLL_ALLGATHER, &accepts, &rejects);
  mutate_collective(NS_COLL_BCAST, &accepts, &rejects);
  g_test_message("store-and-forward originals: %u mutants", held_mutants);
  g_assert_cmpuint(held_mutants, >=, 1000);
  g_assert_cmpuint(accepts, ==, 0);
  g_assert_cmpuint(rejects, ==, 0);
}

/* The reference itself, on hand-made cases of Figure 1 (n0-n2 on s0,
 * n3-n4 on s3, n5 on s1; s0 and s3 hang from s1) whose verdicts are
 * worked out by hand. */
static Verdict judge_by_hand(const NsTopology *topo, const Net *net, NsSchedule *s)
{
  PlanCase pc = { s->collective, "hand", 0, FALSE, FALSE };
  Original o;
  original_init(&o, topo, net, s, "faraj-fig1.topo", &pc, NULL);
  g_autoptr(Plan) pl = plan_read(s);
  Verdict v;
  reference(pl, &o, &v);
  g_free(o.tm); /* o.s is borrowed */
  g_free(o.label);
  return v;
}

static void test_reference_sanity(void)
{
  g_autoptr(NsTopology) topo = ns_test_topology("faraj-fig1.topo");
  Net net;
  net_init(&net, &fabrics[0], topo);
  const char *names[] = { "n0", "n1", "n2", "n3", "n4", "n5" };
  /* Ring n0 -> n1 -> ... -> n5 -> n0 forwarding what arrived: correct and,
   * on this numbering, contention-free. */
  g_autoptr(NsSchedule) ring = ns_schedule_new(NS_COLL_ALLGATHER, "hand", 6, names, 64);
  for (int step = 0; step < 5; step++) {
    ns_schedule_begin_phase(ring);
    for (int i = 0; i < 6; i++)
      ns_schedule_add(ring, i, (i + 1) % 6, (uint32_t)((i - step + 6) % 6));
  }
  Verdict v = judge_by_hand(topo, &net, ring);
  for (guint k = 0; k < G_N_ELEMENTS(compared); k++)
    g_assert_false(v.fails[compared[k]]);
  /* One step more sends every block back to its origin. */
  ns_schedule_begin_phase(ring);
  for (int i = 0; i < 6; i++)
    ns_schedule_add(ring, i, (i + 1) % 6, (uint32_t)((i + 1) % 6));
  v = judge_by_hand(topo, &net, ring);
  g_assert_cmpint(v.redundant, ==, RED_OWNER);
  g_assert_false(v.missing);
  g_assert_false(v.fails[NS_CHECK_DATAFLOW]);
  /* A sync edge against program order: n0's phase-5 send (#30) before its
   * phase-0 send (#0). */
  ns_schedule_add_sync(ring, 30, 0);
  v = judge_by_hand(topo, &net, ring);
  g_assert_true(v.cycle);
  g_assert_true(v.fails[NS_CHECK_SYNC]);

  /* Alltoall: n0->n3 and n1->n4 share s0->s1 and s1->s3; n3 relays n2's
   * message for n5 in the phase it gets it (data flow), n1 sends twice
   * (port), and n2's message for n5 reaches n5 twice. */
  g_autoptr(NsSchedule) a2a = ns_schedule_new(NS_COLL_ALLTOALL, "hand", 6, names, 64);
  ns_schedule_begin_phase(a2a);
  ns_schedule_add(a2a, 0, 3, ns_a2a_chunk(6, 0, 3));
  ns_schedule_add(a2a, 1, 4, ns_a2a_chunk(6, 1, 4));
  v = judge_by_hand(topo, &net, a2a);
  g_assert_true(v.fails[NS_CHECK_CONTENTION]);
  g_assert_false(v.fails[NS_CHECK_PORT] || v.fails[NS_CHECK_DATAFLOW] || v.redundant);
  g_assert_true(v.missing);
  ns_schedule_begin_phase(a2a);
  ns_schedule_add(a2a, 2, 3, ns_a2a_chunk(6, 2, 5));
  ns_schedule_add(a2a, 3, 5, ns_a2a_chunk(6, 2, 5));
  ns_schedule_add(a2a, 1, 0, ns_a2a_chunk(6, 1, 0));
  ns_schedule_add(a2a, 1, 2, ns_a2a_chunk(6, 1, 2));
  ns_schedule_begin_phase(a2a);
  ns_schedule_add(a2a, 2, 5, ns_a2a_chunk(6, 2, 5));
  v = judge_by_hand(topo, &net, a2a);
  g_assert_true(v.fails[NS_CHECK_DATAFLOW]);
  g_assert_true(v.fails[NS_CHECK_PORT]);
  g_assert_cmpint(v.redundant, ==, RED_DEST);
  /* The relay n3 gets n2's message for n5 a second time. */
  ns_schedule_add(a2a, 2, 3, ns_a2a_chunk(6, 2, 5));
  v = judge_by_hand(topo, &net, a2a);
  g_assert_cmpint(v.redundant, ==, RED_DEST | RED_RELAY);

  /* Bcast from n5, two segments; segment 1 listed twice in one transfer. */
  g_autoptr(NsSchedule) bc = ns_schedule_new(NS_COLL_BCAST, "hand", 6, names, 64);
  bc->root = 5;
  bc->n_segments = 2;
  uint32_t twice[] = { 0, 1, 1 };
  ns_schedule_begin_phase(bc);
  ns_schedule_add_chunks(bc, 5, 0, 3, twice);
  v = judge_by_hand(topo, &net, bc);
  g_assert_cmpint(v.redundant, ==, RED_IN_XFER);
  g_assert_true(v.missing);
  net_clear(&net);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/verify-mutants/reference-sanity", test_reference_sanity);
  g_test_add_func("/verify-mutants/planners", test_mutants);
  return g_test_run();
}
