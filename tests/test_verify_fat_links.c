/* netsched — the verifier's link checks on k-ary n-trees against a count
 * of the topology's own routes. The verifier reads fat-tree routes from
 * its closed form (power-of-two arities) or its climbs (other arities;
 * sched/ir/route_table_internal.h) and marks them in a first try that
 * gives up at the first shared edge (check_unshared in
 * sched/verify/verify.c). The mutation test's operators make a machine
 * send or receive twice, which the machines' own links catch at the
 * bottom level; here no machine sends or receives twice in a phase, so
 * that every shared edge is inside the fabric, up to the top level (and
 * in a few phases they do, all-port machines sharing their own links). On
 * 300 seeded cases — k-ary n-trees of k = 2..4 (and 8), n = 2..4, under
 * d-mod-k and s-mod-k, random partial permutations, half of their phases
 * kept free of contention — the contention count (every transfer past an
 * edge's first), the port count under 1-port, the busiest edge's use,
 * the longest route and each edge finding (phase, edge, its first
 * transfer) are the reference's — with the machines' own links checked
 * by a tag per machine (the default on the closed form) and by marks
 * (NETSCHED_VERIFY_OWN_LINKS=marks). */
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"

#define N_CASES 300

static NsTopology *fat_tree_for(guint i)
{
  static const int shapes[][2] = { { 2, 2 }, { 2, 3 }, { 2, 4 }, { 4, 2 }, { 4, 3 },
                                   { 3, 2 }, { 3, 3 }, { 8, 2 } };
  const int *kn = shapes[i % G_N_ELEMENTS(shapes)];
  NsShapeOptions opt;
  ns_shape_options_init(&opt);
  GError *error = NULL;
  NsTopology *t = ns_shape_fattree(kn[0], kn[1], &opt, "", &error);
  g_assert_no_error(error);
  if ((i / G_N_ELEMENTS(shapes)) % 2 == 0)
    return t;
  NsTopology *smodk = ns_test_with_routing(t, "smodk");
  ns_topology_free(t);
  return smodk;
}

/* The reference: per phase, the transfers on each directed edge of the
 * topology's routes, in order. */
typedef struct {
  uint64_t contention;  /* Σ over phases and edges of (uses − 1)+ */
  uint64_t max_use;
  int max_len;          /* the longest route, in links */
  uint64_t ports;       /* Σ over phases and machines of sends past 1, and receives past 1 */
  GHashTable *shared;   /* "phase:edge" of each edge used twice or more → its first transfer */
} Reference;

static void reference_phase(Reference *ref, const NsTopology *t, const NsSchedule *s,
                            uint32_t phase, uint32_t *uses, int64_t *owner, int *route,
                            uint32_t *sends, uint32_t *recvs)
{
  NsPhase ph = ns_schedule_phase(s, phase);
  memset(uses, 0, sizeof(uint32_t) * (gsize)ns_topology_n_edges(t));
  memset(sends, 0, sizeof(uint32_t) * (gsize)s->n_machines);
  memset(recvs, 0, sizeof(uint32_t) * (gsize)s->n_machines);
  for (uint64_t i = 0; i < ph.n; i++) {
    const NsTransfer *tr = &ph.transfers[i];
    ref->ports += (++sends[tr->src] > 1) + (++recvs[tr->dst] > 1);
    int len = ns_topology_route(t, ns_topology_machine_node(t, tr->src),
                                ns_topology_machine_node(t, tr->dst), route);
    ref->max_len = MAX(ref->max_len, len);
    for (int k = 0; k < len; k++) {
      int e = route[k];
      if (uses[e] == 0)
        owner[e] = (int64_t)(ph.first + i);
      if (++uses[e] >= 2) {
        ref->contention++;
        g_hash_table_insert(ref->shared, g_strdup_printf("%u:%d", phase, e),
                            GINT_TO_POINTER((int)owner[e] + 1));
      }
      ref->max_use = MAX(ref->max_use, uses[e]);
    }
  }
}

/* Random phases, most in which no machine sends or receives twice:
 * senders in random order, each to a random machine not receiving yet; in
 * a contention-free phase a transfer is kept only when its route crosses
 * no edge the phase used. One phase in five lets machines send and
 * receive any number of times (their own links shared: what all-port
 * machines may do). */
