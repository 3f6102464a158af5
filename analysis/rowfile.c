/* netsched — resumable result files. See rowfile.h. */
#include "analysis/rowfile.h"
#include "platforms/error.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

struct NsRowFile {
  char *path;
  int fd;
  GHashTable *keys;     /* key -> GINT_TO_POINTER(line) */
};

char *ns_row_digest(const char *text)
{
  char *full = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
  full[16] = '\0';
  return full;
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

/* Reads the rows of a resumed file; truncates a last line cut short. */
static gboolean load(NsRowFile *f, const NsRowFileSpec *spec, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  GError *io = NULL;
  if (!g_file_get_contents(f->path, &text, &len, &io)) {
    ns_set_error_at(error, NS_ERROR_IO, f->path, 0, "cannot read: %s", io->message);
    g_error_free(io);
    return FALSE;
  }
  if (len == 0)
    return TRUE;
  char *first_end = strchr(text, '\n');
  gsize header_len = first_end != NULL ? (gsize)(first_end - text) + 1 : len;
  if (spec->header_check != NULL) {
    g_autofree char *first = g_strndup(text, first_end != NULL ? header_len - 1 : len);
    if (!spec->header_check(first, spec->user, error))
      return FALSE;
  } else if (!g_str_has_prefix(text, spec->header)) {
    ns_set_error_at(error, NS_ERROR_INPUT, f->path, 1, "%s", spec->header_hint);
    return FALSE;
  } else {
    header_len = strlen(spec->header);
  }
  gsize complete = len;
  while (complete > 0 && text[complete - 1] != '\n')
    complete--;
  if (complete < len) {
    fprintf(stderr, "warning: %s: the last row was cut short (interrupted run): dropped\n",
            f->path);
    if (ftruncate(f->fd, (off_t)complete) != 0) {
      ns_set_error_at(error, NS_ERROR_IO, f->path, 0, "cannot truncate: %s", g_strerror(errno));
      return FALSE;
    }
    text[complete] = '\0';
  }
  if (spec->row == NULL || complete < header_len)
    return TRUE;
  /* Rows start after the header's line(s). */
  int lineno = 1;
  for (gsize i = 0; i < header_len; i++)
    lineno += text[i] == '\n';
  char *line = text + header_len;
  while (*line != '\0') {
    char *end = strchr(line, '\n'); /* every line is complete now */
    *end = '\0';
    if (*line != '\0') {
      char *key = NULL;
      if (!spec->row(line, lineno, &key, spec->user, error))
        return FALSE;
      if (key != NULL) {
        gpointer first = g_hash_table_lookup(f->keys, key);
        if (first != NULL && spec->unique_keys) {
          ns_set_error_at(error, NS_ERROR_INPUT, f->path, lineno,
                          "the row of key %s is here a second time (first at line %d): "
                          "remove one of them",
                          key, GPOINTER_TO_INT(first));
          g_free(key);
          return FALSE;
        }
        if (first == NULL)
          g_hash_table_insert(f->keys, key, GINT_TO_POINTER(lineno));
        else
          g_free(key);
      }
    }
    lineno++;
    line = end + 1;
  }
  return TRUE;
}

NsRowFile *ns_row_file_open(const NsRowFileSpec *spec, GError **error)
{
  NsRowFile *f = g_new0(NsRowFile, 1);
  f->path = g_strdup(spec->path);
  f->keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  f->fd = g_open(f->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (f->fd < 0) {
    ns_set_error_at(error, NS_ERROR_IO, f->path, 0, "cannot write: %s", g_strerror(errno));
    goto fail;
  }
  if (spec->lock && flock(f->fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK)
      ns_set_error_at(error, NS_ERROR_IO, f->path, 0,
                      "another run is writing this file (locked): wait for it, or choose "
                      "another output");
    else
      ns_set_error_at(error, NS_ERROR_IO, f->path, 0, "cannot lock: %s", g_strerror(errno));
    goto fail;
  }
  if (spec->resume) {
    if (!load(f, spec, error))
      goto fail;
  } else if (ftruncate(f->fd, 0) != 0) {
    ns_set_error_at(error, NS_ERROR_IO, f->path, 0, "cannot truncate: %s", g_strerror(errno));
    goto fail;
  }
  if (lseek(f->fd, 0, SEEK_END) == 0 && !ns_write_all(f->fd, spec->header, strlen(spec->header))) {
    ns_set_error_at(error, NS_ERROR_IO, f->path, 0, "cannot write: %s", g_strerror(errno));
    goto fail;
  }
  return f;
fail:
  ns_row_file_close(f);
  return NULL;
}

gboolean ns_row_file_has(const NsRowFile *f, const char *key)
{
  return g_hash_table_contains(f->keys, key);
}

guint ns_row_file_n_keys(const NsRowFile *f) { return g_hash_table_size(f->keys); }

gboolean ns_row_file_append(NsRowFile *f, const char *key, const char *row, gsize len,
                            GError **error)
{
  if (!ns_write_all(f->fd, row, len)) {
    ns_set_error_at(error, NS_ERROR_IO, f->path, 0, "cannot write: %s", g_strerror(errno));
    return FALSE;
  }
  if (key != NULL && !g_hash_table_contains(f->keys, key))
    g_hash_table_insert(f->keys, g_strdup(key), GINT_TO_POINTER(-1));
  return TRUE;
}

void ns_row_file_close(NsRowFile *f)
{
  if (f == NULL)
    return;
  if (f->fd >= 0)
    close(f->fd);
  g_hash_table_destroy(f->keys);
  g_free(f->path);
  g_free(f);
}
