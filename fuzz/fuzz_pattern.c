/* libFuzzer harness: size pattern files (sched/ir/pattern_read.c). A file
 * is read into a pattern or refused with `file:line: ...`; a pattern read
 * is within its limits (machines, total) and survives its own round trip
 * (ns_size_pattern_to_text, then parsed again: the same counts). */
#include "fuzz/fuzz_spec_file.h"
#include "sched/ir/pattern.h"
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *path = ns_fuzz_spec_file(data, size);
  GError *err = NULL;
  NsSizePattern *pat = ns_size_pattern_read(path, &err);
  ns_fuzz_check_loaded(pat, err, path);
  if (pat != NULL) {
    NS_FUZZ_CHECK(pat->p >= 1 && ns_size_pattern_total(pat) <= NS_PATTERN_MAX_TOTAL,
                  "p %d, total %" G_GUINT64_FORMAT, pat->p, ns_size_pattern_total(pat));
    char *text = ns_size_pattern_to_text(pat);
    NsSizePattern *back = ns_size_pattern_parse(text, strlen(text), "round-trip", &err);
    NS_FUZZ_CHECK(back != NULL, "round trip refused: %s", err ? err->message : "?");
    NS_FUZZ_CHECK(back->collective == pat->collective && back->p == pat->p &&
                      memcmp(back->bytes, pat->bytes, ns_size_pattern_n_sizes(pat) * 8) == 0,
                  "round trip changed the pattern");
    ns_size_pattern_free(back);
    g_free(text);
  }
  ns_size_pattern_free(pat);
  g_clear_error(&err);
  return 0;
}
