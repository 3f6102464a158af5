/* netsched — GraphML reader, through igraph's GraphML parser and its C
 * attribute handler, behind a pre-check of our own.
 *
 * Vertex attributes:
 *   kind        (string, required)  machine | switch
 *   name        (string, optional)  node name; the GraphML id when absent or empty
 *   forwarding  (string, optional)  store-and-forward | cut-through (switches)
 *   buffering   (string, optional)  input | output | shared (switches)
 *   buffer      (number or "64p")   buffer size in packets (switches)
 * Edge attributes:
 *   bandwidth   (number in bit/s, or a string with a unit such as "1Gbps")
 *   latency     (number in s, or a string with a unit such as "5us")
 * Missing edge values take NS_DEFAULT_BANDWIDTH / NS_DEFAULT_LATENCY.
 *
 * Nodes are added in the order of their <node> elements (so machines keep
 * their order). Links keep the edge order. An undirected edge's first end
 * is the vertex that igraph numbers first (the one named first in the
 * document). In a directed graph every edge is a full-duplex link from
 * source to target, and a pair u->v, v->u is merged into one link (the
 * first one); the pair must agree on bandwidth and latency.
 *
 * The pre-check. igraph reports no line numbers, merges <node> elements
 * that share an id, silently skips nested graphs and hyperedges, and
 * spends time quadratic in the length of a <data> value and in the number
 * of pieces libxml2 delivers it in. So before igraph sees the file, GLib's
 * GMarkupParseContext reads it once, mirroring igraph's GraphML state
 * machine (namespaces included), and
 *   - records the line of every <node> and <edge>, refuses a duplicate id
 *     ("file:12: duplicate node id 'n3' (first declared at line 7)"), an
 *     edge to an undeclared node, nested graphs, hyperedges and GraphML
 *     elements igraph would ignore;
 *   - refuses what GMarkup and libxml2 could read differently: other
 *     encodings than UTF-8, DOCTYPE internal subsets (entity and attribute
 *     declarations; this also keeps XXE and entity expansion out), entity
 *     references other than the predefined ones;
 *   - bounds what igraph would spend: nodes and edges (NS_HOSTLIST_MAX
 *     each), attribute values igraph allocates (keys times elements),
 *     nesting depth, attributes per element, namespace declarations in
 *     scope and the work of assembling <data> text.
 * After igraph has parsed, its vertices and edges are compared with the
 * pre-check's (ids, order, ends): the lines in messages are then exact, and
 * a disagreement is an error, never a silent merge. Node names taken from
 * ids are the pre-check's: igraph (with libxml2 2.9) returns an id
 * "a&amp;b" as "a&#38;b".
 */
#include "platforms/model/error.h"
#include "platforms/io/hostlist_internal.h"
#include "platforms/io/read_options.h"
#include "platforms/io/topology_input_internal.h"
#include "platforms/io/topology_io.h"
#include "platforms/model/units.h"

#include <errno.h>
#include <igraph.h>
#include <math.h>
#include <string.h>

#define GRAPHML_NS "http://graphml.graphdrawing.org/xmlns"
#define XML_NS "http://www.w3.org/XML/1998/namespace"
/* libxml2's default depth limit (igraph lifts it with XML_PARSE_HUGE). */
#define MAX_DEPTH 256
/* The longest start tag, end tag, comment, PI, CDATA section or DOCTYPE. */
#define MAX_MARKUP ((gsize)4 << 20)
/* libxml2 checks an element's attributes for duplicates pairwise. */
#define MAX_ATTRIBUTES 256
/* libxml2 resolves a prefix by scanning the declarations in scope. */
#define MAX_NAMESPACES 64
/* igraph gives every key a value for every node (or edge), a copy of the
 * key's default for strings, and copies them all once more when it builds
 * the graph: about CELL_BYTES + 2 x (length of the default) per key and
 * element. MAX_ATTR_BYTES bounds the sum (1M nodes with 5 keys and 1M
 * edges with 2 need ~560 MiB). */
#define CELL_BYTES 80
#define MAX_ATTR_BYTES ((guint64)1 << 30)
/* igraph appends each piece libxml2 delivers of a <data> value to what it
 * has, with strlen and realloc: pieces x length bytes touched, summed over
 * the file; 2^34 is a second or two. */
#define MAX_TEXT_WORK ((guint64)1 << 34)

/* ---- igraph error handling ------------------------------------------------ */

/* igraph's error and warning handlers are process-wide (thread-local when
 * igraph is built thread-safe); the first message of a failing call is
 * kept here. */
static _Thread_local char igraph_reason[512];

static void record_igraph_error(const char *reason, const char *file, int line,
                                igraph_error_t code)
{
  (void)file;
  (void)line;
  if (igraph_reason[0] == '\0') {
    if (reason != NULL && reason[0] != '\0')
      g_strlcpy(igraph_reason, reason, sizeof igraph_reason);
    else
      g_strlcpy(igraph_reason, igraph_strerror(code), sizeof igraph_reason);
  }
  /* Required of every non-aborting handler (igraph_error.h). */
  IGRAPH_FINALLY_FREE();
}

static void ignore_igraph_warning(const char *reason, const char *file, int line)
{
  (void)reason;
  (void)file;
  (void)line;
}

static gpointer install_attribute_table(gpointer data)
{
  (void)data;
  igraph_set_attribute_table(&igraph_cattribute_table);
  return NULL;
}

/* ---- the pre-check ---------------------------------------------------------- */

/* igraph's parser states (src/io/graphml.c), mirrored. */
typedef enum {
  ST_START,
  ST_GRAPHML,
  ST_GRAPH,
  ST_NODE,
  ST_EDGE,
  ST_KEY,
  ST_DEFAULT,
  ST_DATA,
  ST_FINISH,
  ST_UNKNOWN,
} State;

typedef struct {
  char *id;          /* GraphML id (also the key of Scan.ids) */
  int vertex;        /* igraph's vertex id: the order of first mention */
  int line;          /* its <node>; while undeclared, the first <edge> naming it */
  gboolean declared;
} ScanNode;

typedef struct {
  int a, b;          /* igraph vertices of source and target */
  int line;
} ScanEdge;

typedef struct {
  char *prefix;      /* "" for the default namespace */
  char *uri;         /* "" for no namespace */
} Binding;

typedef struct {
  char *local;       /* local name, for messages */
  guint bindings;    /* namespace declarations made by the element */
} Open;

typedef struct {
  const char *source;
  const char *text;  /* what GMarkup parses (after a byte-order mark) */
  gsize len;
  gboolean ascii;    /* the file is pure ASCII */
  GMarkupParseContext *ctx;
  int tag_line;          /* line of the markup being handled */
  int cur_line;          /* GMarkup's line at cur_line_start: */
  gsize cur_line_start;  /* 0, or the offset of the newline that starts it */
  gsize last_event;      /* offset just after the last markup seen */
  gboolean markup_seen;
  GArray *open;          /* Open, one per open element */
  GArray *bindings;      /* Binding, the namespace declarations in scope */
  /* igraph's state machine */
  State st;
  GArray *stack;         /* State */
  guint unknown_depth;
  int graphs;            /* <graph> elements seen in ST_GRAPHML */
  gboolean ignore_ns;    /* root <graphml> without namespace: lenient */
  guint later_graph;     /* depth of an open <graph> after the first, else 0 */
  /* what igraph will build */
  GHashTable *ids;       /* id -> ScanNode */
  GPtrArray *vertices;   /* ScanNode, by igraph vertex id */
  GArray *declared;      /* int: vertex of each <node>, in document order */
  GArray *edges;         /* ScanEdge, in igraph's edge order */
  guint64 node_keys, edge_keys;          /* counts, for messages */
  guint64 node_key_bytes, edge_key_bytes; /* per node and per edge, in igraph */
  int key_domain;        /* of the open <key>: 1 node, 2 edge, else 0 */
  gboolean user_id_key;  /* a node key named "id" replaces igraph's ids */
  /* text that igraph assembles (<data>, <default>) */
  guint text_depth;      /* depth of that element, 0 if none is open */
  int text_line;
  guint64 text_pieces, text_bytes, text_work;
  GError *failure;       /* set by the callbacks (NS_ERROR) */
} Scan;

static void scan_node_free(gpointer p)
{
  ScanNode *n = p;
  g_free(n->id);
  g_free(n);
}

static void open_clear(gpointer p)
{
  g_free(((Open *)p)->local);
}

static void binding_clear(gpointer p)
{
  Binding *b = p;
  g_free(b->prefix);
  g_free(b->uri);
}

/* Records our error and stops GMarkup with a placeholder of its own. */
static void scan_fail(Scan *S, GError **error, int line, const char *fmt, ...)
  G_GNUC_PRINTF(4, 5);
