/* Random GT-ITM-style topologies and batch sweeps: the generators'
 * properties (connected, degree near the target, reproducible to the
 * digest), the statistics on known data, the rows' metrics against the
 * bounds, the result file's resume rules, bad specifications with their
 * exact messages, and the identity of a sharded-and-merged sweep with an
 * unsharded one. */
#include "analysis/bounds.h"
#include "analysis/keyfile_internal.h"
#include "analysis/rowfile_internal.h"
#include "analysis/stats.h"
#include "analysis/sweep_internal.h"
#include "analysis/sweep_command_internal.h"
#include "platforms/model/error.h"
#include "platforms/gen/gtitm.h"
#include "platforms/gen/shapes.h"
#include "platforms/io/topology_digest.h"
#include "platforms/io/topology_io.h"
#include "tests/testutil.h"
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

static NsTopology *gen(const char *spec, NsGtitmInfo *info)
{
  GError *error = NULL;
  NsTopology *t = ns_gtitm_generate(spec, info, &error);
  g_assert_no_error(error);
  g_assert_nonnull(t);
  return t;
}

static char *gen_error(const char *spec)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_from_spec(spec, &error);
  g_assert_null(t);
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  char *msg = g_strdup(error->message);
  g_error_free(error);
  return msg;
}

/* Switches joined by switch links are one component. */
static gboolean switches_connected(const NsTopology *t)
{
  int n = ns_topology_n_nodes(t), first = -1, seen = 0, switches = 0;
  for (int v = 0; v < n; v++)
    if (ns_topology_node(t, v)->kind == NS_NODE_SWITCH) {
      switches++;
      if (first < 0)
        first = v;
    }
  int *dist = g_new(int, (gsize)MAX(n, 1));
  ns_topology_hop_distances(t, first, dist);
  for (int v = 0; v < n; v++)
    seen += dist[v] >= 0;
  g_free(dist);
  return seen == n && switches > 0;
}

static void test_waxman_properties(void)
{
  const int sizes[] = { 20, 60, 200 };
  for (gsize k = 0; k < G_N_ELEMENTS(sizes); k++) {
    double degree_sum = 0;
    const int seeds = 30;
    for (int seed = 1; seed <= seeds; seed++) {
      g_autofree char *spec = g_strdup_printf("waxman:%d,%d,4", seed, sizes[k]);
      NsGtitmInfo info;
      g_autoptr(NsTopology) t = gen(spec, &info);
      g_assert_true(switches_connected(t));
      g_assert_cmpint(info.switches, ==, sizes[k]);
      g_assert_cmpint(ns_topology_n_machines(t), ==, 5 * sizes[k]);
      g_assert_cmpfloat(info.alpha, >, 0);
      g_assert_cmpfloat(info.alpha, <=, 1);
      degree_sum += 2.0 * info.switch_links / info.switches;
      /* patching adds one link per extra component, no more */
      g_assert_cmpint(info.patch_links, <, sizes[k] / 2);
    }
    double mean = degree_sum / seeds;
    /* the expected degree is 4 before patching; patches add 2(c-1)/n */
    g_assert_cmpfloat(fabs(mean - 4), <, 0.35);
  }
}

static void test_waxman_reject(void)
{
  for (int seed = 1; seed <= 10; seed++) {
    g_autofree char *spec = g_strdup_printf("waxman:%d,30,4:connect=reject", seed);
    NsGtitmInfo info;
    g_autoptr(NsTopology) t = gen(spec, &info);
    g_assert_true(switches_connected(t));
    g_assert_cmpint(info.patch_links, ==, 0);
    g_assert_cmpint(info.draws, >=, 1);
  }
  /* alpha = 1 and beta raised: 6 switches at degree 4 */
  NsGtitmInfo info;
  g_autoptr(NsTopology) small = gen("waxman:3,6,4", &info);
  g_assert_cmpfloat(info.alpha, ==, 1);
  g_assert_cmpfloat(info.beta, >, 0.2);
  g_autofree char *msg = gen_error("waxman:1,6,6");
  g_assert_cmpstr(msg, ==, "waxman: need 0 < degree <= switches - 1 (got 6 for 6 switches), "
                           "0 < alpha <= 1 (got 0) and beta > 0 (got 0.2)");
  /* found by fuzz_gen: 3,085 switches that stay unconnected were redrawn
   * 10,000 times (4.8 M pairs each: hours); the draws are bounded by
   * the pairs they weigh: 2^24 / 4,757,070 = 3 */
  g_autofree char *big = gen_error("waxman:7,3085:beta=5.2:connect=reject:tree=bfs");
  g_assert_cmpstr(big, ==, "waxman: no connected graph of 3085 switches at degree 4 in 3 draws "
                           "(connect=reject); use connect=patch or a higher degree");
}

/* The same specification gives the same topology, to the digest, on every
 * machine: these digests were computed once and change only when the
 * generators or the canonical model's fields (topology_digest.c) do.
 * `legacy` is the digest of netsched 0.x (the native writer's text), which
 * resumes result files written then: it must not change either — a writer
 * change that fails here would orphan those files (docs/sweeps.md, "Resume
 * keys"). It changed once, when the writer began to state the routing of
 * graphs ("routing shortest"). */
