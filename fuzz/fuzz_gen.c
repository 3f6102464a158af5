/* libFuzzer harness: generator specifications (the text after "gen:",
 * platforms/gen/shapes.c, gtitm.c, fabrics.c, hierarchy.c, presets.c).
 *
 * Contracts checked on every input:
 *  - a specification gives a topology or an error, never both, and never
 *    crashes (an empty shape once read past the end of g_strsplit's
 *    vector); the message starts with "gen:" or names the generator, and
 *    is UTF-8 whatever bytes the specification held;
 *  - a topology has at least two machines, every machine is named, and
 *    its source names the specification.
 * Inputs are at most 256 bytes: a specification is one line, and its
 * sizes, not its length, make a topology large (generators stop at
 * 1,000,000 nodes, which takes seconds under ASan: the smoke run allows
 * that). */
#include "fuzz/fuzz_common.h"
#include "platforms/gen/shapes.h"

#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size > 256)
    return 0;
  char *spec = g_strndup((const char *)data, size); /* stops at a NUL, as argv would */
  GError *err = NULL;
  NsTopology *topo = ns_shape_from_spec(spec, &err);
  NS_FUZZ_CHECK((topo == NULL) == (err != NULL), "result %p, error %s", (void *)topo,
                err != NULL ? err->message : "(none)");
  if (err != NULL) {
    NS_FUZZ_CHECK(err->message != NULL && err->message[0] != '\0', "empty error message");
    NS_FUZZ_CHECK(g_utf8_validate(err->message, -1, NULL), "error message is not UTF-8: %s",
                  err->message);
  } else {
    NS_FUZZ_CHECK(ns_topology_n_machines(topo) >= 2, "%d machines",
                  ns_topology_n_machines(topo));
    for (int m = 0; m < ns_topology_n_machines(topo); m++)
      NS_FUZZ_CHECK(ns_topology_machine_name(topo, m)[0] != '\0', "machine %d unnamed", m);
  }
  ns_topology_free(topo);
  g_clear_error(&err);
  g_free(spec);
  return 0;
}
