#include "tests/testutil.h"

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
