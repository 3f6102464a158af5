/* netsched — the verifier's partial results of a reduction. See
 * reduction_state_internal.h. */
#include "sched/verify/reduction_state_internal.h"
#include "platforms/model/error.h"
#include "sched/ir/schedule.h"
#include <string.h>

static inline uint64_t *set_of(const NsReductionState *rs, int m, uint32_t c)
{
  return rs->sets + ((uint64_t)m * rs->n_segments + c) * rs->words;
}

gboolean ns_reduction_state_init(NsReductionState *rs, int p, uint32_t n_segments,
                                 GError **error)
{
  *rs = (NsReductionState){ .p = p, .n_segments = n_segments,
                            .words = ((uint64_t)p + 63) / 64 };
  /* in doubles: p · segments · words · 8 overflows 64 bits for a file
   * declaring 2^31 segments on 65,536 machines */
  double bytes = (double)p * (double)n_segments * (double)rs->words * 8.0;
  if (bytes > (double)NS_REDUCTION_MAX_BYTES) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "verifying a reduction of %u segment%s on %d machines needs %.0f MiB of "
                "partial-result sets, above the limit of %" G_GUINT64_FORMAT " MiB (fewer "
                "segments or machines)",
                n_segments, n_segments == 1 ? "" : "s", p, bytes / (1 << 20),
                NS_REDUCTION_MAX_BYTES >> 20);
    return FALSE;
  }
  uint64_t n_words = (uint64_t)p * n_segments * rs->words;
  rs->sets = g_new0(uint64_t, MAX(n_words, 1));
  for (int m = 0; m < p; m++)
    for (uint32_t c = 0; c < n_segments; c++)
      set_of(rs, m, c)[m / 64] = (uint64_t)1 << (m % 64);
  rs->staged = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  return TRUE;
}

void ns_reduction_state_clear(NsReductionState *rs)
{
  g_free(rs->sets);
  g_free(rs->raw);
  if (rs->staged != NULL)
    g_array_unref(rs->staged);
  *rs = (NsReductionState){ 0 };
}

void ns_reduction_stage_begin(NsReductionState *rs)
{
  g_array_set_size(rs->staged, 0);
}

uint64_t ns_reduction_stage(NsReductionState *rs, int m, uint32_t c)
{
  uint64_t k = rs->staged->len / rs->words;
  g_array_append_vals(rs->staged, set_of(rs, m, c), (guint)rs->words);
  return k;
}

int ns_reduction_apply(NsReductionState *rs, uint64_t k, int m, uint32_t c, gboolean combine)
{
  const uint64_t *in = &g_array_index(rs->staged, uint64_t, k * rs->words);
  uint64_t *mine = set_of(rs, m, c);
  if (!combine) {
    memcpy(mine, in, sizeof(uint64_t) * rs->words);
    return -1;
  }
  int twice = -1;
  for (uint64_t w = 0; w < rs->words; w++) {
    uint64_t both = mine[w] & in[w];
    if (both != 0 && twice < 0)
      twice = (int)(w * 64 + (uint64_t)__builtin_ctzll(both));
    mine[w] |= in[w];
  }
  return twice;
}

gboolean ns_reduction_raw_held(const NsReductionState *rs, int m, uint32_t raw)
{
  if (raw / rs->n_segments == (uint32_t)m)
    return TRUE; /* its own send buffer */
  if (rs->raw == NULL)
    return FALSE;
  const uint64_t *row = rs->raw + (uint64_t)m * rs->raw_words;
  return (row[raw / 64] >> (raw % 64)) & 1;
}

gboolean ns_reduction_raw_give(NsReductionState *rs, int m, uint32_t raw)
{
  if (ns_reduction_raw_held(rs, m, raw))
    return FALSE;
  if (rs->raw == NULL) { /* p² · S bits: about what the origin sets take, which passed the limit */
    rs->raw_words = ((uint64_t)rs->p * rs->n_segments + 63) / 64;
    rs->raw = g_new0(uint64_t, (uint64_t)rs->p * rs->raw_words);
  }
  rs->raw[(uint64_t)m * rs->raw_words + raw / 64] |= (uint64_t)1 << (raw % 64);
  return TRUE;
}

uint64_t ns_reduction_missing(const NsReductionState *rs, int m, uint32_t c, int *first)
{
  const uint64_t *mine = set_of(rs, m, c);
  uint64_t missing = 0;
  *first = -1;
  for (uint64_t w = 0; w < rs->words; w++) {
    uint64_t valid = w + 1 < rs->words || rs->p % 64 == 0 ? ~(uint64_t)0
                                                          : ((uint64_t)1 << (rs->p % 64)) - 1;
    uint64_t lack = ~mine[w] & valid;
    /* the final local combine: raw chunks of the origins its partial lacks */
    for (uint64_t bits = rs->raw != NULL ? lack : 0; bits != 0; bits &= bits - 1) {
      int o = (int)(w * 64 + (uint64_t)__builtin_ctzll(bits));
      if (o != m && ns_reduction_raw_held(rs, m, ns_raw_chunk(rs->n_segments, o, c)))
        lack &= ~((uint64_t)1 << (o % 64));
    }
    if (lack != 0 && *first < 0)
      *first = (int)(w * 64 + (uint64_t)__builtin_ctzll(lack));
    missing += (uint64_t)__builtin_popcountll(lack);
  }
  return missing;
}