static void test_reproducible(void)
{
  static const struct {
    const char *spec, *digest, *legacy;
  } golden[] = {
    { "waxman:7,50,4", "c3e40a8275acc57bd3d72d6b41eb0fa842f3afbc4746bd110d7b57ba54023caa",
      "d261a8ce982f3555a73e1a007c97330c874a7fdbbc994c8cb86140aeacdf596b" },
    { "waxman:7,50,4:tree=bfs", "cd0716d0374e7eacef9db1912a1f4042433cf77252c4e1c72e1e34415fe4c97f",
      "a83e89fd3f2c03e45443b24e4be6e8fd015f428153db76b41de8e4fdcd54c63c" },
    { "transit-stub:3", "2e41fe3da08acf74a8c3c05bf96fc9bafef74417387f6dc7e86dbecf4dfdb390",
      "bbeaf75f6b6847087705d7a20f7c10bbe05e375b8c21ba8fb281c095bb6a4588" },
    { "kruskal-tree:11,16:machines=8", "7ca4822b232eda95befc215a0528c71dfec764ed81a9dda1fc6259a17a202270",
      "7c31951a33ca9f3d572db51ab554712af0dfcd2b025488e135d4a3de83969278" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(golden); i++) {
    g_autoptr(NsTopology) a = gen(golden[i].spec, NULL);
    g_autoptr(NsTopology) b = gen(golden[i].spec, NULL);
    g_autofree char *da = ns_topology_digest(a);
    g_autofree char *db = ns_topology_digest(b);
    g_autofree char *legacy = ns_topology_digest_legacy(a);
    g_assert_cmpstr(da, ==, db);
    if (g_getenv("NETSCHED_PRINT_GOLDEN") != NULL) { /* to fill the table */
      g_printerr("%s %s %s\n", golden[i].spec, da, legacy);
      continue;
    }
    g_assert_cmpstr(da, ==, golden[i].digest);
    g_assert_cmpstr(legacy, ==, golden[i].legacy);
  }
  g_autoptr(NsTopology) x = gen("waxman:8,50,4", NULL);
  g_autoptr(NsTopology) y = gen("waxman:7,50,4", NULL);
  g_autofree char *dx = ns_topology_digest(x);
  g_autofree char *dy = ns_topology_digest(y);
  g_assert_cmpstr(dx, !=, dy);
}

/* A small native topology, from text. */
static NsTopology *native(const char *source, const char *text)
{
  GError *error = NULL;
  NsTopology *t = ns_topology_parse_native(source, text, strlen(text), NULL, NULL, &error);
  g_assert_no_error(error);
  return t;
}

static char *digest_of(const char *text)
{
  g_autoptr(NsTopology) t = native("model.topo", text);
  return ns_topology_digest(t);
}

/* Faraj-Yuan Figure 1, spelled two ways: defaults and hostlists against
 * one statement per node and per link with every attribute, another file
 * name, another title, comments. */
static const char fig1_short[] =
    "name \"Figure 1\"\ndefault bandwidth 100Mbps\ndefault latency 10us\n"
    "machine n[0-5]\nswitch s1 s0 s3\nlink n[0-2] s0\nlink n[3-4] s3\nlink n5 s1\n"
    "link s0 s1\nlink s3 s1\n";
static const char fig1_long[] =
    "# the same network, every attribute written out\n"
    "machine n0\nmachine n1\nmachine n2\nmachine n3\nmachine n4\nmachine n5\n"
    "switch s1 forwarding=store-and-forward buffering=output\nswitch s0\nswitch s3\n"
    "link n0 s0 bandwidth=100Mbps latency=10us\nlink n1 s0 bandwidth=0.1Gbps latency=0.01ms\n"
    "link n2 s0 bandwidth=100000000bps latency=10us\nlink n3 s3 bandwidth=100Mbps latency=10us\n"
    "link n4 s3 bandwidth=100Mbps latency=10us\nlink n5 s1 bandwidth=100Mbps latency=10us\n"
    "link s0 s1 bandwidth=100Mbps latency=10us\nlink s3 s1 bandwidth=100Mbps latency=10us\n";

/* (a) The digest is the model's, not a writer's text: the same network
 * spelled two ways, from two files with two titles, has one digest — which
 * the native writer's text (the digest of netsched 0.x, kept as an alias
 * for old result files) does not give. */
static void test_digest_model(void)
{
  g_autoptr(NsTopology) a = native("a.topo", fig1_short);
  g_autoptr(NsTopology) b = native("elsewhere/b.topo", fig1_long);
  g_autofree char *da = ns_topology_digest(a), *db = ns_topology_digest(b);
  g_assert_cmpuint(strlen(da), ==, 64);
  g_assert_cmpstr(da, ==, db);
  g_autofree char *la = ns_topology_digest_legacy(a), *lb = ns_topology_digest_legacy(b);
  g_assert_cmpstr(la, !=, lb); /* the writer's first lines name the file and the title */
  g_assert_cmpstr(la, !=, da);
}

/* (b) Every part of the model changes the digest: each variant differs
 * from the base and from every other variant. */
static void test_digest_changes(void)
{
  static const char *const variants[] = {
    "machine n[0-3]\nswitch s0\nlink n[0-3] s0\n", /* the base */
    "machine n[0-3]\nswitch s0\nlink n[0-2] s0\nlink n3 s0 bandwidth=1Gbps\n",
    "machine n[0-3]\nswitch s0\nlink n[0-2] s0\nlink n3 s0 latency=11us\n",
    "machine n0 n1 n2 m3\nswitch s0\nlink n[0-2] s0\nlink m3 s0\n",      /* a name */
    "machine n1 n0 n2 n3\nswitch s0\nlink n[0-3] s0\n",                /* machine order */
    "machine n[0-3] ports=all\nswitch s0\nlink n[0-3] s0\n",
    "machine n[0-3] ports=2\nswitch s0\nlink n[0-3] s0\n",
    "machine n[0-3] ports=3\nswitch s0\nlink n[0-3] s0\n",
    "machine n[0-3]\nswitch s0 forwarding=cut-through\nlink n[0-3] s0\n",
    "machine n[0-3]\nswitch s0 buffering=shared\nlink n[0-3] s0\n",
    "machine n[0-3]\nswitch s0 buffer=64p\nlink n[0-3] s0\n",
    "machine n[0-3]\nswitch s0 buffer=65p\nlink n[0-3] s0\n",
    "machine n[0-3]\nswitch s0\nlink n[0-3] s0\nrouting shortest\n",  /* routing */
    "machine n[0-3]\nswitch s0\nlink n[0-3] s0\nrouting ecmp\n",
    "machine n[0-3]\nswitch s0 s1\nlink n[0-1] s0\nlink n[2-3] s1\nlink s0 s1\n",
    "machine n[0-3]\nswitch s1 s0\nlink n[0-1] s0\nlink n[2-3] s1\nlink s0 s1\n",
    "machine n[0-3]\nswitch s0 s1\nlink n[0-1] s0\nlink n[2-3] s1\nlink s1 s0\n", /* ends */
  };
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS(variants); i++) {
    char *d = digest_of(variants[i]);
    if (g_hash_table_contains(seen, d))
      g_error("variant %zu has the digest of an earlier one:\n%s", i, variants[i]);
    g_hash_table_add(seen, d);
  }
  /* Grids: sizes and wrap; explicit routes. */
  const char *shapes[] = { "torus:4x4", "mesh:4x4", "torus:2x8", "torus:16" };
  for (gsize i = 0; i < G_N_ELEMENTS(shapes); i++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(shapes[i], &error);
    g_assert_no_error(error);
    char *d = ns_topology_digest(t);
    g_assert_false(g_hash_table_contains(seen, d));
    g_hash_table_add(seen, d);
  }
  const char *routed[] = {
    "machine a b c\nlink a b\nlink b c\nlink c a\nrouting explicit\nroute a b c\n",
    "machine a b c\nlink a b\nlink b c\nlink c a\nrouting explicit\nroute a c\n",
  };
  for (gsize i = 0; i < G_N_ELEMENTS(routed); i++) {
    char *d = digest_of(routed[i]);
    g_assert_false(g_hash_table_contains(seen, d));
    g_hash_table_add(seen, d);
  }
}

