/* platforms/read_*.c, topology_write.c, topology_io.c, topology_input.c:
 * every reader on good files (exact node, machine, link and attribute
 * values), on bad files (exact error messages), the writers' round trips,
 * and the input limits (size, streams, byte-order marks, invisible
 * characters, the GraphML pre-check). */
#include "platforms/model/error.h"
#include "platforms/model/topology_internal.h"
#include "platforms/gen/gtitm.h"
#include "platforms/gen/shapes.h"
#include "platforms/io/hostlist_internal.h"
#include "platforms/routing/spanning.h"
#include "sched/ir/schedule.h"
#include "sched/ir/sync.h"
#include "platforms/io/read_options.h"
#include "platforms/io/topology_input_internal.h"
#include "platforms/io/topology_io.h"
#include "platforms/io/topology_spec.h"
#include "tests/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------- */

static void collect_warning(const char *message, void *data)
{
  g_ptr_array_add(data, g_strdup(message));
}

static NsTopology *load_ok(const char *relative, GPtrArray *warnings)
{
  g_autofree char *path = ns_test_data(relative);
  GError *error = NULL;
  NsTopology *t = ns_topology_load(path, NS_TOPO_FORMAT_AUTO,
                                   warnings != NULL ? collect_warning : NULL, warnings, &error);
  if (t == NULL)
    g_error("%s: %s", relative, error->message);
  g_assert_no_error(error);
  return t;
}

static NsTopology *load_scenario(const char *name)
{
  g_autofree char *rel = g_build_filename("scenarios", "topologies", name, NULL);
  g_autofree char *path = ns_test_source(rel);
  GError *error = NULL;
  NsTopology *t = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  if (t == NULL)
    g_error("%s: %s", name, error->message);
  return t;
}

static char *machine_list(const NsTopology *t)
{
  GString *s = g_string_new(NULL);
  for (int m = 0; m < ns_topology_n_machines(t); m++)
    g_string_append_printf(s, "%s%s", m ? " " : "", ns_topology_machine_name(t, m));
  return g_string_free(s, FALSE);
}

/* "a-b" names of link i, as stored. */
static char *link_text(const NsTopology *t, int i)
{
  const NsLink *l = ns_topology_link(t, i);
  return g_strdup_printf("%s-%s", ns_topology_node(t, l->a)->name,
                         ns_topology_node(t, l->b)->name);
}

static const NsLink *find_link(const NsTopology *t, const char *a, const char *b)
{
  int x = ns_topology_find_node(t, a), y = ns_topology_find_node(t, b);
  g_assert_cmpint(x, >=, 0);
  g_assert_cmpint(y, >=, 0);
  for (int i = 0; i < ns_topology_n_links(t); i++) {
    const NsLink *l = ns_topology_link(t, i);
    if ((l->a == x && l->b == y) || (l->a == y && l->b == x))
      return l;
  }
  g_error("no link %s-%s", a, b);
  return NULL;
}

static const NsNode *node_named(const NsTopology *t, const char *name)
{
  int v = ns_topology_find_node(t, name);
  if (v < 0)
    g_error("no node '%s'", name);
  return ns_topology_node(t, v);
}

/* Same nodes (ids, names, kinds, switch attributes), machine indices and
 * links (order, bandwidth, latency; ends in the same orientation when
 * `oriented`). */
static void assert_same(const NsTopology *x, const NsTopology *y, gboolean oriented)
{
  g_assert_cmpint(ns_topology_n_nodes(x), ==, ns_topology_n_nodes(y));
  g_assert_cmpint(ns_topology_n_machines(x), ==, ns_topology_n_machines(y));
  g_assert_cmpint(ns_topology_n_links(x), ==, ns_topology_n_links(y));
  for (int v = 0; v < ns_topology_n_nodes(x); v++) {
    const NsNode *a = ns_topology_node(x, v), *b = ns_topology_node(y, v);
    g_assert_cmpstr(a->name, ==, b->name);
    g_assert_cmpint(a->kind, ==, b->kind);
    if (a->kind == NS_NODE_SWITCH) {
      g_assert_cmpint(a->forwarding, ==, b->forwarding);
      g_assert_cmpint(a->buffering, ==, b->buffering);
      g_assert_cmpint(a->buffer_packets, ==, b->buffer_packets);
    }
    g_assert_cmpint(ns_topology_node_machine(x, v), ==, ns_topology_node_machine(y, v));
  }
  for (int i = 0; i < ns_topology_n_links(x); i++) {
    const NsLink *a = ns_topology_link(x, i), *b = ns_topology_link(y, i);
    if (oriented || a->a == b->a) {
      g_assert_cmpint(a->a, ==, b->a);
      g_assert_cmpint(a->b, ==, b->b);
    } else {
      g_assert_cmpint(a->a, ==, b->b);
      g_assert_cmpint(a->b, ==, b->a);
    }
    g_assert_cmpfloat(a->bandwidth, ==, b->bandwidth);
    g_assert_cmpfloat(a->latency, ==, b->latency);
  }
}

static char *write_to_string(const NsTopology *t, NsTopoFormat format)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  g_assert_nonnull(out);
  GError *error = NULL;
  g_assert_true(ns_topology_save(t, format, out, &error));
  g_assert_no_error(error);
  fclose(out);
  char *r = g_strndup(text, len);
  free(text);
  return r;
}

static NsTopology *reread_native(const NsTopology *t, char **text_out)
{
  g_autofree char *text = write_to_string(t, NS_TOPO_FORMAT_NATIVE);
  GError *error = NULL;
  NsTopology *again =
    ns_topology_parse_native("rewritten.topo", text, strlen(text), NULL, NULL, &error);
  if (again == NULL)
    g_error("rewritten topology does not read: %s\n%s", error->message, text);
  if (text_out != NULL)
    *text_out = g_strdup(text);
  return again;
}

static NsTopology *reread_graphml(const NsTopology *t)
{
  g_autofree char *text = write_to_string(t, NS_TOPO_FORMAT_GRAPHML);
  g_autofree char *path = NULL;
  GError *error = NULL;
  int fd = g_file_open_tmp("netsched-XXXXXX.graphml", &path, &error);
  g_assert_no_error(error);
  close(fd);
  g_assert_true(g_file_set_contents(path, text, -1, &error));
  NsTopology *again = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  if (again == NULL)
    g_error("written GraphML does not read: %s\n%s", error->message, text);
  g_unlink(path);
  return again;
}

/* ---- bundled topologies ---------------------------------------------------- */

static void test_faraj_fig1(void)
{
  g_autoptr(NsTopology) t = load_scenario("faraj-fig1.topo");
  g_assert_cmpint(ns_topology_n_machines(t), ==, 6);
  g_assert_cmpint(ns_topology_n_switches(t), ==, 3);
  g_assert_cmpint(ns_topology_n_links(t), ==, 8);
  g_autofree char *machines = machine_list(t);
  g_assert_cmpstr(machines, ==, "n0 n1 n2 n3 n4 n5");
  g_assert_cmpstr(ns_topology_node(t, ns_tree_anchor(t))->name, ==, "s1");
  for (int i = 0; i < ns_topology_n_links(t); i++) {
    g_assert_cmpfloat(ns_topology_link(t, i)->bandwidth, ==, 100e6);
    g_assert_cmpfloat(ns_topology_link(t, i)->latency, ==, 10e-6);
  }
  for (int v = 0; v < ns_topology_n_nodes(t); v++)
    if (ns_topology_node(t, v)->kind == NS_NODE_SWITCH)
      g_assert_cmpint(ns_topology_node(t, v)->forwarding, ==, NS_FORWARD_STORE_AND_FORWARD);
  /* The paper: path(n0, n3) = {(n0,s0), (s0,s1), (s1,s3), (s3,n3)}. */
  int edges[16];
  g_assert_cmpint(ns_topology_max_route_len(t), <=, 16);
  int n = ns_topology_route_machines(t, 0, 3, edges);
  GString *path = g_string_new(NULL);
  for (int i = 0; i < n; i++) {
    g_autofree char *e = ns_topology_edge_name(t, edges[i]);
    g_string_append_printf(path, "%s%s", i ? " " : "", e);
  }
  g_assert_cmpstr(path->str, ==, "n0->s0 s0->s1 s1->s3 s3->n3");
  g_string_free(path, TRUE);
  find_link(t, "n5", "s1");
  find_link(t, "s3", "s1");
}

static void test_faraj_abc(void)
{
  g_autoptr(NsTopology) a = load_scenario("faraj-a.topo");
  g_assert_cmpint(ns_topology_n_machines(a), ==, 24);
  g_assert_cmpint(ns_topology_n_switches(a), ==, 1);
  g_assert_cmpint(ns_topology_n_links(a), ==, 24);
  g_assert_cmpstr(ns_topology_machine_name(a, 23), ==, "n23");

  g_autoptr(NsTopology) b = load_scenario("faraj-b.topo");
  g_autoptr(NsTopology) c = load_scenario("faraj-c.topo");
  NsTopology *bc[] = {b, c};
  for (int k = 0; k < 2; k++) {
    NsTopology *t = bc[k];
    g_assert_cmpint(ns_topology_n_machines(t), ==, 32);
    g_assert_cmpint(ns_topology_n_switches(t), ==, 4);
    g_assert_cmpint(ns_topology_n_links(t), ==, 35);
    for (int m = 0; m < 32; m++) {
      g_autofree char *name = g_strdup_printf("n%d", m);
      g_autofree char *sw = g_strdup_printf("s%d", m / 8);
      g_assert_cmpstr(ns_topology_machine_name(t, m), ==, name);
      const NsLink *l = find_link(t, name, sw);
      g_assert_cmpfloat(l->bandwidth, ==, 100e6);
      g_assert_cmpfloat(l->latency, ==, 10e-6);
    }
  }
  for (int s = 1; s < 4; s++) {
    g_autofree char *sw = g_strdup_printf("s%d", s);
    g_autofree char *prev = g_strdup_printf("s%d", s - 1);
    find_link(b, sw, "s0");
    find_link(c, prev, sw);
  }
  /* (b) is a star of switches: s0 has degree 8 + 3; in (c) s0 has 8 + 1. */
  g_assert_cmpint(ns_topology_degree(b, ns_topology_find_node(b, "s0")), ==, 11);
  g_assert_cmpint(ns_topology_degree(c, ns_topology_find_node(c, "s0")), ==, 9);
  g_assert_cmpint(ns_topology_degree(c, ns_topology_find_node(c, "s1")), ==, 10);
}

/* The Slurm and GraphML versions describe the same clusters. */
static void test_bundled_equivalents(void)
{
  g_autoptr(NsTopology) b = load_scenario("faraj-b.topo");
  g_autoptr(NsTopology) bs = load_scenario("faraj-b.conf");
  g_autofree char *mb = machine_list(b), *mbs = machine_list(bs);
  g_assert_cmpstr(mb, ==, mbs);
  g_assert_cmpint(ns_topology_n_links(b), ==, ns_topology_n_links(bs));
  for (int i = 0; i < ns_topology_n_links(b); i++) {
    const NsLink *l = ns_topology_link(b, i);
    const NsLink *o = find_link(bs, ns_topology_node(b, l->a)->name,
                                ns_topology_node(b, l->b)->name);
    g_assert_cmpfloat(o->bandwidth, ==, l->bandwidth);
    g_assert_cmpfloat(o->latency, ==, l->latency);
  }

  g_autoptr(NsTopology) f = load_scenario("faraj-fig1.topo");
  g_autoptr(NsTopology) fg = load_scenario("faraj-fig1.graphml");
  assert_same(f, fg, FALSE);
}

/* ---- good files ------------------------------------------------------------ */

static void test_native_features(void)
{
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  g_autoptr(NsTopology) t = load_ok("topo/features.topo", warnings);
  g_autofree char *path = ns_test_data("topo/features.topo");

  g_assert_cmpuint(warnings->len, ==, 1);
  g_autofree char *w = g_strdup_printf(
    "%s:17: switch 'spare' has no machine below it: pruned (it carries no traffic)", path);
  g_assert_cmpstr(g_ptr_array_index(warnings, 0), ==, w);
  g_ptr_array_free(warnings, TRUE);

  g_autofree char *machines = machine_list(t);
  g_assert_cmpstr(machines, ==, "n0 n1 n2 n3 rack 1/node#7 n08 n09 n10");
  g_assert_cmpint(ns_topology_n_switches(t), ==, 4);
  g_assert_cmpint(ns_topology_n_links(t), ==, 11);
  g_assert_cmpint(ns_topology_find_node(t, "spare"), ==, -1);
  g_assert_cmpint(node_named(t, "n08")->line, ==, 12);

  const NsNode *core = node_named(t, "core");
  g_assert_cmpint(core->kind, ==, NS_NODE_SWITCH);
  g_assert_cmpint(core->forwarding, ==, NS_FORWARD_STORE_AND_FORWARD);
  g_assert_cmpint(core->buffering, ==, NS_BUFFER_INPUT);
  g_assert_cmpint(core->buffer_packets, ==, 128);
  for (int k = 0; k < 2; k++) {
    const NsNode *leaf = node_named(t, k ? "leaf1" : "leaf0");
    g_assert_cmpint(leaf->forwarding, ==, NS_FORWARD_CUT_THROUGH);
    g_assert_cmpint(leaf->buffering, ==, NS_BUFFER_SHARED);
    g_assert_cmpint(leaf->buffer_packets, ==, 128);
  }
  const NsNode *edge = node_named(t, "edge");
  g_assert_cmpint(edge->forwarding, ==, NS_FORWARD_CUT_THROUGH);
  g_assert_cmpint(edge->buffering, ==, NS_BUFFER_OUTPUT);
  g_assert_cmpint(edge->buffer_packets, ==, 8);

  static const struct {
    const char *link;
    double bandwidth, latency;
    int line;
  } links[] = {
    {"n0-leaf0", 1e9, 5e-6, 19},    {"n1-leaf0", 1e9, 5e-6, 19},
    {"n2-leaf1", 100e6, 2e-6, 20},  {"n3-leaf1", 100e6, 2e-6, 20},
    {"rack 1/node#7-leaf1", 100e6, 2e-6, 21},
    {"n08-edge", 100e6, 5e-6, 22},  {"n09-edge", 100e6, 5e-6, 22},
    {"n10-edge", 100e6, 5e-6, 22},  {"leaf0-core", 10e9, 1.5e-6, 23},
    {"leaf1-core", 10e9, 1.5e-6, 23}, {"edge-core", 1e9, 5e-6, 24},
  };
  for (int i = 0; i < ns_topology_n_links(t); i++) {
    g_autofree char *text = link_text(t, i);
    g_assert_cmpstr(text, ==, links[i].link);
    g_assert_cmpfloat(ns_topology_link(t, i)->bandwidth, ==, links[i].bandwidth);
    g_assert_cmpfloat(ns_topology_link(t, i)->latency, ==, links[i].latency);
    g_assert_cmpint(ns_topology_link(t, i)->line, ==, links[i].line);
  }
}

