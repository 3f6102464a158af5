/* netsched — topology writers: native text, Graphviz DOT and GraphML.
 *
 * The native writer lists nodes in node-id order and links in link order,
 * each link with its ends in the stored orientation, so reading the output
 * back gives the same node ids, machine indices, link ids and directed
 * edge ids. Consecutive names are compressed into hostlist expressions
 * ("n[0-7,12]"); every compressed expression is expanded again and checked
 * before it is used, and names that are not plain are written as quoted
 * literals. The GraphML writer emits an undirected graph with the
 * attributes read_graphml.c understands.
 */
#include "platforms/model/error.h"
#include "platforms/io/hostlist_internal.h"
#include "platforms/io/hostlist_compress_internal.h"
#include "platforms/io/topology_io.h"
#include "platforms/model/topology_internal.h"
#include "platforms/model/units.h"

#include <errno.h>
#include <string.h>

/* Native output lines are broken around this width where possible. */
#define LINE_WIDTH 96

/* ---- helpers shared by the writers --------------------------------------- */

static gboolean finish(FILE *out, GError **error)
{
  if (fflush(out) != 0 || ferror(out)) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot write the topology: %s",
                    g_strerror(e != 0 ? e : EIO));
    return FALSE;
  }
  return TRUE;
}

/* Comments must stay on one line. */
static char *one_line(const char *s)
{
  char *r = g_strdup(s != NULL ? s : "");
  for (char *p = r; *p != '\0'; p++)
    if ((guchar)*p < 0x20 || *p == 0x7f)
      *p = '?';
  return r;
}

/* Names the text formats can carry: UTF-8 without control characters (all
 * readers guarantee this; a topology built through the API might not). */
static gboolean writable_names(const NsTopology *topo, const char *format, GError **error)
{
  for (int v = 0; v < ns_topology_n_nodes(topo); v++) {
    const char *name = ns_topology_node(topo, v)->name;
    gboolean ok = g_utf8_validate(name, -1, NULL);
    for (const char *c = name; ok && *c != '\0'; c++)
      ok = (guchar)*c >= 0x20 && *c != 0x7f;
    if (!ok) {
      char *shown = g_strescape(name, NULL);
      ns_set_error_at(error, NS_ERROR_UNSUPPORTED, ns_topology_source(topo), 0,
                      "node name \"%s\" has control characters or is not UTF-8: it cannot be "
                      "written in the %s format", shown, format);
      g_free(shown);
      return FALSE;
    }
  }
  return TRUE;
}

/* ---- native --------------------------------------------------------------- */

/* A name that can be written without quotes: it is read back as a hostlist
 * expression that expands to itself. */
static gboolean plain_name(const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum(*s) && strchr("_.:/@+-", *s) == NULL)
      return FALSE;
  return TRUE;
}

static void append_quoted(GString *out, const char *s)
{
  g_string_append_c(out, '"');
  for (; *s != '\0'; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_c(out, '\\');
    g_string_append_c(out, *s);
  }
  g_string_append_c(out, '"');
}

static gboolean fits(char **names, gsize n)
{
  char *e = ns_hostlist_compress((const char *const *)names, (int)n);
  gboolean ok = strlen(e) <= LINE_WIDTH;
  g_free(e);
  return ok;
}

/* Operands for names[0..n): plain names compressed into hostlist
 * expressions (verified by expanding them again), other names quoted.
 * Every operand is at most about LINE_WIDTH characters unless one name is
 * longer. Returns a NULL-terminated vector. */
