/* netsched — the options every long command shares, one spelling each:
 * --progress and --progress-interval (the reporter of analysis/progress_internal.h
 * on stderr), --resume and --overwrite (the output-directory policy of
 * analysis/outdir_internal.h), and repeatable list options. */
#include "analysis/outdir_internal.h"
#include "cli/cli.h"
#include "platforms/model/error.h"
#include <math.h>
#include <string.h>

/* ---- progress --------------------------------------------------------------- */

void ns_cli_progress_init(NsCliProgress *p)
{
  p->reporter = ns_progress_new(stderr, NS_PROGRESS_AUTO, 0, "", NULL);
}

void ns_cli_progress_show(NsCliProgress *p, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *text = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  ns_progress_detail(p->reporter, 0, "%s", text);
}

void ns_cli_progress_end(NsCliProgress *p)
{
  ns_progress_free(p->reporter);
  p->reporter = NULL;
}

void ns_cli_add_progress_options(GOptionContext *ctx, NsCliProgressArgs *a)
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

void ns_cli_progress_args_clear(NsCliProgressArgs *a)
{
  g_free(a->mode);
  a->mode = NULL;
}

gboolean ns_cli_progress_new(const NsCliProgressArgs *a, const char *what, const char *unit,
                             NsProgress **reporter, GError **error)
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
  *reporter = ns_progress_new(stderr, mode, a->interval, what, unit);
  return TRUE;
}

/* ---- output directories ---------------------------------------------------------- */

void ns_cli_add_outdir_options(GOptionContext *ctx, NsCliOutdirArgs *a, gboolean restart)
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

gboolean ns_cli_outdir(const NsCliOutdirArgs *a, const char *dir, const char *const *results,
                       gboolean *resume, GError **error)
{
  if (a->restart)
    fprintf(stderr, "note: --restart is deprecated: it is --overwrite now\n");
  NsOutdirMode mode;
  return ns_outdir_mode(a->resume, a->overwrite || a->restart, &mode, error) &&
         ns_outdir_policy(dir, results, mode, resume, error);
}

gboolean ns_cli_option_slot(const char *option, const char *value, gpointer data,
                            GError **error)
{
  for (const NsCliSlot *t = data; t->names != NULL; t++) {
    g_auto(GStrv) names = g_strsplit(t->names, " ", -1);
    if (!g_strv_contains((const char *const *)names, option))
      continue;
    if (t->kind == NS_CLI_ONCE)
      return ns_cli_option_once(option, value, t->slot, error);
    if (t->kind == NS_CLI_ARRAY) {
      g_ptr_array_add(t->slot, g_strdup(value));
      return TRUE;
    }
    char **slot = t->slot;
    char *joined = *slot != NULL ? g_strconcat(*slot, ",", value, NULL) : g_strdup(value);
    g_free(*slot);
    *slot = joined;
    return TRUE;
  }
  g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "%s: no slot (a netsched bug)",
              option);
  return FALSE;
}
