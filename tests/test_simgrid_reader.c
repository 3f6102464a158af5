/* SimGrid platforms in (issue 17 item 12): FAT_TREE, TORUS and DRAGONFLY
 * clusters and flat zones with routes, checked against netsched's own
 * generators and SimGrid writer (round trips), and the dragonfly
 * generator's minimal routing. */
#include "platforms/model/error.h"
#include "platforms/io/read_options.h"
#include "platforms/gen/shapes.h"
#include "platforms/io/topology_io.h"
#include "platforms/io/topology_simgrid.h"
#include "tests/testutil.h"
#include <string.h>

static NsTopology *gen(const char *spec)
{
  GError *error = NULL;
  NsTopology *t = ns_shape_from_spec(spec, &error);
  g_assert_no_error(error);
  return t;
}

static NsTopology *load(const char *relative)
{
  g_autofree char *path = ns_test_data(relative);
  GError *error = NULL;
  NsTopology *t = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  g_assert_no_error(error);
  return t;
}

/* Same nodes (by id and kind), links (ends, speed, latency) and routes
 * between every machine pair. */
static void assert_same_network(const NsTopology *a, const NsTopology *b)
{
  g_assert_cmpint(ns_topology_n_nodes(a), ==, ns_topology_n_nodes(b));
  g_assert_cmpint(ns_topology_n_machines(a), ==, ns_topology_n_machines(b));
  g_assert_cmpint(ns_topology_n_links(a), ==, ns_topology_n_links(b));
  for (int v = 0; v < ns_topology_n_nodes(a); v++)
    g_assert_cmpint(ns_topology_node(a, v)->kind, ==, ns_topology_node(b, v)->kind);
  for (int i = 0; i < ns_topology_n_links(a); i++) {
    const NsLink *x = ns_topology_link(a, i), *y = ns_topology_link(b, i);
    g_assert_cmpint(x->a, ==, y->a);
    g_assert_cmpint(x->b, ==, y->b);
    g_assert_cmpfloat(x->bandwidth, ==, y->bandwidth);
    g_assert_cmpfloat(x->latency, ==, y->latency);
  }
  int p = ns_topology_n_machines(a);
  int *ra = g_new(int, ns_topology_max_route_len(a) + 1);
  int *rb = g_new(int, ns_topology_max_route_len(b) + 1);
  for (int s = 0; s < p; s++)
    for (int d = 0; d < p; d++) {
      int na = ns_topology_route_machines(a, s, d, ra), nb = ns_topology_route_machines(b, s, d, rb);
      g_assert_cmpint(na, ==, nb);
      g_assert_cmpmem(ra, (gsize)na * sizeof(int), rb, (gsize)nb * sizeof(int));
    }
  g_free(ra);
  g_free(rb);
}

/* Hop counts and link speeds of every machine pair's route. */
static void assert_same_routes(const NsTopology *a, const NsTopology *b)
{
  int p = ns_topology_n_machines(a);
  g_assert_cmpint(p, ==, ns_topology_n_machines(b));
  int *ra = g_new(int, ns_topology_max_route_len(a) + 1);
  int *rb = g_new(int, ns_topology_max_route_len(b) + 1);
  for (int s = 0; s < p; s++) {
    g_assert_cmpstr(ns_topology_machine_name(a, s), ==, ns_topology_machine_name(b, s));
    for (int d = 0; d < p; d++) {
      int na = ns_topology_route_machines(a, s, d, ra), nb = ns_topology_route_machines(b, s, d, rb);
      g_assert_cmpint(na, ==, nb);
      for (int k = 0; k < na; k++)
        g_assert_cmpfloat(ns_topology_link(a, ns_edge_link(ra[k]))->bandwidth, ==,
                          ns_topology_link(b, ns_edge_link(rb[k]))->bandwidth);
    }
  }
  g_free(ra);
  g_free(rb);
}

/* netsched's SimGrid writer, then the reader. Trees are written as one-hop
 * routes and tori as routes whose every link starts some route: the same
 * network comes back. Other fabrics are written as Full routes between
 * machines, which do not say which switch sits inside them: the routes
 * come back hop for hop, with the same link speeds. */
static void test_round_trip(void)
{
  const char *specs[] = {"chain:3,2:bandwidth=1Gbps:latency=3us", "torus:3x3:bandwidth=10Gbps",
                         "waxman:3,12", "fattree:2,3", "dragonfly:3,1,3,1"};
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autoptr(NsTopology) t = gen(specs[i]);
    char *xml = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&xml, &len);
    GError *error = NULL;
    g_assert_true(ns_topology_write_simgrid(t, out, &error));
    fclose(out);
    g_autoptr(NsTopology) back = ns_topology_parse_simgrid("rt.xml", xml, len, NULL, NULL, &error);
    if (back == NULL)
      g_error("%s: %s", specs[i], error->message);
    if (i < 2)
      assert_same_network(t, back);
    assert_same_routes(t, back);
    free(xml);
  }
}