static void test_native_in_memory(void)
{
  GError *error = NULL;
  /* CRLF line ends, no final newline, and a buffer that is not
   * NUL-terminated: only `len` bytes may be read. */
  const char text[] = "machine a b\r\nswitch s\r\nlink a,b s latency=0s\r\nGARBAGE";
  g_autoptr(NsTopology) t = ns_topology_parse_native("mem", text, sizeof text - 1 - 7, NULL,
                                                     NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_machines(t), ==, 2);
  g_assert_cmpfloat(ns_topology_link(t, 1)->latency, ==, 0);

  static const struct {
    const char *text;
    gsize len;
    const char *message;
  } bad[] = {
    {"machine a\0b\n", 12, "mem:1: NUL byte in the line"},
    {"machine a\nmachine \xc3\x28\n", 20, "mem:2: the line is not valid UTF-8"},
    {"machine a\x01 b\n", 13, "mem:1: control character 0x01 in the line"},
    {"machine \"a\x02\"\n", 13, "mem:1: control character 0x02 in quoted string"},
    {"machine \"a\"b\n", 13,
     "mem:1: missing blank after the quoted name \"a\" (a quoted name stands alone: it cannot "
     "be part of a hostlist)"},
    {"", 0, "mem: 0 machines: a collective needs at least 2 machines"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    NsTopology *none = ns_topology_parse_native("mem", bad[i].text, bad[i].len, NULL, NULL,
                                                &error);
    g_assert_null(none);
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_assert_cmpstr(error->message, ==, bad[i].message);
    g_clear_error(&error);
  }
  /* NULL text, NULL error: no crash. */
  g_assert_null(ns_topology_parse_native(NULL, NULL, 0, NULL, NULL, NULL));
  g_assert_null(ns_topology_parse_native("x", "swtich", 6, NULL, NULL, NULL));
  g_assert_null(ns_topology_parse_slurm("x", "Bogus=1", 7, NULL, NULL, NULL));
}

static void test_slurm_features(void)
{
  g_autoptr(NsTopology) t = load_ok("topo/features.conf", NULL);
  g_autofree char *machines = machine_list(t);
  g_assert_cmpstr(machines, ==, "n0 n1 n2 n3 n4 n5 n6 n7 n8 m#0 m1");
  g_assert_cmpint(ns_topology_n_switches(t), ==, 6);
  g_assert_cmpint(ns_topology_n_links(t), ==, 16);
  /* Switches first, in the order of their lines. */
  const char *switches[] = {"leaf0", "leaf1", "leaf2", "top", "root", "esc#1"};
  for (int v = 0; v < 6; v++) {
    g_assert_cmpstr(ns_topology_node(t, v)->name, ==, switches[v]);
    g_assert_cmpint(ns_topology_node(t, v)->kind, ==, NS_NODE_SWITCH);
    g_assert_cmpint(ns_topology_node(t, v)->forwarding, ==, NS_FORWARD_STORE_AND_FORWARD);
    g_assert_cmpint(ns_topology_node(t, v)->buffer_packets, ==, 0);
  }
  g_assert_cmpint(node_named(t, "leaf2")->line, ==, 4);   /* continued line */
  g_assert_cmpint(node_named(t, "n7")->line, ==, 4);
  g_assert_cmpint(node_named(t, "root")->line, ==, 10);
  const char *expected[] = {"n0-leaf0", "n1-leaf0", "n2-leaf0", "n3-leaf0", "n4-leaf1",
                            "n5-leaf1", "n6-leaf2", "n7-leaf2", "root-top", "esc#1-top",
                            "n8-root", "leaf0-root", "leaf1-root", "leaf2-root",
                            "m#0-esc#1", "m1-esc#1"};
  for (int i = 0; i < 16; i++) {
    g_autofree char *text = link_text(t, i);
    g_assert_cmpstr(text, ==, expected[i]);
    g_assert_cmpfloat(ns_topology_link(t, i)->bandwidth, ==, NS_DEFAULT_BANDWIDTH);
    g_assert_cmpfloat(ns_topology_link(t, i)->latency, ==, NS_DEFAULT_LATENCY);
  }
}

static void test_graphml_directed(void)
{
  g_autoptr(NsTopology) t = load_ok("topo/directed.graphml", NULL);
  g_autofree char *machines = machine_list(t);
  g_assert_cmpstr(machines, ==, "host-a b c");
  g_assert_cmpint(ns_topology_n_switches(t), ==, 2);
  g_assert_cmpint(ns_topology_n_links(t), ==, 4); /* 6 edges, 2 reverse pairs merged */
  const NsNode *tor = node_named(t, "tor");
  g_assert_cmpint(tor->forwarding, ==, NS_FORWARD_CUT_THROUGH);
  g_assert_cmpint(tor->buffering, ==, NS_BUFFER_INPUT);
  g_assert_cmpint(tor->buffer_packets, ==, 16);
  const NsNode *core = node_named(t, "core");
  g_assert_cmpint(core->forwarding, ==, NS_FORWARD_STORE_AND_FORWARD);
  g_assert_cmpint(core->buffer_packets, ==, 0);
  const char *expected[] = {"host-a-tor", "b-tor", "core-c", "tor-core"};
  const double bw[] = {1e9, 100e6, 100e6, 10e9}, lat[] = {2e-6, 10e-6, 10e-6, 10e-6};
  for (int i = 0; i < 4; i++) {
    g_autofree char *text = link_text(t, i);
    g_assert_cmpstr(text, ==, expected[i]);
    g_assert_cmpfloat(ns_topology_link(t, i)->bandwidth, ==, bw[i]);
    g_assert_cmpfloat(ns_topology_link(t, i)->latency, ==, lat[i]);
  }
}

/* ---- writers --------------------------------------------------------------- */

static void test_native_round_trip_files(void)
{
  const char *files[] = {"topo/features.topo", "topo/features.conf", "topo/directed.graphml"};
  for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autoptr(NsTopology) t = load_ok(files[i], g_ptr_array_new_with_free_func(g_free));
    g_autofree char *text1 = NULL, *text2 = NULL;
    g_autoptr(NsTopology) again = reread_native(t, &text1);
    assert_same(t, again, TRUE);
    g_autoptr(NsTopology) third = reread_native(again, &text2);
    assert_same(again, third, TRUE);
    /* The text is stable apart from the "written from" comment. */
    g_assert_cmpstr(strstr(text1, " machine"), ==, strstr(text2, " machine"));
  }
  /* The exact text for the features file, title included. */
  g_autoptr(NsTopology) t = load_ok("topo/features.topo", g_ptr_array_new_with_free_func(g_free));
  g_assert_cmpstr(ns_topology_title(t), ==, "features test");
  g_autofree char *text = write_to_string(t, NS_TOPO_FORMAT_NATIVE);
  g_assert_nonnull(strstr(text, "\nname \"features test\"\ndefault bandwidth"));
  g_autofree char *ignored = NULL;
  g_autoptr(NsTopology) back = reread_native(t, &ignored);
  g_assert_cmpstr(ns_topology_title(back), ==, "features test");
  g_assert_cmpstr(strstr(text, "default bandwidth"), ==,
                  "default bandwidth 100Mbps\n"
                  "default latency 5us\n"
                  "\n"
                  "machine n[0-3] \"rack 1/node#7\" n[08-10]\n"
                  "switch core buffer=128p buffering=input\n"
                  "switch leaf[0-1] forwarding=cut-through buffer=128p buffering=shared\n"
                  "switch edge forwarding=cut-through buffer=8p\n"
                  "\n"
                  "link n[0-1] leaf0 bandwidth=1Gbps\n"
                  "link n[2-3] leaf1 latency=2us\n"
                  "link \"rack 1/node#7\" leaf1 latency=2us\n"
                  "link n[08-10] edge\n"
                  "link leaf[0-1] core bandwidth=10Gbps latency=1.5us\n"
                  "link edge core bandwidth=1Gbps\n");
}

static void test_graphml_round_trip_files(void)
{
  const char *files[] = {"topo/features.topo", "topo/features.conf", "topo/directed.graphml"};
  for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autoptr(NsTopology) t = load_ok(files[i], g_ptr_array_new_with_free_func(g_free));
    g_autoptr(NsTopology) again = reread_graphml(t);
    assert_same(t, again, FALSE);
  }
  /* Escaping: names with XML specials and non-NMTOKEN names. */
  const char *src = "machine \"a<b\" \"c&d\" \"q\\\"uote\" \"\xc3\xa9t\xc3\xa9\"\n"
                    "switch \"s 0\" forwarding=cut-through buffer=7p\n"
                    "link \"a<b\" \"s 0\" bandwidth=3.3333Mbps latency=0.1ns\n"
                    "link \"c&d\" \"s 0\"\nlink \"q\\\"uote\" \"s 0\"\n"
                    "link \"\xc3\xa9t\xc3\xa9\" \"s 0\"\n";
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_topology_parse_native("esc", src, strlen(src), NULL, NULL, &error);
  g_assert_no_error(error);
  g_autofree char *xml = write_to_string(t, NS_TOPO_FORMAT_GRAPHML);
  g_assert_nonnull(strstr(xml, "<node id=\"v0\"><data key=\"kind\">machine</data>"
                               "<data key=\"name\">a&lt;b</data></node>"));
  g_assert_nonnull(strstr(xml, "<data key=\"name\">c&amp;d</data>"));
  g_autoptr(NsTopology) again = reread_graphml(t);
  assert_same(t, again, TRUE);
  g_autoptr(NsTopology) native = reread_native(t, NULL);
  assert_same(t, native, TRUE);
}