static void scan_fail(Scan *S, GError **error, int line, const char *fmt, ...)
{
  if (S->failure == NULL) {
    va_list ap;
    va_start(ap, fmt);
    ns_set_error_atv(&S->failure, NS_ERROR_INPUT, S->source, line, fmt, ap);
    va_end(ap);
  }
  g_set_error_literal(error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, "stopped");
}

/* Offset of GMarkup's current position. GMarkup counts a newline as the
 * first character of the line it starts; positions only move forward, so
 * the cursor makes the whole scan linear. */
static gsize scan_offset(Scan *S)
{
  int line = 1, ch = 1;
  g_markup_parse_context_get_position(S->ctx, &line, &ch);
  while (S->cur_line < line) {
    gsize from = S->cur_line == 1 ? 0 : S->cur_line_start + 1;
    const char *nl = from < S->len ? memchr(S->text + from, '\n', S->len - from) : NULL;
    if (nl == NULL)
      break;
    S->cur_line_start = (gsize)(nl - S->text);
    S->cur_line++;
  }
  gsize off = S->cur_line_start + (gsize)MAX(ch, 1) - 1;
  return MIN(off, S->len);
}

/* Line (as people count them) of offset `x`, the current position. */
static int position_line(const Scan *S, gsize x)
{
  return S->cur_line > 1 && x == S->cur_line_start ? S->cur_line - 1 : S->cur_line;
}

/* The markup GMarkup has just read, from the first '<' after the previous
 * event to the current position x: sets S->tag_line to the line of that
 * '<' and returns the length of the markup. Text cannot contain '<', so
 * that '<' is where the markup starts; the scan is linear overall. */
static gsize markup_start(Scan *S, gsize x)
{
  gsize from = MIN(S->last_event, x);
  const char *lt = memchr(S->text + from, '<', x - from);
  gsize t = lt != NULL ? (gsize)(lt - S->text) : from;
  int line = position_line(S, x);
  for (gsize i = t; i < x; i++)
    line -= S->text[i] == '\n';
  S->tag_line = MAX(line, 1);
  return x - t + (x < S->len && S->text[x] == '>'); /* GMarkup stops on the '>' of "/>" */
}

/* libxml2 2.9 (as igraph calls it, in push mode with XML_PARSE_HUGE)
 * takes time quadratic in the length of one markup construct past ~10 MB. */
static gboolean check_markup(Scan *S, GError **error, gsize length, const char *what,
                             const char *name)
{
  if (length <= MAX_MARKUP)
    return TRUE;
  char *limit = ns_input_format_limit(MAX_MARKUP);
  /* The name may be most of those megabytes. */
  char *shown = g_strdup(name != NULL ? name : "");
  if (strlen(shown) > 64) {
    char *cut = g_utf8_substring(shown, 0, 60);
    g_free(shown);
    shown = g_strconcat(cut, "...", NULL);
    g_free(cut);
  }
  scan_fail(S, error, S->tag_line, "%s%s%s longer than %s: igraph's XML parser (libxml2) "
            "would take minutes over it", what, shown, name != NULL ? ">" : "", limit);
  g_free(shown);
  g_free(limit);
  return FALSE;
}

/* URI bound to `prefix` ("" for the default namespace), "" for none, NULL
 * when the prefix is not declared. O(MAX_NAMESPACES). */
static const char *lookup_ns(const Scan *S, const char *prefix, gsize plen)
{
  if (plen == 3 && strncmp(prefix, "xml", 3) == 0)
    return XML_NS;
  for (guint i = S->bindings->len; i-- > 0;) {
    const Binding *b = &g_array_index(S->bindings, Binding, i);
    if (strlen(b->prefix) == plen && strncmp(b->prefix, prefix, plen) == 0)
      return b->uri;
  }
  return plen == 0 ? "" : NULL;
}

/* Splits a qualified name into its namespace URI (NULL for none) and local
 * name, as libxml2 does; an attribute without prefix has no namespace. */
static gboolean resolve(Scan *S, GError **error, const char *qname, gboolean is_attribute,
                        const char **uri, const char **local)
{
  const char *colon = strchr(qname, ':');
  if (colon != NULL && (colon == qname || colon[1] == '\0' || strchr(colon + 1, ':') != NULL)) {
    scan_fail(S, error, S->tag_line, "invalid qualified name '%s' (expected prefix:name)",
              qname);
    return FALSE;
  }
  *local = colon != NULL ? colon + 1 : qname;
  if (colon == NULL && is_attribute) {
    *uri = NULL;
    return TRUE;
  }
  gsize plen = colon != NULL ? (gsize)(colon - qname) : 0;
  const char *u = lookup_ns(S, qname, plen);
  if (u == NULL) {
    scan_fail(S, error, S->tag_line, "namespace prefix '%.*s' of '%s' is not declared",
              (int)plen, qname, qname);
    return FALSE;
  }
  *uri = *u != '\0' ? u : NULL;
  return TRUE;
}

/* An attribute igraph reads: no namespace, or the GraphML one. */
static gboolean graphml_attribute(Scan *S, const char *qname, const char **local)
{
  const char *uri = NULL;
  if (g_str_has_prefix(qname, "xmlns:") || strcmp(qname, "xmlns") == 0)
    return FALSE;
  /* Prefixes were checked when the element started. */
  if (!resolve(S, NULL, qname, TRUE, &uri, local))
    return FALSE;
  return uri == NULL || strcmp(uri, GRAPHML_NS) == 0;
}

static gboolean check_cells(Scan *S, GError **error, int line)
{
  guint64 bytes = S->node_key_bytes * S->vertices->len + S->edge_key_bytes * S->edges->len;
  if (bytes <= MAX_ATTR_BYTES)
    return TRUE;
  scan_fail(S, error, line,
            "%" G_GUINT64_FORMAT " node keys for %u nodes and %" G_GUINT64_FORMAT " edge keys "
            "for %u edges: igraph would allocate about %" G_GUINT64_FORMAT " MiB for their "
            "values, more than the %" G_GUINT64_FORMAT " MiB netsched allows",
            S->node_keys, S->vertices->len, S->edge_keys, S->edges->len, (bytes + 0xfffff) >> 20,
            MAX_ATTR_BYTES >> 20);
  return FALSE;
}

/* The node called `id` (creating igraph's vertex on first mention). */
static ScanNode *mention(Scan *S, GError **error, const char *id, int line)
{
  ScanNode *n = g_hash_table_lookup(S->ids, id);
  if (n != NULL)
    return n;
  if (S->vertices->len >= NS_HOSTLIST_MAX) {
    scan_fail(S, error, line, "more than %d nodes", NS_HOSTLIST_MAX);
    return NULL;
  }
  n = g_new0(ScanNode, 1);
  n->id = g_strdup(id);
  n->vertex = (int)S->vertices->len;
  n->line = line;
  g_hash_table_insert(S->ids, n->id, n);
  g_ptr_array_add(S->vertices, n);
  return check_cells(S, error, line) ? n : NULL;
}

static void scan_node(Scan *S, GError **error, const char **names, const char **values)
{
  int line = S->tag_line;
  const char *id = NULL, *local;
  /* igraph takes the first id attribute. */
  for (int i = 0; id == NULL && names[i] != NULL; i++)
    if (graphml_attribute(S, names[i], &local) && strcmp(local, "id") == 0)
      id = values[i];
  if (id == NULL) {
    scan_fail(S, error, line, "<node> without an id");
    return;
  }
  /* igraph makes a new vertex for every mention of an empty id. */
  if (*id == '\0') {
    scan_fail(S, error, line, "<node> with an empty id");
    return;
  }
  ScanNode *n = g_hash_table_lookup(S->ids, id);
  if (n != NULL && n->declared) {
    scan_fail(S, error, line, "duplicate node id '%s' (first declared at line %d)", id, n->line);
    return;
  }
  if (n == NULL && (n = mention(S, error, id, line)) == NULL)
    return;
  n->declared = TRUE;
  n->line = line;
  g_array_append_val(S->declared, n->vertex);
}

static void scan_edge(Scan *S, GError **error, const char **names, const char **values)
{
  int line = S->tag_line;
  ScanEdge e = {-1, -1, line};
  const char *local;
  /* igraph takes every source and target attribute, the last one wins. */
  for (int i = 0; names[i] != NULL; i++) {
    if (!graphml_attribute(S, names[i], &local))
      continue;
    int *end = strcmp(local, "source") == 0 ? &e.a : strcmp(local, "target") == 0 ? &e.b : NULL;
    if (end == NULL)
      continue;
    if (*values[i] == '\0') {
      scan_fail(S, error, line, "<edge> with an empty %s", local);
      return;
    }
    ScanNode *n = mention(S, error, values[i], line);
    if (n == NULL)
      return;
    *end = n->vertex;
  }
  if (e.a < 0 || e.b < 0) {
    scan_fail(S, error, line, "<edge> without a %s", e.a < 0 ? "source" : "target");
    return;
  }
  if (S->edges->len >= NS_HOSTLIST_MAX) {
    scan_fail(S, error, line, "more than %d edges", NS_HOSTLIST_MAX);
    return;
  }
  g_array_append_val(S->edges, e);
  check_cells(S, error, line);
}

