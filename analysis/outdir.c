/* netsched — the output-directory policy of compare, design, scenario and
 * sweep (see outdir_internal.h). */
#include "analysis/outdir_internal.h"
#include "platforms/model/error.h"
#include <string.h>

gboolean ns_outdir_mode(gboolean resume, gboolean overwrite, NsOutdirMode *mode, GError **error)
{
  if (resume && overwrite) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "--resume and --overwrite: give one (continue the results there, or "
                    "start them over)");
    return FALSE;
  }
  *mode = resume ? NS_OUTDIR_RESUME : overwrite ? NS_OUTDIR_OVERWRITE : NS_OUTDIR_NEW;
  return TRUE;
}

/* The first entry of `dir` matching `pattern` ("NAME" or "DIR/NAME"
 * patterns) that is a regular file: its path relative to `dir`, newly
 * allocated, or NULL. */
static char *find_result(const char *dir, const char *pattern)
{
  const char *slash = strchr(pattern, '/');
  g_autofree char *head = slash ? g_strndup(pattern, (gsize)(slash - pattern)) : g_strdup(pattern);
  g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
  if (d == NULL)
    return NULL;
  const char *name;
  while ((name = g_dir_read_name(d)) != NULL) {
    if (!g_pattern_match_simple(head, name))
      continue;
    g_autofree char *path = g_build_filename(dir, name, NULL);
    if (slash == NULL) {
      if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
        return g_strdup(name);
    } else if (g_file_test(path, G_FILE_TEST_IS_DIR) && strchr(slash + 1, '/') == NULL) {
      g_autofree char *inner = find_result(path, slash + 1);
      if (inner != NULL)
        return g_build_filename(name, inner, NULL);
    }
  }
  return NULL;
}

gboolean ns_outdir_policy(const char *dir, const char *const *results, NsOutdirMode mode,
                          gboolean *resume, GError **error)
{
  *resume = mode == NS_OUTDIR_RESUME;
  if (mode != NS_OUTDIR_NEW)
    return TRUE;
  for (int i = 0; results[i] != NULL; i++) {
    g_autofree char *found = find_result(dir, results[i]);
    if (found != NULL) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "%s holds results of an earlier run (%s): add --resume to continue "
                      "them or --overwrite to start afresh",
                      dir, found);
      return FALSE;
    }
  }
  return TRUE;
}
