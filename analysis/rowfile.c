/* netsched — resumable result files. See rowfile_internal.h. */
#include "analysis/rowfile_internal.h"
#include "analysis/output_dir_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include "platforms/io/output_file_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct NsRowFile {
  char *path;
  int fd;
  NsOutputLock *lock;   /* spec->lock: this file's lock (analysis/output_dir_internal.h) */
  GHashTable *keys;     /* key -> GINT_TO_POINTER(line) */
};

char *ns_row_digest(const char *text)
{
  char *full = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
  full[16] = '\0';
  return full;
}

/* The whole file, through the descriptor opened without following a link
 * (not by name again). */
static gboolean read_all(NsRowFile *f, char **text, gsize *len, GError **error)
{
  GString *t = g_string_new(NULL);
  char buf[65536];
  for (off_t at = 0;;) {
    ssize_t n = pread(f->fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      ns_set_error_at(error, NS_ERROR_IO, f->path, 0, "cannot read: %s", g_strerror(errno));
      g_string_free(t, TRUE);
      return FALSE;
    }
    if (n == 0)
      break;
    g_string_append_len(t, buf, n);
    at += n;
  }
  *len = t->len;
  *text = g_string_free(t, FALSE);
  return TRUE;
}

/* Reads the rows of a resumed file; truncates a last line cut short. */
static gboolean load(NsRowFile *f, const NsRowFileSpec *spec, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!read_all(f, &text, &len, error))
    return FALSE;
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
    ns_warnf(spec->warn, spec->warn_data,
             "%s: the last row was cut short (interrupted run): dropped", f->path);
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

/* A resumed file: the file at `path` itself, created if missing, never a
 * link followed to another file. */
static int open_existing(const char *path, GError **error)
{
  int fd = g_open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0 && errno == ELOOP) {
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0,
                    "is a symbolic link: refused (netsched never writes through a link); "
                    "remove it");
    return -1;
  }
  if (fd < 0) {
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write: %s", g_strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "not a regular file: refused; remove it");
    close(fd);
    return -1;
  }
  return fd;
}

/* A file started over: a new file with its header, renamed over `path`
 * (replacing whatever is there, a link included). */
static int open_fresh(const char *path, const char *header, GError **error)
{
  g_autofree char *temp = NULL;
  int fd = ns_output_temp(path, O_APPEND, &temp, error);
  if (fd < 0)
    return -1;
  if (!ns_write_all(fd, header, strlen(header))) {
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write: %s", g_strerror(errno));
    close(fd);
    g_unlink(temp);
    return -1;
  }
  if (!ns_output_commit(temp, path, error)) {
    close(fd);
    return -1;
  }
  return fd;
}

NsRowFile *ns_row_file_open(const NsRowFileSpec *spec, GError **error)
{
  NsRowFile *f = g_new0(NsRowFile, 1);
  f->path = g_strdup(spec->path);
  f->fd = -1;
  f->keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  if (spec->lock) {
    g_autofree char *dir = g_path_get_dirname(f->path);
    g_autofree char *base = g_path_get_basename(f->path);
    if ((f->lock = ns_output_dir_lock(dir, base, error)) == NULL)
      goto fail;
  }
  if (!spec->resume) {
    if ((f->fd = open_fresh(f->path, spec->header, error)) < 0)
      goto fail;
    return f;
  }
  if ((f->fd = open_existing(f->path, error)) < 0 || !load(f, spec, error))
    goto fail;
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
  ns_output_dir_unlock(f->lock);
  g_hash_table_destroy(f->keys);
  g_free(f->path);
  g_free(f);
}
