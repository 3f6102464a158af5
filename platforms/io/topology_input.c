/* netsched — bounded reading of topology files and escaping of invisible
 * characters in messages (platforms/io/topology_input_internal.h). */
#include "platforms/model/error.h"
#include "platforms/io/topology_input_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KIB ((gsize)1024)
#define MIB (KIB * KIB)
/* Buffer size for streams of unknown length, and the most read() is asked
 * for at once. */
#define FIRST_CHUNK (64 * KIB)
#define MAX_CHUNK MIB

/**
 * \function ns_input_format_limit
 * \brief A byte limit as messages show it: "256 MiB", "1 KiB", "100-byte".
 *
 * \param max_bytes The limit.
 * \return A newly allocated string. Time complexity: O(1).
 */
char *ns_input_format_limit(gsize max_bytes)
{
  if (max_bytes >= MIB && max_bytes % MIB == 0)
    return g_strdup_printf("%" G_GSIZE_FORMAT " MiB", max_bytes / MIB);
  if (max_bytes >= KIB && max_bytes % KIB == 0)
    return g_strdup_printf("%" G_GSIZE_FORMAT " KiB", max_bytes / KIB);
  return g_strdup_printf("%" G_GSIZE_FORMAT "-byte", max_bytes);
}

static gboolean too_large(const char *path, gsize max_bytes, const char *what, GError **error)
{
  char *limit = ns_input_format_limit(max_bytes);
  ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "%s larger than the %s limit", what, limit);
  g_free(limit);
  return FALSE;
}

/**
 * \function ns_input_read_file
 * \brief Reads a whole input file into memory, never more than a limit.
 *
 * Regular files are checked against the limit by their size before any
 * byte is read. Pipes, FIFOs, sockets and character devices (/dev/stdin,
 * /dev/zero) have no size: they are read in chunks of at most 1 MiB into a
 * buffer that doubles up to `max_bytes` + 1 bytes, and reading stops as
 * soon as that last byte arrives. Allocation failures are reported, never
 * fatal (g_try_realloc).
 *
 * \param path The file; opening blocks like cat(1) on a FIFO without writer.
 * \param max_bytes The largest accepted size (NS_TOPOLOGY_MAX_BYTES for the
 *        topology readers, NS_INPUT_CONFIG_MAX_BYTES for scenario, price
 *        and calibration files; a parameter so that tests can use a small
 *        one).
 * \param what What the file is, for messages: "topology", "scenario", ...
 * \param text On success, a newly allocated NUL-terminated copy of the
 *        contents (free with g_free); NULL on error.
 * \param len On success, the length of the contents without the NUL.
 * \param error NS_ERROR_INPUT "path: WHAT larger than the 256 MiB limit";
 *        NS_ERROR_IO "path: cannot read: <reason>" (missing file, read
 *        error, out of memory) or "path: is a directory, not a WHAT file".
 * \return TRUE on success.
 *
 * Time complexity: O(min(size, max_bytes)); memory at most max_bytes + 2
 * bytes.
 */
gboolean ns_input_read_file(const char *path, gsize max_bytes, const char *what, char **text,
                            gsize *len, GError **error)
{
  g_return_val_if_fail(path != NULL && text != NULL && len != NULL, FALSE);
  *text = NULL;
  *len = 0;
  max_bytes = MIN(max_bytes, G_MAXSIZE - 2);
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", g_strerror(e));
    return FALSE;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", g_strerror(e));
    return FALSE;
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "is a directory, not a %s file", what);
    return FALSE;
  }
  gsize cap = FIRST_CHUNK;
  if (S_ISREG(st.st_mode)) {
    if (st.st_size < 0 || (guint64)st.st_size > max_bytes) {
      close(fd);
      return too_large(path, max_bytes, what, error);
    }
    /* One more byte than the size, to see the end of file at once. */
    cap = (gsize)st.st_size + 1;
  }
  cap = MIN(cap, max_bytes + 1);
  char *buf = g_try_malloc(cap + 1);
  gsize n = 0;
  gboolean ok = buf != NULL;
  const char *why = ok ? NULL : "out of memory";
  while (ok) {
    if (n == cap) {
      if (cap > max_bytes) {
        ok = too_large(path, max_bytes, what, error);
        break;
      }
      gsize want = cap <= (max_bytes + 1) / 2 ? 2 * cap : max_bytes + 1;
      char *bigger = g_try_realloc(buf, want + 1);
      if (bigger == NULL) {
        ok = FALSE;
        why = "out of memory";
        break;
      }
      buf = bigger;
      cap = want;
    }
    ssize_t got = read(fd, buf + n, MIN(cap - n, MAX_CHUNK));
    if (got < 0) {
      if (errno == EINTR)
        continue;
      ok = FALSE;
      why = g_strerror(errno);
      break;
    }
    if (got == 0)
      break;
    n += (gsize)got;
  }
  close(fd);
  if (!ok) {
    if (why != NULL)
      ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", why);
    g_free(buf);
    return FALSE;
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return TRUE;
}
