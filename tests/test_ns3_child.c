/* The ns3 model (sim/ns3/, netsched-ns3): ns-3's routing tables send
 * every machine pair's packets along netsched's route, on every fabric
 * the model builds, or the child refuses clearly; a message alone on a
 * path takes latency + size/bandwidth within TCP/IP's overhead; a
 * contention-free all-to-all lands near the fluid prediction. Skipped
 * when netsched was built without ns-3 (libns3-dev). */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "sim/ns3_net.h"
#include "sim/sim.h"
#include "tests/testutil.h"
#include <string.h>

/* FALSE (the test skipped) when this netsched has no ns-3. */
static gboolean have_ns3(void)
{
  GError *error = NULL;
  g_autofree char *path = ns_ns3_child_path(&error);
  if (path != NULL)
    return TRUE;
  g_test_skip(error->message);
  g_error_free(error);
  return FALSE;
}

/* Trees, fat trees (dmodk, smodk), tori, rings, a mesh, a hypercube and
 * random graphs (shortest paths): every route is destination-based, and
 * ns-3's tables follow each one link for link. */
static void test_routes(void)
{
  if (!have_ns3())
    return;
  const char *files[] = { "faraj-fig1.topo", "faraj-a.topo", "faraj-b.topo", "faraj-c.topo" };
  for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autoptr(NsTopology) t = ns_test_topology(files[i]);
    ns_test_assert_routes_equal(t, ns_ns3_check_routes);
  }
  const char *specs[] = { "fattree:4,2", "fattree:2,3", "torus:4x4", "torus:2x3", "ring:7",
                          "mesh:3x5", "hypercube:4" };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(specs[i], &error);
    g_assert_no_error(error);
    ns_test_assert_routes_equal(t, ns_ns3_check_routes);
  }
  for (uint64_t seed = 1; seed <= 3; seed++) {
    g_autoptr(NsTopology) t = ns_test_random_graph(seed, 10 + (int)seed * 3, 4 + (int)seed, 6);
    ns_test_assert_routes_equal(t, ns_ns3_check_routes);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/ns3/routes", test_routes);
  return g_test_run();
}
