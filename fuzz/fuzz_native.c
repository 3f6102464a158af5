/* libFuzzer harness: the native topology reader (platforms/io/read_native.c).
 * A topology that parses is also written back in the native format and
 * re-read: the writer promises an identical topology. Set
 * NETSCHED_FUZZ_READ_ONLY=1 to fuzz the reader alone (e.g. while a writer
 * bug is being fixed). */
#include "fuzz/fuzz_common.h"
#include "platforms/io/topology_io.h"

#include <string.h>

#define SOURCE "fuzz.topo"

static gboolean read_only;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  read_only = ns_fuzz_read_only();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  GError *err = NULL;
  unsigned warnings = 0;
  NsTopology *topo = ns_topology_parse_native(SOURCE, (const char *)data, size,
                                              ns_fuzz_on_warning, &warnings, &err);
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
    ns_fuzz_check_reread(topo, again, err, text);
  }
  ns_topology_free(topo);
  g_clear_error(&err);
  return 0;
}
