/* dmodk/smodk set-up (platforms/routing/routing_updown.c): every pair of
 * machines must meet climbing, or the topology is refused — the route
 * function has no way to say "no route" (it returned -2, a negative edge
 * count, to every caller). The set-up sampled 2^22 pairs above 4096
 * machines; the tree below has 4161 machines and exactly one pair whose
 * climbs part, which the sample missed: it is refused now, and so is the
 * same flaw under s-mod-k. A sound 4161-machine fat tree still routes. */
#include "platforms/model/error.h"
#include "platforms/model/topology.h"
#include "tests/testutil.h"

enum {
  GROUPS = 65,
  PER_GROUP = 64,
  SPINES = 64,
  TOPS = 66,
  BAD_J = 5,
  BAD_K = 10
};

static int node(NsTopology *t, NsNodeKind kind, const char *fmt, int i)
{
  g_autofree char *name = g_strdup_printf(fmt, i);
  GError *error = NULL;
  int id = ns_topology_add_node(t, name, kind, 0, &error);
  g_assert_no_error(error);
  return id;
}

static void link_nodes(NsTopology *t, int a, int b)
{
  GError *error = NULL;
  g_assert_cmpint(ns_topology_add_link(t, a, b, 1e9, 1e-6, 0, &error), >=, 0);
  g_assert_no_error(error);
}

/* 65 leaf switches of 64 machines and one (B) of machine m4160, each with
 * 64 up-links j to spine A_j — but B's up-link 5 goes to spine A' — and
 * 65 spines with 66 up-links k to top T_k — but A''s up-links 10 and 65
 * are swapped. With a key ≡ 5 (mod 64) m4160 climbs to A' where the
 * others reach A_5; they meet at T_k unless the key's next digit is 10
 * (65 would be key 4165, no machine): key 645 parts, one pair of the
 * 17.3 million (m4160 with m645).
 * `flawed` FALSE: A''s up-links in order, so A' climbs as A_5 does: sound. */
static NsTopology *tree(NsRoutingKind routing, gboolean flawed)
{
  NsTopology *t = ns_topology_new("updown-test");
  int machines[GROUPS * PER_GROUP + 1], leaf[GROUPS + 1], spine[SPINES + 1], top[TOPS];
  for (int m = 0; m <= GROUPS * PER_GROUP; m++)
    machines[m] = node(t, NS_NODE_MACHINE, "m%d", m);
  for (int g = 0; g <= GROUPS; g++)
    leaf[g] = node(t, NS_NODE_SWITCH, "leaf%d", g);
  for (int j = 0; j <= SPINES; j++) /* spine[SPINES] is A' */
    spine[j] = node(t, NS_NODE_SWITCH, "spine%d", j);
  for (int k = 0; k < TOPS; k++)
    top[k] = node(t, NS_NODE_SWITCH, "top%d", k);
  for (int m = 0; m <= GROUPS * PER_GROUP; m++)
    link_nodes(t, machines[m], leaf[m / PER_GROUP]);
  for (int g = 0; g <= GROUPS; g++)
    for (int j = 0; j < SPINES; j++)
      link_nodes(t, leaf[g], spine[g == GROUPS && j == BAD_J ? SPINES : j]);
  for (int j = 0; j <= SPINES; j++)
    for (int k = 0; k < TOPS; k++) {
      int to = k;
      if (j == SPINES && flawed && (k == BAD_K || k == TOPS - 1))
        to = k == BAD_K ? TOPS - 1 : BAD_K;
      link_nodes(t, spine[j], top[to]);
    }
  ns_topology_set_routing(t, routing, 0);
  return t;
}

static void test_parting_pair_refused(void)
{
  const struct {
    NsRoutingKind routing;
    const char *message;
  } cases[] = {
    { NS_ROUTING_DMODK, "updown-test: dmodk routing: climbing from 'm4160' and 'm645' never meets "
                        "(not a fat tree in which every pair has a common ancestor reached by the "
                        "dmodk rule)" },
    { NS_ROUTING_SMODK, "updown-test: smodk routing: climbing from 'm645' and 'm4160' never meets "
                        "(not a fat tree in which every pair has a common ancestor reached by the "
                        "smodk rule)" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(NsTopology) t = tree(cases[i].routing, TRUE);
    GError *error = NULL;
    g_assert_false(ns_topology_finalize(t, NULL, NULL, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_assert_cmpstr(error->message, ==, cases[i].message);
    g_error_free(error);
  }
}

/* Without the swap (A' climbs as A_5 does) every pair meets: the tree is
 * taken and m4160's route to m645 climbs to a top switch and down. */
static void test_sound_tree_routes(void)
{
  g_autoptr(NsTopology) t = tree(NS_ROUTING_DMODK, FALSE);
  GError *error = NULL;
  g_assert_true(ns_topology_finalize(t, NULL, NULL, &error));
  g_assert_no_error(error);
  int edges[16];
  g_assert_cmpint(ns_topology_route_machines(t, 4160, 645, edges), ==, 6);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/updown/parting-pair-refused", test_parting_pair_refused);
  g_test_add_func("/updown/sound-tree-routes", test_sound_tree_routes);
  return g_test_run();
}
