/* libFuzzer harness: scenario files (analysis/scenario.c,
 * analysis/keyfile.c): read and checked, or refused with
 * `file:line: ...`; a scenario that reads has at least one collective and
 * one topology, and every topology a models list. */
#include "fuzz/fuzz_spec_file.h"
#include "analysis/scenario_internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *path = ns_fuzz_spec_file(data, size);
  GError *err = NULL;
  NsScenario *s = ns_scenario_load(path, &err);
  ns_fuzz_check_loaded(s, err, path);
  if (s != NULL) {
    NS_FUZZ_CHECK(s->collectives->len >= 1 && s->topologies->len >= 1,
                  "%u collectives, %u topologies", s->collectives->len, s->topologies->len);
    for (guint i = 0; i < s->topologies->len; i++)
      NS_FUZZ_CHECK(g_array_index(s->topologies, NsScenarioTopology, i).models != NULL,
                    "topology %u has no models list", i);
  }
  ns_scenario_free(s);
  g_clear_error(&err);
  return 0;
}