/* igraph compares the `for` attribute of a key as a prefix of its words. */
static gboolean key_for(const char *value, const char *word)
{
  gsize n = strlen(value);
  return strncmp(word, value, n) == 0;
}

static void scan_key(Scan *S, GError **error, const char **names, const char **values)
{
  const char *domain = NULL, *attr_name = NULL, *id = NULL, *local;
  for (int i = 0; names[i] != NULL; i++) {
    if (!graphml_attribute(S, names[i], &local))
      continue;
    if (strcmp(local, "for") == 0)
      domain = values[i];
    else if (strcmp(local, "attr.name") == 0)
      attr_name = values[i];
    else if (strcmp(local, "id") == 0)
      id = values[i];
  }
  S->key_domain = 0;
  if (domain == NULL || key_for(domain, "graph"))
    return;
  if (key_for(domain, "node")) {
    S->key_domain = 1;
    S->node_keys++;
    S->node_key_bytes += CELL_BYTES;
    if (g_strcmp0(attr_name != NULL ? attr_name : id, "id") == 0)
      S->user_id_key = TRUE;
  } else if (key_for(domain, "edge")) {
    S->key_domain = 2;
    S->edge_keys++;
    S->edge_key_bytes += CELL_BYTES;
  }
  check_cells(S, error, S->tag_line);
}

static void begin_text(Scan *S)
{
  S->text_depth = S->open->len;
  S->text_line = S->tag_line;
  S->text_pieces = S->text_bytes = 0;
}

static void end_text(Scan *S, GError **error)
{
  S->text_work += S->text_pieces * S->text_bytes;
  S->text_depth = 0;
  if (S->text_work > MAX_TEXT_WORK)
    scan_fail(S, error, S->text_line,
              "<data> values too long or split into too many pieces (character references, "
              "comments, CDATA sections): igraph's GraphML reader would take time quadratic "
              "in them");
}

static void push_state(Scan *S, State st)
{
  g_array_append_val(S->stack, S->st);
  S->st = st;
}

static void pop_state(Scan *S)
{
  g_assert(S->stack->len > 0);
  S->st = g_array_index(S->stack, State, S->stack->len - 1);
  g_array_set_size(S->stack, S->stack->len - 1);
}

/* An element igraph skips with everything inside. A GraphML node, edge or
 * graph skipped like that would silently lose part of the topology. */
static void skip_element(Scan *S, GError **error, gboolean graphml, const char *local)
{
  if (S->st != ST_UNKNOWN && graphml && S->later_graph == 0 && S->st != ST_START) {
    const char *parent =
      S->open->len >= 2 ? g_array_index(S->open, Open, S->open->len - 2).local : "document";
    if (strcmp(local, "graph") == 0) {
      scan_fail(S, error, S->tag_line, "nested graphs are not supported (<graph> inside <%s>)",
                parent);
      return;
    }
    if (strcmp(local, "hyperedge") == 0) {
      scan_fail(S, error, S->tag_line, "hyperedges are not supported");
      return;
    }
    if (strcmp(local, "node") == 0 || strcmp(local, "edge") == 0) {
      scan_fail(S, error, S->tag_line,
                "<%s> inside <%s> is not supported (igraph would ignore it; nodes and edges "
                "go directly in <graph>)", local, parent);
      return;
    }
  }
  if (S->st != ST_UNKNOWN) {
    push_state(S, ST_UNKNOWN);
    S->unknown_depth = 1;
  } else {
    S->unknown_depth++;
  }
}

static void on_start(GMarkupParseContext *ctx, const char *qname, const char **names,
                     const char **values, gpointer data, GError **error)
{
  (void)ctx;
  Scan *S = data;
  gsize x = scan_offset(S);
  gsize length = markup_start(S, x);
  S->last_event = x;
  S->markup_seen = TRUE;
  Open o = {NULL, 0};
  g_array_append_val(S->open, o);
  Open *self = &g_array_index(S->open, Open, S->open->len - 1);
  if (!check_markup(S, error, length, "the start tag <", qname))
    return;
  if (S->open->len > MAX_DEPTH) {
    scan_fail(S, error, S->tag_line, "elements nested more than %d deep", MAX_DEPTH);
    return;
  }
  guint n = g_strv_length((char **)names);
  if (n > MAX_ATTRIBUTES) {
    scan_fail(S, error, S->tag_line, "more than %d attributes in <%s>", MAX_ATTRIBUTES, qname);
    return;
  }
  for (guint i = 0; i < n; i++) {
    const char *prefix = strcmp(names[i], "xmlns") == 0        ? ""
                         : g_str_has_prefix(names[i], "xmlns:") ? names[i] + 6
                                                                : NULL;
    if (prefix == NULL)
      continue;
    if (*prefix != '\0' && *values[i] == '\0') {
      scan_fail(S, error, S->tag_line, "empty namespace name for the prefix '%s'", prefix);
      return;
    }
    if (S->bindings->len >= MAX_NAMESPACES) {
      scan_fail(S, error, S->tag_line, "more than %d namespace declarations in scope",
                MAX_NAMESPACES);
      return;
    }
    Binding b = {g_strdup(prefix), g_strdup(values[i])};
    g_array_append_val(S->bindings, b);
    self->bindings++;
  }
  const char *uri = NULL, *local = NULL, *attr_uri, *attr_local;
  if (!resolve(S, error, qname, FALSE, &uri, &local))
    return;
  self->local = g_strdup(local);
  for (guint i = 0; i < n; i++)
    if (!g_str_has_prefix(names[i], "xmlns:") && strcmp(names[i], "xmlns") != 0 &&
        !resolve(S, error, names[i], TRUE, &attr_uri, &attr_local))
      return;

  gboolean graphml = uri != NULL ? strcmp(uri, GRAPHML_NS) == 0 : S->ignore_ns;
  if (S->st == ST_START) {
    if ((uri == NULL || graphml) && strcmp(local, "graphml") == 0) {
      S->ignore_ns = uri == NULL;
      S->st = ST_GRAPHML;
    } else {
      scan_fail(S, error, S->tag_line, "the root element is <%s>, not <graphml>", qname);
    }
    return;
  }
  if (!graphml || S->st == ST_UNKNOWN) {
    skip_element(S, error, graphml, local);
    return;
  }
  switch (S->st) {
  case ST_GRAPHML:
    if (strcmp(local, "graph") == 0) {
      if (S->graphs == 0)
        S->st = ST_GRAPH;
      else if (S->later_graph == 0)
        S->later_graph = S->open->len; /* ignored, as documented */
      S->graphs++;
    } else if (strcmp(local, "key") == 0) {
      scan_key(S, error, names, values);
      S->st = ST_KEY;
    } else {
      skip_element(S, error, graphml, local);
    }
    break;
  case ST_KEY:
    if (strcmp(local, "default") == 0) {
      S->st = ST_DEFAULT;
      begin_text(S);
    } else {
      skip_element(S, error, graphml, local);
    }
    break;
  case ST_GRAPH:
    if (strcmp(local, "node") == 0) {
      S->st = ST_NODE;
      scan_node(S, error, names, values);
      break;
    }
    if (strcmp(local, "edge") == 0) {
      S->st = ST_EDGE;
      scan_edge(S, error, names, values);
      break;
    }
    /* fall through */
  case ST_NODE:
  case ST_EDGE:
    if (strcmp(local, "data") == 0) {
      push_state(S, ST_DATA);
      begin_text(S);
    } else {
      skip_element(S, error, graphml, local);
    }
    break;
  case ST_DEFAULT:
  case ST_DATA:
    skip_element(S, error, graphml, local);
    break;
  default: /* ST_FINISH: igraph ignores GraphML elements, without a state */
    break;
  }
}

/* The first graph has ended: every node an edge names must be declared. */
static void end_graph(Scan *S, GError **error)
{
  for (guint v = 0; v < S->vertices->len; v++) {
    const ScanNode *n = g_ptr_array_index(S->vertices, v);
    if (!n->declared) {
      scan_fail(S, error, n->line, "<edge> names node '%s', which no <node> declares", n->id);
      return;
    }
  }
}

