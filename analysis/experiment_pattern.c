/* netsched — the size-pattern axis of an experiment (see
 * experiment_pattern_internal.h). */
#include "analysis/experiment_pattern_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include <string.h>

/* The generators without their size: the text, the arguments it keeps. */
static const struct {
  const char *prefix;
  int n_args; /* arguments after the prefix (0: no colon at all) */
} scaled_generators[] = {
  { "uniform", 0 },
  { "random:", 2 },
  { "nas-is:", 1 },
};

static int n_args(const char *text)
{
  int n = 1;
  for (const char *c = text; *c != '\0'; c++)
    n += *c == ',';
  return n;
}

gboolean ns_pattern_axis_scaled(const char *text)
{
  for (gsize i = 0; i < G_N_ELEMENTS(scaled_generators); i++) {
    const char *prefix = scaled_generators[i].prefix;
    if (scaled_generators[i].n_args == 0 ? strcmp(text, prefix) == 0
                                         : g_str_has_prefix(text, prefix) &&
                                               n_args(text + strlen(prefix)) ==
                                                   scaled_generators[i].n_args)
      return TRUE;
  }
  return FALSE;
}

gboolean ns_pattern_axis_check(const char *text, NsCollective c, const GArray *sizes,
                               const char *option, GError **error)
{
  if (!ns_collective_is_vector(c)) {
    if (text == NULL)
      return TRUE;
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "%s: only alltoallv and allgatherv take a size pattern (not %s)", option,
                    ns_collective_name(c));
    return FALSE;
  }
  if (text == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "%s: %s needs a size pattern: uniform, random:SKEW,SEED or nas-is:SEED "
                    "(scaled to every message size), or a file or a whole generator spec "
                    "with one message size",
                    option, ns_collective_name(c));
    return FALSE;
  }
  if (!ns_pattern_axis_scaled(text) && sizes->len != 1) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "%s: '%s' fixes every size, so it goes with one message size, not %u "
                    "(or scale a generator with the sizes: uniform, random:SKEW,SEED, "
                    "nas-is:SEED)",
                    option, text, sizes->len);
    return FALSE;
  }
  return TRUE;
}

char *ns_pattern_axis_spec(const char *text, NsCollective c, int p, uint64_t msize)
{
  if (!ns_pattern_axis_scaled(text))
    return g_strdup(text);
  if (strcmp(text, "uniform") == 0)
    return g_strdup_printf("uniform:%" G_GUINT64_FORMAT "B", msize);
  const char *args = strchr(text, ':') + 1;
  if (g_str_has_prefix(text, "random:"))
    return g_strdup_printf("random:%" G_GUINT64_FORMAT "B,%s", msize, args);
  /* nas-is: 4 bytes a key. Past the generator's key limit the count only
   * needs to stay past it (so it refuses with its own message): msize ≤
   * 2^30 and p < 2^31 keep the product within 64 bits. */
  uint64_t keys = msize > NS_PATTERN_MAX_KEYS * 4      ? NS_PATTERN_MAX_KEYS + 1
                  : c == NS_COLL_ALLTOALLV && p > 0 ? msize * (uint64_t)p / 4
                                                      : msize / 4;
  return g_strdup_printf("nas-is:%" G_GUINT64_FORMAT ",%s", MAX(keys, 1), args);
}

NsSizePattern *ns_pattern_axis_at(const char *text, const char *option, NsCollective c, int p,
                                  uint64_t msize, GError **error)
{
  if (!ns_pattern_axis_scaled(text))
    return ns_size_pattern_load(text, c, p, error);
  g_autofree char *spec = ns_pattern_axis_spec(text, c, p, msize);
  GError *err = NULL;
  NsSizePattern *pat = ns_size_pattern_generate(spec, c, p, &err);
  if (pat == NULL) {
    /* "--pattern random:8192B,2,1: SKEW ..." names the spec the user did
     * not write: say theirs, and the size that made the rest */
    g_autofree char *head = g_strdup_printf("--pattern %s: ", spec);
    const char *why = g_str_has_prefix(err->message, head) ? err->message + strlen(head)
                                                           : err->message;
    g_autofree char *size = ns_format_size(msize);
    ns_set_error_at(error, err->domain == NS_ERROR ? err->code : NS_ERROR_INPUT, NULL, 0,
                    "%s %s at %s (%s): %s", option, text, size, spec, why);
    g_error_free(err);
  }
  return pat;
}

char *ns_pattern_axis_digest(const NsSizePattern *pat)
{
  GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
  g_autofree char *head = g_strdup_printf("netsched-pattern %s %d\n",
                                          ns_collective_name(pat->collective), pat->p);
  g_checksum_update(sum, (const guchar *)head, -1);
  /* the counts as little-endian 64-bit words: the same digest on every host */
  uint64_t n = ns_size_pattern_n_sizes(pat);
  for (uint64_t i = 0; i < n; i++) {
    guint64 le = GUINT64_TO_LE(pat->bytes[i]);
    g_checksum_update(sum, (const guchar *)&le, sizeof le);
  }
  char *digest = g_strdup(g_checksum_get_string(sum));
  g_checksum_free(sum);
  return digest;
}
