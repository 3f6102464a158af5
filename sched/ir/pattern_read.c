/* netsched — the size pattern file reader (docs/pattern-format.md).
 *
 *   # a comment, to the end of the line
 *   netsched-pattern 1 alltoallv 4
 *   0     64KiB 1KiB  0        <- row i: what machine i sends to 0..p-1
 *   ...
 *   netsched-pattern 1 allgatherv 4
 *   16KiB                      <- row i: machine i's block
 *
 * Every count is "0" or a size with its unit (platforms/model/units.h),
 * at most 1TiB. Errors are "FILE:LINE: what is wrong". The pattern of
 * STAGE-MPI's pattern description file (Faraj's dissertation §4.1.1).
 */
#include "platforms/io/topology_input_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/ir/pattern.h"
#include <string.h>

typedef struct {
  const char *source;
  int line;
  GError **error;
} Reader;

static gboolean fail(Reader *r, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(Reader *r, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ns_set_error_atv(r->error, NS_ERROR_INPUT, r->source, r->line, fmt, ap);
  va_end(ap);
  ns_input_escape_error(*r->error);
  return FALSE;
}

/* The header's words: "netsched-pattern 1 COLLECTIVE P". */
static NsSizePattern *read_header(Reader *r, char **words)
{
  if (g_strv_length(words) != 4 || strcmp(words[0], "netsched-pattern") != 0) {
    fail(r, "expected the header 'netsched-pattern 1 alltoallv|allgatherv P'");
    return NULL;
  }
  if (strcmp(words[1], "1") != 0) {
    fail(r, "pattern format version '%s' is not supported (this netsched reads version 1)",
         words[1]);
    return NULL;
  }
  NsCollective c;
  if (!ns_collective_from_name(words[2], &c) || !ns_collective_is_vector(c)) {
    fail(r, "'%s' is not a collective with a size pattern (alltoallv or allgatherv)", words[2]);
    return NULL;
  }
  int max = c == NS_COLL_ALLTOALLV ? NS_PATTERN_MAX_A2A_MACHINES : NS_MAX_PAIRWISE_MACHINES;
  char *end = NULL;
  guint64 p = g_ascii_isdigit(words[3][0]) ? g_ascii_strtoull(words[3], &end, 10) : 0;
  if (end == NULL || *end != '\0' || p < 1 || p > (guint64)max) {
    fail(r, "machine count '%s' is not a whole number from 1 to %d", words[3], max);
    return NULL;
  }
  return ns_size_pattern_new(c, (int)p, r->error);
}

/* One count: "0" or a size with its unit. */
static gboolean read_count(Reader *r, const char *word, uint64_t *bytes)
{
  const char *why = NULL;
  if (strcmp(word, "0") == 0) {
    *bytes = 0;
    return TRUE;
  }
  if (word[0] == '-')
    return fail(r, "size '%s' is negative", word);
  if (!ns_parse_msize(word, bytes, &why))
    return fail(r, "size '%s': %s", word, why);
  return TRUE;
}

/**
 * \function ns_size_pattern_parse
 * \brief Reads a pattern from text in the pattern file format.
 *
 * \param text The text (need not be NUL-terminated).
 * \param len Its length in bytes.
 * \param source The name for messages (a file name).
 * \param error NS_ERROR_INPUT "SOURCE:LINE: what is wrong".
 * \return The pattern, or NULL.
 * \errors NS_ERROR_INPUT: a missing or wrong header (version, collective,
 *         machine count), a NUL byte, a row with another number of counts
 *         than the header says, more or fewer rows than machines, a count
 *         that is negative, not a size, or above 1TiB, a total above 1PiB.
 * \complexity O(len + n_sizes); memory O(n_sizes).
 * \source docs/pattern-format.md.
 */
NsSizePattern *ns_size_pattern_parse(const char *text, gsize len, const char *source,
                                     GError **error)
{
  Reader r = { .source = source, .line = 0, .error = error };
  if (memchr(text, '\0', len) != NULL) {
    fail(&r, "a NUL byte: not a text file");
    return NULL;
  }
  g_autofree char *copy = g_strndup(text, len);
  g_autoptr(NsSizePattern) pat = NULL;
  int cols = 0, rows = 0;
  char *rest = copy;
  if (g_str_has_prefix(rest, NS_INPUT_BOM))
    rest += strlen(NS_INPUT_BOM);
  while (rest != NULL) {
    char *line = rest;
    char *nl = strchr(rest, '\n');
    if (nl != NULL)
      *nl = '\0';
    rest = nl != NULL ? nl + 1 : NULL;
    r.line++;
    char *hash = strchr(line, '#');
    if (hash != NULL)
      *hash = '\0';
    g_auto(GStrv) words = g_strsplit_set(g_strstrip(line), " \t\r\v\f", -1);
    /* g_strsplit_set leaves empty words between runs of blanks. */
    int n = 0;
    for (int k = 0; words[k] != NULL; k++)
      if (words[k][0] != '\0')
        words[n++] = words[k];
      else
        g_free(words[k]);
    words[n] = NULL;
    if (n == 0)
      continue;
    if (pat == NULL) {
      pat = read_header(&r, words);
      if (pat == NULL)
        return NULL;
      cols = pat->collective == NS_COLL_ALLTOALLV ? pat->p : 1;
      continue;
    }
    if (rows == pat->p) {
      fail(&r, "more than %d rows (the header says %d machines)", pat->p, pat->p);
      return NULL;
    }
    if (n != cols) {
      fail(&r, "row %d has %d sizes, expected %d", rows, n, cols);
      return NULL;
    }
    for (int k = 0; k < n; k++)
      if (!read_count(&r, words[k], &pat->bytes[(uint64_t)rows * cols + k]))
        return NULL;
    rows++;
  }
  if (pat == NULL) {
    fail(&r, "empty: expected the header 'netsched-pattern 1 alltoallv|allgatherv P'");
    return NULL;
  }
  if (rows < pat->p) {
    fail(&r, "the file ends after %d rows, the header says %d machines", rows, pat->p);
    return NULL;
  }
  if (ns_size_pattern_total(pat) > NS_PATTERN_MAX_TOTAL) {
    r.line = 0;
    fail(&r, "the pattern's total exceeds the limit of 1PiB");
    return NULL;
  }
  return g_steal_pointer(&pat);
}

/**
 * \function ns_size_pattern_read
 * \brief Reads a pattern file.
 *
 * \param path The file (at most NS_PATTERN_MAX_FILE_BYTES).
 * \param error NS_ERROR_IO when it cannot be read, NS_ERROR_INPUT as
 *        ns_size_pattern_parse() or when it is too large.
 * \return The pattern, or NULL.
 * \errors See above.
 * \complexity O(file size + n_sizes).
 * \source docs/pattern-format.md.
 */
NsSizePattern *ns_size_pattern_read(const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!ns_input_read_file(path, NS_PATTERN_MAX_FILE_BYTES, "pattern", &text, &len, error))
    return NULL;
  return ns_size_pattern_parse(text, len, path, error);
}

