/* netsched — size patterns: the model, totals, the writer and the
 * generators (uniform, random, nas-is). The file reader is pattern_read.c.
 * Faraj's dissertation §4.1.1 (STAGE-MPI's pattern description);
 * NAS Parallel Benchmarks IS (create_seq, rank's bucket redistribution). */
#include "sched/ir/pattern.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include <errno.h>
#include <math.h>
#include <string.h>

/**
 * \function ns_size_pattern_new
 * \brief A pattern of zero byte counts for p machines.
 *
 * \param collective NS_COLL_ALLTOALLV or NS_COLL_ALLGATHERV.
 * \param p Number of machines: 1 .. NS_PATTERN_MAX_A2A_MACHINES
 *        (alltoallv) or NS_MAX_PAIRWISE_MACHINES (allgatherv).
 * \param error NS_ERROR_INPUT for another collective or p out of range.
 * \return The pattern (ns_size_pattern_free), or NULL.
 * \errors NS_ERROR_INPUT "alltoallv patterns take 1 to 4096 machines (got
 *         P)", "a size pattern is for alltoallv or allgatherv, not C".
 * \complexity O(p²) alltoallv, O(p) allgatherv.
 * \source docs/pattern-format.md.
 */
NsSizePattern *ns_size_pattern_new(NsCollective collective, int p, GError **error)
{
  if (!ns_collective_is_vector(collective)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "a size pattern is for alltoallv or allgatherv, not %s",
                    ns_collective_name(collective));
    return NULL;
  }
  int max =
      collective == NS_COLL_ALLTOALLV ? NS_PATTERN_MAX_A2A_MACHINES : NS_MAX_PAIRWISE_MACHINES;
  if (p < 1 || p > max) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s patterns take 1 to %d machines (got %d)",
                    ns_collective_name(collective), max, p);
    return NULL;
  }
  NsSizePattern *pat = g_new0(NsSizePattern, 1);
  pat->collective = collective;
  pat->p = p;
  pat->bytes = g_new0(uint64_t, ns_size_pattern_n_sizes(pat));
  return pat;
}

/**
 * \function ns_size_pattern_free
 * \brief Frees a pattern.
 *
 * \param pat The pattern, or NULL.
 * \errors none.
 * \complexity O(1).
 * \source docs/pattern-format.md.
 */
void ns_size_pattern_free(NsSizePattern *pat)
{
  if (pat == NULL)
    return;
  g_free(pat->bytes);
  g_free(pat);
}

/**
 * \function ns_size_pattern_total
 * \brief The bytes the collective moves between machines.
 *
 * alltoallv: the sum of the off-diagonal counts (the diagonal is a local
 * copy); allgatherv: the sum of the blocks.
 *
 * \param pat The pattern.
 * \return The total in bytes (G_MAXUINT64 if it would not fit).
 * \errors none.
 * \complexity O(n_sizes).
 * \source docs/pattern-format.md.
 */
uint64_t ns_size_pattern_total(const NsSizePattern *pat)
{
  uint64_t total = 0;
  uint64_t n = ns_size_pattern_n_sizes(pat);
  for (uint64_t k = 0; k < n; k++)
    if (pat->collective != NS_COLL_ALLTOALLV || k / (uint64_t)pat->p != k % (uint64_t)pat->p)
      total = pat->bytes[k] > G_MAXUINT64 - total ? G_MAXUINT64 : total + pat->bytes[k];
  return total;
}

/**
 * \function ns_size_pattern_max
 * \brief The largest count moved between machines (0 if none).
 *
 * \param pat The pattern.
 * \return The largest off-diagonal count (alltoallv) or block (allgatherv).
 * \errors none.
 * \complexity O(n_sizes).
 * \source docs/pattern-format.md.
 */
uint64_t ns_size_pattern_max(const NsSizePattern *pat)
{
  uint64_t max = 0;
  uint64_t n = ns_size_pattern_n_sizes(pat);
  for (uint64_t k = 0; k < n; k++)
    if (pat->collective != NS_COLL_ALLTOALLV || k / (uint64_t)pat->p != k % (uint64_t)pat->p)
      max = MAX(max, pat->bytes[k]);
  return max;
}