static void on_end(GMarkupParseContext *ctx, const char *qname, gpointer data, GError **error)
{
  (void)ctx;
  (void)qname;
  Scan *S = data;
  gsize x = scan_offset(S);
  gsize length = markup_start(S, x);
  S->last_event = x;
  guint depth = S->open->len;
  if (!check_markup(S, error, length, "the end tag </", qname))
    return;
  switch (S->st) {
  case ST_GRAPHML:
    S->st = ST_FINISH;
    break;
  case ST_GRAPH:
    S->st = ST_GRAPHML;
    end_graph(S, error);
    break;
  case ST_KEY:
    S->st = ST_GRAPHML;
    break;
  case ST_DEFAULT:
    S->st = ST_KEY;
    /* Every node (edge) gets a copy of the default. */
    if (S->key_domain == 1)
      S->node_key_bytes += 2 * S->text_bytes;
    else if (S->key_domain == 2)
      S->edge_key_bytes += 2 * S->text_bytes;
    end_text(S, error);
    if (S->failure == NULL)
      check_cells(S, error, S->text_line);
    break;
  case ST_NODE:
  case ST_EDGE:
    S->st = ST_GRAPH;
    break;
  case ST_DATA:
    pop_state(S);
    end_text(S, error);
    break;
  case ST_UNKNOWN:
    if (--S->unknown_depth == 0)
      pop_state(S);
    break;
  default:
    break;
  }
  if (S->later_graph == depth)
    S->later_graph = 0;
  const Open *o = &g_array_index(S->open, Open, depth - 1);
  g_array_set_size(S->bindings, S->bindings->len - o->bindings);
  g_array_set_size(S->open, depth - 1);
}

static void on_text(GMarkupParseContext *ctx, const char *text, gsize len, gpointer data,
                    GError **error)
{
  (void)ctx;
  (void)text;
  (void)error;
  Scan *S = data;
  gsize x = scan_offset(S);
  gsize from = MIN(S->last_event, x);
  if (x - from > MAX_MARKUP && strncmp(S->text + from, "<![CDATA[", 9) == 0) {
    markup_start(S, x);
    check_markup(S, error, x - from, "a CDATA section", NULL);
    return;
  }
  if (S->text_depth != 0 && S->open->len == S->text_depth && len > 0) {
    /* libxml2 delivers a run of text in pieces: around every reference
     * and carriage return, and every 300 characters of non-ASCII text. */
    guint64 breaks = 0;
    for (gsize i = MIN(S->last_event, x); i < x; i++)
      breaks += S->text[i] == '&' || S->text[i] == '\r';
    S->text_pieces += 1 + 2 * breaks + (x - MIN(S->last_event, x)) / 256;
    S->text_bytes += len;
  }
  S->last_event = x;
}

/* The encoding named by the XML declaration that starts the text, or NULL
 * (newly allocated). */
static char *declared_encoding(const char *text, gsize len)
{
  if (len < 6 || strncmp(text, "<?xml", 5) != 0 || !g_ascii_isspace(text[5]))
    return NULL;
  const char *end = g_strstr_len(text, MIN(len, 4096), "?>");
  if (end == NULL)
    return NULL;
  char *copy = g_strndup(text, (gsize)(end - text));
  char *result = NULL, *p = strstr(copy, "encoding");
  if (p != NULL) {
    p += strlen("encoding");
    while (g_ascii_isspace(*p))
      p++;
    if (*p == '=') {
      p++;
      while (g_ascii_isspace(*p))
        p++;
      char quote = *p;
      char *close = quote == '"' || quote == '\'' ? strchr(p + 1, quote) : NULL;
      if (close != NULL)
        result = g_strndup(p + 1, (gsize)(close - p - 1));
    }
  }
  g_free(copy);
  return result;
}

static void on_passthrough(GMarkupParseContext *ctx, const char *text, gsize len,
                           gpointer data, GError **error)
{
  (void)ctx;
  Scan *S = data;
  gsize x = scan_offset(S);
  markup_start(S, x);
  int line = S->tag_line;
  const char *what = strncmp(text, "<!--", 4) == 0      ? "a comment"
                     : strncmp(text, "<!DOCTYPE", 9) == 0 ? "the DOCTYPE"
                     : text[1] == '?'                     ? "a processing instruction"
                                                          : "a declaration";
  if (!check_markup(S, error, len, what, NULL))
    return;
  /* GMarkup ends a DOCTYPE at the '>' that balances its '<'s, and takes
   * "<!-->" and "<!--->" for whole comments; libxml2 reads on in both
   * cases. Neither occurs in a plain GraphML file. */
  gboolean doctype = len >= 9 && strncmp(text, "<!DOCTYPE", 9) == 0;
  if (doctype && memchr(text, '[', len) != NULL)
    scan_fail(S, error, line, "a DOCTYPE with an internal subset (entity or attribute "
              "declarations) is not supported");
  else if (doctype && memchr(text + 1, '<', len - 1) != NULL)
    scan_fail(S, error, line, "a DOCTYPE holding '<' is not supported");
  else if (strncmp(text, "<!--", 4) == 0 && len < strlen("<!---->"))
    scan_fail(S, error, line, "malformed comment '%.*s' (a comment is <!-- ... -->)", (int)len,
              text);
  S->markup_seen = TRUE;
  S->last_event = x;
}

/* "file:6: cannot read the XML: <GMarkup's message without its position>". */
static void gmarkup_error(Scan *S, const GError *gm, GError **error)
{
  const char *msg = gm->message;
  const char *sep = strstr(msg, ": ");
  int line = 0;
  if (sep != NULL) {
    /* The first number of GMarkup's (translated) prefix is the line. */
    for (const char *p = msg; p < sep && line == 0; p++)
      if (g_ascii_isdigit(*p))
        line = (int)g_ascii_strtoll(p, NULL, 10);
    msg = sep + 2;
  }
  if (line <= 0)
    line = position_line(S, scan_offset(S));
  ns_set_error_at(error, NS_ERROR_INPUT, S->source, line, "cannot read the XML: %s", msg);
}

static const GMarkupParser scan_parser = {on_start, on_end, on_text, on_passthrough, NULL};

static void scan_clear(Scan *S)
{
  if (S->ctx != NULL)
    g_markup_parse_context_free(S->ctx);
  g_array_free(S->open, TRUE);
  g_array_free(S->bindings, TRUE);
  g_array_free(S->stack, TRUE);
  g_hash_table_unref(S->ids);
  g_ptr_array_free(S->vertices, TRUE);
  g_array_free(S->declared, TRUE);
  g_array_free(S->edges, TRUE);
  g_clear_error(&S->failure);
}

/* Checks the bytes, then reads the file once with GMarkup (see the top of
 * the file). Time O(length); memory O(length) in the worst case. */
static gboolean scan_graphml(Scan *S, const char *source, const char *text, gsize len,
                             GError **error)
{
  *S = (Scan){
    .source = source,
    .cur_line = 1,
    .st = ST_START,
    .open = g_array_new(FALSE, TRUE, sizeof(Open)),
    .bindings = g_array_new(FALSE, TRUE, sizeof(Binding)),
    .stack = g_array_new(FALSE, FALSE, sizeof(State)),
    .ids = g_hash_table_new(g_str_hash, g_str_equal),
    .vertices = g_ptr_array_new_with_free_func(scan_node_free),
    .declared = g_array_new(FALSE, FALSE, sizeof(int)),
    .edges = g_array_new(FALSE, FALSE, sizeof(ScanEdge)),
  };
  g_array_set_clear_func(S->open, open_clear);
  g_array_set_clear_func(S->bindings, binding_clear);

  if (ns_input_utf16_bom(text, len)) {
    ns_set_error_at(error, NS_ERROR_INPUT, source, 1, "the file is UTF-16 (it starts with the "
                    "byte-order mark %02X %02X): save it as UTF-8", (guchar)text[0],
                    (guchar)text[1]);
    return FALSE;
  }
  /* A byte-order mark is fine for libxml2; GMarkup (GLib < 2.80) does not
   * know it. Lines do not change. */
  if (len >= 3 && memcmp(text, NS_INPUT_BOM, 3) == 0) {
    text += 3;
    len -= 3;
  }
  S->text = text;
  S->len = len;
  S->ascii = TRUE;
  for (gsize i = 0; S->ascii && i < len; i++)
    S->ascii = (guchar)text[i] < 0x80;
  /* libxml2 would decode other encodings; GMarkup reads UTF-8. Pure ASCII
   * reads the same in every ASCII-compatible encoding. */
  char *enc = declared_encoding(text, len);
  if (enc != NULL && !S->ascii && g_ascii_strcasecmp(enc, "UTF-8") != 0 &&
      g_ascii_strcasecmp(enc, "UTF8") != 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, source, 1, "encoding '%s' is not supported: save "
                    "the file as UTF-8", enc);
    g_free(enc);
    return FALSE;
  }
  g_free(enc);
  const char *bad = NULL;
  if (!g_utf8_validate_len(text, len, &bad)) {
    int line = 1;
    for (const char *c = text; c < bad; c++)
      line += *c == '\n';
    ns_set_error_at(error, NS_ERROR_INPUT, source, line, *bad == '\0'
                    ? "NUL byte (XML text cannot contain one)"
                    : "not valid UTF-8 (netsched reads GraphML in UTF-8 only)");
    return FALSE;
  }
  S->ctx = g_markup_parse_context_new(&scan_parser, G_MARKUP_TREAT_CDATA_AS_TEXT, S, NULL);
  GError *gm = NULL;
  gboolean ok = g_markup_parse_context_parse(S->ctx, text, (gssize)len, &gm) &&
                g_markup_parse_context_end_parse(S->ctx, &gm);
  if (S->failure != NULL) {
    g_propagate_error(error, S->failure);
    S->failure = NULL;
    ok = FALSE;
  } else if (!ok) {
    gmarkup_error(S, gm, error);
  } else if (S->graphs == 0) {
    ok = FALSE;
    ns_set_error_at(error, NS_ERROR_INPUT, source, 0,
                    "no <graph> in <graphml> (the nodes and edges go in <graph>)");
  }
  g_clear_error(&gm);
  return ok;
}

