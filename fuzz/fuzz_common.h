/* netsched fuzz harnesses — shared set-up.
 *
 * Every harness: GLib allocates with plain malloc (G_SLICE=always-malloc, so
 * ASan sees every block), GLib criticals and warnings abort (a reader must
 * reject bad input with a GError, never trip a g_return_if_fail), and every
 * object is freed so LeakSanitizer reports real leaks only. */
#ifndef NETSCHED_FUZZ_COMMON_H
#define NETSCHED_FUZZ_COMMON_H

#include "platforms/model/topology.h"
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void ns_fuzz_setup(void)
{
  setenv("G_SLICE", "always-malloc", 1);
  g_log_set_always_fatal(G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

/* A failed contract: print and abort so libFuzzer saves the input. */
#define NS_FUZZ_CHECK(cond, ...)                                                             \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      fprintf(stderr, "fuzz contract violated: %s: ", #cond);                               \
      fprintf(stderr, __VA_ARGS__);                                                          \
      fputc('\n', stderr);                                                                   \
      abort();                                                                               \
    }                                                                                        \
  } while (0)

/* The topology readers' warning callback: the text is UTF-8; counts into
 * the unsigned that `data` points to. */
static inline void ns_fuzz_on_warning(const char *message, void *data)
{
  NS_FUZZ_CHECK(message != NULL && g_utf8_validate(message, -1, NULL), "bad warning text");
  (*(unsigned *)data)++;
}

/* NETSCHED_FUZZ_READ_ONLY=1: fuzz a reader alone, without the write and
 * re-read round trip. */
static inline gboolean ns_fuzz_read_only(void)
{
  return g_strcmp0(g_getenv("NETSCHED_FUZZ_READ_ONLY"), "1") == 0;
}

/* Reader contract: NULL with an error, or a result without one; error
 * messages are non-empty UTF-8 that start with the source name. */
static inline void ns_fuzz_check_result(const void *result, const GError *err, const char *source)
{
  NS_FUZZ_CHECK((result == NULL) == (err != NULL), "result %p, error %s", result,
                err != NULL ? err->message : "(none)");
  if (err != NULL) {
    NS_FUZZ_CHECK(err->message != NULL && err->message[0] != '\0', "empty error message");
    NS_FUZZ_CHECK(g_utf8_validate(err->message, -1, NULL), "error message is not UTF-8");
    NS_FUZZ_CHECK(g_str_has_prefix(err->message, source), "message lacks the source: %s",
                  err->message);
  }
}

/* Writer contract: `again`, the topology re-read from `text` (what a writer
 * made of `topo`), exists and has the same machines, switches and links,
 * machines in the same order under the same names. Frees `again` and
 * `text`. */
static inline void ns_fuzz_check_reread(const NsTopology *topo, NsTopology *again,
                                        const GError *err, char *text)
{
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

#endif
