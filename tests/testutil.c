#include "tests/testutil.h"
#include "platforms/topology_io.h"

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