static void test_transit_stub(void)
{
  for (int seed = 1; seed <= 10; seed++) {
    g_autofree char *spec = g_strdup_printf("transit-stub:%d,2,3,2,4:extra_ts=2:extra_ss=3", seed);
    NsGtitmInfo info;
    g_autoptr(NsTopology) t = gen(spec, &info);
    g_assert_cmpint(info.switches, ==, 2 * 3 * (1 + 2 * 4));
    g_assert_true(switches_connected(t));
    /* machines hang from stub switches only: s6 and above */
    for (int m = 0; m < ns_topology_n_machines(t); m++) {
      int v = ns_topology_machine_node(t, m);
      int s = ns_topology_link_other(t, ns_topology_incident(t, v)[0], v);
      g_assert_cmpint(atoi(ns_topology_node(t, s)->name + 1), >=, 6);
    }
  }
  g_autofree char *msg = gen_error("transit-stub:1,1,4,3,8:p_stub=0");
  g_assert_cmpstr(msg, ==, "gen:transit-stub:1,1,4,3,8:p_stub=0: p_stub '0': expected a "
                           "probability in (0, 1]");
}

static void test_kruskal_tree(void)
{
  for (int seed = 1; seed <= 20; seed++) {
    g_autofree char *spec = g_strdup_printf("kruskal-tree:%d,32:total=256", seed);
    NsGtitmInfo info;
    g_autoptr(NsTopology) t = gen(spec, &info);
    g_assert_cmpint(ns_topology_routing(t), ==, NS_ROUTING_TREE);
    g_assert_cmpint(info.switch_links, ==, 31);
    g_assert_cmpint(ns_topology_n_machines(t), ==, 256);
    g_assert_cmpint(ns_topology_n_links(t), ==, ns_topology_n_nodes(t) - 1);
  }
}

static void test_spanning_options(void)
{
  const char *trees[] = { "bfs", "dfs", "kruskal", "uniform" };
  g_autoptr(NsTopology) graph = gen("waxman:5,40,4", NULL);
  for (gsize i = 0; i < G_N_ELEMENTS(trees); i++) {
    g_autofree char *spec = g_strdup_printf("waxman:5,40,4:tree=%s", trees[i]);
    g_autoptr(NsTopology) t = gen(spec, NULL);
    g_assert_cmpint(ns_topology_routing(t), ==, NS_ROUTING_TREE);
    g_assert_cmpint(ns_topology_n_machines(t), ==, ns_topology_n_machines(graph));
    g_assert_cmpint(ns_topology_n_links(t), ==, ns_topology_n_nodes(t) - 1);
  }
  g_autofree char *msg = gen_error("waxman:5,40,4:tree=prim");
  g_assert_cmpstr(msg, ==, "gen:waxman:5,40,4:tree=prim: tree 'prim': expected none, bfs, "
                           "dfs, kruskal (random) or uniform");
  g_autofree char *unknown = gen_error("kruskal-tree:1,4:beta=2");
  g_assert_cmpstr(unknown, ==, "gen:kruskal-tree:1,4:beta=2: unknown option 'beta' for "
                               "kruskal-tree (machines, total, attach, bandwidth, uplink, "
                               "latency, forwarding, ports)");
}

/* ---- statistics ---------------------------------------------------------------------- */

