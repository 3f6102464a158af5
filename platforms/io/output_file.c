/* netsched — output files created without following links. See output_file_internal.h. */
#include "platforms/io/output_file_internal.h"
#include "platforms/model/error.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

int ns_output_temp(const char *path, int flags, char **temp, GError **error)
{
  char *name = g_strdup_printf("%s.XXXXXX", path);
  int fd = g_mkstemp_full(name, O_RDWR | O_CLOEXEC | flags, 0644);
  if (fd < 0) {
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write: %s", g_strerror(errno));
    g_free(name);
    return -1;
  }
  *temp = name;
  return fd;
}

int ns_output_open(const char *path, char **temp, GError **error)
{
  *temp = NULL;
  GStatBuf st;
  if (g_stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write: is a directory");
    return -1;
  }
  if (g_stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    /* No O_CREAT, no O_TRUNC: if the device was swapped for a file or a
     * dangling link meanwhile, nothing is created or truncated through it. */
    int fd = g_open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC, 0);
    struct stat now;
    if (fd >= 0 && fstat(fd, &now) == 0 && !S_ISREG(now.st_mode))
      return fd;
    if (fd >= 0)
      close(fd);
    else if (errno != ENOENT) {
      ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write: %s", g_strerror(errno));
      return -1;
    }
  }
  return ns_output_temp(path, 0, temp, error);
}

gboolean ns_output_commit(const char *temp, const char *path, GError **error)
{
  if (g_rename(temp, path) == 0)
    return TRUE;
  int e = errno;
  g_unlink(temp);
  ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write: %s", g_strerror(e));
  return FALSE;
}

gboolean ns_write_all(int fd, const char *buf, gsize len)
{
  gsize done = 0;
  while (done < len) { /* one write(2) in practice; loops only if the kernel splits it */
    ssize_t w = write(fd, buf + done, len - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      if (w == 0)
        errno = EIO;
      return FALSE;
    }
    done += (gsize)w;
  }
  return TRUE;
}

gboolean ns_output_write_in(const char *dir, const char *name, const char *text, gssize len,
                            GError **error)
{
  g_autofree char *path = g_build_filename(dir, name, NULL);
  GError *io = NULL;
  if (g_file_set_contents(path, text, len, &io))
    return TRUE;
  ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write: %s", io->message);
  g_error_free(io);
  return FALSE;
}