static void test_dot(void)
{
  g_autoptr(NsTopology) t = load_scenario("faraj-fig1.topo");
  g_autofree char *dot = write_to_string(t, NS_TOPO_FORMAT_DOT);
  g_assert_true(g_str_has_prefix(dot, "// netsched topology"));
  const char *lines[] = {
    "graph topology {\n",
    "  \"n0\" [shape=box];\n",
    "  \"n5\" [shape=box];\n",
    "  \"s1\" [shape=ellipse, tooltip=\"store-and-forward, output buffering\"];\n",
    "  \"n0\" -- \"s0\" [label=\"100Mbps\", tooltip=\"100Mbps, latency 10us\"];\n",
    "  \"s3\" -- \"s1\" [label=\"100Mbps\", tooltip=\"100Mbps, latency 10us\"];\n",
  };
  for (gsize i = 0; i < G_N_ELEMENTS(lines); i++)
    if (strstr(dot, lines[i]) == NULL)
      g_error("DOT output lacks '%s':\n%s", lines[i], dot);
  g_assert_true(g_str_has_suffix(dot, "}\n"));
  /* One line per node and per link between the braces. */
  g_auto(GStrv) all = g_strsplit(dot, "\n", -1);
  int edges = 0, nodes = 0;
  for (int i = 0; all[i] != NULL; i++) {
    edges += strstr(all[i], " -- ") != NULL;
    nodes += strstr(all[i], "[shape=") != NULL;
  }
  g_assert_cmpint(edges, ==, 8);
  g_assert_cmpint(nodes, ==, 9);

  /* Quotes and backslashes are escaped. */
  const char *src = "machine \"a\\\"b\" \"c\\\\d\"\nswitch s\nlink \"a\\\"b\",\"c\\\\d\" s\n";
  GError *error = NULL;
  NsTopology *q = ns_topology_parse_native("q", src, strlen(src), NULL, NULL, &error);
  g_assert_null(q); /* a quoted name cannot be part of a hostlist */
  g_assert_cmpstr(error->message, ==,
                  "q:3: missing blank after the quoted name \"a\\\"b\" (a quoted name stands "
                  "alone: it cannot be part of a hostlist)");
  g_clear_error(&error);
  src = "machine \"a\\\"b\" \"c\\\\d\"\nswitch s\nlink \"a\\\"b\" s\nlink \"c\\\\d\" s\n";
  g_autoptr(NsTopology) q2 = ns_topology_parse_native("q", src, strlen(src), NULL, NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(ns_topology_machine_name(q2, 0), ==, "a\"b");
  g_assert_cmpstr(ns_topology_machine_name(q2, 1), ==, "c\\d");
  g_autofree char *dot2 = write_to_string(q2, NS_TOPO_FORMAT_DOT);
  g_assert_nonnull(strstr(dot2, "  \"a\\\"b\" -- \"s\""));
  g_assert_nonnull(strstr(dot2, "  \"c\\\\d\" -- \"s\""));
}

/* Random trees with awkward names, interleaved node order, both link
 * orientations and assorted values: native re-reads identically, GraphML
 * up to link orientation. */
static void test_random_round_trip(void)
{
  static const char *odd[] = {"a b", "q\"uote", "back\\slash", "\xc3\xa9t\xc3\xa9", "x[1]",
                              "a,b", "=eq", "#hash", "n007", "n08", "n9", "n10", "007",
                              "-", "machine", "link", "r1n1", "r1n2", "r2n1"};
  const double bws[] = {100e6, 1e9, 1.25e9, 12.5e6 * 8, 123456789.0, 3.3e10, 1.5};
  const double lats[] = {10e-6, 5e-6, 0, 1.5e-6, 1e-3, 2.5e-9};
  GRand *rng = g_rand_new_with_seed(7);
  for (int round = 0; round < 200; round++) {
    NsTopology *t = ns_topology_new("random");
    int switches = g_rand_int_range(rng, 1, 8), machines = g_rand_int_range(rng, 2, 30);
    GArray *sw = g_array_new(FALSE, FALSE, sizeof(int));
    GArray *ma = g_array_new(FALSE, FALSE, sizeof(int));
    int used_odd = 0;
    GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    while ((int)sw->len < switches || (int)ma->len < machines) {
      gboolean is_switch = (int)sw->len < switches &&
                           ((int)ma->len >= machines || g_rand_boolean(rng) || sw->len == 0);
      char *name;
      if (g_rand_int_range(rng, 0, 4) == 0 && used_odd < (int)G_N_ELEMENTS(odd))
        name = g_strdup(odd[used_odd++]);
      else
        name = g_strdup_printf("%s%d", is_switch ? "s" : "n", g_rand_int_range(rng, 0, 60));
      if (g_hash_table_contains(names, name)) {
        g_free(name);
        continue;
      }
      g_hash_table_add(names, name);
      int id = ns_topology_add_node(t, name, is_switch ? NS_NODE_SWITCH : NS_NODE_MACHINE, 0,
                                    NULL);
      g_assert_cmpint(id, >=, 0);
      if (is_switch) {
        NsNode *nd = ns_topology_node_mut(t, id);
        nd->forwarding = g_rand_boolean(rng) ? NS_FORWARD_CUT_THROUGH
                                             : NS_FORWARD_STORE_AND_FORWARD;
        nd->buffering = (NsBuffering)g_rand_int_range(rng, 0, 3);
        nd->buffer_packets = g_rand_boolean(rng) ? 0 : g_rand_int_range(rng, 1, 1000);
        g_array_append_val(sw, id);
      } else {
        g_array_append_val(ma, id);
      }
    }
    /* Links in random order: switch i > 0 to a random earlier switch,
     * every machine to a random switch. */
    int total = switches - 1 + machines;
    int *order = g_new(int, total);
    for (int i = 0; i < total; i++)
      order[i] = i;
    ns_test_shuffle(rng, order, total);
    for (int k = 0; k < total; k++) {
      int i = order[k], a, b;
      if (i < switches - 1) {
        a = g_array_index(sw, int, i + 1);
        b = g_array_index(sw, int, g_rand_int_range(rng, 0, i + 1));
      } else {
        a = g_array_index(ma, int, i - (switches - 1));
        b = g_array_index(sw, int, g_rand_int_range(rng, 0, switches));
      }
      if (g_rand_boolean(rng)) {
        int x = a;
        a = b;
        b = x;
      }
      /* Runs of equal values so the writer groups links. */
      double bw = bws[g_rand_int_range(rng, 0, 3) == 0 ? g_rand_int_range(rng, 0, 7) : 0];
      double lat = lats[g_rand_int_range(rng, 0, 3) == 0 ? g_rand_int_range(rng, 0, 6) : 0];
      g_assert_cmpint(ns_topology_add_link(t, a, b, bw, lat, 0, NULL), >=, 0);
    }
    g_free(order);
    GError *error = NULL;
    g_assert_true(ns_topology_finalize(t, NULL, NULL, &error));
    g_assert_no_error(error);

    NsTopology *again = reread_native(t, NULL);
    assert_same(t, again, TRUE);
    ns_topology_free(again);
    again = reread_graphml(t);
    assert_same(t, again, FALSE);
    ns_topology_free(again);

    g_hash_table_unref(names);
    g_array_free(sw, TRUE);
    g_array_free(ma, TRUE);
    ns_topology_free(t);
  }
  g_rand_free(rng);
}

/* Slurm's LinkSpeed is unitless: ignored (with a warning) unless a unit is
 * given, then LinkSpeed x unit on the links the line declares, and Slurm's
 * default LinkSpeed=1 x unit on a line without one; the speed taken by
 * default is always announced. */
static void test_slurm_link_unit(void)
{
  const char *text = "SwitchName=s0 Nodes=n[0-1] LinkSpeed=10\n"
                     "SwitchName=s1 Nodes=n[2-3]\n"
                     "SwitchName=root Switches=s[0-1] LinkSpeed=40\n";
  GError *error = NULL;
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
  g_autoptr(NsTopology) plain =
      ns_topology_parse_slurm("t.conf", text, strlen(text), collect_warning, warnings, &error);
  g_assert_no_error(error);
  for (int l = 0; l < ns_topology_n_links(plain); l++)
    g_assert_cmpfloat(ns_topology_link(plain, l)->bandwidth, ==, NS_DEFAULT_BANDWIDTH);
  g_assert_cmpuint(warnings->len, ==, 1);
  g_assert_nonnull(strstr(g_ptr_array_index(warnings, 0), "t.conf:1: LinkSpeed ignored"));
  g_ptr_array_set_size(warnings, 0);
  g_autoptr(NsTopology) t = ns_topology_parse_slurm_unit("t.conf", text, strlen(text), 1e9,
                                                         collect_warning, warnings, &error);
  g_assert_no_error(error);
  for (int l = 0; l < ns_topology_n_links(t); l++) {
    const NsLink *k = ns_topology_link(t, l);
    const char *a = ns_topology_node(t, k->a)->name, *b = ns_topology_node(t, k->b)->name;
    double want = strcmp(a, "root") == 0 || strcmp(b, "root") == 0 ? 40e9
                  : strcmp(a, "s0") == 0 || strcmp(b, "s0") == 0   ? 10e9
                                                                   : 1e9;
    g_assert_cmpfloat(k->bandwidth, ==, want);
  }
  g_assert_cmpuint(warnings->len, ==, 1);
  g_assert_cmpstr(g_ptr_array_index(warnings, 0), ==,
                  "t.conf: 1 of 3 lines have no LinkSpeed: their links get 1Gbps (Slurm's "
                  "default LinkSpeed=1 times the unit 1Gbps)");
  const char *zero = "SwitchName=s0 Nodes=n[0-1] LinkSpeed=0\n";
  g_assert_null(ns_topology_parse_slurm_unit("z.conf", zero, strlen(zero), 1e9, NULL, NULL,
                                             &error));
  g_assert_cmpstr(error->message, ==, "z.conf:1: LinkSpeed=0: a link needs a positive speed");
  g_clear_error(&error);
}

/* Issue 17 item 3: the README's `-f slurm:1Gbps` on Slurm's man-page
 * example, which has no LinkSpeed, gave 100 Mbit/s links without a word. */
static void test_slurm_no_linkspeed(void)
{
  g_autofree char *path = ns_test_source("scenarios/topologies/topology.conf");
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
  GError *error = NULL;
  NsReadOptions o;
  g_assert_true(ns_read_options_parse("slurm:1Gbps", &o, &error));
  g_autoptr(NsTopology) t = ns_topology_load_with(path, &o, collect_warning, warnings, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_machines(t), ==, 18);
  g_assert_cmpint(ns_topology_n_switches(t), ==, 4);
  for (int l = 0; l < ns_topology_n_links(t); l++)
    g_assert_cmpfloat(ns_topology_link(t, l)->bandwidth, ==, 1e9);
  g_assert_cmpuint(warnings->len, ==, 1);
  g_autofree char *want = g_strdup_printf("%s: no LinkSpeed in the file: every link gets 1Gbps "
                                          "(-f slurm:1Gbps)", path);
  g_assert_cmpstr(g_ptr_array_index(warnings, 0), ==, want);
  /* Without a speed: the default, announced. */
  g_ptr_array_set_size(warnings, 0);
  g_autoptr(NsTopology) d = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, collect_warning,
                                             warnings, &error);
  g_assert_no_error(error);
  g_assert_cmpfloat(ns_topology_link(d, 0)->bandwidth, ==, NS_DEFAULT_BANDWIDTH);
  g_assert_cmpuint(warnings->len, ==, 1);
  g_autofree char *dflt = g_strdup_printf("%s: no link speed given: every link gets the "
                                          "default 100Mbps; give the speed with -f slurm:SPEED "
                                          "(e.g. -f slurm:1Gbps)", path);
  g_assert_cmpstr(g_ptr_array_index(warnings, 0), ==, dflt);
}

/* Issue 17 item 9: a file of leaf switches only is joined by an assumed
 * core switch on request (stated), and refused with the way out otherwise;
 * slurmibtopology.sh's leaf/spine (a switch under two switches) is a graph. */
static void test_slurm_core_and_leafspine(void)
{
  g_autofree char *leaf = ns_test_data("topo/slurm-leaf-only.conf");
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
  GError *error = NULL;
  NsReadOptions o;
  g_assert_true(ns_read_options_parse("slurm:1Gbps", &o, &error));
  g_assert_null(ns_topology_load_with(leaf, &o, NULL, NULL, &error));
  g_assert_nonnull(strstr(error->message, "the switches are not connected: 3 top-level "
                          "switches (rack1, rack2, rack3)"));
  g_clear_error(&error);
  g_assert_true(ns_read_options_parse("slurm:1Gbps:core=10Gbps", &o, &error));
  g_assert_cmpfloat(o.core_bandwidth, ==, 10e9);
  g_autoptr(NsTopology) t = ns_topology_load_with(leaf, &o, collect_warning, warnings, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_machines(t), ==, 12);
  int core = ns_topology_find_node(t, "core");
  g_assert_cmpint(core, >=, 0);
  g_assert_cmpint(ns_topology_degree(t, core), ==, 3);
  for (int k = 0; k < 3; k++)
    g_assert_cmpfloat(ns_topology_link(t, ns_topology_incident(t, core)[k])->bandwidth, ==,
                      10e9);
  g_assert_cmpint(ns_topology_routing(t), ==, NS_ROUTING_TREE);
  g_assert_cmpuint(warnings->len, ==, 2);
  g_autofree char *said = g_strdup_printf("%s: assumed a core switch 'core' joining the 3 "
                                          "top-level switches (rack1, rack2, rack3) with 10Gbps "
                                          "links (core=10Gbps)", leaf);
  g_assert_cmpstr(g_ptr_array_index(warnings, 1), ==, said);

  g_autofree char *ls = ns_test_data("topo/slurm-leafspine.conf");
  g_autoptr(NsTopology) g = ns_topology_load(ls, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_machines(g), ==, 16);
  g_assert_cmpint(ns_topology_n_switches(g), ==, 6);
  g_assert_cmpint(ns_topology_n_links(g), ==, 16 + 8);
  g_assert_cmpint(ns_topology_routing(g), ==, NS_ROUTING_ECMP);
  /* Machines of two leaves meet through a spine: 3 switches on the path. */
  int edges[16];
  g_assert_cmpint(ns_topology_route_machines(g, 0, 15, edges), ==, 4);
  /* ECMP: consecutive destinations leave the leaf by different spines. */
  int other[16];
  g_assert_cmpint(ns_topology_route_machines(g, 0, 4, edges), ==, 4);
  g_assert_cmpint(ns_topology_route_machines(g, 0, 5, other), ==, 4);
  g_assert_cmpint(edges[0], ==, other[0]);
  g_assert_cmpint(edges[1], !=, other[1]);

  /* Options that a format does not take, and bad values. */
  const char *bad[][2] = {
    {"slurm:1Gbps:core=fast", "format 'slurm:1Gbps:core=fast': 'core=fast': "},
    {"slurm:1Gbps:2Gbps", "format 'slurm:1Gbps:2Gbps': the unit of LinkSpeed given twice"},
    {"graphml:machines-per-switch=0",
     "format 'graphml:machines-per-switch=0': 'machines-per-switch=0': expected a whole "
     "number of machines from 1 to 1024"},
    {"native:core=1Gbps", "format 'native:core=1Gbps': unknown option 'core=1Gbps' (only slurm "
     "and graphml take options)"},
    {"slurm::core=1Gbps", "format 'slurm::core=1Gbps': empty option after ':'"},
    {"yaml", "unknown topology format 'yaml' (native, slurm, slurm:UNIT, graphml, simgrid)"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_assert_false(ns_read_options_parse(bad[i][0], &o, &error));
    g_assert_true(g_str_has_prefix(error->message, bad[i][1]));
    g_clear_error(&error);
  }
}

/* Issue 17 item 10: GraphML without netsched's attributes (the Internet
 * Topology Zoo): every node a switch with machines attached, the Zoo's
 * link speeds, a refusal naming largest-component for a graph in pieces. */
static void test_graphml_zoo(void)
{
  g_autofree char *path = ns_test_data("topo/zoo-style.graphml");
  GError *error = NULL;
  g_assert_null(ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error));
  g_autofree char *split = g_strdup_printf("%s: the graph is not connected: 2 components, the "
                                           "largest with 4 of 6 nodes; -f "
                                           "graphml:largest-component reads that one alone",
                                           path);
  g_assert_cmpstr(error->message, ==, split);
  g_clear_error(&error);

  NsReadOptions o;
  g_assert_true(ns_read_options_parse("graphml:largest-component:machines-per-switch=2", &o,
                                      &error));
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
  g_autoptr(NsTopology) t = ns_topology_load_with(path, &o, collect_warning, warnings, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_switches(t), ==, 4);
  g_assert_cmpint(ns_topology_n_machines(t), ==, 8);
  g_assert_cmpstr(ns_topology_machine_name(t, 2), ==, "n2");
  /* n2 and n3 hang on the second switch, s1 (GraphML id 1). */
  int n2 = ns_topology_machine_node(t, 2);
  g_assert_cmpstr(ns_topology_node(t, ns_topology_link_other(t, ns_topology_incident(t, n2)[0],
                                                             n2))->name, ==, "s1");
  /* LinkSpeedRaw, LinkSpeed x LinkSpeedUnits (the parallel 0-1 edge), then defaults. */
  const double speeds[] = {10e9, 2.5e9, 155e6, NS_DEFAULT_BANDWIDTH, NS_DEFAULT_BANDWIDTH};
  for (int l = 0; l < 5; l++)
    g_assert_cmpfloat(ns_topology_link(t, l)->bandwidth, ==, speeds[l]);
  g_assert_cmpuint(warnings->len, ==, 4);
  g_autofree char *loop = g_strdup_printf("%s: 1 self-loop left out (an edge from a node to "
                                          "itself)", path);
  g_assert_cmpstr(g_ptr_array_index(warnings, 2), ==, loop);
  g_autofree char *kept = g_strdup_printf("%s: kept the largest component (4 of 6 nodes); "
                                          "dropped 2 nodes in 1 other component "
                                          "(largest-component)", path);
  g_assert_cmpstr(g_ptr_array_index(warnings, 0), ==, kept);
  g_autofree char *attached = g_strdup_printf("%s: no vertex attribute 'kind': every node is a "
                                              "switch with 2 machines (machines-per-switch=2), "
                                              "on 100Mbps links (bandwidth=100Mbps)", path);
  g_assert_cmpstr(g_ptr_array_index(warnings, 1), ==, attached);
  g_autofree char *dflt = g_strdup_printf("%s: 2 links without a speed (no bandwidth, "
                                          "LinkSpeedRaw or LinkSpeed) get 100Mbps "
                                          "(bandwidth=100Mbps)", path);
  g_assert_cmpstr(g_ptr_array_index(warnings, 3), ==, dflt);
}