static char **operands(char **names, gsize n)
{
  GPtrArray *ops = g_ptr_array_new();
  gsize i = 0, run_end = 0; /* names[i..run_end) are plain */
  while (i < n) {
    if (!plain_name(names[i])) {
      GString *q = g_string_new(NULL);
      append_quoted(q, names[i]);
      g_ptr_array_add(ops, g_string_free(q, FALSE));
      i++;
      continue;
    }
    /* The longest run of plain names whose expression stays within
     * LINE_WIDTH (at least one name). The length of the expression never
     * decreases as names are added, so double the run, then bisect:
     * O(k log k) for an operand of k names, linear overall. */
    if (run_end <= i) {
      run_end = i + 1;
      while (run_end < n && plain_name(names[run_end]))
        run_end++;
    }
    gsize run = run_end - i;
    gsize good = 1, bad = run + 1; /* run lengths known to fit / not to fit */
    for (gsize len = 2; len <= run; len *= 2) {
      if (!fits(names + i, len)) {
        bad = len;
        break;
      }
      good = len;
    }
    if (bad == run + 1 && good < run) {
      if (fits(names + i, run))
        good = run;
      else
        bad = run;
    }
    while (bad > good + 1) {
      gsize mid = good + (bad - good) / 2;
      if (fits(names + i, mid))
        good = mid;
      else
        bad = mid;
    }
    gsize end = i + good;
    char *expr = ns_hostlist_compress((const char *const *)names + i, (int) good);
    /* Verify the round trip; fall back to one name per operand. */
    char **back = ns_hostlist_expand(expr, NULL);
    gboolean same = back != NULL && g_strv_length(back) == end - i;
    for (gsize k = 0; same && k < end - i; k++)
      same = strcmp(back[k], names[i + k]) == 0;
    g_strfreev(back);
    if (!same) {
      g_free(expr);
      GString *q = g_string_new(NULL);
      append_quoted(q, names[i]);
      expr = g_string_free(q, FALSE);
      end = i + 1;
    }
    g_ptr_array_add(ops, expr);
    i = end;
  }
  g_ptr_array_add(ops, NULL);
  return (char **)g_ptr_array_free(ops, FALSE);
}

static char *operand1(const char *name)
{
  if (plain_name(name))
    return g_strdup(name);
  GString *q = g_string_new(NULL);
  append_quoted(q, name);
  return g_string_free(q, FALSE);
}