/* One count as the reader takes it: "0" or a size with its unit. */
static void append_size(GString *out, uint64_t bytes)
{
  if (bytes == 0) {
    g_string_append_c(out, '0');
    return;
  }
  g_autofree char *text = ns_format_size(bytes);
  g_string_append(out, text);
}

/**
 * \function ns_size_pattern_to_text
 * \brief The pattern in the file format, for ns_size_pattern_parse().
 *
 * \param pat The pattern.
 * \return Newly allocated text: the header line, then one row per machine.
 * \errors none.
 * \complexity O(n_sizes).
 * \source docs/pattern-format.md.
 */
char *ns_size_pattern_to_text(const NsSizePattern *pat)
{
  GString *out = g_string_new(NULL);
  g_string_append_printf(out, "netsched-pattern 1 %s %d\n", ns_collective_name(pat->collective),
                         pat->p);
  int cols = pat->collective == NS_COLL_ALLTOALLV ? pat->p : 1;
  for (int i = 0; i < pat->p; i++) {
    for (int j = 0; j < cols; j++) {
      if (j > 0)
        g_string_append_c(out, ' ');
      append_size(out, pat->bytes[(uint64_t)i * cols + j]);
    }
    g_string_append_c(out, '\n');
  }
  return g_string_free(out, FALSE);
}

/* ---- generators ------------------------------------------------------ */

static const char *const generator_names[] = { "uniform:", "random:", "nas-is:" };

/**
 * \function ns_size_pattern_is_spec
 * \brief Does the text name a generator (uniform:, random:, nas-is:)?
 *
 * \param text A --pattern argument.
 * \return TRUE for a generator spec, FALSE for a file name.
 * \errors none.
 * \complexity O(|text|).
 * \source docs/pattern-format.md, "Generators".
 */
gboolean ns_size_pattern_is_spec(const char *text)
{
  for (gsize k = 0; k < G_N_ELEMENTS(generator_names); k++)
    if (g_str_has_prefix(text, generator_names[k]))
      return TRUE;
  return FALSE;
}

/* Fails a spec with "--pattern SPEC: what". */
static gboolean spec_fail(GError **error, const char *spec, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);
static gboolean spec_fail(GError **error, const char *spec, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--pattern %s: %s", spec, what);
  return FALSE;
}

