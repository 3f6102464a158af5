/* netsched — a tuned parameter ("barriers=4", "segment=8192") as the
 * planning parameters and sync scheme that plan and replay it
 * (tune_spec_internal.h; Faraj's dissertation §4.1.1.3). */
#include "analysis/tune_spec_internal.h"
#include "platforms/model/error.h"

gboolean ns_tune_params_apply(const char *params, int n_machines, NsPlanParams *pp, char **sync,
                              GError **error)
{
  *sync = NULL;
  if (params == NULL || *params == '\0')
    return TRUE;
  const char *v;
  char *end = NULL;
  if ((v = g_str_has_prefix(params, "segment=") ? params + 8 : NULL) != NULL) {
    uint64_t seg = g_ascii_strtoull(v, &end, 10);
    if (end != v && *end == '\0' && seg > 0) {
      pp->segment = seg;
      return TRUE;
    }
  } else if ((v = g_str_has_prefix(params, "barriers=") ? params + 9 : NULL) != NULL) {
    gint64 n = g_ascii_strtoll(v, &end, 10);
    /* the smallest block size whose blocks of the p − 1 phases need n
     * barriers: the most even split (15 phases, 2 barriers: 5+5+5, not 7+7+1) */
    int phases = n_machines - 1;
    for (int bs = 1; end != v && *end == '\0' && n >= 1 && bs <= phases; bs++)
      if ((phases + bs - 1) / bs - 1 == n) {
        *sync = g_strdup_printf("barrier-partial-none:%d", bs);
        return TRUE;
      }
  }
  g_autofree char *shown = g_strescape(params, NULL);
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "parameter '%s' is not segment=BYTES or barriers=N (N barriers splitting the "
                  "%d phases into blocks of equal size)",
                  shown, n_machines - 1);
  return FALSE;
}
