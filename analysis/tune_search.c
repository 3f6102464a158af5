/* netsched — STAGE-MPI's size search (see tune_search_internal.h;
 * Faraj's dissertation §4.1.1.4). */
#include "analysis/tune_search_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"

/* The argmin over the candidates at `msize`; G_MAXUINT when none applies. */
static gboolean best_at_size(guint n, uint64_t msize, NsTuneTimeFunc measure, void *user,
                             guint *best, GError **error)
{
  double best_t = 0;
  *best = G_MAXUINT;
  for (guint c = 0; c < n; c++) {
    double t;
    if (!measure(c, msize, &t, user, error))
      return FALSE;
    if (t >= 0 && (*best == G_MAXUINT || t < best_t)) {
      *best = c;
      best_t = t;
    }
  }
  return TRUE;
}

/* The first size in (lo, hi] where `b` beats `a`: `a` is best at lo, `b`
 * at hi. A candidate that does not apply at a size loses there. */
static gboolean crossing(guint a, guint b, uint64_t lo, uint64_t hi, NsTuneTimeFunc measure,
                         void *user, uint64_t *at, GError **error)
{
  while (hi - lo > 1) {
    uint64_t mid = lo + (hi - lo) / 2;
    double ta, tb;
    if (!measure(a, mid, &ta, user, error) || !measure(b, mid, &tb, user, error))
      return FALSE;
    gboolean a_wins = ta >= 0 && (tb < 0 || ta <= tb);
    if (a_wins)
      lo = mid;
    else
      hi = mid;
  }
  *at = hi;
  return TRUE;
}

gboolean ns_tune_search(guint n_candidates, const uint64_t *sizes, guint n_sizes,
                        NsTuneTimeFunc measure, void *user, GArray *switches, guint *best_at,
                        GError **error)
{
  g_autofree guint *best = g_new(guint, MAX(n_sizes, 1));
  /* Step 1: the linear search at every fixed size. */
  for (guint k = 0; k < n_sizes; k++) {
    if (!best_at_size(n_candidates, sizes[k], measure, user, &best[k], error))
      return FALSE;
    if (best_at != NULL)
      best_at[k] = best[k];
  }
  /* Step 2: a binary search between adjacent sizes whose best differs. */
  gint prev = -1;
  for (guint k = 0; k < n_sizes; k++) {
    if (best[k] == G_MAXUINT)
      continue;
    if (prev < 0) {
      NsTuneSwitch first = { 0, best[k] };
      g_array_append_val(switches, first);
    } else if (best[k] != best[prev]) {
      NsTuneSwitch sw = { 0, best[k] };
      if (!crossing(best[prev], best[k], sizes[prev], sizes[k], measure, user, &sw.from_bytes,
                    error))
        return FALSE;
      g_array_append_val(switches, sw);
    }
    prev = (gint)k;
  }
  if (prev < 0) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "no candidate applies at any of the %u message sizes", n_sizes);
    return FALSE;
  }
  return TRUE;
}

guint ns_tune_switch_lookup(const GArray *switches, uint64_t msize)
{
  guint c = g_array_index(switches, NsTuneSwitch, 0).candidate;
  for (guint i = 1; i < switches->len; i++)
    if (g_array_index(switches, NsTuneSwitch, i).from_bytes <= msize)
      c = g_array_index(switches, NsTuneSwitch, i).candidate;
  return c;
}