/* A whole number from `min` to `max`, all of `text`. */
static gboolean parse_count(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
  if (!g_ascii_isdigit(text[0]))
    return FALSE;
  char *end = NULL;
  errno = 0;
  guint64 v = g_ascii_strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0' || v < min || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

/* uniform:SIZE — every pair (alltoallv, off the diagonal) or block SIZE. */
static gboolean gen_uniform(NsSizePattern *pat, const char *spec, char **args, GError **error)
{
  uint64_t size = 0;
  const char *why = NULL;
  if (g_strv_length(args) != 1)
    return spec_fail(error, spec, "expected uniform:SIZE");
  if (strcmp(args[0], "0") != 0 && !ns_parse_msize(args[0], &size, &why))
    return spec_fail(error, spec, "SIZE '%s': %s", args[0], why);
  int p = pat->p;
  for (int i = 0; i < p; i++)
    if (pat->collective == NS_COLL_ALLGATHERV)
      pat->bytes[i] = size;
    else
      for (int j = 0; j < p; j++)
        pat->bytes[(uint64_t)i * p + j] = i == j ? 0 : size;
  return TRUE;
}

/* random:AVG,SKEW,SEED — each count AVG·(1 + SKEW·(2u − 1)) rounded, u
 * uniform on [0, 1) from GLib's Mersenne Twister seeded with SEED, drawn
 * in row order (alltoallv: off-diagonal pairs only). */
static gboolean gen_random(NsSizePattern *pat, const char *spec, char **args, GError **error)
{
  uint64_t avg = 0, seed = 0;
  const char *why = NULL;
  if (g_strv_length(args) != 3)
    return spec_fail(error, spec, "expected random:AVG,SKEW,SEED");
  if (!ns_parse_msize(args[0], &avg, &why))
    return spec_fail(error, spec, "AVG '%s': %s", args[0], why);
  char *end = NULL;
  double skew = g_ascii_strtod(args[1], &end);
  if (args[1][0] == '\0' || *end != '\0' || !(skew >= 0 && skew <= 1))
    return spec_fail(error, spec, "SKEW '%s' is not a number from 0 to 1", args[1]);
  if (!parse_count(args[2], 0, G_MAXUINT32, &seed))
    return spec_fail(error, spec, "SEED '%s' is not a whole number from 0 to %u", args[2],
                     G_MAXUINT32);
  g_autoptr(GRand) rng = g_rand_new_with_seed((guint32)seed);
  int p = pat->p;
  for (int i = 0; i < p; i++) {
    int cols = pat->collective == NS_COLL_ALLTOALLV ? p : 1;
    for (int j = 0; j < cols; j++) {
      if (cols > 1 && i == j)
        continue;
      double u = g_rand_double(rng);
      pat->bytes[(uint64_t)i * cols + j] =
          (uint64_t)llround((double)avg * (1 + skew * (2 * u - 1)));
    }
  }
  return TRUE;
}

/* NAS IS (NPB 3.x is.c): 2^10 buckets over keys 0 .. 2^19 − 1. */
#define NAS_IS_BUCKETS 1024
#define NAS_IS_MAX_KEY (1 << 19)
#define NAS_IS_KEY_BYTES 4 /* INT_TYPE int */

/*
 * nas-is:KEYS,SEED — the alltoallv of NPB IS's rank(): every machine holds
 * KEYS keys drawn as create_seq does, k = MAX_KEY/4 · (u1+u2+u3+u4) (the
 * sum of four uniforms: a bell over the key range); keys go to buckets of
 * equal key range; buckets are dealt to machines in order, machine j taking
 * buckets until the running total of all keys reaches (j+1)·total/p (is.c's
 * bucket_sum_accumulator loop), so loads balance while single pairs skew.
 * Machine i sends machine j 4 bytes per key of j's buckets: every row sums
 * to 4·KEYS (the diagonal included, the keys i keeps). Allgatherv: each
 * machine's block is 4 bytes per key it keeps after the exchange.
 */
static gboolean gen_nas_is(NsSizePattern *pat, const char *spec, char **args, GError **error)
{
  uint64_t keys = 0, seed = 0;
  int p = pat->p;
  if (g_strv_length(args) != 2)
    return spec_fail(error, spec, "expected nas-is:KEYS,SEED");
  if (!parse_count(args[0], 1, NS_PATTERN_MAX_KEYS, &keys))
    return spec_fail(error, spec, "KEYS '%s' is not a whole number from 1 to %" G_GUINT64_FORMAT,
                     args[0], NS_PATTERN_MAX_KEYS);
  if (keys * (uint64_t)p > NS_PATTERN_MAX_KEYS)
    return spec_fail(error, spec,
                     "%d machines × %" G_GUINT64_FORMAT
                     " keys exceeds the limit of %" G_GUINT64_FORMAT " keys in all",
                     p, keys, NS_PATTERN_MAX_KEYS);
  if (!parse_count(args[1], 0, G_MAXUINT32, &seed))
    return spec_fail(error, spec, "SEED '%s' is not a whole number from 0 to %u", args[1],
                     G_MAXUINT32);
  g_autoptr(GRand) rng = g_rand_new_with_seed((guint32)seed);
  g_autofree uint64_t *counts = g_new0(uint64_t, (gsize)p * NAS_IS_BUCKETS);
  g_autofree uint64_t *totals = g_new0(uint64_t, NAS_IS_BUCKETS);
  for (int i = 0; i < p; i++)
    for (uint64_t k = 0; k < keys; k++) {
      double x = g_rand_double(rng) + g_rand_double(rng) + g_rand_double(rng) + g_rand_double(rng);
      int key = MIN((int)(NAS_IS_MAX_KEY / 4 * x), NAS_IS_MAX_KEY - 1);
      int bucket = key / (NAS_IS_MAX_KEY / NAS_IS_BUCKETS);
      counts[(gsize)i * NAS_IS_BUCKETS + bucket]++;
      totals[bucket]++;
    }
  /* owner[b]: the machine bucket b is dealt to (is.c's loop). */
  int owner[NAS_IS_BUCKETS];
  uint64_t all = keys * (uint64_t)p, running = 0;
  int j = 0;
  for (int b = 0; b < NAS_IS_BUCKETS; b++) {
    owner[b] = MIN(j, p - 1);
    running += totals[b];
    while (j < p && running >= (uint64_t)(j + 1) * all / (uint64_t)p)
      j++;
  }
  for (int i = 0; i < p; i++)
    for (int b = 0; b < NAS_IS_BUCKETS; b++) {
      uint64_t bytes = counts[(gsize)i * NAS_IS_BUCKETS + b] * NAS_IS_KEY_BYTES;
      if (pat->collective == NS_COLL_ALLTOALLV)
        pat->bytes[(uint64_t)i * p + owner[b]] += bytes;
      else
        pat->bytes[owner[b]] += bytes;
    }
  return TRUE;
}

/**
 * \function ns_size_pattern_generate
 * \brief A pattern from a generator spec.
 *
 * uniform:SIZE — every count SIZE (alltoallv: the diagonal 0).
 * random:AVG,SKEW,SEED — every count AVG·(1 + SKEW·(2u − 1)) rounded to
 * a byte, u uniform on [0, 1) (GLib's Mersenne Twister seeded with SEED,
 * drawn in row order), SKEW from 0 to 1: counts uniform on
 * [AVG(1 − SKEW), AVG(1 + SKEW)], the expected total p(p − 1)·AVG
 * (allgatherv: p·AVG).
 * nas-is:KEYS,SEED — NPB IS's key exchange (see gen_nas_is): every row
 * sums to 4·KEYS bytes, the diagonal included.
 * The same spec and p give the same pattern on every machine.
 *
 * \param spec The spec, e.g. "random:64KiB,0.5,7".
 * \param collective NS_COLL_ALLTOALLV or NS_COLL_ALLGATHERV.
 * \param p Number of machines.
 * \param error NS_ERROR_INPUT "--pattern SPEC: what is wrong".
 * \return The pattern, or NULL.
 * \errors NS_ERROR_INPUT: unknown generator, wrong number of arguments, a
 *         size, skew, seed or key count out of range, p out of range.
 * \complexity O(p²) alltoallv, O(p) allgatherv; nas-is O(p·KEYS + p·1024).
 * \source docs/pattern-format.md, "Generators"; NPB IS (is.c create_seq,
 *         rank).
 */
NsSizePattern *ns_size_pattern_generate(const char *spec, NsCollective collective, int p,
                                        GError **error)
{
  const char *colon = strchr(spec, ':');
  if (colon == NULL || !ns_size_pattern_is_spec(spec)) {
    spec_fail(error, spec,
              "not a generator (uniform:SIZE, random:AVG,SKEW,SEED, nas-is:KEYS,SEED)");
    return NULL;
  }
  g_autoptr(NsSizePattern) pat = ns_size_pattern_new(collective, p, error);
  if (pat == NULL)
    return NULL;
  g_auto(GStrv) args = g_strsplit(colon + 1, ",", -1);
  gboolean ok;
  if (g_str_has_prefix(spec, "uniform:"))
    ok = gen_uniform(pat, spec, args, error);
  else if (g_str_has_prefix(spec, "random:"))
    ok = gen_random(pat, spec, args, error);
  else
    ok = gen_nas_is(pat, spec, args, error);
  if (!ok)
    return NULL;
  if (ns_size_pattern_total(pat) > NS_PATTERN_MAX_TOTAL) {
    spec_fail(error, spec, "the pattern's total exceeds the limit of 1PiB");
    return NULL;
  }
  return g_steal_pointer(&pat);
}

/**
 * \function ns_size_pattern_apply
 * \brief Gives a v-collective schedule the pattern's chunk sizes.
 *
 * \param pat The pattern.
 * \param s A schedule of the pattern's collective over pat->p machines.
 * \param error NS_ERROR_INPUT when the collective or machine count differ.
 * \return TRUE, or FALSE.
 * \errors NS_ERROR_INPUT (see above).
 * \complexity O(n_sizes).
 * \source sched/ir/schedule.h, "Variable sizes".
 */
gboolean ns_size_pattern_apply(const NsSizePattern *pat, NsSchedule *s, GError **error)
{
  if (s->collective != pat->collective || s->n_machines != pat->p) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "a %s pattern of %d machines does not fit a %s schedule of %d",
                    ns_collective_name(pat->collective), pat->p, ns_collective_name(s->collective),
                    s->n_machines);
    return FALSE;
  }
  return ns_schedule_set_chunk_bytes(s, pat->bytes, ns_size_pattern_n_sizes(pat), error);
}