static int cmp_double(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/* Most frequent value of a link field (ties: the smallest). */
static double mode_of(const NsTopology *topo, gboolean bandwidth)
{
  int m = ns_topology_n_links(topo);
  if (m == 0)
    return bandwidth ? NS_DEFAULT_BANDWIDTH : NS_DEFAULT_LATENCY;
  double *v = g_new(double, m);
  for (int i = 0; i < m; i++) {
    const NsLink *l = ns_topology_link(topo, i);
    v[i] = bandwidth ? l->bandwidth : l->latency;
  }
  qsort(v, (size_t)m, sizeof(double), cmp_double);
  double best = v[0];
  int best_n = 0;
  for (int i = 0; i < m;) {
    int j = i;
    while (j < m && v[j] == v[i])
      j++;
    if (j - i > best_n) {
      best_n = j - i;
      best = v[i];
    }
    i = j;
  }
  g_free(v);
  return best;
}

/* Writes "KEYWORD op op ... [attrs]" statements, starting a new statement
 * when a line would grow past LINE_WIDTH. */
static void emit_statements(GString *out, const char *keyword, char **ops, const char *attrs)
{
  GString *line = g_string_new(NULL);
  for (int i = 0; ops[i] != NULL; i++) {
    if (line->len > 0 && line->len + 1 + strlen(ops[i]) + strlen(attrs) > LINE_WIDTH) {
      g_string_append_printf(out, "%s%s%s\n", keyword, line->str, attrs);
      g_string_truncate(line, 0);
    }
    g_string_append_c(line, ' ');
    g_string_append(line, ops[i]);
  }
  if (line->len > 0)
    g_string_append_printf(out, "%s%s%s\n", keyword, line->str, attrs);
  g_string_free(line, TRUE);
}

static gboolean same_switch_attrs(const NsNode *a, const NsNode *b)
{
  return a->forwarding == b->forwarding && a->buffering == b->buffering &&
         a->buffer_packets == b->buffer_packets;
}

static gboolean same_node_attrs(const NsNode *a, const NsNode *b)
{
  if (a->kind != b->kind)
    return FALSE;
  if (a->kind == NS_NODE_MACHINE)
    return a->ports == b->ports && a->k_ports == b->k_ports;
  return same_switch_attrs(a, b);
}

static char *machine_attrs(const NsNode *m)
{
  g_autofree char *ports = ns_port_kind_to_string(m->ports, m->k_ports);
  return ports != NULL ? g_strconcat(" ports=", ports, NULL) : g_strdup("");
}

/* The fabric statements: the routing when it is not a tree's, the grid,
 * and explicit routes (after the links they follow). */
static void write_routing(const NsTopology *topo, GString *o)
{
  int sizes[NS_MAX_DIMS];
  gboolean wrap;
  int dims = ns_topology_grid(topo, sizes, &wrap);
  if (dims > 0) {
    g_string_append(o, "grid ");
    for (int d = 0; d < dims; d++)
      g_string_append_printf(o, "%s%d", d ? "x" : "", sizes[d]);
    g_string_append_printf(o, " %s\n", wrap ? "torus" : "mesh");
  }
  if (ns_topology_routing(topo) != NS_ROUTING_TREE)
    g_string_append_printf(o, "routing %s\n", ns_routing_kind_name(ns_topology_routing(topo)));
}

static void write_routes(const NsTopology *topo, GString *o)
{
  for (guint i = 0; i < topo->route_heads->len; i++) {
    const RouteHead *h = &g_array_index(topo->route_heads, RouteHead, i);
    g_string_append(o, i == 0 ? "\nroute" : "route");
    for (int k = 0; k < h->n; k++) {
      g_string_append_c(o, ' ');
      char *op = operand1(ns_topology_node(topo, g_array_index(topo->route_nodes, int,
                                                               h->first + k))->name);
      g_string_append(o, op);
      g_free(op);
    }
    g_string_append_c(o, '\n');
  }
}

static char *switch_attrs(const NsNode *s)
{
  GString *a = g_string_new(NULL);
  if (s->forwarding != NS_FORWARD_STORE_AND_FORWARD)
    g_string_append_printf(a, " forwarding=%s", ns_forwarding_name(s->forwarding));
  if (s->buffer_packets > 0)
    g_string_append_printf(a, " buffer=%dp", s->buffer_packets);
  if (s->buffering != NS_BUFFER_OUTPUT)
    g_string_append_printf(a, " buffering=%s", ns_buffering_name(s->buffering));
  return g_string_free(a, FALSE);
}

/**
 * \function ns_topology_write_native
 * \brief Writes a topology as native text that reads back identical.
 *
 * Nodes in id order and links in link order with their stored ends, so the
 * same node ids, machine indices, link ids and directed edges come back;
 * consecutive names compressed into hostlists (each expanded again and
 * checked), names that are not plain quoted.
 *
 * \param topo A finalized topology.
 * \param out The stream (flushed and checked).
 * \param error Set on failure (see errors).
 * \return TRUE when everything was written.
 * \errors NS_ERROR_UNSUPPORTED for a node name with control characters or
 *         not UTF-8; NS_ERROR_IO when the stream cannot be written.
 * \complexity O(|V| + |E| + explicit routes), hostlist compression
 *         O(k log k) per operand of k names.
 * \source docs/topology-format.md, "Native format".
 */
gboolean ns_topology_write_native(const NsTopology *topo, FILE *out, GError **error)
{
  if (!writable_names(topo, "native", error))
    return FALSE;
  GString *o = g_string_new(NULL);
  int n = ns_topology_n_nodes(topo), m = ns_topology_n_links(topo);
  int machines = 0;
  for (int v = 0; v < n; v++)
    machines += ns_topology_node(topo, v)->kind == NS_NODE_MACHINE;
  char *src = one_line(ns_topology_source(topo));
  g_string_append_printf(o,
                         "# netsched topology, native format (docs/topology-format.md)\n"
                         "# written from: %s\n"
                         "# %d machine%s, %d switch%s, %d link%s\n",
                         src, machines, machines == 1 ? "" : "s", n - machines,
                         n - machines == 1 ? "" : "es", m, m == 1 ? "" : "s");
  g_free(src);
  if (ns_topology_title(topo) != NULL) {
    g_string_append(o, "name ");
    append_quoted(o, ns_topology_title(topo));
    g_string_append_c(o, '\n');
  }
  double bw = mode_of(topo, TRUE), lat = mode_of(topo, FALSE);
  char *bws = ns_format_bandwidth(bw), *lats = ns_format_time(lat);
  g_string_append_printf(o, "default bandwidth %s\ndefault latency %s\n", bws, lats);
  write_routing(topo, o);
  g_string_append_c(o, '\n');
  g_free(bws);
  g_free(lats);

  /* Nodes: runs of the same kind (and switch attributes), in id order. */
  char **names = g_new0(char *, (gsize)MAX(n, m) + 1); /* node runs and link runs */
  for (int v = 0; v < n;) {
    const NsNode *first = ns_topology_node(topo, v);
    int w = v;
    while (w < n && same_node_attrs(first, ns_topology_node(topo, w)))
      w++;
    for (int k = v; k < w; k++)
      names[k - v] = ns_topology_node(topo, k)->name;
    names[w - v] = NULL;
    char **ops = operands(names, (gsize)(w - v));
    char *attrs = first->kind == NS_NODE_SWITCH ? switch_attrs(first) : machine_attrs(first);
    emit_statements(o, first->kind == NS_NODE_SWITCH ? "switch" : "machine", ops, attrs);
    g_free(attrs);
    g_strfreev(ops);
    v = w;
  }
  if (n > 0 && m > 0)
    g_string_append_c(o, '\n');

  /* Links: runs with the same right end, bandwidth and latency. */
  for (int i = 0; i < m;) {
    const NsLink *first = ns_topology_link(topo, i);
    int j = i;
    while (j < m && ns_topology_link(topo, j)->b == first->b &&
           ns_topology_link(topo, j)->bandwidth == first->bandwidth &&
           ns_topology_link(topo, j)->latency == first->latency)
      j++;
    for (int k = i; k < j; k++)
      names[k - i] = ns_topology_node(topo, ns_topology_link(topo, k)->a)->name;
    names[j - i] = NULL;
    char **ops = operands(names, (gsize)(j - i));
    char *right = operand1(ns_topology_node(topo, first->b)->name);
    GString *attrs = g_string_new(NULL);
    if (first->bandwidth != bw) {
      char *t = ns_format_bandwidth(first->bandwidth);
      g_string_append_printf(attrs, " bandwidth=%s", t);
      g_free(t);
    }
    if (first->latency != lat) {
      char *t = ns_format_time(first->latency);
      g_string_append_printf(attrs, " latency=%s", t);
      g_free(t);
    }
    for (int k = 0; ops[k] != NULL; k++)
      g_string_append_printf(o, "link %s %s%s\n", ops[k], right, attrs->str);
    g_string_free(attrs, TRUE);
    g_free(right);
    g_strfreev(ops);
    i = j;
  }
  g_free(names);
  write_routes(topo, o);

  fwrite(o->str, 1, o->len, out);
  g_string_free(o, TRUE);
  return finish(out, error);
}

/* ---- DOT ------------------------------------------------------------------ */

static void dot_id(GString *out, const char *s)
{
  g_string_append_c(out, '"');
  for (; *s != '\0'; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_c(out, '\\');
    if (*s == '\n')
      g_string_append(out, "\\n");
    else
      g_string_append_c(out, *s);
  }
  g_string_append_c(out, '"');
}

/**
 * \function ns_topology_write_dot
 * \brief Writes a topology as a Graphviz graph (for pictures only).
 *
 * \param topo A finalized topology.
 * \param out The stream (flushed and checked).
 * \param error Set on failure (see errors).
 * \return TRUE when everything was written.
 * \errors NS_ERROR_IO when the stream cannot be written.
 * \complexity O(|V| + |E|).
 * \source docs/topology-format.md, "DOT".
 */
gboolean ns_topology_write_dot(const NsTopology *topo, FILE *out, GError **error)
{
  GString *o = g_string_new(NULL);
  char *src = one_line(ns_topology_source(topo));
  g_string_append_printf(o, "// netsched topology, written from: %s\n", src);
  g_free(src);
  g_string_append(o, "graph topology {\n"
                     "  node [fontname=\"Helvetica\"];\n"
                     "  edge [fontname=\"Helvetica\", fontsize=10];\n");
  for (int v = 0; v < ns_topology_n_nodes(topo); v++) {
    const NsNode *nd = ns_topology_node(topo, v);
    g_string_append(o, "  ");
    dot_id(o, nd->name);
    if (nd->kind == NS_NODE_MACHINE) {
      g_string_append(o, " [shape=box];\n");
    } else {
      g_string_append_printf(o, " [shape=ellipse, tooltip=\"%s, %s buffering",
                             ns_forwarding_name(nd->forwarding), ns_buffering_name(nd->buffering));
      if (nd->buffer_packets > 0)
        g_string_append_printf(o, ", %d packets", nd->buffer_packets);
      g_string_append(o, "\"];\n");
    }
  }
  for (int i = 0; i < ns_topology_n_links(topo); i++) {
    const NsLink *l = ns_topology_link(topo, i);
    char *bw = ns_format_bandwidth(l->bandwidth), *lat = ns_format_time(l->latency);
    g_string_append(o, "  ");
    dot_id(o, ns_topology_node(topo, l->a)->name);
    g_string_append(o, " -- ");
    dot_id(o, ns_topology_node(topo, l->b)->name);
    g_string_append_printf(o, " [label=\"%s\", tooltip=\"%s, latency %s\"];\n", bw, bw, lat);
    g_free(bw);
    g_free(lat);
  }
  g_string_append(o, "}\n");
  fwrite(o->str, 1, o->len, out);
  g_string_free(o, TRUE);
  return finish(out, error);
}

/* ---- GraphML -------------------------------------------------------------- */

/* GraphML ids are NMTOKENs; names that are not get "v<index>" ids. */
static gboolean nmtoken(const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum(*s) && strchr("_.:-", *s) == NULL)
      return FALSE;
  return TRUE;
}