/* ---- bad files --------------------------------------------------------------- */

typedef struct {
  const char *file;
  int line;            /* 0: no line in the message */
  const char *message;
} Bad;

static const Bad bad_native[] = {
  {"unknown-keyword.topo", 3,
   "unknown keyword 'swtich' (expected name, default, machine, switch, link, routing, grid or route)"},
  {"quoted-keyword.topo", 2,
   "unknown keyword \"machine\" (expected name, default, machine, switch, link, routing, grid or route)"},
  {"unknown-unit.topo", 2,
   "invalid bandwidth '100Mbs': unknown unit (expected bps, Bps or bit/s with an optional "
   "prefix k, M, G, T, Ki, Mi, Gi, Ti, e.g. 100Mbps)"},
  {"missing-unit.topo", 4,
   "invalid latency '5': missing unit (units are never guessed: write e.g. 10us)"},
  {"negative-latency.topo", 4, "invalid latency '-1us': negative value"},
  {"zero-bandwidth.topo", 2, "invalid bandwidth '0Gbps': bandwidth must be positive"},
  {"unknown-node.topo", 4,
   "unknown node 'n2' (declare it with 'machine' or 'switch' before linking it)"},
  {"link-before-switch.topo", 3,
   "unknown node 's0' (declare it with 'machine' or 'switch' before linking it)"},
  {"duplicate-name.topo", 3, "duplicate node name 'n2' (first declared at line 2)"},
  {"unknown-switch-attr.topo", 2,
   "unknown switch attribute 'color' (expected forwarding, buffer or buffering)"},
  {"machine-attr.topo", 2, "unknown machine attribute 'bandwidth' (expected ports)"},
  {"bad-ports.topo", 2,
   "invalid ports 'zero' (expected one, all or a number of ports from 2 to 1024)"},
  /* Fabric statements: routing, grid, explicit routes. */
  {"bad-routing.topo", 4,
   "unknown routing 'fastest' (expected tree, dimension-order, dmodk, smodk, shortest, ecmp "
   "or explicit)"},
  {"routing-twice.topo", 6, "'routing' given twice (first at line 2)"},
  {"bad-grid.topo", 3, "grid 0x4 torus: '0x4': size '0' is not a number from 1 to 1000000"},
  {"grid-kind.topo", 3, "grid 2x2 donut: unknown grid kind 'donut' (expected torus or mesh)"},
  {"route-other-routing.topo", 6,
   "'route' lists explicit routes, but line 2 chose routing shortest"},
  {"route-unlinked.topo", 7, "no link joins 'n0' and 's1' on this route"},
  {"missing-value.topo", 4, "missing value for attribute 'bandwidth'"},
  {"no-attr-key.topo", 2, "missing attribute name in '=4p'"},
  {"attr-twice.topo", 4, "attribute 'latency' given twice"},
  {"name-after-attr.topo", 2, "unexpected 's1' after the attributes (attributes go last)"},
  {"bad-forwarding.topo", 2,
   "invalid forwarding 'fast' (expected store-and-forward or cut-through)"},
  {"bad-buffer.topo", 2,
   "invalid buffer size '64' (expected a number of packets from 1p to 1000000000p, e.g. "
   "buffer=64p)"},
  {"bad-buffering.topo", 2, "invalid buffering 'middle' (expected input, output or shared)"},
  {"default-no-value.topo", 2,
   "'default' needs a key and a value, e.g. 'default bandwidth 100Mbps'"},
  {"default-unknown.topo", 2,
   "unknown default 'colour' (expected bandwidth, latency, forwarding, buffer or buffering)"},
  {"default-equals.topo", 2,
   "write defaults as 'default KEY VALUE' without '=', e.g. 'default bandwidth 100Mbps'"},
  {"name-twice.topo", 3, "'name' given twice (first at line 2)"},
  {"unbalanced-bracket.topo", 2, "unbalanced '[' in 'n[0-3'"},
  {"descending-range.topo", 2, "descending range '5-3' in 'n[5-3]'"},
  {"right-end-many.topo", 4, "the right end of a link must be one node, but 's[0-1]' names 2"},
  {"link-extra-end.topo", 4,
   "unexpected 's1' after the two ends of the link (expected key=value attributes)"},
  {"link-one-end.topo", 3, "'link' needs two ends, e.g. 'link n[0-3] s0 bandwidth=1Gbps'"},
  {"machine-no-name.topo", 2, "'machine' needs at least one name, e.g. 'machine n[0-7]'"},
  {"unterminated-quote.topo", 2, "unterminated quoted string"},
  {"bad-escape.topo", 2, "unknown escape in quoted string (only \\\" and \\\\ are allowed)"},
  {"quote-in-token.topo", 2, "unexpected '\"' in 'n\"0\"' (quote whole names only)"},
  {"self-link.topo", 5, "link from 's0' to itself"},
  /* Found by the model (ns_topology_finalize); more in bad_model. */
  {"one-machine.topo", 0, "1 machine: a collective needs at least 2 machines"},
  {"empty.topo", 0, "0 machines: a collective needs at least 2 machines"},
  /* Byte-order marks and invisible characters. */
  {"bom-keyword.topo", 3,
   "a byte-order mark (U+FEFF) inside 'machine': one is allowed only at the very start of the "
   "file"},
  {"invisible-keyword.topo", 3,
   "unknown keyword 'machine\\u200b' (expected name, default, machine, switch, link, routing, grid or route)"},
  {"invisible-node.topo", 5,
   "unknown node 'n\\u200b1' (declare it with 'machine' or 'switch' before linking it)"},
  {"utf16.topo", 1,
   "the file is UTF-16 (it starts with the byte-order mark FF FE): save it as UTF-8"},
};

static const Bad bad_slurm[] = {
  {"undefined-child.conf", 3,
   "switch 's1' in Switches= of switch 'root' is not defined (no SwitchName=s1 line)"},
  {"node-two-switches.conf", 3,
   "node 'n3' is under two switches: 's0' (line 2) and 's1' (a machine has one link to its "
   "switch in a topology.conf; keep it under one switch, or convert the file to the native "
   "format (netsched topo convert) and give the machine its links there)"},
  {"switch-cycle.conf", 4,
   "cycle in Switches=: s0 -> s1 -> s2 -> s0 (switch 's2' lists 's0', which is above it; "
   "Switches= lists the switches below a switch)"},
  {"unknown-key.conf", 2,
   "unknown key 'Speed' (topology.conf for topology/tree knows SwitchName, Switches, Nodes "
   "and LinkSpeed)"},
  {"continued-error.conf", 4,
   "unknown key 'Bogus' (topology.conf for topology/tree knows SwitchName, Switches, Nodes "
   "and LinkSpeed)"},
  {"block.conf", 2,
   "'BlockName' belongs to the topology/block plugin, which netsched does not read (only "
   "topology/tree: SwitchName, Switches, Nodes, LinkSpeed)"},
  {"no-switchname.conf", 3,
   "missing SwitchName= (every line of topology.conf defines one switch)"},
  {"switch-twice.conf", 4, "switch 's0' defined twice (first at line 2)"},
  {"two-switchnames.conf", 2, "SwitchName must be one switch name, not a host list: 's[0-1]'"},
  {"bad-linkspeed.conf", 2,
   "invalid LinkSpeed '10Gbps' (expected a whole number: Slurm link speeds are unitless; give "
   "their unit with -f slurm:UNIT, e.g. -f slurm:1Mbps)"},
  {"self-child.conf", 2, "switch 's0' lists itself in Switches="},
  {"node-is-switch.conf", 3, "'s0' in Nodes= is a switch (SwitchName=s0); list it in Switches="},
  {"child-is-node.conf", 3, "'n1' in Switches= of switch 's1' is a node, not a switch"},
  {"bad-hostlist.conf", 2, "Nodes=: unbalanced '[' in 'n[0-1'"},
  {"key-twice.conf", 2, "'nodes' given twice on the line"},
  {"not-key-value.conf", 3, "expected Key=Value, got 'n2'"},
  {"empty-value.conf", 2, "missing value for 'Nodes'"},
  {"unterminated-quote.conf", 2, "unterminated quoted value for 'Nodes'"},
  {"disconnected.conf", 0,
   "the switches are not connected: 2 top-level switches (s0, s1) and no switch above them; "
   "Slurm schedules within each, netsched needs one network: give -f slurm:UNIT:core=SPEED "
   "to assume a core switch joining them"},
  {"bom-key.conf", 3,
   "a byte-order mark (U+FEFF) inside 'SwitchName=s1': one is allowed only at the very start "
   "of the file"},
  {"invisible-name.conf", 4,
   "switch 's\\u200b1' in Switches= of switch 'root' is not defined (no SwitchName=s\\u200b1 "
   "line)"},
};

/* What the topology model refuses, whatever the format. Since the model
 * reads graphs (commit "Fabrics: routing as an object ...": cycles,
 * parallel links, machines with several links, shortest-path routing),
 * some files of tests/data/bad describe valid topologies: model_accepts. */
static const Bad bad_model[] = {
  {"machine-to-machine.topo", 2, "topology is disconnected: 'n2' cannot be reached from 'n0'"},
  {"machine-no-link.topo", 2, "machine 'n1' has no link"},
  {"disconnected.topo", 2, "topology is disconnected: 'n2' cannot be reached from 'n0'"},
};

static const char *const model_accepts[] = {
  "machine-two-links.topo", /* a machine with two links (a direct network) */
  "cycle.topo",             /* a cycle of switches (shortest-path routing) */
  "child-two-parents.conf", /* a switch under two switches (leaf/spine) */
  "parallel.graphml",       /* parallel links */
};

static const Bad bad_graphml[] = {
  {"no-kind.graphml", 6,
   "vertex 'n0': the name of a machine netsched attaches (n0, n1, ...); give the nodes other "
   "names (attribute 'name')"},
  {"missing-kind.graphml", 8, "vertex 'n1': missing 'kind' (expected machine or switch)"},
  {"invalid-kind.graphml", 9, "vertex 'r0': invalid kind 'router' (expected machine or switch)"},
  {"numeric-kind.graphml", 6,
   "vertex 'n0': attribute 'kind' must be a string (machine or switch)"},
  {"duplicate-name.graphml", 8, "duplicate node name 'n0' (first declared at line 7)"},
  {"bad-forwarding.graphml", 9,
   "vertex 's0': invalid forwarding 'wormhole' (expected store-and-forward or cut-through)"},
  {"self-loop.graphml", 12, "vertex 's0': self-loop"},
  {"negative-bandwidth.graphml", 10,
   "link 'n0'-'s0': bandwidth must be a positive number of bit/s, got -5"},
  {"string-units.graphml", 10,
   "link 'n0'-'s0': invalid bandwidth '100Mbs': unknown unit (expected bps, Bps or bit/s with "
   "an optional prefix k, M, G, T, Ki, Mi, Gi, Ti, e.g. 100Mbps)"},
  {"directed-mismatch.graphml", 11,
   "link 'n0'-'s0': the edges in the two directions differ in bandwidth or latency"},
  {"malformed.graphml", 6,
   "cannot read the XML: Element \u201cgraph\u201d was closed, but the currently open "
   "element is \u201cnode\u201d"},
  {"empty.graphml", 0, "empty file (expected GraphML)"},
  /* The pre-check (line numbers, duplicates, what igraph would drop). */
  {"duplicate-id.graphml", 12, "duplicate node id 'n3' (first declared at line 7)"},
  {"duplicate-id-kind.graphml", 9, "duplicate node id 'n1' (first declared at line 7)"},
  {"undeclared-node.graphml", 9, "<edge> names node 'n1', which no <node> declares"},
  {"node-without-id.graphml", 7, "<node> without an id"},
  {"nested-graph.graphml", 8, "nested graphs are not supported (<graph> inside <node>)"},
  {"hyperedge.graphml", 9, "hyperedges are not supported"},
  {"root-not-graphml.graphml", 3, "the root element is <gexf>, not <graphml>"},
  /* XXE and entity expansion stay refused, before igraph sees the file. */
  {"xxe.graphml", 2,
   "a DOCTYPE with an internal subset (entity or attribute declarations) is not supported"},
  {"entity-expansion.graphml", 3,
   "a DOCTYPE with an internal subset (entity or attribute declarations) is not supported"},
  {"unknown-entity.graphml", 7,
   "cannot read the XML: Entity name \u201cmachine\u201d is not known"},
  {"latin1.graphml", 1, "encoding 'ISO-8859-1' is not supported: save the file as UTF-8"},
  /* Invisible characters are named or escaped, never printed raw. */
  {"bom-name.graphml", 7, "a byte-order mark (U+FEFF) inside the node name 'n1'"},
  {"invisible-kind.graphml", 6,
   "vertex 'n0': invalid kind 'machine\\u200b' (expected machine or switch)"},
  /* Fabric attributes. */
  {"bad-routing.graphml", 0,
   "unknown routing 'explicit' (expected tree, dimension-order, dmodk, smodk, shortest or "
   "ecmp; explicit routes need the native format)"},
  {"ports-on-switch.graphml", 8, "vertex 's0': 'ports' applies to machines"},
};

