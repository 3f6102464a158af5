/* netsched fuzz harnesses — shared set-up.
 *
 * Every harness: GLib allocates with plain malloc (G_SLICE=always-malloc, so
 * ASan sees every block), GLib criticals and warnings abort (a reader must
 * reject bad input with a GError, never trip a g_return_if_fail), and every
 * object is freed so LeakSanitizer reports real leaks only. */
#ifndef NETSCHED_FUZZ_COMMON_H
#define NETSCHED_FUZZ_COMMON_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

#endif