/* ---- reading igraph's graph ---------------------------------------------------- */

typedef struct {
  const char *source;
  const igraph_t *g;
  const Scan *scan;
  GHashTable *vtypes, *etypes, *gtypes; /* attribute name -> igraph_attribute_type_t + 1 */
  GError **error;
  const NsReadOptions *opts;
  NsWarnFunc warn;                      /* announcements (escaped) */
  void *warn_data;
  gboolean switches_only;               /* no `kind`: every node a switch, machines attached */
  gboolean *keep;                       /* vertex kept (largest-component), NULL: all */
  guint default_speed_links;            /* links the file gives no speed */
  guint self_loops;                     /* skipped in a graph of switches only */
} Reader;


/* The speed of links the file says nothing about, and of attached machines. */
static double default_bandwidth(const Reader *R)
{
  return R->opts->bandwidth > 0 ? R->opts->bandwidth : NS_DEFAULT_BANDWIDTH;
}

static gboolean fail(Reader *R, int line, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean fail(Reader *R, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ns_set_error_atv(R->error, NS_ERROR_INPUT, R->source, line, fmt, ap);
  va_end(ap);
  return FALSE;
}

static int vertex_line(const Reader *R, igraph_integer_t v)
{
  return ((const ScanNode *)g_ptr_array_index(R->scan->vertices, v))->line;
}

static int attr_type(GHashTable *types, const char *name)
{
  return GPOINTER_TO_INT(g_hash_table_lookup(types, name)) - 1;
}

/* String value of vertex attribute `name`, or NULL when the attribute does
 * not exist; a number is an error (*bad). */
static const char *vstring(Reader *R, const char *name, igraph_integer_t v, gboolean *bad)
{
  int t = attr_type(R->vtypes, name);
  *bad = FALSE;
  if (t < 0)
    return NULL;
  if (t != IGRAPH_ATTRIBUTE_STRING) {
    *bad = TRUE;
    return NULL;
  }
  return igraph_cattribute_VAS(R->g, name, v);
}

/* Value of a numeric-or-string edge/vertex attribute:
 * returns 0 when absent/empty/NaN, 1 for a number in *num, 2 for a string in
 * *str. */
static int mixed(Reader *R, GHashTable *types, igraph_attribute_elemtype_t where,
                 const char *name, igraph_integer_t id, double *num, const char **str)
{
  int t = attr_type(types, name);
  if (t == IGRAPH_ATTRIBUTE_NUMERIC) {
    *num = where == IGRAPH_ATTRIBUTE_VERTEX ? igraph_cattribute_VAN(R->g, name, id)
                                            : igraph_cattribute_EAN(R->g, name, id);
    return isnan(*num) ? 0 : 1;
  }
  if (t == IGRAPH_ATTRIBUTE_STRING) {
    *str = where == IGRAPH_ATTRIBUTE_VERTEX ? igraph_cattribute_VAS(R->g, name, id)
                                            : igraph_cattribute_EAS(R->g, name, id);
    return *str == NULL || **str == '\0' ? 0 : 2;
  }
  if (t == IGRAPH_ATTRIBUTE_BOOLEAN) {
    *str = "a boolean";
    return 3;
  }
  return 0;
}

static gboolean list_types(Reader *R, const igraph_t *g)
{
  igraph_strvector_t gn, vn, en;
  igraph_vector_int_t gt, vt, et;
  igraph_strvector_init(&gn, 0);
  igraph_strvector_init(&vn, 0);
  igraph_strvector_init(&en, 0);
  igraph_vector_int_init(&gt, 0);
  igraph_vector_int_init(&vt, 0);
  igraph_vector_int_init(&et, 0);
  gboolean ok = igraph_cattribute_list(g, &gn, &gt, &vn, &vt, &en, &et) == IGRAPH_SUCCESS;
  for (igraph_integer_t i = 0; ok && i < igraph_strvector_size(&vn); i++)
    g_hash_table_insert(R->vtypes, g_strdup(igraph_strvector_get(&vn, i)),
                        GINT_TO_POINTER((int)VECTOR(vt)[i] + 1));
  for (igraph_integer_t i = 0; ok && i < igraph_strvector_size(&en); i++)
    g_hash_table_insert(R->etypes, g_strdup(igraph_strvector_get(&en, i)),
                        GINT_TO_POINTER((int)VECTOR(et)[i] + 1));
  for (igraph_integer_t i = 0; ok && i < igraph_strvector_size(&gn); i++)
    g_hash_table_insert(R->gtypes, g_strdup(igraph_strvector_get(&gn, i)),
                        GINT_TO_POINTER((int)VECTOR(gt)[i] + 1));
  igraph_strvector_destroy(&gn);
  igraph_strvector_destroy(&vn);
  igraph_strvector_destroy(&en);
  igraph_vector_int_destroy(&gt);
  igraph_vector_int_destroy(&vt);
  igraph_vector_int_destroy(&et);
  if (!ok)
    return fail(R, 0, "cannot read the GraphML attributes");
  return TRUE;
}

/* igraph's id `ig` for the pre-check's `id`: libxml2, as igraph calls it,
 * hands attribute values over with every '&' written "&#38;" (text
 * content is decoded). Node names use the pre-check's ids. */
static gboolean same_id(const char *ig, const char *id)
{
  if (ig == NULL)
    return FALSE;
  for (; *id != '\0'; id++) {
    if (*id == '&') {
      if (strncmp(ig, "&#38;", 5) != 0)
        return FALSE;
      ig += 5;
    } else if (*ig++ != *id) {
      return FALSE;
    }
  }
  return *ig == '\0';
}

/* igraph read what the pre-check read: same vertices (ids, order), same
 * edges (ends, order). Otherwise the lines would be wrong and duplicates
 * could slip through: refuse the file. */
static gboolean cross_check(Reader *R)
{
  const Scan *S = R->scan;
  const igraph_t *g = R->g;
  igraph_integer_t n = igraph_vcount(g), m = igraph_ecount(g);
  char *why = NULL;
  if (n != (igraph_integer_t)S->vertices->len || m != (igraph_integer_t)S->edges->len)
    why = g_strdup_printf("igraph read %" IGRAPH_PRId " nodes and %" IGRAPH_PRId " edges, the "
                          "pre-check %u and %u", n, m, S->vertices->len, S->edges->len);
  if (why == NULL && !S->user_id_key && attr_type(R->vtypes, "id") == IGRAPH_ATTRIBUTE_STRING)
    for (igraph_integer_t v = 0; why == NULL && v < n; v++) {
      const char *id = igraph_cattribute_VAS(g, "id", v);
      const ScanNode *sn = g_ptr_array_index(S->vertices, v);
      if (!same_id(id, sn->id))
        why = g_strdup_printf("node %" IGRAPH_PRId " is '%s' for igraph, '%s' for the "
                              "pre-check", v, id, sn->id);
    }
  gboolean directed = igraph_is_directed(g);
  for (igraph_integer_t e = 0; why == NULL && e < m; e++) {
    igraph_integer_t from, to;
    igraph_edge(g, e, &from, &to);
    const ScanEdge *se = &g_array_index(S->edges, ScanEdge, e);
    if (!((from == se->a && to == se->b) || (!directed && from == se->b && to == se->a)))
      why = g_strdup_printf("edge %" IGRAPH_PRId " (line %d) has other ends for igraph", e,
                            se->line);
  }
  if (why == NULL)
    return TRUE;
  fail(R, 0, "cannot check this GraphML file: netsched's pre-check and igraph's reader "
       "disagree (%s)", why);
  g_free(why);
  return FALSE;
}

static gboolean has_control(const char *s)
{
  for (; *s != '\0'; s++)
    if ((guchar)*s < 0x20 || *s == 0x7f)
      return TRUE;
  return FALSE;
}

static gboolean read_switch_attrs(Reader *R, igraph_integer_t v, const char *who,
                                  NsNode *node)
{
  int line = vertex_line(R, v);
  gboolean bad;
  const char *f = vstring(R, "forwarding", v, &bad);
  if (bad)
    return fail(R, line, "vertex '%s': attribute 'forwarding' must be a string", who);
  if (f != NULL && *f != '\0') {
    if (!ns_forwarding_parse(f, &node->forwarding))
      return fail(R, line, "vertex '%s': invalid forwarding '%s' (expected store-and-forward "
                  "or cut-through)", who, f);
  }
  const char *b = vstring(R, "buffering", v, &bad);
  if (bad)
    return fail(R, line, "vertex '%s': attribute 'buffering' must be a string", who);
  if (b != NULL && *b != '\0') {
    if (!ns_buffering_parse(b, &node->buffering))
      return fail(R, line, "vertex '%s': invalid buffering '%s' (expected input, output or "
                  "shared)", who, b);
  }
  double num = 0;
  const char *str = NULL;
  int k = mixed(R, R->vtypes, IGRAPH_ATTRIBUTE_VERTEX, "buffer", v, &num, &str);
  if (k == 2) {
    /* "64p" */
    gsize n = strlen(str);
    char *end = NULL;
    gint64 x = n >= 2 && str[n - 1] == 'p' && g_ascii_isdigit(str[0])
                   ? g_ascii_strtoll(str, &end, 10)
                   : -1;
    if (end != str + n - 1 || x < 1 || x > 1000000000)
      return fail(R, line, "vertex '%s': invalid buffer '%s' (expected a number of packets "
                  "such as 64 or \"64p\")", who, str);
    num = (double)x;
  } else if (k == 3) {
    return fail(R, line, "vertex '%s': attribute 'buffer' must be a number of packets", who);
  }
  if (k != 0) {
    if (!(num >= 1 && num <= 1e9) || num != floor(num))
      return fail(R, line, "vertex '%s': invalid buffer %g (expected a whole number of "
                  "packets from 1 to 1000000000)", who, num);
    node->buffer_packets = (int)num;
  }
  return TRUE;
}

/* A byte-order mark in a name: name it without the mark. */
static gboolean fail_bom(Reader *R, int line, const char *name)
{
  GString *shown = g_string_new(NULL);
  for (const char *p = name; *p != '\0';) {
    if (strncmp(p, NS_INPUT_BOM, 3) == 0) {
      p += 3;
      continue;
    }
    g_string_append_c(shown, *p++);
  }
  fail(R, line, "a byte-order mark (U+FEFF) inside the node name '%s'", shown->str);
  g_string_free(shown, TRUE);
  return FALSE;
}

/* Adds the vertices in the order of their <node> elements; ids[v] receives
 * the node id of igraph's vertex v. */
static gboolean read_vertices(Reader *R, NsTopology *topo, int *ids, char **names)
{
  R->switches_only = attr_type(R->vtypes, "kind") < 0;
  gboolean ok = TRUE;
  const GArray *order = R->scan->declared;
  for (guint k = 0; ok && k < order->len; k++) {
    igraph_integer_t v = g_array_index(order, int, k);
    ids[v] = -1;
    if (R->keep != NULL && !R->keep[v])
      continue;
    int line = vertex_line(R, v);
    gboolean bad;
    const char *id = ((const ScanNode *)g_ptr_array_index(R->scan->vertices, v))->id;
    const char *name = vstring(R, "name", v, &bad);
    if (bad)
      return fail(R, line, "vertex '%s': attribute 'name' must be a string", id);
    if (name == NULL || *name == '\0')
      name = id;
    char *fallback = NULL;
    if (name == NULL || *name == '\0')
      name = fallback = g_strdup_printf("%" IGRAPH_PRId, v);
    else if (R->switches_only && name == id && strspn(id, "0123456789") == strlen(id))
      name = fallback = g_strconcat("s", id, NULL); /* the Topology Zoo's ids 0, 1, ... */
    names[v] = g_strdup(name);
    g_free(fallback);
    const char *who = names[v];
    if (has_control(who) || !g_utf8_validate(who, -1, NULL))
      return fail(R, line, "vertex '%s': the name contains a control character", who);
    if (strstr(who, NS_INPUT_BOM) != NULL)
      return fail_bom(R, line, who);
    const char *kind = R->switches_only ? "switch" : vstring(R, "kind", v, &bad);
    NsNodeKind kd = NS_NODE_MACHINE;
    if (bad)
      return fail(R, line, "vertex '%s': attribute 'kind' must be a string (machine or "
                  "switch)", who);
    if (kind == NULL || *kind == '\0')
      return fail(R, line, "vertex '%s': missing 'kind' (expected machine or switch)", who);
    if (strcmp(kind, "machine") == 0)
      kd = NS_NODE_MACHINE;
    else if (strcmp(kind, "switch") == 0)
      kd = NS_NODE_SWITCH;
    else
      return fail(R, line, "vertex '%s': invalid kind '%s' (expected machine or switch)", who,
                  kind);
    ids[v] = ns_topology_add_node(topo, who, kd, line, R->error);
    if (ids[v] < 0)
      return FALSE;
    if (kd == NS_NODE_SWITCH)
      ok = read_switch_attrs(R, v, who, ns_topology_node_mut(topo, ids[v]));
  }
  return ok;
}

/* A string graph attribute, or NULL when absent or empty; a number is an
 * error (*bad). */
static const char *gstring(Reader *R, const char *name, gboolean *bad)
{
  int t = attr_type(R->gtypes, name);
  *bad = t >= 0 && t != IGRAPH_ATTRIBUTE_STRING;
  if (t != IGRAPH_ATTRIBUTE_STRING)
    return NULL;
  const char *v = igraph_cattribute_GAS(R->g, name);
  return v != NULL && *v != '\0' ? v : NULL;
}

/* The graph attributes `routing` ("dimension-order", ...) and `grid`
 * ("8x8 torus"), and the machines' `ports` ("one", "all", K). Explicit
 * routes are a native-format statement only. */
static gboolean read_fabric(Reader *R, NsTopology *topo, const int *ids)
{
  gboolean bad;
  const char *routing = gstring(R, "routing", &bad);
  if (bad)
    return fail(R, 0, "graph attribute 'routing' must be a string");
  if (routing != NULL) {
    NsRoutingKind kind;
    if (!ns_routing_kind_from_name(routing, &kind) || kind == NS_ROUTING_EXPLICIT)
      return fail(R, 0, "unknown routing '%s' (expected tree, dimension-order, dmodk, smodk, "
                  "shortest or ecmp; explicit routes need the native format)", routing);
    ns_topology_set_routing(topo, kind, 0);
  }
  const char *grid = gstring(R, "grid", &bad);
  if (bad)
    return fail(R, 0, "graph attribute 'grid' must be a string such as '8x8 torus'");
  if (grid != NULL) {
    int n, sizes[NS_MAX_DIMS];
    gboolean wrap;
    g_autofree char *why = NULL;
    if (!ns_grid_spec_parse(grid, &n, sizes, &wrap, &why))
      return fail(R, 0, "grid '%s': %s", grid, why);
    if (!ns_topology_set_grid(topo, n, sizes, wrap, 0, R->error))
      return FALSE;
  }
  if (attr_type(R->vtypes, "ports") < 0)
    return TRUE;
  for (igraph_integer_t v = 0; v < igraph_vcount(R->g); v++) {
    double num = 0;
    const char *str = NULL;
    int k = mixed(R, R->vtypes, IGRAPH_ATTRIBUTE_VERTEX, "ports", v, &num, &str);
    if (k == 0 || ids[v] < 0)
      continue;
    const char *who = ((const ScanNode *)g_ptr_array_index(R->scan->vertices, v))->id;
    g_autofree char *text = k == 1 ? g_strdup_printf("%.0f", num) : g_strdup(str);
    NsNode *nd = ns_topology_node_mut(topo, ids[v]);
    if (nd->kind != NS_NODE_MACHINE)
      return fail(R, vertex_line(R, v), "vertex '%s': 'ports' applies to machines", who);
    if (k > 2 || !ns_port_kind_parse(text, &nd->ports, &nd->k_ports))
      return fail(R, vertex_line(R, v), "vertex '%s': invalid ports '%s' (expected one, all or "
                  "a number of ports)", who, text ? text : "?");
  }
  return TRUE;
}

static gboolean edge_value(Reader *R, const char *attr, igraph_integer_t e, int line,
                           const char *a, const char *b, gboolean is_bandwidth, double *out)
{
  double num = 0;
  const char *str = NULL;
  int k = mixed(R, R->etypes, IGRAPH_ATTRIBUTE_EDGE, attr, e, &num, &str);
  const char *why = NULL;
  switch (k) {
  case 0:
    return TRUE;
  case 1:
    if (is_bandwidth && !(num > 0 && isfinite(num)))
      return fail(R, line, "link '%s'-'%s': bandwidth must be a positive number of bit/s, got "
                  "%g", a, b, num);
    if (!is_bandwidth && !(num >= 0 && isfinite(num)))
      return fail(R, line, "link '%s'-'%s': latency must be a non-negative number of seconds, "
                  "got %g", a, b, num);
    *out = num;
    return TRUE;
  case 2:
    if (is_bandwidth ? ns_parse_bandwidth(str, out, &why) : ns_parse_time(str, out, &why))
      return TRUE;
    return fail(R, line, "link '%s'-'%s': invalid %s '%s': %s", a, b, attr, str, why);
  default:
    return fail(R, line, "link '%s'-'%s': attribute '%s' must be a number or a string with a "
                "unit", a, b, attr);
  }
}

/* A number written alone ("2.5"), or NaN. */
static double whole_number_text(const char *text)
{
  char *end = NULL;
  double x = g_ascii_strtod(text, &end);
  return end != text && *end == '\0' ? x : NAN;
}

/* The Internet Topology Zoo's link speed: LinkSpeedRaw in bit/s, else
 * LinkSpeed in LinkSpeedUnits (K, M, G, T: kbit/s ... Tbit/s; none:
 * bit/s). FALSE when the edge has neither or they are not a positive
 * number. */
static gboolean zoo_speed(Reader *R, igraph_integer_t e, double *bandwidth)
{
  double raw = 0, speed = 0, unused = 0;
  const char *raw_text = NULL, *speed_text = NULL, *units = NULL;
  int k = mixed(R, R->etypes, IGRAPH_ATTRIBUTE_EDGE, "LinkSpeedRaw", e, &raw, &raw_text);
  if (k == 2)
    raw = whole_number_text(raw_text);
  if ((k == 1 || k == 2) && raw > 0 && isfinite(raw)) {
    *bandwidth = raw;
    return TRUE;
  }
  k = mixed(R, R->etypes, IGRAPH_ATTRIBUTE_EDGE, "LinkSpeed", e, &speed, &speed_text);
  if (k == 2)
    speed = whole_number_text(speed_text);
  else if (k != 1)
    return FALSE;
  if (mixed(R, R->etypes, IGRAPH_ATTRIBUTE_EDGE, "LinkSpeedUnits", e, &unused, &units) == 2) {
    const char *prefixes = "KMGT";
    const char *at = strlen(units) == 1 ? strchr(prefixes, g_ascii_toupper(units[0])) : NULL;
    if (at == NULL)
      return FALSE;
    for (const char *p = prefixes; p <= at; p++)
      speed *= 1e3;
  }
  if (!(speed > 0 && isfinite(speed)))
    return FALSE;
  *bandwidth = speed;
  return TRUE;
}

/* Connected components: with `largest-component` keep the largest (the
 * first in document order among equals) and say what was dropped; a graph
 * of switches only (no `kind`) in several pieces is refused with that way
 * out. O(n + m). */
static gboolean choose_component(Reader *R)
{
  igraph_vector_int_t membership, sizes;
  igraph_integer_t count = 0;
  igraph_vector_int_init(&membership, 0);
  igraph_vector_int_init(&sizes, 0);
  gboolean ok = igraph_connected_components(R->g, &membership, &sizes, &count, IGRAPH_WEAK) ==
                IGRAPH_SUCCESS;
  if (!ok)
    fail(R, 0, "cannot compute the components of the graph");
  igraph_integer_t n = igraph_vcount(R->g), best = -1;
  for (guint k = 0; ok && k < R->scan->declared->len; k++) {
    igraph_integer_t c = VECTOR(membership)[g_array_index(R->scan->declared, int, k)];
    if (best < 0 || VECTOR(sizes)[c] > VECTOR(sizes)[best])
      best = c;
  }
  if (ok && count > 1 && R->opts->largest_component) {
    R->keep = g_new0(gboolean, n + 1);
    for (igraph_integer_t v = 0; v < n; v++)
      R->keep[v] = VECTOR(membership)[v] == best;
    ns_input_warnf(R->warn, R->warn_data, "%s: kept the largest component (%" IGRAPH_PRId " of %" IGRAPH_PRId " nodes); "
             "dropped %" IGRAPH_PRId " nodes in %" IGRAPH_PRId " other component%s "
             "(largest-component)", R->source, VECTOR(sizes)[best], n, n - VECTOR(sizes)[best],
             count - 1, count == 2 ? "" : "s");
  } else if (ok && count > 1 && attr_type(R->vtypes, "kind") < 0) {
    ok = fail(R, 0, "the graph is not connected: %" IGRAPH_PRId " components, the largest "
              "with %" IGRAPH_PRId " of %" IGRAPH_PRId " nodes; -f graphml:largest-component "
              "reads that one alone", count, VECTOR(sizes)[best], n);
  }
  igraph_vector_int_destroy(&membership);
  igraph_vector_int_destroy(&sizes);
  return ok;
}

/* A graph of switches only: machines-per-switch machines on every switch,
 * named n0, n1, ... in switch order, with links of the default speed. */
static gboolean attach_machines(Reader *R, NsTopology *topo, const int *ids)
{
  if (!R->switches_only)
    return TRUE;
  int per = R->opts->machines_per_switch > 0 ? R->opts->machines_per_switch : 1;
  int n_switches = 0;
  for (igraph_integer_t v = 0; v < igraph_vcount(R->g); v++)
    n_switches += ids[v] >= 0;
  if ((gint64)n_switches * (per + 1) > NS_HOSTLIST_MAX)
    return fail(R, 0, "%d switches with %d machines each make more than %d nodes", n_switches,
                per, NS_HOSTLIST_MAX);
  double bw = default_bandwidth(R);
  int next = 0;
  for (guint k = 0; k < R->scan->declared->len; k++) {
    igraph_integer_t v = g_array_index(R->scan->declared, int, k);
    if (ids[v] < 0)
      continue;
    for (int i = 0; i < per; i++) {
      char name[24];
      g_snprintf(name, sizeof name, "n%d", next++);
      int taken = ns_topology_find_node(topo, name);
      if (taken >= 0)
        return fail(R, ns_topology_node(topo, taken)->line, "vertex '%s': the name of a machine "
                    "netsched attaches (n0, n1, ...); give the nodes other names (attribute "
                    "'name')", name);
      int m = ns_topology_add_node(topo, name, NS_NODE_MACHINE, 0, R->error);
      if (m < 0 || ns_topology_add_link(topo, m, ids[v], bw, NS_DEFAULT_LATENCY, 0, R->error) < 0)
        return FALSE;
    }
  }
  g_autofree char *speed = ns_format_bandwidth(bw);
  ns_input_warnf(R->warn, R->warn_data, "%s: no vertex attribute 'kind': every node is a switch with %d machine%s "
           "(machines-per-switch=%d), on %s links (bandwidth=%s)", R->source, per,
           per == 1 ? "" : "s", per, speed, speed);
  return TRUE;
}

static void announce_default_speed(const Reader *R)
{
  if (R->self_loops > 0)
    ns_input_warnf(R->warn, R->warn_data, "%s: %u self-loop%s left out (an edge from a node to itself)", R->source,
             R->self_loops, R->self_loops == 1 ? "" : "s");
  if (R->default_speed_links == 0 || !R->switches_only)
    return;
  g_autofree char *speed = ns_format_bandwidth(default_bandwidth(R));
  ns_input_warnf(R->warn, R->warn_data, "%s: %u link%s without a speed (no bandwidth, LinkSpeedRaw or LinkSpeed) get "
           "%s (bandwidth=%s)", R->source, R->default_speed_links,
           R->default_speed_links == 1 ? "" : "s", speed, speed);
}

static gboolean read_edges(Reader *R, NsTopology *topo, const int *ids, char **names)
{
  igraph_integer_t m = igraph_ecount(R->g);
  gboolean directed = igraph_is_directed(R->g);
  /* Directed: (from, to) of each link -> link id + 1, to merge reverse pairs. */
  GHashTable *pending = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  GArray *bw = g_array_new(FALSE, FALSE, sizeof(double));
  GArray *lat = g_array_new(FALSE, FALSE, sizeof(double));
  gboolean ok = TRUE;
  igraph_integer_t nv = igraph_vcount(R->g);
  for (igraph_integer_t e = 0; ok && e < m; e++) {
    int line = g_array_index(R->scan->edges, ScanEdge, e).line;
    igraph_integer_t from, to;
    igraph_edge(R->g, e, &from, &to);
    if (!directed && from > to) {
      igraph_integer_t t = from;
      from = to;
      to = t;
    }
    if (from == to && R->switches_only && ids[from] >= 0) {
      R->self_loops++; /* a router's loop carries nothing between machines */
      continue;
    }
    if (from == to) {
      ok = fail(R, line, "vertex '%s': self-loop", names[from]);
      break;
    }
    if (ids[from] < 0 || ids[to] < 0)
      continue; /* in a component left out (largest-component) */
    double bandwidth = 0, latency = NS_DEFAULT_LATENCY;
    ok = edge_value(R, "bandwidth", e, line, names[from], names[to], TRUE, &bandwidth) &&
         edge_value(R, "latency", e, line, names[from], names[to], FALSE, &latency);
    if (!ok)
      break;
    if (bandwidth == 0 && !zoo_speed(R, e, &bandwidth)) {
      bandwidth = default_bandwidth(R);
      R->default_speed_links++;
    }
    if (directed) {
      gint64 rev = (gint64)to * nv + from;
      gpointer hit = g_hash_table_lookup(pending, &rev);
      if (hit != NULL) {
        guint li = GPOINTER_TO_UINT(hit) - 1;
        if (g_array_index(bw, double, li) != bandwidth ||
            g_array_index(lat, double, li) != latency) {
          ok = fail(R, line, "link '%s'-'%s': the edges in the two directions differ in "
                    "bandwidth or latency", names[to], names[from]);
          break;
        }
        g_hash_table_remove(pending, &rev); /* merged: a third edge is a parallel link */
        continue;
      }
    }
    int li = ns_topology_add_link(topo, ids[from], ids[to], bandwidth, latency, line, R->error);
    if (li < 0) {
      ok = FALSE;
      break;
    }
    g_array_append_val(bw, bandwidth);
    g_array_append_val(lat, latency);
    if (directed) {
      gint64 *key = g_new(gint64, 1);
      *key = (gint64)from * nv + to;
      if (!g_hash_table_contains(pending, key))
        g_hash_table_insert(pending, key, GUINT_TO_POINTER((guint)li + 1));
      else
        g_free(key);
    }
  }
  g_hash_table_unref(pending);
  g_array_free(bw, TRUE);
  g_array_free(lat, TRUE);
  return ok;
}

/* igraph's parse of the whole text (a FILE on the buffer). */
static gboolean igraph_parse(const char *source, const char *text, gsize len, igraph_t *g,
                             GError **error)
{
  FILE *in = fmemopen((void *)text, len, "rb");
  if (in == NULL) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, source, 0, "cannot read: %s", g_strerror(e));
    return FALSE;
  }
  igraph_reason[0] = '\0';
  igraph_error_handler_t *old_error = igraph_set_error_handler(record_igraph_error);
  igraph_warning_handler_t *old_warning = igraph_set_warning_handler(ignore_igraph_warning);
  igraph_error_t rc = igraph_read_graph_graphml(g, in, 0);
  igraph_set_error_handler(old_error);
  igraph_set_warning_handler(old_warning);
  fclose(in);
  if (rc == IGRAPH_SUCCESS)
    return TRUE;
  /* libxml2's messages may quote raw input bytes and end in a newline. */
  char *reason = g_utf8_make_valid(igraph_reason[0] != '\0' ? igraph_reason
                                                            : igraph_strerror(rc), -1);
  for (char *c = reason; *c != '\0'; c++)
    if ((guchar)*c < 0x20 || *c == 0x7f)
      *c = ' ';
  g_strstrip(reason);
  ns_set_error_at(error, NS_ERROR_INPUT, source, 0, "not a readable GraphML file: %s", reason);
  g_free(reason);
  return FALSE;
}