/* Every file fails with its exact message; all mismatches are listed. */
static void check_bad(const Bad *bad, gsize n)
{
  GString *wrong = g_string_new(NULL);
  for (gsize i = 0; i < n; i++) {
    g_autofree char *rel = g_build_filename("bad", bad[i].file, NULL);
    g_autofree char *path = ns_test_data(rel);
    GError *error = NULL;
    NsTopology *t = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
    if (t != NULL) {
      g_string_append_printf(wrong, "%s: read without error\n", bad[i].file);
      ns_topology_free(t);
      continue;
    }
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_autofree char *expected = bad[i].line > 0
                                    ? g_strdup_printf("%s:%d: %s", path, bad[i].line,
                                                      bad[i].message)
                                    : g_strdup_printf("%s: %s", path, bad[i].message);
    if (g_strcmp0(error->message, expected) != 0)
      g_string_append_printf(wrong, "%s:\n  got      %s\n  expected %s\n", bad[i].file,
                             error->message, expected);
    g_clear_error(&error);
  }
  if (wrong->len > 0)
    g_error("\n%s", wrong->str);
  g_string_free(wrong, TRUE);
}

static void test_bad_native(void) { check_bad(bad_native, G_N_ELEMENTS(bad_native)); }
static void test_bad_slurm(void) { check_bad(bad_slurm, G_N_ELEMENTS(bad_slurm)); }
static void test_bad_graphml(void) { check_bad(bad_graphml, G_N_ELEMENTS(bad_graphml)); }

static void test_bad_model(void)
{
  check_bad(bad_model, G_N_ELEMENTS(bad_model));
  for (gsize i = 0; i < G_N_ELEMENTS(model_accepts); i++) {
    g_autofree char *rel = g_build_filename("bad", model_accepts[i], NULL);
    g_autoptr(NsTopology) t = load_ok(rel, g_ptr_array_new_with_free_func(g_free));
    g_assert_cmpint(ns_topology_n_machines(t), >=, 2);
  }
}

/* Every bad file is used by a test (and every test names a file). */
static void test_bad_files_listed(void)
{
  g_autofree char *dir = ns_test_data("bad");
  GDir *d = g_dir_open(dir, 0, NULL);
  g_assert_nonnull(d);
  const char *name;
  int files = 0;
  while ((name = g_dir_read_name(d)) != NULL) {
    const Bad *lists[] = {bad_native, bad_slurm, bad_graphml, bad_model};
    gsize sizes[] = {G_N_ELEMENTS(bad_native), G_N_ELEMENTS(bad_slurm),
                     G_N_ELEMENTS(bad_graphml), G_N_ELEMENTS(bad_model)};
    gboolean found = FALSE;
    for (int k = 0; k < 4 && !found; k++)
      for (gsize i = 0; i < sizes[k] && !found; i++)
        found = strcmp(lists[k][i].file, name) == 0;
    for (gsize i = 0; i < G_N_ELEMENTS(model_accepts) && !found; i++)
      found = strcmp(model_accepts[i], name) == 0;
    if (!found)
      g_error("tests/data/bad/%s is not checked by any test", name);
    files++;
  }
  g_dir_close(d);
  g_assert_cmpint(files, ==, G_N_ELEMENTS(bad_native) + G_N_ELEMENTS(bad_slurm) +
                               G_N_ELEMENTS(bad_graphml) + G_N_ELEMENTS(bad_model) +
                               G_N_ELEMENTS(model_accepts));
}

/* ---- input: byte-order marks, invisible characters, limits --------------- */

/* Parses `text` (in memory) in `format`; asserts success. */
static NsTopology *parse_text(NsTopoFormat format, const char *text, GPtrArray *warnings)
{
  GError *error = NULL;
  NsWarnFunc warn = warnings != NULL ? collect_warning : NULL;
  gsize len = strlen(text);
  NsTopology *t = format == NS_TOPO_FORMAT_NATIVE
                      ? ns_topology_parse_native("mem", text, len, warn, warnings, &error)
                  : format == NS_TOPO_FORMAT_SLURM
                      ? ns_topology_parse_slurm("mem", text, len, warn, warnings, &error)
                      : ns_topology_parse_graphml("mem", text, len, warn, warnings, &error);
  if (t == NULL)
    g_error("%s\n%s", error->message, text);
  return t;
}

/* Asserts that `text` fails in `format` with exactly `message`. */
static void parse_fails(NsTopoFormat format, const char *text, gsize len, const char *message)
{
  GError *error = NULL;
  NsTopology *t = format == NS_TOPO_FORMAT_NATIVE
                      ? ns_topology_parse_native("mem", text, len, NULL, NULL, &error)
                  : format == NS_TOPO_FORMAT_SLURM
                      ? ns_topology_parse_slurm("mem", text, len, NULL, NULL, &error)
                      : ns_topology_parse_graphml("mem", text, len, NULL, NULL, &error);
  g_assert_null(t);
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  if (strcmp(error->message, message) != 0)
    g_error("\n  got      %s\n  expected %s", error->message, message);
  g_clear_error(&error);
}

#define GRAPHML_HEAD                                                                         \
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                                             \
  "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"                              \
  "<key id=\"k\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
#define GRAPHML_NODES                                                                        \
  "<node id=\"a\"><data key=\"k\">machine</data></node>\n"                                   \
  "<node id=\"b\"><data key=\"k\">machine</data></node>\n"                                   \
  "<node id=\"s\"><data key=\"k\">switch</data></node>\n"                                    \
  "<edge source=\"a\" target=\"s\"/><edge source=\"b\" target=\"s\"/>\n"

/* A byte-order mark may start a file; anywhere else it is named. */
static void test_bom(void)
{
  g_autoptr(NsTopology) n =
    parse_text(NS_TOPO_FORMAT_NATIVE, NS_INPUT_BOM "machine a b\nswitch s\nlink a,b s\n", NULL);
  g_autofree char *nm = machine_list(n);
  g_assert_cmpstr(nm, ==, "a b");
  g_autoptr(NsTopology) sl =
    parse_text(NS_TOPO_FORMAT_SLURM, NS_INPUT_BOM "SwitchName=s Nodes=a,b\n", NULL);
  g_autofree char *sm = machine_list(sl);
  g_assert_cmpstr(sm, ==, "a b");
  g_autoptr(NsTopology) g = parse_text(NS_TOPO_FORMAT_GRAPHML,
                                       NS_INPUT_BOM GRAPHML_HEAD "<graph>\n" GRAPHML_NODES
                                                    "</graph></graphml>\n",
                                       NULL);
  g_autofree char *gm = machine_list(g);
  g_assert_cmpstr(gm, ==, "a b");
  g_assert_cmpint(node_named(g, "b")->line, ==, 6);

  const char *stray = "machine a b\n" NS_INPUT_BOM "\nswitch s\n";
  parse_fails(NS_TOPO_FORMAT_NATIVE, stray, strlen(stray),
              "mem:2: stray byte-order mark (U+FEFF): one is allowed only at the very start of "
              "the file");
  const char *quoted = "machine \"a" NS_INPUT_BOM "\" b\n";
  parse_fails(NS_TOPO_FORMAT_NATIVE, quoted, strlen(quoted),
              "mem:1: a byte-order mark (U+FEFF) inside \"a\": one is allowed only at the very "
              "start of the file");
  const char *twice = NS_INPUT_BOM NS_INPUT_BOM "machine a\n";
  parse_fails(NS_TOPO_FORMAT_NATIVE, twice, strlen(twice),
              "mem:1: a byte-order mark (U+FEFF) inside 'machine': one is allowed only at the "
              "very start of the file");
  const char *value = "SwitchName=s Nodes=a," NS_INPUT_BOM "b\n";
  parse_fails(NS_TOPO_FORMAT_SLURM, value, strlen(value),
              "mem:1: a byte-order mark (U+FEFF) inside 'Nodes=a,b': one is allowed only at "
              "the very start of the file");
  const char *comment = "SwitchName=s Nodes=a,b # " NS_INPUT_BOM "\n";
  g_autoptr(NsTopology) c = parse_text(NS_TOPO_FORMAT_SLURM, comment, NULL);
  g_assert_cmpint(ns_topology_n_machines(c), ==, 2);
  const char *utf16 = "\xfe\xff\0m";
  parse_fails(NS_TOPO_FORMAT_SLURM, utf16, 4,
              "mem:1: the file is UTF-16 (it starts with the byte-order mark FE FF): save it as "
              "UTF-8");
  parse_fails(NS_TOPO_FORMAT_GRAPHML, utf16, 4,
              "mem:1: the file is UTF-16 (it starts with the byte-order mark FE FF): save it as "
              "UTF-8");
}

