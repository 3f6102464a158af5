/* netsched — decision tables: rows, lookup, the JSON file (decision.h). */
#include "sched/lower/decision.h"
#include "platforms/model/error.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* Sets an input error and returns FALSE. */
static gboolean fail(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(GError **error, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ns_set_error_atv(error, NS_ERROR_INPUT, NULL, 0, fmt, ap);
  va_end(ap);
  return FALSE;
}

static void row_free(gpointer p)
{
  NsDecisionRow *r = p;
  g_free(r->algorithm);
  g_free(r->params);
  g_free(r->runner_up);
  g_free(r->runner_up_params);
  g_free(r);
}

/**
 * \function ns_decision_table_new
 * \brief An empty decision table for one collective and communicator size.
 *
 * \param collective The collective the rows choose an algorithm of.
 * \param n_machines The communicator size tuned for.
 * \return A new table, freed with ns_decision_table_free.
 * \errors none.
 * \complexity O(1).
 * \source Faraj's dissertation §4.1.1.4 (STAGE-MPI's drivers).
 */
NsDecisionTable *ns_decision_table_new(NsCollective collective, int64_t n_machines)
{
  NsDecisionTable *t = g_new0(NsDecisionTable, 1);
  t->collective = collective;
  t->n_machines = n_machines;
  t->rows = g_ptr_array_new_with_free_func(row_free);
  return t;
}

/**
 * \function ns_decision_table_free
 * \brief Frees a decision table and its rows.
 *
 * \param t The table, or NULL.
 * \errors none.
 * \complexity O(rows).
 * \source docs/tune.md.
 */
void ns_decision_table_free(NsDecisionTable *t)
{
  if (t == NULL)
    return;
  g_ptr_array_unref(t->rows);
  g_free(t->topology);
  g_free(t->measure);
  g_free(t->timing);
  g_free(t);
}

/**
 * \function ns_decision_table_append
 * \brief Appends a row choosing `algorithm` from `from_bytes` on.
 *
 * The measurement fields start as "not measured" (times < 0, no runner-up);
 * the caller fills them.
 *
 * \param t The table.
 * \param from_bytes The first size the row covers.
 * \param algorithm A planner name (copied).
 * \param params Its parameters (copied), NULL or "" for none.
 * \return The new row, owned by the table.
 * \errors none (order and bounds are checked by ns_decision_table_check).
 * \complexity O(1) amortised.
 * \source Faraj's dissertation §4.1.1.4.
 */
NsDecisionRow *ns_decision_table_append(NsDecisionTable *t, uint64_t from_bytes,
                                        const char *algorithm, const char *params)
{
  NsDecisionRow *r = g_new0(NsDecisionRow, 1);
  r->from_bytes = from_bytes;
  r->algorithm = g_strdup(algorithm);
  r->params = g_strdup(params != NULL ? params : "");
  r->time_s = -1;
  r->runner_up_s = -1;
  g_ptr_array_add(t->rows, r);
  return r;
}

/**
 * \function ns_decision_table_lookup
 * \brief The row that covers a message size.
 *
 * \param t A checked table.
 * \param bytes The message size (msize).
 * \return The last row whose from_bytes <= bytes; NULL for an empty table.
 * \errors none.
 * \complexity O(log rows).
 * \source docs/tune.md.
 */
const NsDecisionRow *ns_decision_table_lookup(const NsDecisionTable *t, uint64_t bytes)
{
  guint lo = 0, hi = t->rows->len;
  if (hi == 0)
    return NULL;
  while (hi - lo > 1) { /* invariant: rows[lo].from_bytes <= bytes (row 0 starts at 0) */
    guint mid = lo + (hi - lo) / 2;
    if (((NsDecisionRow *)t->rows->pdata[mid])->from_bytes <= bytes)
      lo = mid;
    else
      hi = mid;
  }
  return t->rows->pdata[lo];
}

static gboolean string_ok(const char *s, gboolean may_be_empty)
{
  if (s == NULL)
    return FALSE;
  size_t n = strlen(s);
  if ((n == 0 && !may_be_empty) || n > NS_DECISION_MAX_STRING)
    return FALSE;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
      return FALSE;
  return TRUE;
}

/* The check of one row; `where` prefixes the message ("file:line" or "row 3"). */
static gboolean row_check(const NsDecisionTable *t, guint i, const char *where, GError **error)
{
  const NsDecisionRow *r = t->rows->pdata[i];
  if (i == 0 && r->from_bytes != 0)
    return fail(error, "%s: the first row must start at 0 bytes", where);
  if (i > 0 && r->from_bytes <= ((NsDecisionRow *)t->rows->pdata[i - 1])->from_bytes)
    return fail(error,
                "%s: from_bytes %" G_GUINT64_FORMAT " does not increase on the previous row's",
                where, r->from_bytes);
  if (!string_ok(r->algorithm, FALSE) || !string_ok(r->params, TRUE))
    return fail(error,
                "%s: algorithm and params must be printable, at most %d bytes "
                "(algorithm not empty)",
                where, NS_DECISION_MAX_STRING);
  if ((r->runner_up != NULL) != (r->runner_up_params != NULL) ||
      (r->runner_up != NULL &&
       (!string_ok(r->runner_up, FALSE) || !string_ok(r->runner_up_params, TRUE))))
    return fail(error, "%s: malformed runner_up", where);
  if (!isfinite(r->time_s) || !isfinite(r->runner_up_s))
    return fail(error, "%s: times must be finite", where);
  return TRUE;
}

/**
 * \function ns_decision_table_check
 * \brief Checks a table: rows present, the first at 0, sizes increasing, strings bounded.
 *
 * \param t The table.
 * \param error Filled on failure.
 * \return TRUE when the table is well formed.
 * \errors NS_ERROR_INPUT "row N: what is wrong".
 * \complexity O(rows).
 * \source docs/tune.md, "Decision file".
 */
gboolean ns_decision_table_check(const NsDecisionTable *t, GError **error)
{
  if (t->rows->len == 0 || t->rows->len > NS_DECISION_MAX_ROWS)
    return fail(error, "a decision table has 1 to %d rows, not %u", NS_DECISION_MAX_ROWS,
                t->rows->len);
  if (t->n_machines < 1)
    return fail(error, "a decision table needs machines >= 1");
  for (guint i = 0; i < t->rows->len; i++) {
    g_autofree char *where = g_strdup_printf("row %u", i + 1);
    if (!row_check(t, i, where, error))
      return FALSE;
  }
  return TRUE;
}

static void add_string(JsonBuilder *b, const char *key, const char *value)
{
  json_builder_set_member_name(b, key);
  if (value != NULL)
    json_builder_add_string_value(b, value);
  else
    json_builder_add_null_value(b);
}

static void add_time(JsonBuilder *b, const char *key, double v)
{
  json_builder_set_member_name(b, key);
  if (v >= 0)
    json_builder_add_double_value(b, v);
  else
    json_builder_add_null_value(b);
}

static char *node_text(JsonNode *n)
{
  g_autoptr(JsonGenerator) gen = json_generator_new();
  json_generator_set_root(gen, n);
  return json_generator_to_data(gen, NULL);
}

/**
 * \function ns_decision_table_to_json
 * \brief The decision file: one header object, one row per line.
 *
 * \param t The table.
 * \return The JSON text, newline-terminated, newly allocated.
 * \errors none.
 * \complexity O(rows).
 * \source docs/tune.md, "Decision file".
 */
char *ns_decision_table_to_json(const NsDecisionTable *t)
{
  GString *out = g_string_new("{\"format\": \"netsched-decision\", \"version\": 1,\n");
  g_autoptr(JsonBuilder) h = json_builder_new();
  json_builder_begin_object(h);
  add_string(h, "collective", ns_collective_name(t->collective));
  json_builder_set_member_name(h, "machines");
  json_builder_add_int_value(h, t->n_machines);
  add_string(h, "topology", t->topology);
  add_string(h, "measure", t->measure);
  add_string(h, "timing", t->timing);
  json_builder_end_object(h);
  g_autoptr(JsonNode) hn = json_builder_get_root(h);
  g_autofree char *htext = node_text(hn);
  /* the header's members without its braces, then the rows one per line,
   * so that a row's line number is its place in the file */
  g_string_append_len(out, htext + 1, (gssize)strlen(htext) - 2);
  g_string_append(out, ",\n\"rows\": [\n");
  for (guint i = 0; i < t->rows->len; i++) {
    const NsDecisionRow *r = t->rows->pdata[i];
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "from_bytes");
    json_builder_add_int_value(b, (gint64)r->from_bytes);
    add_string(b, "algorithm", r->algorithm);
    add_string(b, "params", r->params);
    json_builder_set_member_name(b, "measured_bytes");
    json_builder_add_int_value(b, (gint64)r->measured_bytes);
    add_time(b, "time_s", r->time_s);
    add_string(b, "runner_up", r->runner_up);
    add_string(b, "runner_up_params", r->runner_up_params);
    add_time(b, "runner_up_s", r->runner_up_s);
    json_builder_end_object(b);
    g_autoptr(JsonNode) n = json_builder_get_root(b);
    g_autofree char *rt = node_text(n);
    g_string_append_printf(out, "  %s%s\n", rt, i + 1 < t->rows->len ? "," : "");
  }
  g_string_append(out, "]}\n");
  return g_string_free(out, FALSE);
}