/* A k-ary n-tree written as a FAT_TREE cluster is netsched's fat tree. */
static void test_fat_tree(void)
{
  g_autoptr(NsTopology) kary = load("topo/simgrid-kary.xml");
  g_autoptr(NsTopology) ft = gen("fattree:4,2:bandwidth=1Gbps:latency=1us");
  assert_same_network(kary, ft);
  g_assert_cmpint(ns_topology_routing(kary), ==, NS_ROUTING_DMODK);
  g_assert_cmpstr(ns_topology_machine_name(kary, 5), ==, "c5");
  /* PGFT(2; 4,4; 1,2; 1,2): 4 leaves under 2 tops by double links. */
  g_autoptr(NsTopology) pg = load("topo/simgrid-fattree.xml");
  g_assert_cmpint(ns_topology_n_machines(pg), ==, 16);
  g_assert_cmpint(ns_topology_n_switches(pg), ==, 6);
  g_assert_cmpint(ns_topology_n_links(pg), ==, 24);
  g_assert_cmpstr(ns_topology_machine_name(pg, 15), ==, "node-15.ft");
  for (int i = 0; i < 24; i++)
    g_assert_cmpfloat(ns_topology_link(pg, i)->bandwidth, ==, i < 16 ? 1e9 : 2e9);
  g_assert_cmpint(ns_topology_routing(pg), ==, NS_ROUTING_DMODK);
}

static void test_torus(void)
{
  g_autoptr(NsTopology) t = load("topo/simgrid-torus.xml");
  g_autoptr(NsTopology) g = gen("torus:3x2x2:bandwidth=10Gbps:latency=1us");
  assert_same_network(t, g);
  int sizes[NS_MAX_DIMS];
  gboolean wrap = FALSE;
  g_assert_cmpint(ns_topology_grid(t, sizes, &wrap), ==, 3);
  g_assert_true(wrap);
  g_assert_cmpstr(ns_topology_machine_name(t, 11), ==, "t-11");
}

/* The router ids a route from machine a to machine b crosses. */
static char *route_text(const NsTopology *t, int a, int b)
{
  int edges[32];
  int n = ns_topology_route_machines(t, a, b, edges);
  GString *s = g_string_new(ns_topology_machine_name(t, a));
  for (int k = 0; k < n; k++)
    g_string_append_printf(s, " %s", ns_topology_node(t, ns_topology_edge_to(t, edges[k]))->name);
  return g_string_free(s, FALSE);
}

/* SimGrid's DragonflyZone layout and its minimal routing: position, then
 * chassis, to the router holding the global link, the global link, then
 * position and chassis in the destination group. */
static void test_dragonfly(void)
{
  g_autoptr(NsTopology) t = load("topo/simgrid-dragonfly.xml");
  g_assert_cmpint(ns_topology_n_machines(t), ==, 36);
  g_assert_cmpint(ns_topology_n_switches(t), ==, 18);
  /* 36 local + 18 green + 9 black + 3 blue */
  g_assert_cmpint(ns_topology_n_links(t), ==, 66);
  g_autofree char *far = route_text(t, 0, 35);
  g_assert_cmpstr(far, ==, "df-0 g0c0r0 g0c0r2 g2c0r0 g2c0r2 g2c1r2 df-35");
  g_autofree char *local = route_text(t, 0, 11);
  g_assert_cmpstr(local, ==, "df-0 g0c0r0 g0c0r2 g0c1r2 df-11");
  g_autofree char *same = route_text(t, 0, 1);
  g_assert_cmpstr(same, ==, "df-0 g0c0r0 df-1");
  /* Green links carry 2 x 10Gbps, the others 10Gbps. */
  int green = ns_topology_find_node(t, "g0c0r1");
  const int *inc = ns_topology_incident(t, green);
  for (int k = 0; k < ns_topology_degree(t, green); k++) {
    const NsLink *l = ns_topology_link(t, inc[k]);
    const char *other = ns_topology_node(t, ns_topology_link_other(t, inc[k], green))->name;
    gboolean same_chassis = g_str_has_prefix(other, "g0c0r");
    g_assert_cmpfloat(l->bandwidth, ==, same_chassis ? 20e9 : 10e9);
  }
  GError *error = NULL;
  g_assert_null(ns_shape_from_spec("dragonfly:4,1,1,2", &error));
  g_assert_cmpstr(error->message, ==, "gen:dragonfly:4,1,1,2: dragonfly: 4 groups need 4 routers "
                  "in each group (the global link to group j sits on router j of the group), "
                  "not 1");
  g_clear_error(&error);
  g_assert_null(ns_shape_from_spec("dragonfly:1000000,1000000,1000000,1000000", &error));
  g_assert_cmpstr(error->message, ==, "gen:dragonfly:1000000,1000000,1000000,1000000: dragonfly: "
                  "more than 2048 machines (from 2 to 2048: its minimal routing is kept as one "
                  "explicit route per machine pair)");
  g_clear_error(&error);
  g_assert_null(ns_shape_from_spec("dragonfly:3,1,3", &error));
  g_assert_true(g_str_has_prefix(error->message, "gen:dragonfly:3,1,3: expected dragonfly:G,C,R,N"));
  g_clear_error(&error);
}