static void test_stats(void)
{
  const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
  NsSummary s;
  ns_summary_compute(x, G_N_ELEMENTS(x), &s);
  g_assert_cmpuint(s.n, ==, 8);
  g_assert_cmpfloat_with_epsilon(s.mean, 5, 1e-12);
  g_assert_cmpfloat_with_epsilon(s.sd, sqrt(32.0 / 7), 1e-12);
  /* t(0.975, 7) = 2.364624252 */
  g_assert_cmpfloat_with_epsilon(s.ci95_lo, 5 - 2.364624252 * sqrt(32.0 / 7) / sqrt(8), 1e-8);
  g_assert_cmpfloat_with_epsilon(s.ci95_hi, 5 + 2.364624252 * sqrt(32.0 / 7) / sqrt(8), 1e-8);
  g_assert_cmpfloat(s.min, ==, 2);
  g_assert_cmpfloat_with_epsilon(s.p5, 2.7, 1e-12);
  g_assert_cmpfloat_with_epsilon(s.p25, 4, 1e-12);
  g_assert_cmpfloat_with_epsilon(s.median, 4.5, 1e-12);
  g_assert_cmpfloat_with_epsilon(s.p75, 5.5, 1e-12);
  g_assert_cmpfloat_with_epsilon(s.p95, 8.3, 1e-12);
  g_assert_cmpfloat(s.max, ==, 9);
  /* Student's t quantiles against printed tables */
  const struct { double df, t; } table[] = { { 1, 12.70620474 }, { 2, 4.30265273 },
                                             { 10, 2.22813885 }, { 19, 2.09302405 },
                                             { 49, 2.00957524 }, { 1000, 1.96233908 } };
  for (gsize i = 0; i < G_N_ELEMENTS(table); i++)
    g_assert_cmpfloat_with_epsilon(ns_student_t_quantile(0.975, table[i].df), table[i].t, 1e-7);
  g_assert_cmpfloat_with_epsilon(ns_student_t_quantile(0.025, 10), -2.22813885, 1e-7);
  /* one value: no spread; none: NaN */
  const double one = 3;
  ns_summary_compute(&one, 1, &s);
  g_assert_cmpfloat(s.sd, ==, 0);
  g_assert_cmpfloat(s.ci95_lo, ==, 3);
  g_assert_cmpfloat(s.median, ==, 3);
  ns_summary_compute(NULL, 0, &s);
  g_assert_true(isnan(s.mean));
}

/* ---- sweeps ------------------------------------------------------------------------------ */

static char *tmpdir(void)
{
  GError *error = NULL;
  char *dir = g_dir_make_tmp("test_sweep-XXXXXX", &error);
  g_assert_no_error(error);
  return dir;
}

static void rm_rf(const char *path)
{
  GDir *d = g_dir_open(path, 0, NULL);
  if (d != NULL) {
    const char *name;
    while ((name = g_dir_read_name(d)) != NULL) {
      g_autofree char *p = g_build_filename(path, name, NULL);
      if (g_file_test(p, G_FILE_TEST_IS_DIR))
        rm_rf(p);
      else
        g_unlink(p);
    }
    g_dir_close(d);
  }
  g_rmdir(path);
}

static char *read_file(const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename(dir, name, NULL);
  char *text = NULL;
  GError *error = NULL;
  g_file_get_contents(path, &text, NULL, &error);
  g_assert_no_error(error);
  return text;
}

static NsSweep *grid(const char *generator, const char *seeds, const char *trees)
{
  g_autofree char *s = g_strdup_printf("seeds=%s", seeds);
  g_autofree char *t = g_strdup_printf("trees=%s", trees);
  const char *settings[] = { s, t, "plots=lr1_max_path+lr3_max_path", NULL };
  const char *gens[] = { generator, NULL };
  GError *error = NULL;
  NsSweep *sw = ns_sweep_new(settings, gens, &error);
  g_assert_no_error(error);
  return sw;
}

static gboolean run(const NsSweep *sw, const char *dir, int shard, int n, GError **error)
{
  NsSweepRunOptions opt = { .outdir = dir, .shard = shard, .n_shards = n, .jobs = 2,
                            .progress = NULL };
  return ns_sweep_run(sw, &opt, error);
}

/* The row's path histogram and mean agree with the all-to-all bound's. */
static void test_row_metrics(void)
{
  g_autoptr(NsSweep) sw = grid("waxman:machines=60:ratio=5", "1..3", "bfs");
  g_autoptr(GString) row = g_string_new(NULL);
  ns_sweep_task_row(sw, 1, row);
  g_assert_true(g_str_has_suffix(row->str, "}\n"));
  g_assert_nonnull(strstr(row->str, "\"topology\":\"gen:waxman:2,12,4:total=60:tree=bfs\""));
  g_autoptr(NsTopology) t = gen("waxman:2,12,4:total=60:tree=bfs", NULL);
  NsA2ABound b;
  ns_a2a_bound(t, 65536, &b);
  g_autofree char *mean = g_strdup_printf("\"path_mean\":%.10g,", b.path_mean);
  g_autofree char *max = g_strdup_printf("\"path_max\":%d,", b.path_max);
  g_assert_nonnull(strstr(row->str, mean));
  g_assert_nonnull(strstr(row->str, max));
  /* the histogram counts the P(P-1) ordered pairs */
  const char *h = strstr(row->str, "\"path_hist\":[");
  g_assert_nonnull(h);
  g_auto(GStrv) counts = g_strsplit_set(h + strlen("\"path_hist\":["), ",]", -1);
  double total = 0;
  for (int i = 0; counts[i] != NULL && g_ascii_isdigit(counts[i][0]); i++)
    total += g_ascii_strtod(counts[i], NULL);
  g_assert_cmpfloat(total, ==, 60.0 * 59.0);
  g_autofree char *a2a = g_strdup_printf("\"a2a_load\":%" G_GUINT64_FORMAT ",", b.load);
  g_assert_nonnull(strstr(row->str, a2a));
  /* the same task gives the same bytes */
  g_autoptr(GString) again = g_string_new(NULL);
  ns_sweep_task_row(sw, 1, again);
  g_assert_cmpstr(row->str, ==, again->str);
}

/* THE identity: four shards merged give the unsharded run's files, byte
 * for byte. */
