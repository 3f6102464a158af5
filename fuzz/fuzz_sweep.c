/* libFuzzer harness: sweep specification files (analysis/sweep_config.c,
 * analysis/keyfile.c). A specification is read and its grid built, or
 * refused with `file:line: ...`; a grid is within NS_SWEEP_MAX_TASKS and
 * every task has a key and a generator specification. Grids are counted
 * before they are built, so a few bytes asking for 10^12 tasks are refused
 * at once instead of allocating. */
#include "fuzz/fuzz_spec_file.h"
#include "analysis/sweep_internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *path = ns_fuzz_spec_file(data, size);
  GError *err = NULL;
  NsSweep *sw = ns_sweep_load(path, &err);
  ns_fuzz_check_loaded(sw, err, path);
  if (sw != NULL) {
    guint n = ns_sweep_n_tasks(sw);
    NS_FUZZ_CHECK(n >= 1 && n <= NS_SWEEP_MAX_TASKS, "%u tasks", n);
    guint last[] = { 0, n - 1 };
    for (int i = 0; i < 2; i++) {
      char *key = ns_sweep_task_key(sw, last[i]);
      char *label = ns_sweep_task_label(sw, last[i]);
      NS_FUZZ_CHECK(key != NULL && key[0] != '\0' && label != NULL, "task %u", last[i]);
      g_free(key);
      g_free(label);
    }
  }
  ns_sweep_free(sw);
  g_clear_error(&err);
  return 0;
}