static void test_flat(void)
{
  g_autoptr(NsTopology) t = load("topo/simgrid-flat.xml");
  g_assert_cmpint(ns_topology_n_machines(t), ==, 3);
  g_assert_cmpint(ns_topology_n_switches(t), ==, 2); /* r0, and x0 between bb and lc */
  g_assert_cmpint(ns_topology_routing(t), ==, NS_ROUTING_EXPLICIT);
  g_autofree char *ag = route_text(t, 0, 2);
  g_assert_cmpstr(ag, ==, "alpha r0 x0 gamma");
  g_autofree char *ga = route_text(t, 2, 1);
  g_assert_cmpstr(ga, ==, "gamma x0 r0 beta");
  g_assert_cmpfloat(ns_topology_link(t, 3)->bandwidth, ==, 1e9); /* lc: 125MBps */
}

static void test_bad(void)
{
  const char *cases[][2] = {
    {"<platform version='4.1'>\n<zone id='a' routing='Full'>\n<zone id='b' routing='Full'/>\n"
     "</zone></platform>",
     "b.xml:3: a second zone: netsched reads one zone (a cluster, or hosts, routers, links and "
     "routes)"},
    {"<platform version='4.1'>\n<include file='x.xml'/>\n</platform>",
     "b.xml:2: <include> is not read by netsched (it reads <platform>, one <zone>, <cluster>, "
     "<host>, <router>, <link>, <route> and <link_ctn>)"},
    {"<platform version='4.1'>\n<cluster id='c' topology='FAT_TREE' topo_parameters='2;4,4;1,4'"
     " prefix='n' suffix='' radical='0-15' bw='1Gbps' lat='1us'/>\n</platform>",
     "b.xml:2: FAT_TREE topo_parameters '2;4,4;1,4': expected \"L;m1,...,mL;w1,...,wL;p1,...,pL\" "
     "(levels, children per switch, parents per node and parallel links, level 1 first; at most "
     "8 levels)"},
    {"<platform version='4.1'>\n<cluster id='c' topology='TORUS' topo_parameters='4,4'"
     " prefix='n' suffix='' radical='0-14' bw='1Gbps' lat='1us'/>\n</platform>",
     "b.xml:2: radical '0-14' names 15 hosts, the TORUS topology '4,4' has 16"},
    {"<platform version='4.1'>\n<zone id='z' routing='Full'>\n<host id='a'/>\n"
     "<route src='a' dst='b'><link_ctn id='l'/></route>\n</zone></platform>",
     "b.xml:4: <route> from 'a' to 'b': both ends must be hosts or routers declared before it"},
    {"<platform version='4.1'>\n<cluster id='c' topology='TORUS' topo_parameters='4,4'"
     " prefix='n' suffix='' radical='0-15' bw='fast' lat='1us'/>\n</platform>",
     "b.xml:2: bw 'fast': "},
    {"<platform version='4.1'>\n<cluster id='c' topology='DRAGONFLY' topo_parameters="
     "'1000000,1;1000000,1;1000000,1;1000000' prefix='n' suffix='' radical='0-15' bw='1Gbps'"
     " lat='1us'/>\n</platform>",
     "b.xml: dragonfly: more than 2048 machines"},
    {"<platform version='4.1'>\n<cluster id='c' topology='TORUS' topo_parameters="
     "'1000000,1000000,1000000' prefix='n' suffix='' radical='0-15' bw='1Gbps'"
     " lat='1us'/>\n</platform>",
     "b.xml:2: TORUS '1000000,1000000,1000000': more than 1000000 hosts"},
    /* found by fuzz_simgrid: a latency past the model's 1e6 s reached the
     * torus generator, whose links were then refused unseen ("machine 'n1'
     * has no link", without the file and line) */
    {"<platform version='4.1'>\n<cluster id='c' topology='TORUS' topo_parameters='3,2,2'"
     " prefix='n' suffix='' radical='0-11' bw='1Gbps' lat='6666666666666661us'/>\n</platform>",
     "b.xml:2: lat '6666666666666661us': above the 1e6 s limit"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    GError *error = NULL;
    g_assert_null(ns_topology_parse_simgrid("b.xml", cases[i][0], strlen(cases[i][0]), NULL,
                                            NULL, &error));
    g_assert_nonnull(error);
    if (!g_str_has_prefix(error->message, cases[i][1]))
      g_error("case %zu: got '%s'", i, error->message);
    g_clear_error(&error);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/simgrid-reader/round-trip", test_round_trip);
  g_test_add_func("/simgrid-reader/fat-tree", test_fat_tree);
  g_test_add_func("/simgrid-reader/torus", test_torus);
  g_test_add_func("/simgrid-reader/dragonfly", test_dragonfly);
  g_test_add_func("/simgrid-reader/flat", test_flat);
  g_test_add_func("/simgrid-reader/bad", test_bad);
  return g_test_run();
}