/* Line (1-based) where each element of the top-level "rows" array starts:
 * a scan of the text for '{' at depth 2 outside strings (the root object
 * is depth 1, the array's elements open at depth 2). JSON-GLib keeps no
 * positions of nodes, and a row's error must say where the row is. */
static GArray *row_lines(const char *text, gsize len)
{
  GArray *lines = g_array_new(FALSE, FALSE, sizeof(int));
  int depth = 0, line = 1;
  gboolean in_string = FALSE;
  for (gsize i = 0; i < len; i++) {
    char c = text[i];
    if (c == '\n')
      line++;
    if (in_string) {
      if (c == '\\')
        i++;
      else if (c == '"')
        in_string = FALSE;
      continue;
    }
    if (c == '"')
      in_string = TRUE;
    else if (c == '{' || c == '[') {
      if (depth == 2 && c == '{')
        g_array_append_val(lines, line);
      depth++;
    } else if (c == '}' || c == ']')
      depth--;
  }
  return lines;
}

static gboolean get_uint(JsonObject *o, const char *key, gboolean required, uint64_t *v,
                         const char *where, GError **error)
{
  JsonNode *n = json_object_get_member(o, key);
  if (n == NULL || JSON_NODE_HOLDS_NULL(n)) {
    if (!required)
      return TRUE;
    return fail(error, "%s: \"%s\" is missing", where, key);
  }
  if (json_node_get_value_type(n) != G_TYPE_INT64 || json_node_get_int(n) < 0)
    return fail(error, "%s: \"%s\" must be an integer >= 0", where, key);
  *v = (uint64_t)json_node_get_int(n);
  return TRUE;
}

