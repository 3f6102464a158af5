/* netsched — reader of the native line-oriented topology format.
 *
 * The format is specified in docs/topology-format.md. In short:
 *
 *   # comment
 *   name "Faraj-Yuan Figure 1"
 *   default bandwidth 100Mbps
 *   default latency 10us
 *   default forwarding store-and-forward
 *   machine n[0-5]
 *   switch s0 s1 s3 forwarding=cut-through buffer=64p buffering=shared
 *   link n[0-2] s0
 *   link s0 s1 bandwidth=1Gbps latency=5us
 *
 * Every line is tokenised on blanks; '#' outside quotes starts a comment;
 * "..." is a literal node name (escapes \" and \\), any other operand is a
 * hostlist expression; a bare token containing '=' is a key=value
 * attribute and attributes come last on a line. Processing is one pass,
 * O(size of the expanded input); no recursion. A UTF-8 byte-order mark may
 * start the file; anywhere else it is named in an error. Memory stays
 * proportional: at most NS_HOSTLIST_MAX nodes, links and tokens per line.
 */
#include "platforms/model/error.h"
#include "platforms/io/hostlist_internal.h"
#include "platforms/io/topology_input_internal.h"
#include "platforms/io/topology_io.h"
#include "platforms/model/units.h"

#include <string.h>

#define MAX_BUFFER_PACKETS 1000000000
/* Tokens on one line: a statement cannot use more (every operand names at
 * least one node), and the bound keeps a hostile line from costing ~50
 * bytes of token per 2 bytes of input. */
#define MAX_TOKENS (NS_HOSTLIST_MAX + 8)

typedef struct {
  char *text;
  gboolean quoted;
} Token;

/* Attributes of a statement (or the current defaults). */
typedef struct {
  gboolean has_bandwidth, has_latency, has_forwarding, has_buffer, has_buffering, has_ports;
  double bandwidth, latency;
  NsForwarding forwarding;
  int buffer_packets;
  NsBuffering buffering;
  NsPortKind ports;
  int k_ports;
} Attrs;

typedef struct {
  const char *source;
  NsTopology *topo;
  int line;
  int name_line;          /* line of the `name` statement, 0 if none */
  int routing_line, grid_line; /* lines of `routing` and `grid`, 0 if none */
  NsRoutingKind routing;
  Attrs defaults;
  guint n_nodes, n_links;
  GError **error;
} Parser;

static void token_clear(gpointer p)
{
  g_free(((Token *)p)->text);
}

