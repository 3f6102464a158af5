/* libFuzzer harness: the GraphML reader (platforms/io/read_graphml.c: the
 * GMarkup pre-check, igraph's parser, the cross-check between the two).
 *
 * The reader takes a path, so every input is written to a memfd (or, where
 * memfd_create is missing, to a temporary file unlinked at once) and read
 * back through /proc/self/fd/N: the bounded file reader is exercised too,
 * and nothing is left on disk. Contract, besides ns_fuzz_check_result():
 * the pre-check never disagrees with igraph (that would make its lines and
 * its duplicate check unreliable). A topology that parses is also written
 * as GraphML and re-read: same machines, switches and links. Set
 * NETSCHED_FUZZ_READ_ONLY=1 to fuzz the reader alone. */
#include "fuzz/fuzz_common.h"
#include "platforms/io/topology_io.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int input_fd = -1;
static char input_path[64];
static gboolean read_only;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  read_only = ns_fuzz_read_only();
  input_fd = memfd_create("netsched-fuzz-graphml", MFD_CLOEXEC);
  if (input_fd < 0) {
    char *tmp = NULL;
    GError *err = NULL;
    input_fd = g_file_open_tmp("netsched-fuzz-XXXXXX.graphml", &tmp, &err);
    NS_FUZZ_CHECK(input_fd >= 0, "no memfd and no temporary file: %s",
                  err != NULL ? err->message : "?");
    unlink(tmp); /* the descriptor keeps it alive */
    g_free(tmp);
  }
  snprintf(input_path, sizeof input_path, "/proc/self/fd/%d", input_fd);
  return 0;
}

static void put_input(const uint8_t *data, size_t size)
{
  NS_FUZZ_CHECK(ftruncate(input_fd, 0) == 0, "ftruncate: %s", g_strerror(errno));
  size_t done = 0;
  while (done < size) {
    ssize_t n = pwrite(input_fd, data + done, size - done, (off_t)done);
    if (n < 0 && errno == EINTR)
      continue;
    NS_FUZZ_CHECK(n > 0, "pwrite: %s", g_strerror(errno));
    done += (size_t)n;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  put_input(data, size);
  GError *err = NULL;
  unsigned warnings = 0;
  NsTopology *topo =
      ns_topology_read_graphml(input_path, ns_fuzz_on_warning, &warnings, &err);
  ns_fuzz_check_result(topo, err, input_path);
  if (err != NULL) {
    char *disagree = g_strconcat(input_path, ": cannot check this GraphML file: ", NULL);
    NS_FUZZ_CHECK(!g_str_has_prefix(err->message, disagree), "%s", err->message);
    g_free(disagree);
  }
  if (topo != NULL && !read_only) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    NS_FUZZ_CHECK(out != NULL, "open_memstream");
    gboolean written = ns_topology_write_graphml(topo, out, &err);
    fclose(out);
    NS_FUZZ_CHECK(written, "cannot write a topology that was read: %s",
                  err != NULL ? err->message : "?");
    NsTopology *again = ns_topology_parse_graphml("rewritten.graphml", text, len, NULL, NULL,
                                                  &err);
    ns_fuzz_check_reread(topo, again, err, text);
  }
  ns_topology_free(topo);
  g_clear_error(&err);
  return 0;
}