/**
 * \function ns_size_pattern_load
 * \brief A pattern from a --pattern argument: a generator spec or a file.
 *
 * \param spec_or_path A spec (ns_size_pattern_is_spec) or a pattern file.
 * \param collective The collective it must describe.
 * \param p The number of machines it must have (the topology's).
 * \param error As ns_size_pattern_generate() and ns_size_pattern_read(),
 *        or NS_ERROR_INPUT "FILE: the pattern is for C, not D" / "FILE:
 *        the pattern has P machines, the topology N".
 * \return The pattern, or NULL.
 * \errors NS_ERROR_INPUT, NS_ERROR_IO (see above).
 * \complexity That of the generator or of the reader.
 * \source docs/pattern-format.md.
 */
NsSizePattern *ns_size_pattern_load(const char *spec_or_path, NsCollective collective, int p,
                                    GError **error)
{
  if (ns_size_pattern_is_spec(spec_or_path))
    return ns_size_pattern_generate(spec_or_path, collective, p, error);
  g_autoptr(NsSizePattern) pat = ns_size_pattern_read(spec_or_path, error);
  if (pat == NULL)
    return NULL;
  if (pat->collective != collective) {
    ns_set_error_at(error, NS_ERROR_INPUT, spec_or_path, 0, "the pattern is for %s, not %s",
                    ns_collective_name(pat->collective), ns_collective_name(collective));
    return NULL;
  }
  if (pat->p != p) {
    ns_set_error_at(error, NS_ERROR_INPUT, spec_or_path, 0,
                    "the pattern has %d machines, the topology %d", pat->p, p);
    return NULL;
  }
  return g_steal_pointer(&pat);
}