/**
 * \function ns_topology_parse_graphml
 * \brief Reads a topology from GraphML text in memory.
 *
 * The pre-check (top of this file) reads the text with GMarkup and refuses
 * duplicate node ids, edges to undeclared nodes, nested graphs,
 * hyperedges, encodings other than UTF-8, DOCTYPE internal subsets and
 * unknown entities, and input that would make igraph slow or large; then
 * igraph parses the text, its result is compared with the pre-check's,
 * and the vertices and edges become nodes and links with their lines.
 *
 * \param source Name used in messages (NULL: "<graphml>").
 * \param text The GraphML text (need not be NUL-terminated); at most
 *        NS_TOPOLOGY_MAX_BYTES.
 * \param len Its length in bytes.
 * \param warn, warn_data Receive non-fatal findings (may be NULL), with
 *        invisible characters escaped.
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL on error.
 * \errors NS_ERROR_INPUT "source:line: what is wrong" (no line for what
 *         concerns the whole file); invisible characters of the input appear
 *         escaped.
 * \complexity O(len + n + m) for n nodes and m edges, igraph's parse
 *         included (its quadratic cases are bounded by the pre-check);
 *         memory O(len + n + m).
 * \source GraphML (graphml.graphdrawing.org) through igraph's reader;
 *         docs/topology-format.md, "GraphML".
 */