static gboolean get_time(JsonObject *o, const char *key, double *v, const char *where,
                         GError **error)
{
  JsonNode *n = json_object_get_member(o, key);
  *v = -1;
  if (n == NULL || JSON_NODE_HOLDS_NULL(n))
    return TRUE;
  GType type = JSON_NODE_HOLDS_VALUE(n) ? json_node_get_value_type(n) : G_TYPE_INVALID;
  if (type != G_TYPE_DOUBLE && type != G_TYPE_INT64)
    return fail(error, "%s: \"%s\" must be a number", where, key);
  *v = json_node_get_double(n);
  if (!isfinite(*v) || *v < 0)
    return fail(error, "%s: \"%s\" must be a time >= 0", where, key);
  return TRUE;
}

/* NULL for a missing or null member (allowed when !required). */
static gboolean get_string(JsonObject *o, const char *key, gboolean required, char **v,
                           const char *where, GError **error)
{
  JsonNode *n = json_object_get_member(o, key);
  *v = NULL;
  if (n == NULL || JSON_NODE_HOLDS_NULL(n)) {
    if (!required)
      return TRUE;
    return fail(error, "%s: \"%s\" is missing", where, key);
  }
  if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
    return fail(error, "%s: \"%s\" must be a string", where, key);
  *v = g_strdup(json_node_get_string(n));
  return TRUE;
}