/* Shortest decimal text that reads back as exactly `v`. */
static const char *exact_double(char *buf, gsize size, double v)
{
  char fmt[8];
  for (int p = 1; p <= 17; p++) {
    g_snprintf(fmt, sizeof fmt, "%%.%dg", p);
    g_ascii_formatd(buf, (gint)size, fmt, v);
    if (g_ascii_strtod(buf, NULL) == v)
      break;
  }
  return buf;
}

static void xml_text(GString *out, const char *s)
{
  char *e = g_markup_escape_text(s, -1);
  g_string_append(out, e);
  g_free(e);
}

/**
 * \function ns_topology_write_graphml
 * \brief Writes a topology as GraphML that the GraphML reader takes back.
 *
 * An undirected graph with the keys read_graphml.c understands (kind,
 * bandwidth and latency printed exactly, forwarding and buffering of every
 * switch, buffer when specified); reading it back gives the same nodes and
 * links in the same order.
 *
 * \param topo A finalized topology.
 * \param out The stream (flushed and checked).
 * \param error Set on failure (see errors).
 * \return TRUE when everything was written.
 * \errors NS_ERROR_UNSUPPORTED for names with control characters or not
 *         UTF-8, or what GraphML cannot carry (explicit routes);
 *         NS_ERROR_IO when the stream cannot be written.
 * \complexity O(|V| + |E|).
 * \source docs/topology-format.md, "GraphML".
 */