NsTopology *ns_topology_parse_graphml(const char *source, const char *text, gsize len,
                                      NsWarnFunc warn, void *warn_data, GError **error)
{
  NsReadOptions o;
  ns_read_options_init(&o);
  return ns_topology_parse_graphml_with(source, text, len, &o, warn, warn_data, error);
}

/**
 * \function ns_topology_parse_graphml_with
 * \brief Reads GraphML in memory with the GraphML options.
 *
 * \param source Name used in messages (NULL: "<graphml>").
 * \param text The GraphML text (at most NS_TOPOLOGY_MAX_BYTES).
 * \param len Its length.
 * \param o machines-per-switch, largest-component and bandwidth (Topology Zoo graphs); the other
 *        fields are ignored.
 * \param warn Receives non-fatal findings (may be NULL).
 * \param warn_data Passed to `warn`.
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors those of ns_topology_parse_graphml().
 * \complexity that of ns_topology_parse_graphml().
 * \source docs/topology-format.md, "Graphs without netsched's attributes (Internet Topology
 *        Zoo)".
 */
NsTopology *ns_topology_parse_graphml_with(const char *source, const char *text, gsize len,
                                           const NsReadOptions *o, NsWarnFunc warn,
                                           void *warn_data, GError **error)
{
  g_return_val_if_fail(error == NULL || *error == NULL, NULL);
  if (source == NULL)
    source = "<graphml>";
  if (text == NULL)
    len = 0;
  static GOnce once = G_ONCE_INIT;
  g_once(&once, install_attribute_table, NULL);

  GError *local = NULL;
  GError **err = error != NULL ? error : &local;
  Scan S = {0};
  gboolean ok = FALSE;
  if (len == 0) {
    ns_set_error_at(err, NS_ERROR_INPUT, source, 0, "empty file (expected GraphML)");
  } else if (len > NS_TOPOLOGY_MAX_BYTES) {
    char *limit = ns_input_format_limit(NS_TOPOLOGY_MAX_BYTES);
    ns_set_error_at(err, NS_ERROR_INPUT, source, 0, "topology larger than the %s limit", limit);
    g_free(limit);
  } else {
    ok = scan_graphml(&S, source, text, len, err);
  }
  igraph_t g;
  gboolean have_graph = ok && igraph_parse(source, text, len, &g, err);
  ok = have_graph;
  NsTopology *topo = NULL;
  if (ok) {
    Reader R = {
      .source = source,
      .g = &g,
      .scan = &S,
      .vtypes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
      .etypes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
      .gtypes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
      .error = err,
      .opts = o,
      .warn = warn,
      .warn_data = warn_data,
    };
    topo = ns_topology_new(source);
    igraph_integer_t n = igraph_vcount(&g);
    int *ids = g_new0(int, n + 1);
    char **names = g_new0(char *, n + 1);
    NsInputWarn w = {warn, warn_data};
    ok = list_types(&R, &g) && cross_check(&R) && choose_component(&R) &&
         read_vertices(&R, topo, ids, names) && read_edges(&R, topo, ids, names) &&
         attach_machines(&R, topo, ids) && read_fabric(&R, topo, ids);
    if (ok)
      announce_default_speed(&R);
    ok = ok && ns_topology_finalize(topo, warn != NULL ? ns_input_escaping_warn : NULL, &w, err);
    g_free(R.keep);
    g_free(ids);
    for (igraph_integer_t v = 0; v < n; v++)
      g_free(names[v]);
    g_free(names);
    g_hash_table_unref(R.vtypes);
    g_hash_table_unref(R.etypes);
    g_hash_table_unref(R.gtypes);
  }
  if (have_graph)
    igraph_destroy(&g);
  if (S.open != NULL)
    scan_clear(&S);
  if (!ok) {
    ns_input_escape_error(*err);
    ns_topology_free(topo);
    topo = NULL;
  }
  g_clear_error(&local);
  return topo;
}
