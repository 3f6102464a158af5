/* netsched — outputs written whole or not at all (see cli.h).
 *
 * A device or pipe that exists (/dev/null, a FIFO) is written directly:
 * there is nothing to replace atomically, and a rename would replace the
 * device itself. Every other output is a temporary file "PATH.XXXXXX" in the destination's
 * directory (platforms/io/output_file_internal.h: the final rename is atomic on one file
 * system and replaces a link at PATH instead of writing through it). Its name
 * is among the files a stop signal removes (ns_stop_remove_add): on
 * SIGINT, SIGTERM or SIGHUP the temporary files are unlinked and the
 * signal raised again with its default action. */
#include "cli/cli.h"
#include "platforms/model/error.h"
#include <json-glib/json-glib.h>
#include "platforms/io/output_file_internal.h"
#include "analysis/stop_signal_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define MAX_OPEN 16

typedef struct {
  FILE *file;
  char *temp;
  int removal; /* its slot among the files a stop signal removes */
} Pending;

static Pending pending[MAX_OPEN];

static Pending *slot_of(FILE *f)
{
  for (int i = 0; i < MAX_OPEN; i++)
    if (pending[i].file == f && f != NULL)
      return &pending[i];
  return NULL;
}

FILE *ns_cli_open_output(const char *path, GError **error)
{
  if (path == NULL || strcmp(path, "-") == 0)
    return stdout;
  Pending *slot = slot_of(NULL);
  for (int i = 0; i < MAX_OPEN && slot == NULL; i++)
    if (pending[i].file == NULL)
      slot = &pending[i];
  if (slot == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "too many outputs open at once");
    return NULL;
  }
  char *temp = NULL;
  int fd = ns_output_open(path, &temp, error);
  if (fd < 0)
    return NULL;
  FILE *f = fdopen(fd, "w");
  if (f == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot write: %s", g_strerror(errno));
    close(fd);
    if (temp != NULL)
      g_unlink(temp);
    g_free(temp);
    return NULL;
  }
  if (temp == NULL) /* a device or pipe, written directly */
    return f;
  if ((slot->removal = ns_stop_remove_add(temp)) < 0) {
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "too many outputs open at once");
    fclose(f);
    g_unlink(temp);
    g_free(temp);
    return NULL;
  }
  slot->temp = temp;
  slot->file = f;
  return f;
}

static void release(Pending *slot)
{
  ns_stop_remove_drop(slot->removal);
  g_clear_pointer(&slot->temp, g_free);
  slot->file = NULL;
}

void ns_cli_abort_output(FILE *f)
{
  Pending *slot = slot_of(f);
  if (slot == NULL) { /* stdout, or a device written directly */
    if (f != NULL && f != stdout)
      fclose(f);
    return;
  }
  fclose(f);
  g_unlink(slot->temp);
  release(slot);
}

gboolean ns_cli_close_output(FILE *f, const char *path, GError **error)
{
  gboolean ok = fflush(f) == 0 && !ferror(f);
  int saved = errno;
  Pending *slot = slot_of(f);
  if (slot == NULL) { /* stdout, or a device written directly */
    if (f != stdout)
      ok = fclose(f) == 0 && ok;
    if (!ok)
      ns_set_error_at(error, NS_ERROR_IO, f == stdout ? "<stdout>" : path, 0, "write failed: %s",
                      g_strerror(errno ? errno : saved));
    return ok;
  }
  ok = fclose(f) == 0 && ok;
  saved = ok ? 0 : (errno ? errno : saved);
  if (!ok) {
    g_unlink(slot->temp);
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "write failed: %s", g_strerror(saved));
  } else {
    ok = ns_output_commit(slot->temp, path, error);
  }
  release(slot);
  return ok;
}

/* The members every `bound --json` document starts with (cli.h). */
void ns_cli_bound_json_head(JsonBuilder *j, const NsTopology *t, const char *collective,
                            uint64_t msize)
{
  json_builder_set_member_name(j, "format");
  json_builder_add_string_value(j, "netsched-bound");
  json_builder_set_member_name(j, "version");
  json_builder_add_int_value(j, 2);
  json_builder_set_member_name(j, "collective");
  json_builder_add_string_value(j, collective);
  json_builder_set_member_name(j, "topology");
  json_builder_add_string_value(j, ns_topology_source(t));
  json_builder_set_member_name(j, "machines");
  json_builder_add_int_value(j, ns_topology_n_machines(t));
  json_builder_set_member_name(j, "msize_bytes");
  json_builder_add_int_value(j, (gint64)msize);
}
