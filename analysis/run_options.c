/* netsched — the options every long run shares (run_options.h). */
#include "analysis/run_options_internal.h"
#include "analysis/outdir_internal.h"
#include "platforms/model/error.h"
#include <math.h>

/* ---- progress --------------------------------------------------------------- */

void ns_progress_args_add(GOptionContext *ctx, NsProgressArgs *a)
{
  GOptionEntry entries[] = {
    { "progress", 0, 0, G_OPTION_ARG_STRING, &a->mode,
      "Progress on stderr: auto (a line redrawn on a terminal, else lines), bar, lines "
      "(a plain line every --progress-interval) or none", "auto|bar|lines|none" },
    { "progress-interval", 0, 0, G_OPTION_ARG_DOUBLE, &a->interval,
      "Seconds between progress lines (default 10)", "S" },
    { NULL },
  };
  g_option_context_add_main_entries(ctx, entries, NULL);
}

void ns_progress_args_clear(NsProgressArgs *a)
{
  g_free(a->mode);
  a->mode = NULL;
}

gboolean ns_progress_args_reporter(const NsProgressArgs *a, FILE *stream, const char *what,
                                   const char *unit, NsProgress **reporter, GError **error)
{
  NsProgressMode mode = NS_PROGRESS_AUTO;
  *reporter = NULL;
  if (a->mode != NULL && !ns_progress_mode_parse(a->mode, &mode, error))
    return FALSE;
  if (a->interval < 0 || !isfinite(a->interval)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "--progress-interval %g: expected a number of seconds > 0", a->interval);
    return FALSE;
  }
  *reporter = ns_progress_new(stream, mode, a->interval, what, unit);
  return TRUE;
}

/* ---- output directories ---------------------------------------------------------- */

void ns_outdir_args_add(GOptionContext *ctx, NsOutdirArgs *a, gboolean restart)
{
  GOptionEntry entries[] = {
    { "resume", 0, 0, G_OPTION_ARG_NONE, &a->resume,
      "Keep the results already in the output directory (same configuration only) and run "
      "the rest", NULL },
    { "overwrite", 0, 0, G_OPTION_ARG_NONE, &a->overwrite,
      "Start the results in the output directory over (default: refuse a directory "
      "holding results)", NULL },
    { "restart", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &a->restart,
      "Deprecated: --overwrite", NULL },
    { NULL },
  };
  if (!restart)
    entries[2] = (GOptionEntry){ NULL };
  g_option_context_add_main_entries(ctx, entries, NULL);
}

gboolean ns_outdir_args_apply(const NsOutdirArgs *a, const char *dir, const char *const *results,
                              gboolean *resume, GError **error)
{
  NsOutdirMode mode;
  return ns_outdir_mode(a->resume, a->overwrite || a->restart, &mode, error) &&
         ns_outdir_policy(dir, results, mode, resume, error);
}
