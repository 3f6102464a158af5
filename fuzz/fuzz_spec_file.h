/* netsched fuzz harnesses of the key-file readers (sweep, scenario):
 * the input is written to one temporary file per process, which the
 * reader then loads by path, as the CLI does. */
#ifndef NETSCHED_FUZZ_SPEC_FILE_H
#define NETSCHED_FUZZ_SPEC_FILE_H

#include "fuzz/fuzz_common.h"
#include <unistd.h>

static char *ns_fuzz_spec_path = NULL;

static void ns_fuzz_spec_file_remove(void)
{
  unlink(ns_fuzz_spec_path);
}

/* The path of this process's input file (created on first use, removed
 * at exit); `data` replaces its contents. */
static inline const char *ns_fuzz_spec_file(const uint8_t *data, size_t size)
{
  static int fd = -1;
  if (ns_fuzz_spec_path == NULL) {
    GError *err = NULL;
    fd = g_file_open_tmp("netsched-fuzz-XXXXXX.ini", &ns_fuzz_spec_path, &err);
    NS_FUZZ_CHECK(fd >= 0, "cannot create the input file: %s", err ? err->message : "?");
    atexit(ns_fuzz_spec_file_remove);
  }
  const char *path = ns_fuzz_spec_path;
  NS_FUZZ_CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, data, size, 0) == (ssize_t)size,
                "cannot write the input file");
  return path;
}

/* Loader contract: NULL with an error naming the file, or a result. */
static inline void ns_fuzz_check_loaded(const void *result, const GError *err, const char *path)
{
  NS_FUZZ_CHECK((result == NULL) == (err != NULL), "result %p, error %s", result,
                err != NULL ? err->message : "(none)");
  if (err != NULL) {
    NS_FUZZ_CHECK(err->message != NULL && err->message[0] != '\0', "empty error message");
    NS_FUZZ_CHECK(g_str_has_prefix(err->message, path), "message lacks the file: %s",
                  err->message);
  }
}

#endif
