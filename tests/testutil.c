#include "tests/testutil.h"
#include "platforms/io/topology_io.h"
#include <stdio.h>
#include <stdlib.h>

char *ns_test_data(const char *relative)
{
  const char *dir = g_getenv("NETSCHED_TEST_DATA");
  if (dir == NULL)
    dir = NETSCHED_SOURCE_DIR "/tests/data";
  return g_build_filename(dir, relative, NULL);
}

char *ns_test_source(const char *relative)
{
  const char *dir = g_getenv("NETSCHED_SOURCE_DIR");
  if (dir == NULL)
    dir = NETSCHED_SOURCE_DIR;
  return g_build_filename(dir, relative, NULL);
}

NsTopology *ns_test_topology(const char *name)
{
  g_autofree char *rel = g_build_filename("scenarios", "topologies", name, NULL);
  g_autofree char *path = ns_test_source(rel);
  GError *error = NULL;
  NsTopology *t = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  g_assert_no_error(error);
  g_assert_nonnull(t);
  return t;
}

NsVerifyReport ns_test_verify(const NsTopology *topo, const NsSchedule *s)
{
  NsVerifyReport r = { 0 };
  GError *error = NULL;
  g_assert_true(ns_verify(topo, s, NULL, &r, &error));
  g_assert_no_error(error);
  return r;
}

void ns_test_assert_routes_equal(const NsTopology *t, NsTestRouteCheck check)
{
  uint64_t pairs = 0, mismatches = 0;
  GError *error = NULL;
  g_autofree char *first = NULL;
  g_assert_true(check(t, &pairs, &mismatches, &first, &error));
  g_assert_no_error(error);
  g_assert_cmpstr(first, ==, NULL);
  int p = ns_topology_n_machines(t);
  g_assert_cmpuint(pairs, ==, (uint64_t)p * (p - 1));
  g_assert_cmpuint(mismatches, ==, 0);
}

NsVerifyReport ns_test_verify_correct(const NsTopology *topo, const NsSchedule *s,
                                      gboolean contention_free)
{
  NsVerifyReport r = ns_test_verify(topo, s);
  for (int c = 0; c < NS_N_CHECKS; c++) {
    if (!r.ran[c] || r.failures[c] == 0 || (c == NS_CHECK_CONTENTION && !contention_free) ||
        c == NS_CHECK_OPTIMAL)
      continue;
    for (guint k = 0; k < r.findings->len; k++) {
      const NsFinding *f = &g_array_index(r.findings, NsFinding, k);
      if (ns_finding_check(f->kind) == (NsCheck)c) {
        g_autofree char *d = ns_finding_describe(f, topo, s);
        g_error("%s: %s/%s root %d, %u segments: check %s failed %" G_GUINT64_FORMAT
                " times, e.g. %s",
                ns_topology_source(topo), ns_collective_name(s->collective), s->algorithm,
                s->root, s->n_segments, ns_check_name(c), r.failures[c], d);
      }
    }
    g_error("%s: check %s failed", ns_topology_source(topo), ns_check_name(c));
  }
  return r;
}

NsTopology *ns_test_random_graph(uint64_t seed, int machines, int switches, int extra_links)
{
  GRand *rng = g_rand_new_with_seed((guint32)seed);
  g_autofree char *src = g_strdup_printf("test-graph(seed=%" G_GUINT64_FORMAT ")", seed);
  NsTopology *t = ns_topology_new(src);
  for (int s = 0; s < switches; s++) {
    g_autofree char *name = g_strdup_printf("s%d", s);
    ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL);
    if (s > 0) /* a random tree keeps the switches connected */
      ns_topology_add_link(t, s, g_rand_int_range(rng, 0, s), 100e6, 10e-6, 0, NULL);
  }
  for (int k = 0; k < extra_links && switches > 1; k++) {
    int a = g_rand_int_range(rng, 0, switches), b = g_rand_int_range(rng, 0, switches - 1);
    ns_topology_add_link(t, a, b + (b >= a), 100e6, 10e-6, 0, NULL);
  }
  for (int m = 0; m < machines; m++) {
    g_autofree char *name = g_strdup_printf("n%d", m);
    int v = ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, NULL);
    ns_topology_add_link(t, v, g_rand_int_range(rng, 0, switches), 100e6, 10e-6, 0, NULL);
  }
  g_rand_free(rng);
  GError *error = NULL;
  g_assert_true(ns_topology_finalize(t, NULL, NULL, &error));
  g_assert_no_error(error);
  return t;
}

NsTopology *ns_test_with_routing(const NsTopology *t, const char *routing)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  GError *error = NULL;
  g_assert_true(ns_topology_write_native(t, f, &error));
  fclose(f);
  GString *out = g_string_new(NULL);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  gboolean replaced = FALSE;
  for (int i = 0; lines[i] != NULL; i++) {
    if (g_str_has_prefix(lines[i], "routing ")) {
      g_string_append_printf(out, "routing %s\n", routing);
      replaced = TRUE;
    } else {
      g_string_append_printf(out, "%s\n", lines[i]);
    }
  }
  g_assert_true(replaced);
  free(text);
  NsTopology *again =
      ns_topology_parse_native("test.topo", out->str, out->len, NULL, NULL, &error);
  g_assert_no_error(error);
  g_string_free(out, TRUE);
  return again;
}

void ns_test_shuffle(GRand *rng, int *v, int n)
{
  for (int i = n - 1; i > 0; i--) {
    int j = g_rand_int_range(rng, 0, i + 1), x = v[i];
    v[i] = v[j];
    v[j] = x;
  }
}