static gboolean read_row(NsDecisionTable *t, JsonNode *n, const char *where, GError **error)
{
  if (!JSON_NODE_HOLDS_OBJECT(n))
    return fail(error, "%s: a row must be an object", where);
  JsonObject *o = json_node_get_object(n);
  uint64_t from = 0;
  g_autofree char *algorithm = NULL, *params = NULL;
  if (!get_uint(o, "from_bytes", TRUE, &from, where, error) ||
      !get_string(o, "algorithm", TRUE, &algorithm, where, error) ||
      !get_string(o, "params", FALSE, &params, where, error))
    return FALSE;
  NsDecisionRow *r = ns_decision_table_append(t, from, algorithm, params);
  return get_uint(o, "measured_bytes", FALSE, &r->measured_bytes, where, error) &&
         get_time(o, "time_s", &r->time_s, where, error) &&
         get_string(o, "runner_up", FALSE, &r->runner_up, where, error) &&
         get_string(o, "runner_up_params", FALSE, &r->runner_up_params, where, error) &&
         get_time(o, "runner_up_s", &r->runner_up_s, where, error) &&
         (r->runner_up == NULL || r->runner_up_params != NULL ||
          (r->runner_up_params = g_strdup("")) != NULL);
}

static gboolean read_header(NsDecisionTable *t, JsonObject *root, const char *name, GError **error)
{
  g_autofree char *format = NULL, *coll = NULL;
  uint64_t version = 0, machines = 0;
  if (!get_string(root, "format", TRUE, &format, name, error) ||
      !get_uint(root, "version", TRUE, &version, name, error))
    return FALSE;
  if (strcmp(format, "netsched-decision") != 0 || version != 1)
    return fail(error, "%s:1: not a netsched decision file of version 1", name);
  if (!get_string(root, "collective", TRUE, &coll, name, error) ||
      !get_uint(root, "machines", TRUE, &machines, name, error))
    return FALSE;
  if (!ns_collective_from_name(coll, &t->collective))
    return fail(error, "%s: unknown collective \"%s\"", name, coll);
  if (machines < 1 || machines > (uint64_t)G_MAXINT32)
    return fail(error, "%s: machines out of range", name);
  t->n_machines = (int64_t)machines;
  return get_string(root, "topology", FALSE, &t->topology, name, error) &&
         get_string(root, "measure", FALSE, &t->measure, name, error) &&
         get_string(root, "timing", FALSE, &t->timing, name, error);
}

/**
 * \function ns_decision_table_from_json
 * \brief Reads a decision file.
 *
 * \param text, len The file's contents.
 * \param name The file's name, for messages.
 * \param error Filled on failure.
 * \return The table, or NULL.
 * \errors NS_ERROR_INPUT "name:line: what is wrong" (syntax, a missing or
 *   mistyped member, sizes not increasing, unbounded strings, too many rows).
 * \complexity O(len).
 * \source docs/tune.md, "Decision file".
 */
NsDecisionTable *ns_decision_table_from_json(const char *text, gsize len, const char *name,
                                             GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new();
  g_autoptr(GError) perr = NULL;
  if (len > 64u << 20)
    return fail(error, "%s: larger than 64 MiB", name), NULL;
  if (!json_parser_load_from_data(parser, text, (gssize)len, &perr))
    return fail(error, "%s:%s", name, perr->message), NULL;
  JsonNode *root = json_parser_get_root(parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT(root))
    return fail(error, "%s:1: expected a JSON object", name), NULL;
  JsonObject *o = json_node_get_object(root);
  g_autoptr(NsDecisionTable) t = ns_decision_table_new(NS_COLL_ALLTOALL, 1);
  if (!read_header(t, o, name, error))
    return NULL;
  JsonNode *rows = json_object_get_member(o, "rows");
  if (rows == NULL || !JSON_NODE_HOLDS_ARRAY(rows))
    return fail(error, "%s: \"rows\" must be an array", name), NULL;
  JsonArray *a = json_node_get_array(rows);
  guint n = json_array_get_length(a);
  if (n == 0 || n > NS_DECISION_MAX_ROWS)
    return fail(error, "%s: 1 to %d rows, not %u", name, NS_DECISION_MAX_ROWS, n), NULL;
  g_autoptr(GArray) lines = row_lines(text, len);
  for (guint i = 0; i < n; i++) {
    int line = i < lines->len ? g_array_index(lines, int, i) : 1;
    g_autofree char *where = g_strdup_printf("%s:%d", name, line);
    if (!read_row(t, json_array_get_element(a, i), where, error) || !row_check(t, i, where, error))
      return NULL;
  }
  return g_steal_pointer(&t);
}
