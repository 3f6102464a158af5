/* netsched — the files smpirun reads: a platform and a hostfile, written
 * safely into a directory (see smpi_files.h). Shared by the SMPI baselines
 * (smpi_baseline.c), the trace export (export_trace.c) and the generated
 * routines under smpirun (smpi_routine.c). */
#include "sim/smpi_files.h"
#include "sim/sim.h"
#include "platforms/io/output_file_internal.h"
#include "platforms/model/error.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

/* Writes NAME in dir through a temporary file renamed into place, the
 * contents by `write`. */
typedef gboolean (*PlatformWriter)(FILE *f, const void *data, GError **error);

static gboolean write_through(const char *dir, const char *name, PlatformWriter write,
                              const void *data, GError **error)
{
  g_autofree char *path = g_build_filename(dir, name, NULL);
  g_autofree char *temp = NULL;
  int fd = ns_output_temp(path, 0, &temp, error);
  if (fd < 0)
    return FALSE;
  FILE *f = fdopen(fd, "w");
  if (f == NULL) {
    close(fd);
    g_unlink(temp);
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: cannot write: %s", path, g_strerror(errno));
    return FALSE;
  }
  gboolean ok = write(f, data, error);
  if (fclose(f) != 0 && ok) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: cannot write: %s", path, g_strerror(errno));
    ok = FALSE;
  }
  if (!ok) {
    g_unlink(temp);
    return FALSE;
  }
  return ns_output_commit(temp, path, error);
}

typedef struct {
  const NsTopology *topo;
  const NsSimGridExport *exp;
  const NsSchedule *s;
} PlatformOf;

static gboolean write_export(FILE *f, const void *data, GError **error)
{
  const PlatformOf *p = data;
  return ns_topology_write_simgrid_with(p->topo, p->exp, f, error);
}

static gboolean write_schedule_platform(FILE *f, const void *data, GError **error)
{
  const PlatformOf *p = data;
  return ns_sim_write_platform(p->topo, p->s, f, error);
}

gboolean ns_smpi_write_platform(const char *dir, const char *name, const NsTopology *topo,
                                const NsSimGridExport *exp, GError **error)
{
  PlatformOf p = { .topo = topo, .exp = exp };
  return write_through(dir, name, write_export, &p, error);
}

gboolean ns_smpi_write_schedule_platform(const char *dir, const char *name,
                                         const NsTopology *topo, const NsSchedule *s,
                                         GError **error)
{
  PlatformOf p = { .topo = topo, .s = s };
  return write_through(dir, name, write_schedule_platform, &p, error);
}

gboolean ns_smpi_write_hostfile(const char *dir, const char *name, const char *const *hosts,
                                int n, GError **error)
{
  g_autoptr(GString) text = g_string_new(NULL);
  for (int m = 0; m < n; m++) {
    const char *h = hosts[m];
    for (const char *c = h; *c != '\0'; c++)
      if (*c == ':' || g_ascii_isspace(*c) || g_ascii_iscntrl(*c)) {
        g_autofree char *shown = g_strescape(h, NULL);
        ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                        "machine '%s' cannot be named in an SMPI hostfile (no ':', blanks or "
                        "control characters)", shown);
        return FALSE;
      }
    g_string_append_printf(text, "%s\n", h);
  }
  return ns_output_write_in(dir, name, text->str, (gssize)text->len, error);
}