static NsSchedule *random_schedule(const NsTopology *t, GRand *rng, uint64_t *free_phases)
{
  NsSchedule *s = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "random", 1000);
  int p = s->n_machines, n_edges = ns_topology_n_edges(t);
  g_autofree uint8_t *used = g_new(uint8_t, n_edges);
  g_autofree gboolean *receiving = g_new(gboolean, p);
  g_autofree int *order = g_new(int, p), *route = g_new(int, ns_topology_max_route_len(t) + 1);
  int phases = g_rand_int_range(rng, 1, 13);
  for (int ph = 0; ph < phases; ph++) {
    gboolean contention_free = g_rand_boolean(rng), any = g_rand_int_range(rng, 0, 5) == 0;
    *free_phases += contention_free;
    ns_schedule_begin_phase(s);
    memset(used, 0, (gsize)n_edges);
    memset(receiving, 0, sizeof(gboolean) * (gsize)p);
    for (int m = 0; m < p; m++)
      order[m] = m;
    ns_test_shuffle(rng, order, p);
    for (int k = 0; k < p; k++) {
      int a = any ? g_rand_int_range(rng, 0, p) : order[k], b = g_rand_int_range(rng, 0, p);
      if (b == a || (receiving[b] && !any))
        continue;
      int len = ns_topology_route(t, ns_topology_machine_node(t, a), ns_topology_machine_node(t, b),
                                  route);
      gboolean clash = FALSE;
      for (int e = 0; e < len; e++)
        clash |= used[route[e]];
      if (contention_free && clash)
        continue;
      for (int e = 0; e < len; e++)
        used[route[e]] = 1;
      receiving[b] = TRUE;
      ns_schedule_add(s, a, b, ns_a2a_chunk(p, a, b));
    }
  }
  return s;
}

static void test_fat_links_match_routes(void)
{
  GRand *rng = g_rand_new_with_seed(24);
  uint64_t free_phases = 0, contended = 0, findings = 0;
  for (guint i = 0; i < N_CASES; i++) {
    g_autoptr(NsTopology) t = fat_tree_for(i);
    g_autoptr(NsSchedule) s = random_schedule(t, rng, &free_phases);
    int n_edges = ns_topology_n_edges(t);
    g_autofree uint32_t *uses = g_new(uint32_t, n_edges);
    g_autofree int64_t *owner = g_new(int64_t, n_edges);
    g_autofree int *route = g_new(int, ns_topology_max_route_len(t) + 1);
    g_autofree uint32_t *sends = g_new(uint32_t, s->n_machines);
    g_autofree uint32_t *recvs = g_new(uint32_t, s->n_machines);
    Reference ref = { .shared = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
    for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++)
      reference_phase(&ref, t, s, ph, uses, owner, route, sends, recvs);

    NsVerifyOptions opt;
    ns_verify_options_init(&opt);
    opt.port = i % 3 == 0 ? NS_PORT_ALL : NS_PORT_ONE; /* the first try counts ports, or not */
    opt.max_findings = 1 << 20;
    for (int own_links_marked = 0; own_links_marked < 2; own_links_marked++) {
      if (own_links_marked)
        g_setenv("NETSCHED_VERIFY_OWN_LINKS", "marks", TRUE);
      else
        g_unsetenv("NETSCHED_VERIFY_OWN_LINKS");
      NsVerifyReport r = { 0 };
      GError *error = NULL;
      g_assert_true(ns_verify(t, s, &opt, &r, &error));
      g_assert_no_error(error);
      g_test_message("case %u: %s %s, %u phases, %" G_GUINT64_FORMAT " shared",
                     i, ns_topology_source(t),
                     ns_topology_routing(t) == NS_ROUTING_SMODK ? "smodk" : "dmodk",
                     ns_schedule_n_phases(s), ref.contention);
      g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, ref.contention);
      g_assert_cmpuint(r.failures[NS_CHECK_PORT], ==, opt.port == NS_PORT_ALL ? 0 : ref.ports);
      if (ns_schedule_n_transfers(s) > 0) {
        g_assert_cmpuint(r.max_edge_use, ==, ref.max_use);
        g_assert_cmpint(r.max_path_len, ==, ref.max_len - 1);
      }
      guint edge_findings = 0;
      for (guint k = 0; k < r.findings->len; k++) {
        const NsFinding *f = &g_array_index(r.findings, NsFinding, k);
        if (f->kind != NS_FIND_EDGE)
          continue;
        edge_findings++;
        g_autofree char *key = g_strdup_printf("%" G_GINT64_FORMAT ":%d", f->phase, f->edge);
        gpointer first = g_hash_table_lookup(ref.shared, key);
        g_assert_nonnull(first); /* an edge the reference shares in that phase */
        g_assert_cmpint(f->t2, ==, GPOINTER_TO_INT(first) - 1); /* its first transfer */
      }
      g_assert_cmpuint(edge_findings, ==, ref.contention);
      contended += ref.contention > 0 && !own_links_marked;
      findings += own_links_marked ? 0 : edge_findings;
      ns_verify_report_clear(&r);
    }
    g_unsetenv("NETSCHED_VERIFY_OWN_LINKS");
    g_hash_table_destroy(ref.shared);
  }
  g_rand_free(rng);
  g_test_message("%u cases, %" G_GUINT64_FORMAT " with shared edges, %" G_GUINT64_FORMAT
                 " edge findings, %" G_GUINT64_FORMAT " phases built free of contention",
                 N_CASES, contended, findings, free_phases);
  /* the cases exercise both outcomes */
  g_assert_cmpuint(contended, >, N_CASES / 4);
  g_assert_cmpuint(contended, <, N_CASES);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/verify-fat-links/match-routes", test_fat_links_match_routes);
  return g_test_run();
}
