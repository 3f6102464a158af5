/* netsched — SMPI's tools run in a private directory (see smpi_tool.h). */
#include "sim/smpi_tool.h"
#include "platforms/model/error.h"
#include "sim/child.h"
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* Runs argv in dir; FALSE with an error quoting the child's last message
 * when it cannot start, fails or is stopped. */
gboolean ns_smpi_run_tool(const char *const *argv, const char *dir, double wall_limit,
                          GString *out, GError **error)
{
  g_autoptr(GString) err = g_string_new(NULL);
  int status = 0;
  if (!ns_child_run(argv, dir, wall_limit, out, err, &status, error))
    return FALSE;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return TRUE;
  g_strstrip(err->str);
  const char *last = strrchr(err->str, '\n');
  g_autofree char *said = g_strescape(last != NULL ? last + 1 : err->str, NULL);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && g_str_has_prefix(err->str, "cannot run"))
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "%s (SMPI runs need smpicc and smpirun: Debian's libsimgrid-dev)",
                    said);
  else
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s failed (status %d): %s", argv[0],
                    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), said);
  return FALSE;
}

/* "rank R start S end E" from every rank: the last end minus the first start. */
gboolean ns_smpi_parse_times(const char *out, int p, double *completion, GError **error)
{
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  double first = G_MAXDOUBLE, last = -G_MAXDOUBLE;
  int seen = 0;
  for (int i = 0; lines[i] != NULL; i++) {
    int r;
    double s, e;
    if (sscanf(lines[i], "rank %d start %lf end %lf", &r, &s, &e) != 3 || r < 0 || r >= p)
      continue;
    seen++;
    first = MIN(first, s);
    last = MAX(last, e);
  }
  if (seen != p || !(last >= first)) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "smpirun reported the times of %d of %d ranks", seen, p);
    return FALSE;
  }
  *completion = last - first;
  return TRUE;
}

void ns_smpi_model_args(GPtrArray *argv, const NsSimOptions *opt)
{
  /* A calibration: the replay's own SMPI settings (sim.c, model_args). */
  if (opt->lat_factor != NULL)
    g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/lat-factor:%s", opt->lat_factor));
  if (opt->bw_factor != NULL)
    g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/bw-factor:%s", opt->bw_factor));
  if (opt->lat_factor != NULL || opt->bw_factor != NULL) {
    g_ptr_array_add(argv, g_strdup("--cfg=network/TCP-gamma:0"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/crosstraffic:0"));
  }
}