gboolean ns_topology_write_graphml(const NsTopology *topo, FILE *out, GError **error)
{
  if (!writable_names(topo, "GraphML", error))
    return FALSE;
  if (topo->route_heads->len > 0) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, ns_topology_source(topo), 0,
                    "explicit routes have no GraphML form: write the native format");
    return FALSE;
  }
  int n = ns_topology_n_nodes(topo), m = ns_topology_n_links(topo);
  gboolean names_as_ids = TRUE;
  for (int v = 0; v < n && names_as_ids; v++)
    names_as_ids = nmtoken(ns_topology_node(topo, v)->name);
  char **ids = g_new0(char *, (gsize)n + 1);
  for (int v = 0; v < n; v++)
    ids[v] = names_as_ids ? g_markup_escape_text(ns_topology_node(topo, v)->name, -1)
                          : g_strdup_printf("v%d", v);

  GString *o = g_string_new(NULL);
  g_string_append(
    o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
       "<!-- netsched topology: kind = machine | switch; bandwidth in bit/s, latency in s -->\n"
       "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
       "         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
       "         xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
       "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n"
       "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
       "  <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
       "  <key id=\"forwarding\" for=\"node\" attr.name=\"forwarding\" attr.type=\"string\"/>\n"
       "  <key id=\"buffering\" for=\"node\" attr.name=\"buffering\" attr.type=\"string\"/>\n"
       "  <key id=\"buffer\" for=\"node\" attr.name=\"buffer\" attr.type=\"double\"/>\n"
       "  <key id=\"bandwidth\" for=\"edge\" attr.name=\"bandwidth\" attr.type=\"double\"/>\n"
       "  <key id=\"latency\" for=\"edge\" attr.name=\"latency\" attr.type=\"double\"/>\n"
       "  <key id=\"ports\" for=\"node\" attr.name=\"ports\" attr.type=\"string\"/>\n"
       "  <key id=\"routing\" for=\"graph\" attr.name=\"routing\" attr.type=\"string\"/>\n"
       "  <key id=\"grid\" for=\"graph\" attr.name=\"grid\" attr.type=\"string\"/>\n"
       "  <graph id=\"topology\" edgedefault=\"undirected\">\n");
  g_string_append_printf(o, "    <data key=\"routing\">%s</data>\n",
                         ns_routing_kind_name(ns_topology_routing(topo)));
  int sizes[NS_MAX_DIMS];
  gboolean wrap;
  int dims = ns_topology_grid(topo, sizes, &wrap);
  if (dims > 0) {
    g_string_append(o, "    <data key=\"grid\">");
    for (int d = 0; d < dims; d++)
      g_string_append_printf(o, "%s%d", d ? "x" : "", sizes[d]);
    g_string_append_printf(o, " %s</data>\n", wrap ? "torus" : "mesh");
  }
  for (int v = 0; v < n; v++) {
    const NsNode *nd = ns_topology_node(topo, v);
    g_string_append_printf(o, "    <node id=\"%s\"><data key=\"kind\">%s</data><data key=\"name\">",
                           ids[v], nd->kind == NS_NODE_MACHINE ? "machine" : "switch");
    xml_text(o, nd->name);
    g_string_append(o, "</data>");
    if (nd->kind == NS_NODE_SWITCH) {
      g_string_append_printf(o, "<data key=\"forwarding\">%s</data>"
                                "<data key=\"buffering\">%s</data>",
                             ns_forwarding_name(nd->forwarding), ns_buffering_name(nd->buffering));
      if (nd->buffer_packets > 0)
        g_string_append_printf(o, "<data key=\"buffer\">%d</data>", nd->buffer_packets);
    } else if (nd->ports != NS_PORTS_DEFAULT) {
      g_autofree char *ports = ns_port_kind_to_string(nd->ports, nd->k_ports);
      g_string_append_printf(o, "<data key=\"ports\">%s</data>", ports);
    }
    g_string_append(o, "</node>\n");
  }
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  for (int i = 0; i < m; i++) {
    const NsLink *l = ns_topology_link(topo, i);
    g_string_append_printf(o, "    <edge source=\"%s\" target=\"%s\">", ids[l->a], ids[l->b]);
    g_string_append_printf(o, "<data key=\"bandwidth\">%s</data>",
                           exact_double(num, sizeof num, l->bandwidth));
    g_string_append_printf(o, "<data key=\"latency\">%s</data></edge>\n",
                           exact_double(num, sizeof num, l->latency));
  }
  g_string_append(o, "  </graph>\n</graphml>\n");
  g_strfreev(ids);
  fwrite(o->str, 1, o->len, out);
  g_string_free(o, TRUE);
  return finish(out, error);
}