static void test_shard_merge_identity(void)
{
  g_autoptr(NsSweep) sw = grid("waxman:machines=40,80:ratio=5", "1..5", "bfs,kruskal");
  g_autofree char *whole = tmpdir();
  g_autofree char *parts = tmpdir();
  GError *error = NULL;
  g_assert_true(run(sw, whole, 0, 1, &error));
  g_assert_no_error(error);
  for (int i = 0; i < 4; i++) {
    g_assert_true(run(sw, parts, i, 4, &error));
    g_assert_no_error(error);
  }
  g_assert_true(ns_sweep_merge(sw, parts, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error(error);
  const char *files[] = { "rows.jsonl", "rows.csv", "aggregate.json", "aggregate.csv",
                          "plot-lr1_max_path+lr3_max_path.dat" };
  for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *a = read_file(whole, files[i]);
    g_autofree char *b = read_file(parts, files[i]);
    g_assert_cmpstr(a, ==, b);
  }
  /* a missing shard is named */
  g_autofree char *gone = g_build_filename(parts, "shard-2-of-4.jsonl", NULL);
  g_unlink(gone);
  g_assert_false(ns_sweep_merge(sw, parts, NULL, NULL, NULL, NULL, &error));
  g_autofree char *want = g_strdup_printf("%s: shard 2/4 is missing (no shard-2-of-4.jsonl): "
                                          "run it with --shard 2/4, then merge again", parts);
  g_assert_cmpstr(error->message, ==, want);
  g_clear_error(&error);
  rm_rf(whole);
  rm_rf(parts);
}

/* An executor that computes the tasks in this process and counts them. */
typedef struct {
  int runs, tasks;
  gboolean serve;
} Counting;

static gboolean counting_run(const NsSweep *sw, const guint *tasks, guint n, NsSweepSink sink,
                             void *sink_data, void *self, GError **error)
{
  Counting *c = self;
  c->runs++;
  g_autoptr(GString) row = g_string_new(NULL);
  for (guint i = 0; i < n; i++) {
    g_string_truncate(row, 0);
    ns_sweep_task_row(sw, tasks[i], row);
    c->tasks++;
    if (!sink(tasks[i], row->str, row->len, sink_data, error))
      return FALSE;
  }
  return TRUE;
}

static gboolean counting_serves(const NsSweep *sw, void *self)
{
  return ((Counting *)self)->serve;
}

static int command(const NsSweepExecutor *executor, const char *outdir, const char *extra,
                   NsSweepFailure *failure, GError **error)
{
  g_autofree char *line = g_strdup_printf("sweep -g waxman:machines=20:ratio=5 --seeds 1..3 "
                                          "--trees bfs --progress none -o %s%s%s", outdir,
                                          *extra != '\0' ? " " : "", extra);
  g_auto(GStrv) words = g_strsplit(line, " ", -1);
  /* the parser takes the options out of argv, as from main()'s */
  g_autofree char **argv = g_memdup2(words, (g_strv_length(words) + 1) * sizeof *words);
  NsSweepCommandHooks hooks = { .executor = executor, .progress = stderr };
  return ns_sweep_command((int)g_strv_length(words), argv, &hooks, failure, error);
}

/* netsched sweep and netsched-mpi sweep are one command run with another
 * executor (a parameter, no global): the given one computes every task,
 * with the rows the built-in workers write; one that serves elsewhere ends
 * the command before the output directory is touched. */
static void test_command_executor(void)
{
  g_autofree char *root = tmpdir();
  g_autofree char *given = g_build_filename(root, "given", NULL);
  g_autofree char *pool = g_build_filename(root, "pool", NULL);
  Counting c = { 0 };
  NsSweepExecutor counting = { .name = "counting", .run = counting_run, .self = &c,
                               .workers = 1, .serves = counting_serves };
  NsSweepFailure failure;
  GError *error = NULL;
  g_assert_cmpint(command(&counting, given, "", &failure, &error), ==, 0);
  g_assert_no_error(error);
  g_assert_cmpint(c.runs, ==, 1);
  g_assert_cmpint(c.tasks, ==, 3);
  g_assert_cmpint(command(NULL, pool, "-j 2", &failure, &error), ==, 0);
  g_assert_no_error(error);
  g_autofree char *a = read_file(given, "rows.csv");
  g_autofree char *b = read_file(pool, "rows.csv");
  g_assert_cmpstr(a, ==, b);

  c = (Counting){ .serve = TRUE };
  g_autofree char *served = g_build_filename(root, "served", NULL);
  g_assert_cmpint(command(&counting, served, "", &failure, &error), ==, 0);
  g_assert_no_error(error);
  g_assert_cmpint(c.runs, ==, 0);
  g_assert_false(g_file_test(served, G_FILE_TEST_EXISTS));
  rm_rf(root);
}

/* What failed, and how the program shows it. */
static void test_command_errors(void)
{
  struct {
    const char *extra;
    NsSweepFailure failure;
    int code, status;
    const char *message;
  } bad[] = {
    { "a.ini b.ini", NS_SWEEP_USAGE, NS_ERROR_INPUT, 2, "unexpected argument 'b.ini'" },
    { "--colour", NS_SWEEP_BAD_OPTION, -1, 2, "Unknown option --colour" },
    { "--shard 2/2", NS_SWEEP_FAILED, NS_ERROR_INPUT, 2,
      "--shard '2/2': expected I/N with 0 <= I < N" },
    { "--measure alltoall/faraj", NS_SWEEP_FAILED, NS_ERROR_UNSUPPORTED, 2,
      "this program computes metrics only: it cannot measure (measure = ...)" },
  };
  g_autofree char *root = tmpdir();
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    NsSweepFailure failure = NS_SWEEP_FAILED;
    GError *error = NULL;
    g_assert_cmpint(command(NULL, root, bad[i].extra, &failure, &error), ==, bad[i].status);
    g_assert_nonnull(error);
    if (bad[i].code >= 0)
      g_assert_error(error, NS_ERROR, bad[i].code);
    g_assert_cmpint(failure, ==, bad[i].failure);
    g_assert_cmpstr(error->message, ==, bad[i].message);
    g_clear_error(&error);
  }
  rm_rf(root);
}

