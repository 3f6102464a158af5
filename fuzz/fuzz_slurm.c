/* libFuzzer harness: the Slurm topology.conf reader (platforms/io/read_slurm.c). */
#include "fuzz/fuzz_common.h"
#include "platforms/io/topology_io.h"

#define SOURCE "topology.conf"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  GError *err = NULL;
  unsigned warnings = 0;
  NsTopology *topo = ns_topology_parse_slurm(SOURCE, (const char *)data, size,
                                             ns_fuzz_on_warning, &warnings, &err);
  ns_fuzz_check_result(topo, err, SOURCE);
  ns_topology_free(topo);
  g_clear_error(&err);
  return 0;
}
