/* netsched — gnuplot scripts and runs. See plot_internal.h. */
#include "analysis/plot_internal.h"
#include "analysis/stop_signal_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include "platforms/model/units.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The gnuplot variable that ns_plot_run sets to its private directory. */
#define OUTPUT_PREFIX "netsched_output_dir"

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

void ns_gnuplot_output(GString *script, const char *name)
{
  g_autofree char *quoted = ns_gnuplot_string(name);
  g_string_append_printf(script,
                         "set output (exists('" OUTPUT_PREFIX "') ? " OUTPUT_PREFIX " : '').%s\n",
                         quoted);
}

/* How many labels like "128KiB" fit side by side on the x axis: about
 * 550 px of a 900 px plot is left of the key, and a label with room
 * around it takes about 70 px (at 12 across, 64KiB … 512KiB touched). */
#define XTIC_LABELS_ACROSS 8.0

static int compare_sizes(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

void ns_gnuplot_size_xtics(GString *script, const uint64_t *sizes, guint n)
{
  g_autofree uint64_t *sorted = g_memdup2(sizes, sizeof(uint64_t) * n);
  qsort(sorted, n, sizeof(uint64_t), compare_sizes);
  double span = n > 0 ? log2((double)MAX(sorted[n - 1], 1)) - log2((double)MAX(sorted[0], 1)) : 0;
  double gap = span / XTIC_LABELS_ACROSS, last = 0;
  g_string_append(script, "set xtics (");
  for (guint k = 0; k < n; k++) {
    double at = log2((double)MAX(sorted[k], 1));
    gboolean labelled = k == 0 || (at - last >= gap && sorted[k] != sorted[k - 1]);
    g_autofree char *label = labelled ? ns_format_size(sorted[k]) : g_strdup("");
    g_autofree char *quoted = ns_gnuplot_string(label);
    g_string_append_printf(script, "%s%s %" G_GUINT64_FORMAT "%s", k ? ", " : "", quoted, sorted[k],
                           labelled ? "" : " 1");
    if (labelled)
      last = at;
  }
  g_string_append(script, ")\n");
}

/* An output gnuplot wrote whole: a regular file (not a link) that ends as
 * its format ends. gnuplot exits 0 even when a full disk cut it short. */
static const char *incomplete(const char *path)
{
  GStatBuf st;
  if (g_lstat(path, &st) != 0)
    return "gnuplot did not write it";
  if (!S_ISREG(st.st_mode))
    return "not a regular file";
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents(path, &text, &len, NULL) || len == 0)
    return "empty (is the disk full?)";
  if (g_str_has_suffix(path, ".svg")) {
    while (len > 0 && g_ascii_isspace(text[len - 1]))
      len--;
    if (len < 6 || memcmp(text + len - 6, "</svg>", 6) != 0)
      return "cut short: it does not end with </svg> (is the disk full?)";
  } else if (g_str_has_suffix(path, ".png")) {
    static const char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', '\xae', 'B', '`', '\x82' };
    if (len < 12 || memcmp(text + len - 12, iend, 12) != 0)
      return "cut short: it does not end with the PNG IEND chunk (is the disk full?)";
  }
  return NULL;
}

/* Removes the private directory with whatever gnuplot left in it (a
 * script may set other outputs than the caller listed). */
static void remove_private(const char *private_dir)
{
  GDir *d = g_dir_open(private_dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
    g_autofree char *p = g_build_filename(private_dir, name, NULL);
    g_unlink(p);
  }
  if (d != NULL)
    g_dir_close(d);
  g_rmdir(private_dir);
}

/* gnuplot in `dir`, its outputs under `prefix` (the private directory). */
static gboolean spawn(const char *dir, const char *script, const char *prefix, char **why,
                      GError **error)
{
  g_autofree char *quoted = ns_gnuplot_string(prefix);
  g_autofree char *set = g_strdup_printf(OUTPUT_PREFIX " = %s", quoted);
  const char *argv[] = { "gnuplot", "-e", set, script, NULL };
  int status = 0;
  g_autofree char *err = NULL;
  GError *spawn_error = NULL;
  if (!g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                    NULL, NULL, NULL, &err, &status, &spawn_error)) {
    *why = g_strdup_printf("cannot run gnuplot (%s; is it installed?)", spawn_error->message);
    g_error_free(spawn_error);
    return FALSE;
  }
  if (!g_spawn_check_wait_status(status, NULL)) {
    g_autofree char *path = g_build_filename(dir, script, NULL);
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "gnuplot failed: %s",
                    err != NULL && *err ? g_strstrip(err) : "no message");
    return FALSE;
  }
  return TRUE;
}

/* Private directories of runs killed (SIGKILL) while gnuplot ran: the
 * caller holds the directory's lock, so no live run owns one. */
static void remove_stale(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  if (d == NULL)
    return;
  const char *name;
  while ((name = g_dir_read_name(d)) != NULL) {
    if (!g_str_has_prefix(name, ".plot-") || strlen(name) != 12)
      continue;
    g_autofree char *p = g_build_filename(dir, name, NULL);
    GStatBuf st;
    if (g_lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
      remove_private(p);
  }
  g_dir_close(d);
}

gboolean ns_plot_run(const char *dir, const char *script, const char *const *outputs,
                     char **why, GError **error)
{
  *why = NULL;
  remove_stale(dir);
  g_autofree char *private_dir = g_build_filename(dir, ".plot-XXXXXX", NULL);
  if (g_mkdtemp(private_dir) == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, dir, 0, "cannot create a directory for the plot: %s",
                    g_strerror(errno));
    return FALSE;
  }
  /* Held, not lost: a signal arriving now is delivered once the private
   * directory is gone (gnuplot itself gets a terminal's SIGINT anyway). */
  sigset_t held, old;
  ns_stop_signal_set(&held);
  pthread_sigmask(SIG_BLOCK, &held, &old);
  g_autofree char *base = g_path_get_basename(private_dir);
  g_autofree char *prefix = g_strdup_printf("%s/", base);
  gboolean ok = spawn(dir, script, prefix, why, error);
  for (int i = 0; ok && outputs[i] != NULL; i++) {
    g_autofree char *p = g_build_filename(private_dir, outputs[i], NULL);
    const char *what = incomplete(p);
    if (what != NULL) {
      g_autofree char *final = g_build_filename(dir, outputs[i], NULL);
      ns_set_error_at(error, NS_ERROR_IO, final, 0, "plot not written: %s", what);
      ok = FALSE;
    }
  }
  for (int i = 0; ok && outputs[i] != NULL; i++) {
    g_autofree char *from = g_build_filename(private_dir, outputs[i], NULL);
    g_autofree char *to = g_build_filename(dir, outputs[i], NULL);
    if (g_rename(from, to) != 0) {
      ns_set_error_at(error, NS_ERROR_IO, to, 0, "cannot write: %s", g_strerror(errno));
      ok = FALSE;
    }
  }
  remove_private(private_dir);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return ok;
}

void ns_plot_warn_none(NsWarnFunc warn, void *warn_data, const char *what, const char *why,
                       const char *dir)
{
  ns_warnf(warn, warn_data, "no plot%s%s (%s); the data and script are in %s",
           what != NULL ? " " : "", what != NULL ? what : "", why, dir);
}
