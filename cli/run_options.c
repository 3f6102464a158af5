/* netsched — the options every long command shares, one spelling each:
 * --progress and --progress-interval (the reporter of analysis/progress_internal.h
 * on stderr), --resume and --overwrite (the output-directory policy of
 * analysis/outdir_internal.h), and repeatable list options. */
#include "analysis/outdir_internal.h"
#include "cli/cli.h"
#include "platforms/model/error.h"
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

/* ---- -j --------------------------------------------------------------------- */

gboolean ns_cli_jobs(int given, int *jobs, GError **error)
{
  if (given < 0 || given > 4096) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "-j %d: expected 1 to 4096 jobs", given);
    return FALSE;
  }
  *jobs = given > 0 ? given : (int)MIN(g_get_num_processors(), 4096u);
  return TRUE;
}
