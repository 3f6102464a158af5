/* libFuzzer harness: the native topology reader (platforms/read_native.c).
 * A topology that parses is also written back in the native format and
 * re-read: the writer promises an identical topology. Set
 * NETSCHED_FUZZ_READ_ONLY=1 to fuzz the reader alone (e.g. while a writer
 * bug is being fixed). */
#include "fuzz/fuzz_common.h"
#include "platforms/topology_io.h"

#include <string.h>

#define SOURCE "fuzz.topo"

static gboolean read_only;

static void on_warning(const char *message, void *data)
{
  NS_FUZZ_CHECK(message != NULL && g_utf8_validate(message, -1, NULL), "bad warning text");
  (*(unsigned *)data)++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  read_only = g_strcmp0(g_getenv("NETSCHED_FUZZ_READ_ONLY"), "1") == 0;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  GError *err = NULL;
  unsigned warnings = 0;
  NsTopology *topo = ns_topology_parse_native(SOURCE, (const char *)data, size, on_warning,
                                              &warnings, &err);
  ns_fuzz_check_result(topo, err, SOURCE);
  if (topo != NULL && !read_only) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    NS_FUZZ_CHECK(out != NULL, "open_memstream");
    gboolean written = ns_topology_write_native(topo, out, &err);
    fclose(out);
    NS_FUZZ_CHECK(written, "cannot write a topology that was read: %s",
                  err != NULL ? err->message : "?");
    NsTopology *again = ns_topology_parse_native("rewritten.topo", text, len, NULL, NULL, &err);
    NS_FUZZ_CHECK(again != NULL, "written topology does not re-read: %s\n--- written:\n%s",
                  err != NULL ? err->message : "?", text);
    NS_FUZZ_CHECK(ns_topology_n_machines(again) == ns_topology_n_machines(topo) &&
                    ns_topology_n_switches(again) == ns_topology_n_switches(topo) &&
                    ns_topology_n_links(again) == ns_topology_n_links(topo),
                  "re-read topology differs (machines %d/%d, switches %d/%d, links %d/%d)",
                  ns_topology_n_machines(topo), ns_topology_n_machines(again),
                  ns_topology_n_switches(topo), ns_topology_n_switches(again),
                  ns_topology_n_links(topo), ns_topology_n_links(again));
    for (int m = 0; m < ns_topology_n_machines(topo); m++)
      NS_FUZZ_CHECK(strcmp(ns_topology_machine_name(topo, m),
                           ns_topology_machine_name(again, m)) == 0,
                    "machine %d renamed", m);
    ns_topology_free(again);
    free(text);
  }
  ns_topology_free(topo);
  g_clear_error(&err);
  return 0;
}
