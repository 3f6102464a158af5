/* netsched — gnuplot scripts and runs. See plot.h. */
#include "analysis/plot.h"

char *ns_gnuplot_string(const char *text)
{
  GString *out = g_string_new("'");
  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++) {
    if (*p == '\'')
      g_string_append(out, "''");
    else if ((unsigned char)*p < 0x20 || *p == 0x7f)
      g_string_append_c(out, '?');
    else
      g_string_append_c(out, *p);
  }
  g_string_append_c(out, '\'');
  return g_string_free(out, FALSE);
}

gboolean ns_plot_run(const char *dir, const char *script, char **why)
{
  const char *argv[] = { "gnuplot", script, NULL };
  int status = 0;
  g_autofree char *err = NULL;
  GError *error = NULL;
  if (!g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                    NULL, NULL, NULL, &err, &status, &error)) {
    *why = g_strdup_printf("cannot run gnuplot (%s; is it installed?)", error->message);
    g_error_free(error);
    return FALSE;
  }
  if (!g_spawn_check_wait_status(status, NULL)) {
    *why = g_strdup_printf("gnuplot failed: %s", err != NULL && *err ? g_strstrip(err) : "?");
    return FALSE;
  }
  return TRUE;
}