static gboolean fail(Parser *P, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(Parser *P, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ns_set_error_atv(P->error, NS_ERROR_INPUT, P->source, P->line, fmt, ap);
  va_end(ap);
  return FALSE;
}

/* ---- tokenizer ---------------------------------------------------------- */

/* A byte-order mark inside a token: name the token without it. */
static gboolean fail_bom(Parser *P, const Token *t)
{
  GString *shown = g_string_new(NULL);
  for (const char *p = t->text; *p != '\0';) {
    if (strncmp(p, NS_INPUT_BOM, 3) == 0) {
      p += 3;
      continue;
    }
    g_string_append_c(shown, *p++);
  }
  if (shown->len == 0)
    fail(P, "stray byte-order mark (U+FEFF): one is allowed only at the very start of the "
         "file");
  else if (t->quoted)
    fail(P, "a byte-order mark (U+FEFF) inside \"%s\": one is allowed only at the very start "
         "of the file", shown->str);
  else
    fail(P, "a byte-order mark (U+FEFF) inside '%s': one is allowed only at the very start "
         "of the file", shown->str);
  g_string_free(shown, TRUE);
  return FALSE;
}

/* Splits one line (without its newline) into tokens. */
static gboolean tokenize(Parser *P, const char *s, gsize len, GArray *tokens)
{
  if (memchr(s, '\0', len) != NULL)
    return fail(P, "NUL byte in the line");
  if (!g_utf8_validate(s, (gssize)len, NULL))
    return fail(P, "the line is not valid UTF-8");
  gsize i = 0;
  while (i < len) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      i++;
      continue;
    }
    if (c == '#')
      break;
    if ((guchar)c < 0x20 || c == 0x7f)
      return fail(P, "control character 0x%02x in the line", (guchar)c);
    Token tok = {0};
    if (c == '"') {
      GString *str = g_string_new(NULL);
      i++;
      gboolean closed = FALSE;
      while (i < len) {
        char d = s[i];
        if (d == '"') {
          closed = TRUE;
          i++;
          break;
        }
        if (d == '\\') {
          if (i + 1 < len && (s[i + 1] == '"' || s[i + 1] == '\\')) {
            g_string_append_c(str, s[i + 1]);
            i += 2;
            continue;
          }
          g_string_free(str, TRUE);
          return fail(P, "unknown escape in quoted string (only \\\" and \\\\ are allowed)");
        }
        if ((guchar)d < 0x20 || d == 0x7f) {
          g_string_free(str, TRUE);
          return fail(P, "control character 0x%02x in quoted string", (guchar)d);
        }
        g_string_append_c(str, d);
        i++;
      }
      if (!closed) {
        g_string_free(str, TRUE);
        return fail(P, "unterminated quoted string");
      }
      if (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '#') {
        GString *shown = g_string_new(NULL);
        for (gsize k = 0; k < str->len; k++) {
          if (str->str[k] == '"' || str->str[k] == '\\')
            g_string_append_c(shown, '\\');
          g_string_append_c(shown, str->str[k]);
        }
        fail(P, "missing blank after the quoted name \"%s\" (a quoted name stands alone: it "
             "cannot be part of a hostlist)", shown->str);
        g_string_free(shown, TRUE);
        g_string_free(str, TRUE);
        return FALSE;
      }
      tok.text = g_string_free(str, FALSE);
      tok.quoted = TRUE;
    } else {
      gsize start = i;
      while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '#') {
        if (s[i] == '"') {
          gsize stop = i;
          while (stop < len && s[stop] != ' ' && s[stop] != '\t' && s[stop] != '#')
            stop++;
          return fail(P, "unexpected '\"' in '%.*s' (quote whole names only)",
                      (int)(stop - start), s + start);
        }
        if ((guchar)s[i] < 0x20 || s[i] == 0x7f)
          return fail(P, "control character 0x%02x in the line", (guchar)s[i]);
        i++;
      }
      tok.text = g_strndup(s + start, i - start);
    }
    g_array_append_val(tokens, tok);
    if (strstr(tok.text, NS_INPUT_BOM) != NULL)
      return fail_bom(P, &tok);
    if (tokens->len > MAX_TOKENS)
      return fail(P, "more than %d tokens on the line", MAX_TOKENS);
  }
  return TRUE;
}

/* ---- values and attributes ---------------------------------------------- */

/* "64p" -> 64. */
static gboolean parse_packets(const char *v, int *out)
{
  gsize n = strlen(v);
  if (n < 2 || n > 11 || v[n - 1] != 'p')
    return FALSE;
  gint64 x = 0;
  for (gsize i = 0; i + 1 < n; i++) {
    if (!g_ascii_isdigit(v[i]))
      return FALSE;
    x = x * 10 + (v[i] - '0');
  }
  if (x < 1 || x > MAX_BUFFER_PACKETS)
    return FALSE;
  *out = (int)x;
  return TRUE;
}

/* Sets one attribute from its key and textual value. */
static gboolean set_attr(Parser *P, Attrs *a, const char *key, const char *value)
{
  const char *why = NULL;
  if (strcmp(key, "bandwidth") == 0) {
    if (!ns_parse_bandwidth(value, &a->bandwidth, &why))
      return fail(P, "invalid bandwidth '%s': %s", value, why);
    a->has_bandwidth = TRUE;
  } else if (strcmp(key, "latency") == 0) {
    if (!ns_parse_time(value, &a->latency, &why))
      return fail(P, "invalid latency '%s': %s", value, why);
    a->has_latency = TRUE;
  } else if (strcmp(key, "forwarding") == 0) {
    if (!ns_forwarding_parse(value, &a->forwarding))
      return fail(P, "invalid forwarding '%s' (expected store-and-forward or cut-through)",
                  value);
    a->has_forwarding = TRUE;
  } else if (strcmp(key, "buffer") == 0) {
    if (!parse_packets(value, &a->buffer_packets))
      return fail(P, "invalid buffer size '%s' (expected a number of packets from 1p to %dp, "
                  "e.g. buffer=64p)", value, MAX_BUFFER_PACKETS);
    a->has_buffer = TRUE;
  } else if (strcmp(key, "buffering") == 0) {
    if (!ns_buffering_parse(value, &a->buffering))
      return fail(P, "invalid buffering '%s' (expected input, output or shared)", value);
    a->has_buffering = TRUE;
  } else if (strcmp(key, "ports") == 0) {
    if (!ns_port_kind_parse(value, &a->ports, &a->k_ports))
      return fail(P, "invalid ports '%s' (expected one, all or a number of ports from 2 to %d)",
                  value, NS_MAX_PORTS);
    a->has_ports = TRUE;
  } else {
    return fail(P, "unknown attribute '%s'", key);
  }
  return TRUE;
}