/* Resume: a cut row is dropped and redone, none duplicated; rows of
 * another sweep are refused, never kept. */
static void test_resume(void)
{
  g_autoptr(NsSweep) sw = grid("kruskal-tree:switches=6:ratio=4", "1..6", "none");
  g_autofree char *dir = tmpdir();
  GError *error = NULL;
  g_assert_true(run(sw, dir, 0, 1, &error));
  g_autofree char *full = read_file(dir, "rows.jsonl");
  /* keep the header, two rows and half of the third: a crash mid-write */
  g_auto(GStrv) lines = g_strsplit(full, "\n", -1);
  g_autofree char *cut = g_strdup_printf("%s\n%s\n%s\n%.*s", lines[0], lines[3], lines[1],
                                         (int)strlen(lines[2]) / 2, lines[2]);
  g_autofree char *path = g_build_filename(dir, "rows.jsonl", NULL);
  g_assert_true(g_file_set_contents(path, cut, -1, NULL));
  g_assert_true(run(sw, dir, 0, 1, &error));
  g_assert_no_error(error);
  g_autofree char *again = read_file(dir, "rows.jsonl");
  g_assert_cmpstr(again, ==, full); /* every row once, in task order */
  /* a row of another configuration */
  g_autofree char *forged = g_strdup_printf("%s\n%s\n", lines[0],
                                            "{\"key\":\"0123456789abcdef\",\"task\":0}");
  g_assert_true(g_file_set_contents(path, forged, -1, NULL));
  g_assert_false(run(sw, dir, 0, 1, &error));
  g_autofree char *want = g_strdup_printf(
      "%s:2: row of another configuration (key 0123456789abcdef is not the key of task 0 of "
      "this sweep): choose another output directory, or --restart to start over", path);
  g_assert_cmpstr(error->message, ==, want);
  g_clear_error(&error);
  /* rows of another sweep */
  g_autoptr(NsSweep) other = grid("kruskal-tree:switches=6:ratio=4", "1..7", "none");
  g_assert_true(g_file_set_contents(path, full, -1, NULL));
  g_assert_false(run(other, dir, 0, 1, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_nonnull(strstr(error->message, ":1: rows of another sweep (grid digest "));
  g_clear_error(&error);
  /* a duplicated row */
  g_autofree char *twice = g_strdup_printf("%s\n%s\n%s\n", lines[0], lines[1], lines[1]);
  g_assert_true(g_file_set_contents(path, twice, -1, NULL));
  g_assert_false(run(sw, dir, 0, 1, &error));
  g_autofree char *dup = g_strdup_printf("%s:3: the row of task 0 is here a second time (first "
                                         "at line 2): remove one of them", path);
  g_assert_cmpstr(error->message, ==, dup);
  g_clear_error(&error);
  rm_rf(dir);
}

static char *spec_error(const char *text)
{
  g_autofree char *dir = tmpdir();
  g_autofree char *path = g_build_filename(dir, "bad.ini", NULL);
  g_assert_true(g_file_set_contents(path, text, -1, NULL));
  GError *error = NULL;
  g_autoptr(NsSweep) sw = ns_sweep_load(path, &error);
  g_assert_null(sw);
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  /* messages name the file: replace it by "F" */
  g_auto(GStrv) parts = g_strsplit(error->message, path, -1);
  char *msg = g_strjoinv("F", parts);
  g_error_free(error);
  rm_rf(dir);
  return msg;
}

/* "1,2,...,100": a hundred values of one parameter. */
#define TEN(d) #d "1," #d "2," #d "3," #d "4," #d "5," #d "6," #d "7," #d "8," #d "9," #d "10"
#define HUNDRED TEN(1) "," TEN(2) "," TEN(3) "," TEN(4) "," TEN(5) "," TEN(6) "," TEN(7) "," \
  TEN(8) "," TEN(9) "," TEN(10)

static void test_bad_specs(void)
{
  const struct {
    const char *text, *message;
  } cases[] = {
    { "[sweep]\nseeds = 1..3\n[generatr a]\nmodel = waxman\n",
      "F:3: unknown group [generatr a] (expected [sweep] and [generator NAME])" },
    { "[sweep]\nseeds = 1..3\ncolour = red\n",
      "F:3: unknown key 'colour' in [sweep] (description, output, seeds, trees, msize, "
      "metrics, measure, model, plots, x, files, format, pattern)" },
    { "[sweep]\nseeds =\n", "F:2: empty value for 'seeds'" },
    { "[sweep]\nseeds = 1\nseeds = 2\n",
      "F:3: key 'seeds' is given twice in [sweep] (first at F:2)" },
    { "[sweep]\ntrees = bfs\n[generator a]\nmodel = waxman\nswitches = 9\n",
      "F:1: [sweep] needs 'seeds' (e.g. seeds = 1..50)" },
    { "[sweep]\nseeds = 5..2\n", "F:2: seeds '5..2': expected A..B with A <= B, whole numbers "
      "from 0 to 18446744073709551615" },
    /* found by fuzz_sweep: a bad escape gave a value and an error, and the
     * next key's error was set over it (a GLib warning, fatal in tests) */
    { "[sweep]\nx = a\\qb\ny = c\n",
      "F:2: Key file contains key \u201cx\u201d which has a value that cannot be interpreted." },
    /* found by fuzz_scenario: a bad escape and a backslash at the end of
     * one value made GLib set its second error over its first */
    { "[sweep]\nx = a\\qb\\\ny = c\n",
      "F:2: the value of 'x' ends with a lone backslash (write \\\\ for one)" },
    { "[sweep]\nx = a\\\\\nseeds = c\n",
      "F:3: seeds 'c': expected a seed (a whole number from 0 to 18446744073709551615) or A..B" },
    /* #18.11: once silently 18446744073709551615 */
    { "[sweep]\nseeds = 99999999999999999999999\n",
      "F:2: seeds '99999999999999999999999': expected a seed (a whole number from 0 to "
      "18446744073709551615) or A..B" },
    { "[sweep]\nseeds = 1..18446744073709551616\n",
      "F:2: seeds '1..18446744073709551616': expected A..B with A <= B, whole numbers from 0 to "
      "18446744073709551615" },
    /* #18.5: counted before anything is allocated per task */
    { "[sweep]\nseeds = 1..1000\n[generator a]\nmodel = waxman\nswitches = " HUNDRED
      "\ndegree = " HUNDRED "\nbeta = " HUNDRED "\n",
      "F:1: the grid has 1000000 points x 1000 seeds = 1000000000 tasks, above the limit of "
      "1000000 tasks (docs/sweeps.md, \"Limits\"): split it into several sweeps" },
    { "[sweep]\nseeds = 1\n[generator a]\nmodel = waxman\nswitches = " HUNDRED
      "\ndegree = " HUNDRED "\nbeta = " HUNDRED "\nalpha = 0.1,0.2\n",
      "F:1: the grid has more than 1000000 points, above the limit of 1000000 tasks (points x "
      "seeds; docs/sweeps.md, \"Limits\")" },
    { "[sweep]\nseeds = 1\n[generator a]\nmodel = waxman\nswitches = 9\ndegre = 4\n",
      "F:6: unknown key 'degre' for model waxman (model, trees, switches, machines, ratio, "
      "degree, alpha, beta, connect, attach, bandwidth, uplink, latency)" },
    { "[sweep]\nseeds = 1\n[generator a]\nmodel = waxman\nswitches = 9,,12\n",
      "F:5: 'switches' has an empty item" },
    { "[sweep]\nseeds = 1\n[generator a]\nmodel = barabasi\n",
      "F:4: model 'barabasi': expected waxman, transit-stub, kruskal-tree or spec" },
    { "[sweep]\nseeds = 1\n[generator a]\nmodel = kruskal-tree\nratio = 8\n",
      "F:3: [generator a] needs 'switches' or 'machines' (with 'ratio')" },
    { "[sweep]\nseeds = 1\nplots = lr9_max_path\n[generator a]\nmodel = waxman\nswitches = 9\n",
      "F:1: plots: 'lr9_max_path' is not a metric of this sweep (see docs/sweeps.md, "
      "\"Rows\")" },
    { "[sweep]\nseeds = 1\n[generator a]\nmodel = spec\nspec = gen:star:8\n",
      "F:5: spec 'gen:star:8': expected a generator specification gen:... holding {seed} "
      "(replaced by each seed)" },
    { "[sweep]\nseeds = 1\nmeasure = alltoall/nosuch\n[generator a]\nmodel = waxman\nswitches = 9\n",
      NULL },
    { "[sweep]\nseeds = 1\nmeasure = alltoall/smpi:pair\n[generator a]\nmodel = waxman\n"
      "switches = 9\n",
      "F:3: measure 'alltoall/smpi:pair': an SMPI baseline is measured by compare, design or "
      "scenario, not by a sweep" },
    { "seeds = 1\n", "F:1: key 'seeds' comes before any [group]" },
    { "[sweep]\nseeds 1\n", "F:2: 'seeds 1' is neither a [group], a KEY = VALUE nor a # comment" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *msg = spec_error(cases[i].text);
    if (cases[i].message != NULL)
      g_assert_cmpstr(msg, ==, cases[i].message);
    else
      g_assert_true(g_str_has_prefix(msg, "F:3: measure 'alltoall/nosuch': unknown alltoall "
                                          "algorithm 'nosuch' (known: "));
  }
}

/* ---- key files: one reader, comments ------------------------------------------------- */

/* docs/scenarios.md writes `runs = 1   # simulations per row`: a '#' first
 * on a line or after a blank starts a comment, in values and group headers
 * alike; a '#' inside a word stays (main kept "1   # ..." as the value and
 * refused the commented group header). */
static void test_keyfile_comments(void)
{
  g_autofree char *dir = tmpdir();
  g_autofree char *path = g_build_filename(dir, "c.ini", NULL);
  g_assert_true(g_file_set_contents(path,
                                    "# whole line\n[sweep]   # the sweep\nseeds = 1..3\t# three\n"
                                    "name = a#b # named\n  # indented comment\n", -1, NULL));
  GError *error = NULL;
  g_autoptr(GPtrArray) groups = ns_keyfile_scan(path, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(groups->len, ==, 1);
  const NsKeyGroup *g = g_ptr_array_index(groups, 0);
  g_assert_cmpstr(g->name, ==, "sweep");
  g_assert_cmpuint(g->entries->len, ==, 2);
  g_assert_cmpstr(ns_keygroup_find(g, "seeds")->value, ==, "1..3");
  g_assert_cmpstr(ns_keygroup_find(g, "seeds")->where + strlen(dir), ==, "/c.ini:3");
  g_assert_cmpstr(ns_keygroup_find(g, "name")->value, ==, "a#b");
  /* a value that is only a comment is an empty value */
  g_assert_true(g_file_set_contents(path, "[sweep]\nseeds = # none\n", -1, NULL));
  g_assert_null(ns_keyfile_scan(path, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message + strlen(dir), ==, "/c.ini:2: empty value for 'seeds'");
  g_clear_error(&error);
  g_assert_cmpint(g_remove(path), ==, 0);
  g_assert_cmpint(g_rmdir(dir), ==, 0);
}

/* ---- the shared result file ------------------------------------------------------------ */

static gboolean key_is_line(const char *line, int lineno, char **key, void *user, GError **error)
{
  if (strcmp(line, "bad") == 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, "f", lineno, "bad row");
    return FALSE;
  }
  *key = g_strdup(line);
  return TRUE;
}

/* An NsWarnFunc that keeps the messages, one per line. */
static void keep_warning(const char *message, void *data)
{
  g_string_append_printf(data, "%s\n", message);
}

static void test_rowfile(void)
{
  g_autofree char *dir = tmpdir();
  g_autofree char *path = g_build_filename(dir, "rows.txt", NULL);
  NsRowFileSpec spec = { .path = path, .header = "H\n", .header_hint = "not mine",
                         .resume = TRUE, .unique_keys = TRUE, .lock = TRUE, .row = key_is_line };
  GError *error = NULL;
  NsRowFile *f = ns_row_file_open(&spec, &error);
  g_assert_no_error(error);
  g_assert_true(ns_row_file_append(f, "a", "a\n", 2, &error));
  /* a second writer is refused while the first holds the file */
  NsRowFile *second = ns_row_file_open(&spec, &error);
  g_assert_null(second);
  g_assert_error(error, NS_ERROR, NS_ERROR_IO);
  g_clear_error(&error);
  ns_row_file_close(f);
  g_assert_true(g_file_set_contents(path, "H\na\nb\nc", -1, NULL)); /* c cut short */
  g_autoptr(GString) warnings = g_string_new(NULL);
  spec.warn = keep_warning; /* told through the callback, never printed by the library */
  spec.warn_data = warnings;
  f = ns_row_file_open(&spec, &error);
  g_assert_no_error(error);
  g_autofree char *cut = g_strdup_printf("%s: the last row was cut short (interrupted run): "
                                         "dropped\n", path);
  g_assert_cmpstr(warnings->str, ==, cut);
  g_assert_true(ns_row_file_has(f, "a") && ns_row_file_has(f, "b"));
  g_assert_false(ns_row_file_has(f, "c"));
  g_assert_cmpuint(ns_row_file_n_keys(f), ==, 2);
  ns_row_file_close(f);
  g_autofree char *text = read_file(dir, "rows.txt");
  g_assert_cmpstr(text, ==, "H\na\nb\n");
  g_assert_true(g_file_set_contents(path, "H\na\nb\na\n", -1, NULL));
  g_assert_null(ns_row_file_open(&spec, &error));
  g_autofree char *dup = g_strdup_printf("%s:4: the row of key a is here a second time (first "
                                         "at line 2): remove one of them", path);
  g_assert_cmpstr(error->message, ==, dup);
  g_clear_error(&error);
  g_assert_true(g_file_set_contents(path, "X\na\nb", -1, NULL));
  g_assert_null(ns_row_file_open(&spec, &error));
  g_autofree char *hint = g_strdup_printf("%s:1: not mine", path);
  g_assert_cmpstr(error->message, ==, hint);
  g_clear_error(&error);
  g_autofree char *untouched = read_file(dir, "rows.txt");
  g_assert_cmpstr(untouched, ==, "X\na\nb"); /* a foreign file is never truncated */
  /* A link where the row file goes: resumed, it is refused; started over,
   * it is replaced by a new file; its target is never written. */
  g_autofree char *victim = g_build_filename(dir, "victim", NULL);
  g_assert_true(g_file_set_contents(victim, "secret", -1, NULL));
  g_assert_true(g_unlink(path) == 0 && symlink(victim, path) == 0);
  g_assert_null(ns_row_file_open(&spec, &error));
  g_autofree char *link_msg = g_strdup_printf("%s: is a symbolic link: refused (netsched never "
                                              "writes through a link); remove it", path);
  g_assert_cmpstr(error->message, ==, link_msg);
  g_clear_error(&error);
  spec.resume = FALSE;
  f = ns_row_file_open(&spec, &error);
  g_assert_no_error(error);
  g_assert_true(ns_row_file_append(f, "a", "a\n", 2, &error));
  ns_row_file_close(f);
  g_autofree char *kept = read_file(dir, "victim");
  g_assert_cmpstr(kept, ==, "secret");
  g_autofree char *fresh = read_file(dir, "rows.txt");
  g_assert_cmpstr(fresh, ==, "H\na\n");
  rm_rf(dir);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/gtitm/waxman/properties", test_waxman_properties);
  g_test_add_func("/gtitm/waxman/reject", test_waxman_reject);
  g_test_add_func("/gtitm/reproducible", test_reproducible);
  g_test_add_func("/gtitm/transit-stub", test_transit_stub);
  g_test_add_func("/digest/model", test_digest_model);
  g_test_add_func("/digest/changes", test_digest_changes);
  g_test_add_func("/gtitm/kruskal-tree", test_kruskal_tree);
  g_test_add_func("/gtitm/spanning", test_spanning_options);
  g_test_add_func("/stats/known", test_stats);
  g_test_add_func("/sweep/row-metrics", test_row_metrics);
  g_test_add_func("/sweep/shard-merge-identity", test_shard_merge_identity);
  g_test_add_func("/sweep/resume", test_resume);
  g_test_add_func("/sweep/bad-specs", test_bad_specs);
  g_test_add_func("/sweep/command/executor", test_command_executor);
  g_test_add_func("/sweep/command/errors", test_command_errors);
  g_test_add_func("/rowfile", test_rowfile);
  g_test_add_func("/keyfile/comments", test_keyfile_comments);
  return g_test_run();
}