/* Messages and warnings show invisible characters escaped, never raw. */
static void test_invisible(void)
{
  static const struct {
    const char *text, *shown;
  } cases[] = {
    {"plain", "plain"},
    {"a\u200bb", "a\\u200bb"},
    {"\ufeffmachine", "\\ufeffmachine"},
    {"tab\t", "tab\\u0009"},
    {"no\u00a0break", "no\\u00a0break"},
    {"rtl\u202eabc", "rtl\\u202eabc"},
    {"emoji\ufe0f", "emoji\\ufe0f"},
    {"tag\U000E0041", "tag\\U000e0041"},
    {"del\x7f", "del\\u007f"},
    {"bad\xff byte", "bad\\xff byte"},
    {"\xc3\xa9t\xc3\xa9 back\\slash", "\xc3\xa9t\xc3\xa9 back\\slash"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *shown = ns_input_escape(cases[i].text);
    g_assert_cmpstr(shown, ==, cases[i].shown);
  }
  g_assert_true(ns_input_is_invisible(0xfeff));
  g_assert_true(ns_input_is_invisible(0x2028));
  g_assert_false(ns_input_is_invisible(' '));
  g_assert_false(ns_input_is_invisible(0xe9));

  /* #18.11: a name that would print invisibly (a right-to-left override
   * turns what follows around in findings) is refused where it is read. */
  const char *rtl = "machine a b\u202ec\nswitch s\nlink a,b\u202ec s\n";
  parse_fails(NS_TOPO_FORMAT_NATIVE, rtl, strlen(rtl),
              "mem:1: node name 'b\\u202ec' holds an invisible, control or bidi character "
              "(U+202E): names are printed as they are and must show what they are");
  const char *zw = "machine a b\nswitch s\nswitch sp\u200bare\nlink a,b s\n";
  parse_fails(NS_TOPO_FORMAT_NATIVE, zw, strlen(zw),
              "mem:3: node name 'sp\\u200bare' holds an invisible, control or bidi character "
              "(U+200B): names are printed as they are and must show what they are");
  /* A GraphML name (the model's message). */
  const char *g = GRAPHML_HEAD "<graph>\n"
                  "<node id=\"a\u2060\"><data key=\"k\">machine</data></node>\n"
                  "<node id=\"a\u2060\"><data key=\"k\">machine</data></node>\n"
                  "</graph></graphml>\n";
  parse_fails(NS_TOPO_FORMAT_GRAPHML, g, strlen(g),
              "mem:6: duplicate node id 'a\\u2060' (first declared at line 5)");
}

/* The GraphML pre-check on files igraph reads: lines, document order,
 * namespaces, foreign content, a second graph. */
static void test_graphml_precheck(void)
{
  /* An edge names b and s before their <node>: igraph numbers vertices by
   * first mention (b, s, a), nodes keep the order of <node> (s, a, b). */
  const char *fwd = GRAPHML_HEAD "<graph edgedefault=\"undirected\">\n"
                    "<edge source=\"b\" target=\"s\"/>\n"
                    "<node id=\"s\"><data key=\"k\">switch</data></node>\n"
                    "<node id=\"a\"><data key=\"k\">machine</data></node>\n"
                    "<node\n id=\"b\"><data key=\"k\">machine</data></node>\n"
                    "<edge source=\"a\" target=\"s\"/>\n"
                    "</graph></graphml>\n";
  g_autoptr(NsTopology) t = parse_text(NS_TOPO_FORMAT_GRAPHML, fwd, NULL);
  g_autofree char *machines = machine_list(t);
  g_assert_cmpstr(machines, ==, "a b");
  g_assert_cmpstr(ns_topology_node(t, 0)->name, ==, "s");
  g_assert_cmpint(node_named(t, "s")->line, ==, 6);
  g_assert_cmpint(node_named(t, "b")->line, ==, 8);
  g_assert_cmpint(find_link(t, "b", "s")->line, ==, 5);
  g_assert_cmpint(find_link(t, "a", "s")->line, ==, 10);

  /* Prefixed GraphML, foreign elements and attributes, comments, CDATA,
   * <desc> and <port>, character references; a second <graph> (ignored,
   * even with duplicate ids). */
  const char *ns =
    "<g:graphml xmlns:g=\"http://graphml.graphdrawing.org/xmlns\" xmlns:y=\"urn:y\">\n"
    "<g:key id=\"k\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
    "<g:graph><g:desc>x<![CDATA[<node id=\"a\"/>]]></g:desc>\n"
    "<g:node id=\"a\" y:id=\"zz\"><g:data key=\"k\">mach<!-- -->ine</g:data>\n"
    "  <g:data key=\"y\"><y:node id=\"a\"/></g:data><g:port name=\"p\"/></g:node>\n"
    "<y:group><g:node id=\"a\"/></y:group>\n"
    "<g:node id=\"&#x62;\"><g:data key=\"k\"><![CDATA[machine]]></g:data></g:node>\n"
    "<node id=\"a\"/>\n" /* no namespace: not GraphML here, skipped */
    "<g:node id=\"s\"><g:data key=\"k\">switch</g:data></g:node>\n"
    "<g:edge source=\"a\" target=\"s\" y:source=\"nowhere\"/>"
    "<g:edge source=\"b\" target=\"s\"/>\n"
    "</g:graph>\n"
    "<g:graph><g:node id=\"a\"/><g:node id=\"a\"/></g:graph>\n"
    "</g:graphml>\n";
  g_autoptr(NsTopology) u = parse_text(NS_TOPO_FORMAT_GRAPHML, ns, NULL);
  g_autofree char *um = machine_list(u);
  g_assert_cmpstr(um, ==, "a b");
  g_assert_cmpint(node_named(u, "b")->line, ==, 7);

  /* igraph gets attribute values with '&' written "&#38;": names come from
   * the pre-check's ids. */
  const char *amp = GRAPHML_HEAD "<graph>\n"
                    "<node id=\"a&amp;b\"><data key=\"k\">machine</data></node>\n"
                    "<node id=\"c&#38;&lt;\"><data key=\"k\">machine</data></node>\n"
                    "<node id=\"s\"><data key=\"k\">switch</data></node>\n"
                    "<edge source=\"a&#x26;b\" target=\"s\"/><edge source=\"c&amp;&lt;\" "
                    "target=\"s\"/>\n</graph></graphml>\n";
  g_autoptr(NsTopology) a = parse_text(NS_TOPO_FORMAT_GRAPHML, amp, NULL);
  g_assert_cmpstr(ns_topology_machine_name(a, 0), ==, "a&b");
  g_assert_cmpstr(ns_topology_machine_name(a, 1), ==, "c&<");

  /* A root without namespace reads every unprefixed element as GraphML. */
  const char *lenient = "<graphml>\n"
                        "<key id=\"k\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
                        "<graph>\n" GRAPHML_NODES "</graph></graphml>\n";
  g_autoptr(NsTopology) l = parse_text(NS_TOPO_FORMAT_GRAPHML, lenient, NULL);
  g_assert_cmpint(ns_topology_n_machines(l), ==, 2);

  static const struct {
    const char *body, *message;
  } bad[] = {
    {"<graph>" GRAPHML_NODES "<node id=\"c\"><node id=\"d\"/></node></graph></graphml>",
     "mem:8: <node> inside <node> is not supported (igraph would ignore it; nodes and edges "
     "go directly in <graph>)"},
    {"<graph>" GRAPHML_NODES "<graph/></graph></graphml>",
     "mem:8: nested graphs are not supported (<graph> inside <graph>)"},
    {"<graph>" GRAPHML_NODES "<edge source=\"a\"/></graph></graphml>",
     "mem:8: <edge> without a target"},
    /* igraph gives every mention of an empty id its own vertex. */
    {"<graph>" GRAPHML_NODES "<node id=\"\"/></graph></graphml>",
     "mem:8: <node> with an empty id"},
    {"<graph>" GRAPHML_NODES "<edge source=\"a\" target=\"\"/></graph></graphml>",
     "mem:8: <edge> with an empty target"},
    {"<graph>" GRAPHML_NODES "<p:x/></graph></graphml>",
     "mem:8: namespace prefix 'p' of 'p:x' is not declared"},
    {"<graph>" GRAPHML_NODES "<x:y:z xmlns:x=\"u\"/></graph></graphml>",
     "mem:8: invalid qualified name 'x:y:z' (expected prefix:name)"},
    {"</graph>", "mem:4: cannot read the XML: Element \u201cgraph\u201d was closed, but "
                 "the currently open element is \u201cgraphml\u201d"},
    {"", "mem:4: cannot read the XML: Document ended unexpectedly with elements still open "
         "\u2014 \u201cgraphml\u201d was the last element opened"},
    {"</graphml>\n", "mem: no <graph> in <graphml> (the nodes and edges go in <graph>)"},
    /* GMarkup would see a node where libxml2 sees a comment. */
    {"<graph>" GRAPHML_NODES "<!--><node id=\"z\"/>--></graph></graphml>",
     "mem:8: malformed comment '<!-->' (a comment is <!-- ... -->)"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *text = g_strconcat(GRAPHML_HEAD, bad[i].body, NULL);
    parse_fails(NS_TOPO_FORMAT_GRAPHML, text, strlen(text), bad[i].message);
  }
  const char *doctype = "<!DOCTYPE graphml SYSTEM \"<\">\n<graphml/>>";
  parse_fails(NS_TOPO_FORMAT_GRAPHML, doctype, strlen(doctype),
              "mem:1: a DOCTYPE holding '<' is not supported");
  static const char nul[] = GRAPHML_HEAD "<graph>\n<node id=\"a\"/>\0</graph></graphml>";
  parse_fails(NS_TOPO_FORMAT_GRAPHML, nul, sizeof nul - 1,
              "mem:5: NUL byte (XML text cannot contain one)");
}

/* What igraph would spend on a file is bounded before it reads it. */
static void test_graphml_bounds(void)
{
  GString *deep = g_string_new(GRAPHML_HEAD "<graph>\n");
  for (int i = 0; i < 300; i++)
    g_string_append(deep, "<x>");
  parse_fails(NS_TOPO_FORMAT_GRAPHML, deep->str, deep->len,
              "mem:5: elements nested more than 256 deep");
  g_string_free(deep, TRUE);

  GString *attrs = g_string_new(GRAPHML_HEAD "<graph>\n<x");
  for (int i = 0; i < 257; i++)
    g_string_append_printf(attrs, " a%d=\"\"", i);
  g_string_append(attrs, "/></graph></graphml>");
  parse_fails(NS_TOPO_FORMAT_GRAPHML, attrs->str, attrs->len,
              "mem:5: more than 256 attributes in <x>");
  g_string_free(attrs, TRUE);

  GString *ns = g_string_new(GRAPHML_HEAD "<graph>\n");
  for (int i = 0; i < 65; i++)
    g_string_append_printf(ns, "<x xmlns:p%d=\"urn:p\">", i);
  parse_fails(NS_TOPO_FORMAT_GRAPHML, ns->str, ns->len,
              "mem:5: more than 64 namespace declarations in scope");
  g_string_free(ns, TRUE);

  /* libxml2 (push mode) is quadratic in the length of one construct. */
  GString *comment = g_string_new(GRAPHML_HEAD "<graph>\n<!--");
  for (gsize i = 0; i < ((gsize)4 << 20); i++)
    g_string_append_c(comment, 'c');
  g_string_append(comment, "--></graph></graphml>");
  parse_fails(NS_TOPO_FORMAT_GRAPHML, comment->str, comment->len,
              "mem:5: a comment longer than 4 MiB: igraph's XML parser (libxml2) would take "
              "minutes over it");
  g_string_free(comment, TRUE);

  /* igraph appends every piece of a <data> value with strlen: 100000
   * character references in one value cost it ~10^10 bytes. */
  GString *refs = g_string_new(GRAPHML_HEAD "<graph>\n<node id=\"a\"><data key=\"k\">");
  for (int i = 0; i < 100000; i++)
    g_string_append(refs, "&#65;");
  g_string_append(refs, "</data></node></graph></graphml>");
  parse_fails(NS_TOPO_FORMAT_GRAPHML, refs->str, refs->len,
              "mem:5: <data> values too long or split into too many pieces (character "
              "references, comments, CDATA sections): igraph's GraphML reader would take time "
              "quadratic in them");
  g_string_free(refs, TRUE);

  /* igraph copies a key's default into every node: a 1 MiB default for
   * 512 nodes is more than 1 GiB. */
  GString *wide = g_string_new(GRAPHML_HEAD "<key id=\"w\" for=\"node\" attr.name=\"w\" "
                                            "attr.type=\"string\"><default>");
  for (gsize i = 0; i < ((gsize)1 << 20); i++)
    g_string_append_c(wide, 'w');
  g_string_append(wide, "</default></key>\n<graph>\n");
  for (int i = 0; i < 600; i++)
    g_string_append_printf(wide, "<node id=\"n%d\"/>\n", i);
  g_string_append(wide, "</graph></graphml>\n");
  parse_fails(NS_TOPO_FORMAT_GRAPHML, wide->str, wide->len,
              "mem:517: 2 node keys for 512 nodes and 0 edge keys for 0 edges: igraph would "
              "allocate about 1025 MiB for their values, more than the 1024 MiB netsched allows");
  g_string_free(wide, TRUE);
}

/* Counts that keep memory proportional to the input: tokens on a native
 * line, Slurm switches, GraphML nodes (before igraph allocates them). */
static void test_count_limits(void)
{
  GString *text = g_string_new("machine");
  for (int i = 0; i < NS_HOSTLIST_MAX + 9; i++)
    g_string_append(text, " a");
  parse_fails(NS_TOPO_FORMAT_NATIVE, text->str, text->len,
              "mem:1: more than 1000008 tokens on the line");
  g_string_truncate(text, 0);
  for (int i = 0; i <= NS_HOSTLIST_MAX; i++)
    g_string_append_printf(text, "SwitchName=s%d\n", i);
  parse_fails(NS_TOPO_FORMAT_SLURM, text->str, text->len,
              "mem:1000001: more than 1000000 switches in the file");
  g_string_assign(text, "<graphml><graph>\n");
  for (int i = 0; i <= NS_HOSTLIST_MAX; i++)
    g_string_append_printf(text, "<node id=\"n%d\"/>", i);
  g_string_append(text, "</graph></graphml>\n");
  parse_fails(NS_TOPO_FORMAT_GRAPHML, text->str, text->len, "mem:2: more than 1000000 nodes");
  g_string_free(text, TRUE);
}

typedef struct {
  char *path;
  const char *text;
  gsize repeat;
} FifoWriter;

static gpointer write_fifo(gpointer data)
{
  FifoWriter *w = data;
  int fd = open(w->path, O_WRONLY);
  g_assert_cmpint(fd, >=, 0);
  gsize len = strlen(w->text);
  for (gsize i = 0; i < w->repeat; i++)
    if (write(fd, w->text, len) != (gssize)len)
      break; /* the reader stopped at its limit (EPIPE) */
  close(fd);
  return NULL;
}

/* Loads `path` through the bounded reader with `limit`: NULL and the
 * message of the error, or the topology. */
static NsTopology *load_limited(const char *path, NsTopoFormat f, gsize limit, char **message)
{
  GError *error = NULL;
  NsTopology *t = ns_topology_load_limited(path, f, limit, NULL, NULL, &error);
  *message = error != NULL ? g_strdup(error->message) : NULL;
  g_clear_error(&error);
  return t;
}

static void test_size_limit(void)
{
  g_assert_cmpuint(NS_TOPOLOGY_MAX_BYTES, ==, 256u << 20);
  static const struct {
    gsize bytes;
    const char *text;
  } limits[] = {{256u << 20, "256 MiB"}, {1024, "1 KiB"}, {64 << 10, "64 KiB"},
                {1000, "1000-byte"}, {1536, "1536-byte"}, {0, "0-byte"}};
  for (gsize i = 0; i < G_N_ELEMENTS(limits); i++) {
    g_autofree char *shown = ns_input_format_limit(limits[i].bytes);
    g_assert_cmpstr(shown, ==, limits[i].text);
  }

  GError *error = NULL;
  g_autofree char *dir = g_dir_make_tmp("netsched-limits-XXXXXX", &error);
  g_assert_no_error(error);
  const char *topo = "machine a b\nswitch s\nlink a,b s\n";
  gsize len = strlen(topo);

  /* A regular file: at the limit it reads, one byte over it does not. */
  g_autofree char *file = g_build_filename(dir, "t.topo", NULL);
  g_assert_true(g_file_set_contents(file, topo, -1, &error));
  char *message = NULL;
  NsTopology *t = load_limited(file, NS_TOPO_FORMAT_AUTO, len, &message);
  g_assert_nonnull(t);
  ns_topology_free(t);
  g_assert_null(load_limited(file, NS_TOPO_FORMAT_AUTO, len - 1, &message));
  g_autofree char *expected = g_strdup_printf("%s: topology larger than the %zu-byte limit",
                                              file, len - 1);
  g_assert_cmpstr(message, ==, expected);
  g_free(message);

  /* One byte over the real limit: refused by its size, without reading
   * it (a sparse file). */
  g_autofree char *big = g_build_filename(dir, "big.topo", NULL);
  int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint(fd, >=, 0);
  g_assert_cmpint(ftruncate(fd, (off_t)NS_TOPOLOGY_MAX_BYTES + 1), ==, 0);
  close(fd);
  const NsTopoFormat formats[] = {NS_TOPO_FORMAT_NATIVE, NS_TOPO_FORMAT_SLURM,
                                  NS_TOPO_FORMAT_GRAPHML};
  for (gsize i = 0; i < G_N_ELEMENTS(formats); i++) {
    g_assert_null(ns_topology_load(big, formats[i], NULL, NULL, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_autofree char *too_big = g_strdup_printf("%s: topology larger than the 256 MiB limit",
                                               big);
    g_assert_cmpstr(error->message, ==, too_big);
    g_clear_error(&error);
  }
  g_unlink(big);

  /* A character device without end, for every reader. */
  for (gsize i = 0; i < G_N_ELEMENTS(formats); i++) {
    g_assert_null(load_limited("/dev/zero", formats[i], 64 << 10, &message));
    g_assert_cmpstr(message, ==, "/dev/zero: topology larger than the 64 KiB limit");
    g_free(message);
  }
  g_assert_null(load_limited("/dev/null", NS_TOPO_FORMAT_NATIVE, 64 << 10, &message));
  g_assert_cmpstr(message, ==, "/dev/null: 0 machines: a collective needs at least 2 machines");
  g_free(message);
  g_assert_null(load_limited("/dev/null", NS_TOPO_FORMAT_GRAPHML, 64 << 10, &message));
  g_assert_cmpstr(message, ==, "/dev/null: empty file (expected GraphML)");
  g_free(message);

  /* A directory. */
  g_assert_null(ns_topology_load(dir, NS_TOPO_FORMAT_NATIVE, NULL, NULL, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_IO);
  g_autofree char *is_dir = g_strdup_printf("%s: is a directory, not a topology file", dir);
  g_assert_cmpstr(error->message, ==, is_dir);
  g_clear_error(&error);

  /* A FIFO: read to its end, or to the limit. */
  g_autofree char *fifo = g_build_filename(dir, "fifo.topo", NULL);
  g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
  FifoWriter w = {fifo, topo, 1};
  GThread *writer = g_thread_new("fifo", write_fifo, &w);
  t = load_limited(fifo, NS_TOPO_FORMAT_AUTO, 64 << 10, &message);
  g_thread_join(writer);
  if (t == NULL)
    g_error("%s", message);
  g_autofree char *fm = machine_list(t);
  g_assert_cmpstr(fm, ==, "a b");
  ns_topology_free(t);
  w = (FifoWriter){fifo, "# a comment line of a stream that does not end soon\n", 100000};
  writer = g_thread_new("fifo", write_fifo, &w);
  g_assert_null(load_limited(fifo, NS_TOPO_FORMAT_AUTO, 64 << 10, &message));
  g_thread_join(writer);
  g_autofree char *fifo_big = g_strdup_printf("%s: topology larger than the 64 KiB limit", fifo);
  g_assert_cmpstr(message, ==, fifo_big);
  g_free(message);
  g_unlink(fifo);
  g_unlink(file);
  g_rmdir(dir);
}

/* ---- topology_io.c ---------------------------------------------------------- */

static void test_formats(void)
{
  NsTopoFormat f = NS_TOPO_FORMAT_AUTO;
  g_assert_true(ns_topo_format_from_name("native", &f));
  g_assert_cmpint(f, ==, NS_TOPO_FORMAT_NATIVE);
  g_assert_true(ns_topo_format_from_name("slurm", &f));
  g_assert_cmpint(f, ==, NS_TOPO_FORMAT_SLURM);
  g_assert_true(ns_topo_format_from_name("GraphML", &f));
  g_assert_cmpint(f, ==, NS_TOPO_FORMAT_GRAPHML);
  g_assert_true(ns_topo_format_from_name("dot", &f));
  g_assert_cmpint(f, ==, NS_TOPO_FORMAT_DOT);
  g_assert_false(ns_topo_format_from_name("yaml", &f));
  g_assert_false(ns_topo_format_from_name(NULL, &f));
  g_assert_cmpint(f, ==, NS_TOPO_FORMAT_DOT);
  g_assert_cmpstr(ns_topo_format_name(NS_TOPO_FORMAT_NATIVE), ==, "native");
  g_assert_cmpstr(ns_topo_format_name(NS_TOPO_FORMAT_SLURM), ==, "slurm");
  g_assert_cmpstr(ns_topo_format_name(NS_TOPO_FORMAT_GRAPHML), ==, "graphml");
  g_assert_cmpstr(ns_topo_format_name(NS_TOPO_FORMAT_DOT), ==, "dot");

  g_assert_cmpint(ns_topo_format_guess("a/b/x.graphml"), ==, NS_TOPO_FORMAT_GRAPHML);
  g_assert_cmpint(ns_topo_format_guess("x.XML"), ==, NS_TOPO_FORMAT_GRAPHML);
  g_assert_cmpint(ns_topo_format_guess("/etc/slurm/topology.conf"), ==, NS_TOPO_FORMAT_SLURM);
  g_assert_cmpint(ns_topo_format_guess("faraj-b.conf"), ==, NS_TOPO_FORMAT_SLURM);
  g_assert_cmpint(ns_topo_format_guess("faraj-b.topo"), ==, NS_TOPO_FORMAT_NATIVE);
  g_assert_cmpint(ns_topo_format_guess("conf/cluster"), ==, NS_TOPO_FORMAT_NATIVE);

  /* An explicit format wins over the file name. */
  g_autofree char *path = ns_test_data("topo/features.conf");
  GError *error = NULL;
  g_assert_null(ns_topology_load(path, NS_TOPO_FORMAT_NATIVE, NULL, NULL, &error));
  g_autofree char *expected = g_strdup_printf(
    "%s:2: unknown keyword 'switchname=leaf0' (expected name, default, machine, switch, link, "
    "routing, grid or route)", path);
  g_assert_cmpstr(error->message, ==, expected);
  g_clear_error(&error);
  g_assert_null(ns_topology_load(path, NS_TOPO_FORMAT_DOT, NULL, NULL, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_clear_error(&error);

  g_autoptr(NsTopology) t = load_scenario("faraj-a.topo");
  FILE *null = fopen("/dev/null", "w");
  g_assert_false(ns_topology_save(t, NS_TOPO_FORMAT_SLURM, null, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_true(g_str_has_prefix(error->message, "cannot write the slurm format (writers: "));
  g_clear_error(&error);
  fclose(null);
}

static void test_load_errors(void)
{
  const char *names[] = {"missing.topo", "missing.conf", "missing.graphml"};
  for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
    g_autofree char *path = ns_test_data(names[i]);
    GError *error = NULL;
    g_assert_null(ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_IO);
    g_autofree char *expected = g_strdup_printf("%s: cannot read: No such file or directory",
                                                path);
    g_assert_cmpstr(error->message, ==, expected);
    g_clear_error(&error);
  }
  /* A write error is reported, not ignored. */
  g_autoptr(NsTopology) t = load_scenario("faraj-a.topo");
  FILE *full = fopen("/dev/full", "w");
  if (full != NULL) {
    GError *error = NULL;
    g_assert_false(ns_topology_write_native(t, full, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_IO);
    g_assert_true(g_str_has_prefix(error->message, "cannot write the topology: "));
    g_clear_error(&error);
    fclose(full);
  }
}

/* What names a topology (topology_spec.h), as -T, a scenario and a sweep
 * over files give it: a file in a format with options, gen:SPEC, a
 * spanning tree of either; errors as the readers and generators say them. */
static void test_spec(void)
{
  GError *error = NULL;
  g_autoptr(NsTopology) star = ns_topology_from_spec("gen:star:4", NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_machines(star), ==, 4);
  g_assert_cmpstr(ns_topology_source(star), ==, "gen:star:4");

  /* A file with the format's options; the reader's warnings reach the caller. */
  g_autofree char *zoo = ns_test_data("topo/zoo-style.graphml");
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
  NsTopologySpecOptions o = { .format = "graphml:largest-component:machines-per-switch=2",
                              .warn = collect_warning, .warn_data = warnings };
  g_autoptr(NsTopology) t = ns_topology_from_spec(zoo, &o, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_machines(t), ==, 8);
  g_assert_cmpuint(warnings->len, ==, 4);

  /* A spanning tree of a graph: the same machines under tree routing. */
  g_autofree char *ring = ns_test_data("sweep-files/c-ring.topo");
  g_autoptr(NsTopology) graph = ns_topology_from_spec(ring, NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_routing(graph), !=, NS_ROUTING_TREE);
  NsTopologySpecOptions bfs = { .spanning = "bfs" };
  g_autoptr(NsTopology) tree = ns_topology_from_spec(ring, &bfs, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_machines(tree), ==, 6);
  g_assert_cmpint(ns_topology_routing(tree), ==, NS_ROUTING_TREE);
  g_autoptr(NsTopology) gen_tree = ns_topology_from_spec("gen:fattree:4,2", &bfs, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_routing(gen_tree), ==, NS_ROUTING_TREE);
  g_assert_cmpstr(ns_topology_source(gen_tree), ==,
                  "gen:fattree:4,2 (bfs spanning tree, seed 1, root L1s3)");
}

static void test_spec_errors(void)
{
  struct {
    const char *spec, *format, *spanning;
    int code, line;     /* line 0: no line; -1: no file name either */
    const char *message;
  } bad[] = {
    /* the reader's FILE:LINE */
    { "bad/disconnected.topo", NULL, NULL, NS_ERROR_INPUT, 2,
      "topology is disconnected: 'n2' cannot be reached from 'n0'" },
    { "bad/self-loop.graphml", "graphml", NULL, NS_ERROR_INPUT, 12, "vertex 's0': self-loop" },
    { "missing.topo", NULL, NULL, NS_ERROR_IO, 0, "cannot read: No such file or directory" },
    /* the options, checked before the file is read (it does not exist) */
    { "missing.topo", "yaml", NULL, NS_ERROR_INPUT, -1,
      "unknown topology format 'yaml' (native, slurm, slurm:UNIT, graphml, simgrid)" },
    { "missing.topo", NULL, "bfs:x", NS_ERROR_INPUT, -1,
      "--spanning bfs:x: the seed must be a number" },
    /* the generator's */
    { "gen:star:1", NULL, NULL, NS_ERROR_INPUT, -1,
      "gen:star:1: a star has 2 to 1000000 machines, not 1" },
    { NULL, NULL, NULL, NS_ERROR_INPUT, -1, "no topology given" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *path = bad[i].spec == NULL || ns_topology_spec_is_generator(bad[i].spec)
                                ? g_strdup(bad[i].spec) : ns_test_data(bad[i].spec);
    NsTopologySpecOptions o = { .format = bad[i].format, .spanning = bad[i].spanning };
    GError *error = NULL;
    g_assert_null(ns_topology_from_spec(path, &o, &error));
    g_assert_error(error, NS_ERROR, bad[i].code);
    g_autofree char *expected = bad[i].line > 0 ? g_strdup_printf("%s:%d: %s", path, bad[i].line,
                                                                  bad[i].message)
                                : bad[i].line == 0 ? g_strdup_printf("%s: %s", path,
                                                                     bad[i].message)
                                                   : g_strdup(bad[i].message);
    g_assert_cmpstr(error->message, ==, expected);
    g_clear_error(&error);
  }
}

/* A scenario's file is relative to the scenario; generators and absolute
 * paths are kept. */
static void test_spec_resolve(void)
{
  const char *cases[][3] = {
    { "a.topo", "/d", "/d/a.topo" },
    { "sub/a.conf", "/d/e", "/d/e/sub/a.conf" },
    { "/abs/a.topo", "/d", "/abs/a.topo" },
    { "gen:torus:4x4", "/d", "gen:torus:4x4" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *got = ns_topology_spec_resolve(cases[i][0], cases[i][1]);
    g_assert_cmpstr(got, ==, cases[i][2]);
  }
  g_assert_true(ns_topology_spec_is_generator("gen:star:2"));
  g_assert_false(ns_topology_spec_is_generator("generated.topo"));
}

/* A name with a control character or not UTF-8 is refused by the API
 * itself (#18.11), so no writer ever meets one. */
static void test_unwritable_names(void)
{
  NsTopology *t = ns_topology_new("api");
  GError *error = NULL;
  g_assert_cmpint(ns_topology_add_node(t, "a\nb", NS_NODE_MACHINE, 0, &error), ==, -1);
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==,
                  "api: node name 'a\\u000ab' holds an invisible, control or bidi character "
                  "(U+000A): names are printed as they are and must show what they are");
  g_clear_error(&error);
  g_assert_cmpint(ns_topology_add_node(t, "a\xff" "b", NS_NODE_MACHINE, 7, &error), ==, -1);
  g_assert_cmpstr(error->message, ==, "api:7: node name 'a\\xffb' is not UTF-8 (byte 0xff)");
  g_clear_error(&error);
  ns_topology_free(t);
}

/* One name/parse pair per enum, next to the enum (issue #19 point 3):
 * every value's name parses back to it, and an unknown name is refused. */
static void test_enum_names(void)
{
  for (NsForwarding f = NS_FORWARD_STORE_AND_FORWARD; f <= NS_FORWARD_CUT_THROUGH; f++) {
    NsForwarding back = !f;
    g_assert_true(ns_forwarding_parse(ns_forwarding_name(f), &back));
    g_assert_cmpint(back, ==, f);
  }
  g_assert_cmpstr(ns_forwarding_name(NS_FORWARD_CUT_THROUGH), ==, "cut-through");
  for (NsBuffering b = NS_BUFFER_OUTPUT; b <= NS_BUFFER_SHARED; b++) {
    NsBuffering back = (b + 1) % 3;
    g_assert_true(ns_buffering_parse(ns_buffering_name(b), &back));
    g_assert_cmpint(back, ==, b);
  }
  for (NsRoutingKind r = NS_ROUTING_TREE; r <= NS_ROUTING_ECMP; r++) {
    NsRoutingKind back = NS_ROUTING_NONE;
    g_assert_true(ns_routing_kind_from_name(ns_routing_kind_name(r), &back));
    g_assert_cmpint(back, ==, r);
  }
  const struct { NsPortKind kind; int k; const char *name; } ports[] = {
    { NS_PORTS_ONE, 0, "one" }, { NS_PORTS_ALL, 0, "all" }, { NS_PORTS_K, 4, "4" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(ports); i++) {
    g_autofree char *name = ns_port_kind_to_string(ports[i].kind, ports[i].k);
    g_assert_cmpstr(name, ==, ports[i].name);
    NsPortKind kind = NS_PORTS_DEFAULT;
    int k = -1;
    g_assert_true(ns_port_kind_parse(name, &kind, &k));
    g_assert_cmpint(kind, ==, ports[i].kind);
    g_assert_cmpint(k, ==, ports[i].k);
  }
  g_assert_null(ns_port_kind_to_string(NS_PORTS_DEFAULT, 0));
  for (NsSpanMethod m = NS_SPAN_BFS; m <= NS_SPAN_UNIFORM; m++) {
    NsSpanMethod back = (m + 1) % 4;
    g_assert_true(ns_span_method_parse(ns_span_method_name(m), &back));
    g_assert_cmpint(back, ==, m);
  }
  for (NsGtitmTree t = NS_GTITM_GRAPH; t <= NS_GTITM_UNIFORM; t++) {
    NsGtitmTree back = (t + 1) % 5;
    g_assert_true(ns_gtitm_tree_from_name(ns_gtitm_tree_name(t), &back));
    g_assert_cmpint(back, ==, t);
  }
  for (NsCollective c = NS_COLL_ALLTOALL; c <= NS_COLL_BCAST; c++) {
    NsCollective back = (c + 1) % 3;
    g_assert_true(ns_collective_from_name(ns_collective_name(c), &back));
    g_assert_cmpint(back, ==, c);
  }
  for (NsExecution e = NS_EXEC_PHASED; e <= NS_EXEC_POSTED; e++) {
    NsExecution back = !e;
    g_assert_true(ns_execution_parse(ns_execution_name(e), &back));
    g_assert_cmpint(back, ==, e);
  }
  for (NsSyncKind k = NS_SYNC_NONE; k <= NS_SYNC_WINDOW; k++) {
    NsSyncScheme s = { k, k >= NS_SYNC_SENDER_PARTIAL && k != NS_SYNC_LIGHT ? 8 : 0 }, back = { 0 };
    g_autofree char *name = ns_sync_scheme_to_string(&s);
    GError *error = NULL;
    if (!ns_sync_scheme_parse(name, &back, &error))
      g_error("sync scheme %d: '%s': %s", k, name, error->message);
    g_assert_cmpint(back.kind, ==, k);
  }
  NsForwarding f;
  NsBuffering b;
  NsSpanMethod m;
  NsExecution e;
  NsCollective c;
  g_assert_false(ns_forwarding_parse("cut_through", &f));
  g_assert_false(ns_buffering_parse("Output", &b));
  g_assert_false(ns_span_method_parse("prim", &m));
  g_assert_false(ns_execution_parse("async", &e));
  g_assert_false(ns_collective_from_name("scatter", &c));

  /* every collective round-trips by name, and the list that messages
   * print names each once, in NsCollective order */
  g_autofree char *names = ns_collective_names(", ");
  g_assert_cmpstr(names, ==, "alltoall, allgather, bcast, reduce, allreduce, alltoallv, allgatherv");
  for (int k = 0; k < NS_N_COLLECTIVES; k++) {
    g_assert_true(ns_collective_from_name(ns_collective_name((NsCollective)k), &c));
    g_assert_cmpint(c, ==, k);
  }
}

/* `ports=one` (ns_port_kind_parse's spelling) worked for gen:torus but
 * not for the GT-ITM generators, which parsed ports themselves. */
static void test_generator_ports(void)
{
  const char *specs[] = { "torus:4x4:ports=one", "waxman:1,8:ports=one",
                          "transit-stub:1,1,2,1,3:ports=one", "kruskal-tree:1,4:ports=one" };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(specs[i], &error);
    g_assert_no_error(error);
    g_assert_cmpint(ns_topology_machine_port_kind(t, 0), ==, NS_PORTS_ONE);
  }
}

/* ---- lazy shortest-path tables (issue #24) ----------------------------------- */

/* A connected random graph on n nodes, the first `machines` of them
 * machines: node i joins a random earlier node, then `extra` random links
 * (no parallel ones) close cycles and make equal-cost ties. */
static NsTopology *random_graph(guint32 seed, gboolean ecmp)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed(seed);
  int n = g_rand_int_range(rng, 4, 40), machines = g_rand_int_range(rng, 2, n + 1);
  int extra = g_rand_int_range(rng, 0, 2 * n);
  NsTopology *t = ns_topology_new("random");
  GError *error = NULL;
  for (int v = 0; v < n; v++) {
    g_autofree char *name = g_strdup_printf("v%d", v);
    g_assert_cmpint(ns_topology_add_node(t, name, v < machines ? NS_NODE_MACHINE : NS_NODE_SWITCH,
                                         v + 1, &error), ==, v);
  }
  g_autofree gboolean *linked = g_new0(gboolean, n * n);
  for (int k = -(n - 1); k < extra; k++) {
    int b = k < 0 ? n + k : g_rand_int_range(rng, 1, n), a = g_rand_int_range(rng, 0, b);
    if (linked[a * n + b])
      continue;
    linked[a * n + b] = TRUE;
    g_assert_cmpint(ns_topology_add_link(t, a, b, 1e9, 1e-6, 1, &error), >=, 0);
  }
  if (ecmp)
    ns_topology_set_routing(t, NS_ROUTING_ECMP, 1);
  g_assert_true(ns_topology_finalize(t, NULL, NULL, &error));
  g_assert_no_error(error);
  return t;
}

/* The route from machine s to machine d by the rule the eager table
 * followed (a breadth-first search from d; at each node the neighbour one
 * hop closer, in link-id order: the first, or number d mod k under ecmp),
 * computed here independently. Returns its length; *longest gets the
 * greatest distance to d of any node. */
static int reference_route(const NsTopology *t, int s, int d, gboolean ecmp, int *edges,
                           int *longest)
{
  int n = ns_topology_n_nodes(t);
  g_autofree int *dist = g_new(int, n);
  ns_topology_hop_distances(t, ns_topology_machine_node(t, d), dist);
  for (int v = 0; v < n; v++)
    *longest = MAX(*longest, dist[v]);
  int len = 0;
  for (int v = ns_topology_machine_node(t, s); dist[v] > 0;) {
    const int *inc = ns_topology_incident(t, v);
    int closer[64], k = 0;
    for (int i = 0; i < ns_topology_degree(t, v); i++)
      if (dist[ns_topology_link_other(t, inc[i], v)] == dist[v] - 1)
        closer[k++] = inc[i];
    int link = closer[ecmp ? d % k : 0];
    edges[len++] = 2 * link + (ns_topology_link(t, link)->a == v ? 0 : 1);
    v = ns_topology_link_other(t, link, v);
  }
  return len;
}

static void test_lazy_routes_same(void)
{
  for (guint32 seed = 1; seed <= 120; seed++) {
    gboolean ecmp = seed % 2 == 0;
    guint built = ns_routing_shortest_tables_built();
    g_autoptr(NsTopology) t = random_graph(seed, ecmp);
    g_assert_cmpint(ns_topology_routing(t), ==, ecmp ? NS_ROUTING_ECMP : NS_ROUTING_SHORTEST);
    g_assert_cmpuint(ns_routing_shortest_tables_built(), ==, built); /* loading built none */
    int p = ns_topology_n_machines(t), n = ns_topology_n_nodes(t), longest = 0;
    g_autofree int *got = g_new(int, n), *want = g_new(int, n);
    /* odd seeds ask for a route first, even ones for the next hops */
    g_autofree int *next = g_new(int, n);
    if (seed % 4 < 2) {
      ns_topology_route_machines(t, p - 1, 0, got);
    } else {
      g_assert_true(ns_topology_next_hops(t, 0, next));
    }
    g_assert_cmpuint(ns_routing_shortest_tables_built(), ==, built + 1);
    for (int s = 0; s < p; s++)
      for (int d = 0; d < p; d++) {
        if (s == d)
          continue;
        int len = ns_topology_route_machines(t, s, d, got);
        g_assert_cmpint(len, ==, reference_route(t, s, d, ecmp, want, &longest));
        g_assert_cmpmem(got, len * sizeof(int), want, len * sizeof(int));
      }
    for (int d = 0; d < p; d++) {
      g_assert_true(ns_topology_next_hops(t, d, next));
      for (int s = 0; s < p; s++)
        if (s != d) {
          int v = ns_topology_machine_node(t, s);
          reference_route(t, s, d, ecmp, want, &longest);
          g_assert_cmpint(next[v], ==, want[0]);
        }
    }
    g_assert_cmpint(ns_topology_max_route_len(t), ==, MAX(longest, 1));
    g_assert_cmpuint(ns_routing_shortest_tables_built(), ==, built + 1); /* built once */
  }
}

typedef struct {
  const NsTopology *t;
  int len, edges[64];
} RouteQuery;

static gpointer route_in_thread(gpointer data)
{
  RouteQuery *q = data;
  q->len = ns_topology_route_machines(q->t, 7, 900, q->edges);
  return NULL;
}

static void test_lazy_routes_load(void)
{
  /* the sweep's Waxman graph of 1000 machines: loading it (and reading its
   * size, its links, its summary of the routing) builds no table; the
   * first query does, once, even from two threads at the same time */
  GError *error = NULL;
  guint built = ns_routing_shortest_tables_built();
  g_autoptr(NsTopology) t = ns_gtitm_generate("waxman:1,200,4:total=1000", NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_routing(t), ==, NS_ROUTING_SHORTEST);
  g_free(ns_topology_routing_describe(t));
  g_assert_cmpuint(ns_routing_shortest_tables_built(), ==, built);
  RouteQuery a = { .t = t }, b = { .t = t };
  GThread *other = g_thread_new("route", route_in_thread, &a);
  route_in_thread(&b);
  g_thread_join(other);
  g_assert_cmpuint(ns_routing_shortest_tables_built(), ==, built + 1);
  g_assert_cmpint(a.len, ==, b.len);
  g_assert_cmpint(a.len, >, 1);
  g_assert_cmpmem(a.edges, a.len * sizeof(int), b.edges, b.len * sizeof(int));
  g_assert_cmpint(ns_topology_max_route_len(t), ==, 10);
  g_assert_cmpuint(ns_routing_shortest_tables_built(), ==, built + 1);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  setlocale(LC_MESSAGES, "C"); /* GMarkup's messages, quoted in GraphML errors */
  signal(SIGPIPE, SIG_IGN);    /* the FIFO writer of /readers/input/size-limit */
  g_test_add_func("/readers/bundled/faraj-fig1", test_faraj_fig1);
  g_test_add_func("/readers/bundled/faraj-abc", test_faraj_abc);
  g_test_add_func("/readers/bundled/equivalents", test_bundled_equivalents);
  g_test_add_func("/readers/native/features", test_native_features);
  g_test_add_func("/readers/native/in-memory", test_native_in_memory);
  g_test_add_func("/readers/slurm/features", test_slurm_features);
  g_test_add_func("/readers/graphml/directed", test_graphml_directed);
  g_test_add_func("/readers/write/native-round-trip", test_native_round_trip_files);
  g_test_add_func("/readers/write/graphml-round-trip", test_graphml_round_trip_files);
  g_test_add_func("/readers/write/dot", test_dot);
  g_test_add_func("/readers/write/random-round-trip", test_random_round_trip);
  g_test_add_func("/readers/write/unwritable-names", test_unwritable_names);
  g_test_add_func("/readers/bad/native", test_bad_native);
  g_test_add_func("/readers/slurm/link-unit", test_slurm_link_unit);
  g_test_add_func("/readers/slurm/no-linkspeed", test_slurm_no_linkspeed);
  g_test_add_func("/readers/graphml/zoo", test_graphml_zoo);
  g_test_add_func("/readers/slurm/core-and-leafspine", test_slurm_core_and_leafspine);
  g_test_add_func("/readers/bad/slurm", test_bad_slurm);
  g_test_add_func("/readers/bad/graphml", test_bad_graphml);
  g_test_add_func("/readers/bad/model", test_bad_model);
  g_test_add_func("/readers/bad/all-listed", test_bad_files_listed);
  g_test_add_func("/readers/input/bom", test_bom);
  g_test_add_func("/readers/input/invisible", test_invisible);
  g_test_add_func("/readers/input/graphml-precheck", test_graphml_precheck);
  g_test_add_func("/readers/input/graphml-bounds", test_graphml_bounds);
  g_test_add_func("/readers/input/count-limits", test_count_limits);
  g_test_add_func("/readers/input/size-limit", test_size_limit);
  g_test_add_func("/readers/io/formats", test_formats);
  g_test_add_func("/readers/io/load-errors", test_load_errors);
  g_test_add_func("/readers/enum-names", test_enum_names);
  g_test_add_func("/readers/generator-ports", test_generator_ports);
  g_test_add_func("/readers/spec/good", test_spec);
  g_test_add_func("/readers/spec/errors", test_spec_errors);
  g_test_add_func("/readers/spec/resolve", test_spec_resolve);
  g_test_add_func("/readers/routing/lazy-same-routes", test_lazy_routes_same);
  g_test_add_func("/readers/routing/lazy-load", test_lazy_routes_load);
  return g_test_run();
}