static gboolean attr_is_set(const Attrs *a, const char *key)
{
  if (strcmp(key, "bandwidth") == 0)
    return a->has_bandwidth;
  if (strcmp(key, "latency") == 0)
    return a->has_latency;
  if (strcmp(key, "forwarding") == 0)
    return a->has_forwarding;
  if (strcmp(key, "buffer") == 0)
    return a->has_buffer;
  if (strcmp(key, "ports") == 0)
    return a->has_ports;
  return a->has_buffering;
}

static const char *const link_keys[] = {"bandwidth", "latency", NULL};
static const char *const machine_keys[] = {"ports", NULL};
static const char *const switch_keys[] = {"forwarding", "buffer", "buffering", NULL};
static const char *const default_keys[] = {"bandwidth", "latency", "forwarding", "buffer",
                                           "buffering", NULL};

static gboolean key_allowed(const char *key, const char *const *keys)
{
  for (int i = 0; keys[i] != NULL; i++)
    if (strcmp(key, keys[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean is_attribute(const Token *t)
{
  return !t->quoted && strchr(t->text, '=') != NULL;
}

/* Parses tokens[first..] as key=value attributes of a `what` statement. */
static gboolean parse_attrs(Parser *P, GArray *tokens, guint first, const char *what,
                            const char *const *keys, const char *expected, Attrs *a)
{
  for (guint i = first; i < tokens->len; i++) {
    const Token *t = &g_array_index(tokens, Token, i);
    if (!is_attribute(t))
      return fail(P, "unexpected %s'%s' after the attributes (attributes go last)",
                  t->quoted ? "quoted name " : "", t->text);
    const char *eq = strchr(t->text, '=');
    if (eq == t->text)
      return fail(P, "missing attribute name in '%s'", t->text);
    char *key = g_strndup(t->text, (gsize)(eq - t->text));
    const char *value = eq + 1;
    gboolean ok;
    if (keys == NULL)
      ok = fail(P, "'%s' takes no attributes, got '%s'", what, t->text);
    else if (!key_allowed(key, keys))
      ok = fail(P, "unknown %s attribute '%s' (expected %s)", what, key, expected);
    else if (*value == '\0')
      ok = fail(P, "missing value for attribute '%s'", key);
    else if (attr_is_set(a, key))
      ok = fail(P, "attribute '%s' given twice", key);
    else
      ok = set_attr(P, a, key, value);
    g_free(key);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* Index of the first attribute token at or after `first` (tokens->len if
 * none). */
static guint first_attr(GArray *tokens, guint first)
{
  guint i = first;
  while (i < tokens->len && !is_attribute(&g_array_index(tokens, Token, i)))
    i++;
  return i;
}

/* Names denoted by an operand: the literal for a quoted token, else the
 * hostlist expansion. */
static char **operand_names(Parser *P, const Token *t)
{
  if (t->quoted) {
    char **v = g_new0(char *, 2);
    v[0] = g_strdup(t->text);
    return v;
  }
  char *why = NULL;
  char **v = ns_hostlist_expand(t->text, &why);
  if (v == NULL) {
    fail(P, "%s", why);
    g_free(why);
  }
  return v;
}

/* ---- statements ----------------------------------------------------------- */

static gboolean stmt_name(Parser *P, GArray *tokens)
{
  if (tokens->len != 2)
    return fail(P, "'name' takes one quoted string, e.g. name \"Faraj-Yuan Figure 1\"");
  if (P->name_line > 0)
    return fail(P, "'name' given twice (first at line %d)", P->name_line);
  P->name_line = P->line;
  ns_topology_set_title(P->topo, g_array_index(tokens, Token, 1).text);
  return TRUE;
}

static gboolean stmt_default(Parser *P, GArray *tokens)
{
  if (tokens->len >= 2 && is_attribute(&g_array_index(tokens, Token, 1)))
    return fail(P, "write defaults as 'default KEY VALUE' without '=', e.g. "
                "'default bandwidth 100Mbps'");
  if (tokens->len < 3)
    return fail(P, "'default' needs a key and a value, e.g. 'default bandwidth 100Mbps'");
  const Token *k = &g_array_index(tokens, Token, 1);
  const Token *v = &g_array_index(tokens, Token, 2);
  if (k->quoted || !key_allowed(k->text, default_keys))
    return fail(P, "unknown default '%s' (expected bandwidth, latency, forwarding, buffer or "
                "buffering)", k->text);
  if (v->quoted)
    return fail(P, "invalid value \"%s\" for default '%s' (values are not quoted)", v->text,
                k->text);
  if (tokens->len > 3)
    return fail(P, "unexpected '%s' after 'default %s %s'",
                g_array_index(tokens, Token, 3).text, k->text, v->text);
  return set_attr(P, &P->defaults, k->text, v->text);
}

static gboolean add_nodes(Parser *P, GArray *tokens, guint end, NsNodeKind kind,
                          const Attrs *a)
{
  for (guint i = 1; i < end; i++) {
    char **names = operand_names(P, &g_array_index(tokens, Token, i));
    if (names == NULL)
      return FALSE;
    guint n = g_strv_length(names);
    if (P->n_nodes + n > NS_HOSTLIST_MAX) {
      g_strfreev(names);
      return fail(P, "more than %d nodes in the topology", NS_HOSTLIST_MAX);
    }
    for (guint j = 0; j < n; j++) {
      int id = ns_topology_add_node(P->topo, names[j], kind, P->line, P->error);
      if (id < 0) {
        g_strfreev(names);
        return FALSE;
      }
      P->n_nodes++;
      NsNode *node = ns_topology_node_mut(P->topo, id);
      if (kind == NS_NODE_SWITCH) {
        node->forwarding = a->forwarding;
        node->buffering = a->buffering;
        node->buffer_packets = a->buffer_packets;
      } else if (a != NULL && a->has_ports) {
        node->ports = a->ports;
        node->k_ports = a->k_ports;
      }
    }
    g_strfreev(names);
  }
  return TRUE;
}

static gboolean stmt_machine(Parser *P, GArray *tokens)
{
  guint end = first_attr(tokens, 1);
  if (end == 1)
    return fail(P, "'machine' needs at least one name, e.g. 'machine n[0-7]'");
  Attrs a = {0};
  if (!parse_attrs(P, tokens, end, "machine", machine_keys, "ports", &a))
    return FALSE;
  return add_nodes(P, tokens, end, NS_NODE_MACHINE, &a);
}

static gboolean stmt_switch(Parser *P, GArray *tokens)
{
  guint end = first_attr(tokens, 1);
  if (end == 1)
    return fail(P, "'switch' needs at least one name, e.g. 'switch s0 buffer=64p'");
  Attrs a = {0};
  if (!parse_attrs(P, tokens, end, "switch", switch_keys, "forwarding, buffer or buffering",
                   &a))
    return FALSE;
  if (!a.has_forwarding)
    a.forwarding = P->defaults.forwarding;
  if (!a.has_buffer)
    a.buffer_packets = P->defaults.buffer_packets;
  if (!a.has_buffering)
    a.buffering = P->defaults.buffering;
  return add_nodes(P, tokens, end, NS_NODE_SWITCH, &a);
}

static int lookup(Parser *P, const char *name)
{
  int id = ns_topology_find_node(P->topo, name);
  if (id < 0)
    fail(P, "unknown node '%s' (declare it with 'machine' or 'switch' before linking it)",
         name);
  return id;
}

static gboolean stmt_link(Parser *P, GArray *tokens)
{
  guint end = first_attr(tokens, 1);
  if (end < 3)
    return fail(P, "'link' needs two ends, e.g. 'link n[0-3] s0 bandwidth=1Gbps'");
  if (end > 3)
    return fail(P, "unexpected '%s' after the two ends of the link (expected key=value "
                "attributes)", g_array_index(tokens, Token, 3).text);
  Attrs a = {0};
  if (!parse_attrs(P, tokens, end, "link", link_keys, "bandwidth or latency", &a))
    return FALSE;
  double bandwidth = a.has_bandwidth ? a.bandwidth : P->defaults.bandwidth;
  double latency = a.has_latency ? a.latency : P->defaults.latency;

  const Token *right = &g_array_index(tokens, Token, 2);
  char **rnames = operand_names(P, right);
  if (rnames == NULL)
    return FALSE;
  guint rn = g_strv_length(rnames);
  if (rn != 1) {
    g_strfreev(rnames);
    return fail(P, "the right end of a link must be one node, but '%s' names %u",
                right->text, rn);
  }
  int b = lookup(P, rnames[0]);
  g_strfreev(rnames);
  if (b < 0)
    return FALSE;

  char **lnames = operand_names(P, &g_array_index(tokens, Token, 1));
  if (lnames == NULL)
    return FALSE;
  gboolean ok = TRUE;
  guint ln = g_strv_length(lnames);
  if (P->n_links + ln > NS_HOSTLIST_MAX)
    ok = fail(P, "more than %d links in the topology", NS_HOSTLIST_MAX);
  for (guint j = 0; ok && j < ln; j++) {
    int a_id = lookup(P, lnames[j]);
    ok = a_id >= 0 &&
         ns_topology_add_link(P->topo, a_id, b, bandwidth, latency, P->line, P->error) >= 0;
    P->n_links++;
  }
  g_strfreev(lnames);
  return ok;
}

/* routing tree|dimension-order|dmodk|smodk|shortest|ecmp|explicit */
static gboolean stmt_routing(Parser *P, GArray *tokens)
{
  if (tokens->len != 2)
    return fail(P, "'routing' takes one kind: tree, dimension-order, dmodk, smodk, shortest, "
                "ecmp or explicit");
  if (P->routing_line > 0)
    return fail(P, "'routing' given twice (first at line %d)", P->routing_line);
  const char *name = g_array_index(tokens, Token, 1).text;
  if (!ns_routing_kind_from_name(name, &P->routing))
    return fail(P, "unknown routing '%s' (expected tree, dimension-order, dmodk, smodk, "
                "shortest, ecmp or explicit)", name);
  P->routing_line = P->line;
  ns_topology_set_routing(P->topo, P->routing, P->line);
  return TRUE;
}

/* grid 8x8 torus|mesh: the machines, in declaration order, are the grid's
 * nodes, coordinate 0 varying fastest (topology.h). */
static gboolean stmt_grid(Parser *P, GArray *tokens)
{
  if (tokens->len != 3)
    return fail(P, "'grid' takes sizes and a kind, e.g. 'grid 8x8 torus' or 'grid 4x4x4 mesh'");
  if (P->grid_line > 0)
    return fail(P, "'grid' given twice (first at line %d)", P->grid_line);
  g_autofree char *spec = g_strdup_printf("%s %s", g_array_index(tokens, Token, 1).text,
                                          g_array_index(tokens, Token, 2).text);
  int n, sizes[NS_MAX_DIMS];
  gboolean wrap;
  g_autofree char *why = NULL;
  if (!ns_grid_spec_parse(spec, &n, sizes, &wrap, &why))
    return fail(P, "grid %s: %s", spec, why);
  P->grid_line = P->line;
  return ns_topology_set_grid(P->topo, n, sizes, wrap, P->line, P->error);
}

/* route A B C ...: the nodes from machine A to machine B, one name each. */
static gboolean stmt_route(Parser *P, GArray *tokens)
{
  if (tokens->len < 3)
    return fail(P, "'route' lists the nodes from a machine to a machine, e.g. "
                "'route n0 s0 s2 n5'");
  if (P->routing_line > 0 && P->routing != NS_ROUTING_EXPLICIT)
    return fail(P, "'route' lists explicit routes, but line %d chose routing %s",
                P->routing_line, ns_routing_kind_name(P->routing));
  int n = (int)tokens->len - 1;
  g_autofree int *nodes = g_new(int, n);
  for (int i = 0; i < n; i++) {
    const Token *t = &g_array_index(tokens, Token, (guint)i + 1);
    if (is_attribute(t))
      return fail(P, "'route' takes no attributes, got '%s'", t->text);
    if ((nodes[i] = lookup(P, t->text)) < 0)
      return FALSE;
  }
  return ns_topology_add_route(P->topo, nodes, n, P->line, P->error);
}

static gboolean parse_line(Parser *P, const char *s, gsize len)
{
  GArray *tokens = g_array_new(FALSE, TRUE, sizeof(Token));
  g_array_set_clear_func(tokens, token_clear);
  gboolean ok = tokenize(P, s, len, tokens);
  if (ok && tokens->len > 0) {
    const Token *kw = &g_array_index(tokens, Token, 0);
    const char *k = kw->quoted ? "" : kw->text;
    if (strcmp(k, "machine") == 0)
      ok = stmt_machine(P, tokens);
    else if (strcmp(k, "switch") == 0)
      ok = stmt_switch(P, tokens);
    else if (strcmp(k, "link") == 0)
      ok = stmt_link(P, tokens);
    else if (strcmp(k, "default") == 0)
      ok = stmt_default(P, tokens);
    else if (strcmp(k, "name") == 0)
      ok = stmt_name(P, tokens);
    else if (strcmp(k, "routing") == 0)
      ok = stmt_routing(P, tokens);
    else if (strcmp(k, "grid") == 0)
      ok = stmt_grid(P, tokens);
    else if (strcmp(k, "route") == 0)
      ok = stmt_route(P, tokens);
    else
      ok = fail(P, "unknown keyword %s%s%s (expected name, default, machine, switch, link, "
                "routing, grid or route)",
                kw->quoted ? "\"" : "'", kw->text, kw->quoted ? "\"" : "'");
  }
  g_array_free(tokens, TRUE);
  return ok;
}

/**
 * \function ns_topology_parse_native
 * \brief Reads a topology in the native format from memory.
 *
 * A UTF-8 byte-order mark at the very start is skipped; anywhere else it
 * is an error naming it.
 *
 * \param source Name used in messages ("file:line").
 * \param text, len The text (need not be NUL-terminated).
 * \param warn, warn_data Receive non-fatal findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL on error.
 * \errors NS_ERROR_INPUT "source:line: what is wrong" (invisible characters
 *         escaped).
 * \complexity O(len + expanded hostlists + |V| + |E|), plus the routing's
 *         set-up.
 * \source docs/topology-format.md, "Native format".
 */
NsTopology *ns_topology_parse_native(const char *source, const char *text, gsize len,
                                     NsWarnFunc warn, void *warn_data, GError **error)
{
  g_return_val_if_fail(error == NULL || *error == NULL, NULL);
  if (source == NULL)
    source = "<native>";
  if (text == NULL)
    len = 0;
  Parser P = {
    .source = source,
    .topo = ns_topology_new(source),
    .defaults = {
      .bandwidth = NS_DEFAULT_BANDWIDTH,
      .latency = NS_DEFAULT_LATENCY,
      .forwarding = NS_FORWARD_STORE_AND_FORWARD,
      .buffering = NS_BUFFER_OUTPUT,
      .buffer_packets = 0,
    },
    .error = error,
  };
  /* A caller may pass NULL for error: keep our own to know we failed. */
  GError *local = NULL;
  if (error == NULL)
    P.error = &local;

  gsize pos = 0;
  gboolean ok = TRUE;
  if (len >= 3 && memcmp(text, NS_INPUT_BOM, 3) == 0)
    pos = 3; /* a byte-order mark at the very start of the file */
  else if (ns_input_utf16_bom(text, len)) {
    P.line = 1;
    ok = fail(&P, "the file is UTF-16 (it starts with the byte-order mark %02X %02X): save it "
              "as UTF-8", (guchar)text[0], (guchar)text[1]);
  }
  while (ok && pos < len) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    gsize end = nl != NULL ? (gsize)(nl - text) : len;
    if (P.line == G_MAXINT) {
      ok = fail(&P, "too many lines");
      break;
    }
    P.line++;
    ok = parse_line(&P, text + pos, end - pos);
    pos = end + 1;
  }
  P.line = 0;
  NsInputWarn w = {warn, warn_data};
  if (ok)
    ok = ns_topology_finalize(P.topo, warn != NULL ? ns_input_escaping_warn : NULL, &w,
                              P.error);
  if (!ok)
    ns_input_escape_error(*P.error);
  g_clear_error(&local);
  if (!ok) {
    ns_topology_free(P.topo);
    return NULL;
  }
  return P.topo;
}
