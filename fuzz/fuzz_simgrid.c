/* libFuzzer harness: the SimGrid platform reader (platforms/io/read_simgrid.c,
 * platforms/io/simgrid_clusters.c): cluster zones (FAT_TREE, TORUS,
 * DRAGONFLY) and flat host/router/link platforms are read, or refused with
 * `file:line: ...`; cluster sizes are checked before anything is built. */
#include "fuzz/fuzz_common.h"
#include "platforms/io/read_options.h"

#define SOURCE "platform.xml"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  GError *err = NULL;
  unsigned warnings = 0;
  NsTopology *topo = ns_topology_parse_simgrid(SOURCE, (const char *)data, size,
                                               ns_fuzz_on_warning, &warnings, &err);
  ns_fuzz_check_result(topo, err, SOURCE);
  ns_topology_free(topo);
  g_clear_error(&err);
  return 0;
}
