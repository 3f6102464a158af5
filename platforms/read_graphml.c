/* netsched — GraphML reader, through igraph's GraphML parser and its C
 * attribute handler.
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
 * Vertices become nodes in document order (so machines keep their order).
 * Links keep the edge order. An undirected edge's first end is the vertex
 * that comes first in the document. In a directed graph every edge is a
 * full-duplex link from source to target, and a pair u->v, v->u is merged
 * into one link (the first one); the pair must agree on bandwidth and
 * latency. igraph reports no line numbers: messages are "file: vertex 'x':
 * what is wrong".
 */
#include "platforms/error.h"
#include "platforms/hostlist.h"
#include "platforms/topology_io.h"
#include "platforms/units.h"

#include <errno.h>
#include <igraph.h>
#include <math.h>
#include <string.h>

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

typedef struct {
  const char *source;
  const igraph_t *g;
  GHashTable *vtypes, *etypes;   /* attribute name -> igraph_attribute_type_t + 1 */
  GError **error;
} Reader;

static gboolean fail(Reader *R, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(Reader *R, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  ns_set_error_at(R->error, NS_ERROR_INPUT, R->source, 0, "%s", msg);
  g_free(msg);
  return FALSE;
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
  igraph_strvector_destroy(&gn);
  igraph_strvector_destroy(&vn);
  igraph_strvector_destroy(&en);
  igraph_vector_int_destroy(&gt);
  igraph_vector_int_destroy(&vt);
  igraph_vector_int_destroy(&et);
  if (!ok)
    return fail(R, "cannot read the GraphML attributes");
  return TRUE;
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
  gboolean bad;
  const char *f = vstring(R, "forwarding", v, &bad);
  if (bad)
    return fail(R, "vertex '%s': attribute 'forwarding' must be a string", who);
  if (f != NULL && *f != '\0') {
    if (strcmp(f, "store-and-forward") == 0)
      node->forwarding = NS_FORWARD_STORE_AND_FORWARD;
    else if (strcmp(f, "cut-through") == 0)
      node->forwarding = NS_FORWARD_CUT_THROUGH;
    else
      return fail(R, "vertex '%s': invalid forwarding '%s' (expected store-and-forward or "
                  "cut-through)", who, f);
  }
  const char *b = vstring(R, "buffering", v, &bad);
  if (bad)
    return fail(R, "vertex '%s': attribute 'buffering' must be a string", who);
  if (b != NULL && *b != '\0') {
    if (strcmp(b, "input") == 0)
      node->buffering = NS_BUFFER_INPUT;
    else if (strcmp(b, "output") == 0)
      node->buffering = NS_BUFFER_OUTPUT;
    else if (strcmp(b, "shared") == 0)
      node->buffering = NS_BUFFER_SHARED;
    else
      return fail(R, "vertex '%s': invalid buffering '%s' (expected input, output or shared)",
                  who, b);
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
      return fail(R, "vertex '%s': invalid buffer '%s' (expected a number of packets such "
                  "as 64 or \"64p\")", who, str);
    num = (double)x;
  } else if (k == 3) {
    return fail(R, "vertex '%s': attribute 'buffer' must be a number of packets", who);
  }
  if (k != 0) {
    if (!(num >= 1 && num <= 1e9) || num != floor(num))
      return fail(R, "vertex '%s': invalid buffer %g (expected a whole number of packets "
                  "from 1 to 1000000000)", who, num);
    node->buffer_packets = (int)num;
  }
  return TRUE;
}

/* Adds the vertices; ids[v] receives the node id. */
static gboolean read_vertices(Reader *R, NsTopology *topo, int *ids, char **names)
{
  igraph_integer_t n = igraph_vcount(R->g);
  if (attr_type(R->vtypes, "kind") < 0 && n > 0)
    return fail(R, "no vertex attribute 'kind' (declare <key for=\"node\" attr.name=\"kind\" "
                "attr.type=\"string\"/> and give every node machine or switch)");
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal); /* name -> vertex + 1 */
  gboolean ok = TRUE;
  for (igraph_integer_t v = 0; ok && v < n; v++) {
    gboolean bad;
    const char *id = vstring(R, "id", v, &bad);
    const char *name = vstring(R, "name", v, &bad);
    if (bad) {
      ok = fail(R, "vertex '%s': attribute 'name' must be a string", id ? id : "?");
      break;
    }
    if (name == NULL || *name == '\0')
      name = id;
    char *fallback = NULL;
    if (name == NULL || *name == '\0')
      name = fallback = g_strdup_printf("%" IGRAPH_PRId, v);
    names[v] = g_strdup(name);
    g_free(fallback);
    const char *who = names[v];
    if (has_control(who) || !g_utf8_validate(who, -1, NULL)) {
      char *esc = g_strescape(who, NULL);
      ok = fail(R, "vertex '%s': the name contains a control character", esc);
      g_free(esc);
      break;
    }
    gpointer prev = g_hash_table_lookup(seen, who);
    if (prev != NULL) {
      ok = fail(R, "vertex '%s': duplicate name (vertices %" IGRAPH_PRId " and %" IGRAPH_PRId
                " of the file)", who, (igraph_integer_t)GPOINTER_TO_SIZE(prev) - 1, v);
      break;
    }
    g_hash_table_insert(seen, names[v], GSIZE_TO_POINTER((gsize)v + 1));
    const char *kind = vstring(R, "kind", v, &bad);
    NsNodeKind k = NS_NODE_MACHINE;
    if (bad)
      ok = fail(R, "vertex '%s': attribute 'kind' must be a string (machine or switch)", who);
    else if (kind == NULL || *kind == '\0')
      ok = fail(R, "vertex '%s': missing 'kind' (expected machine or switch)", who);
    else if (strcmp(kind, "machine") == 0)
      k = NS_NODE_MACHINE;
    else if (strcmp(kind, "switch") == 0)
      k = NS_NODE_SWITCH;
    else
      ok = fail(R, "vertex '%s': invalid kind '%s' (expected machine or switch)", who, kind);
    if (!ok)
      break;
    ids[v] = ns_topology_add_node(topo, who, k, 0, R->error);
    if (ids[v] < 0) {
      ok = FALSE;
      break;
    }
    if (k == NS_NODE_SWITCH)
      ok = read_switch_attrs(R, v, who, ns_topology_node_mut(topo, ids[v]));
  }
  g_hash_table_unref(seen);
  return ok;
}

static gboolean edge_value(Reader *R, const char *attr, igraph_integer_t e, const char *a,
                           const char *b, gboolean is_bandwidth, double *out)
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
      return fail(R, "link '%s'-'%s': bandwidth must be a positive number of bit/s, got %g", a,
                  b, num);
    if (!is_bandwidth && !(num >= 0 && isfinite(num)))
      return fail(R, "link '%s'-'%s': latency must be a non-negative number of seconds, "
                  "got %g", a, b, num);
    *out = num;
    return TRUE;
  case 2:
    if (is_bandwidth ? ns_parse_bandwidth(str, out, &why) : ns_parse_time(str, out, &why))
      return TRUE;
    return fail(R, "link '%s'-'%s': invalid %s '%s': %s", a, b, attr, str, why);
  default:
    return fail(R, "link '%s'-'%s': attribute '%s' must be a number or a string with a unit",
                a, b, attr);
  }
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
    igraph_integer_t from, to;
    igraph_edge(R->g, e, &from, &to);
    if (!directed && from > to) {
      igraph_integer_t t = from;
      from = to;
      to = t;
    }
    if (from == to) {
      ok = fail(R, "vertex '%s': self-loop", names[from]);
      break;
    }
    double bandwidth = NS_DEFAULT_BANDWIDTH, latency = NS_DEFAULT_LATENCY;
    ok = edge_value(R, "bandwidth", e, names[from], names[to], TRUE, &bandwidth) &&
         edge_value(R, "latency", e, names[from], names[to], FALSE, &latency);
    if (!ok)
      break;
    if (directed) {
      gint64 rev = (gint64)to * nv + from;
      gpointer hit = g_hash_table_lookup(pending, &rev);
      if (hit != NULL) {
        guint li = GPOINTER_TO_UINT(hit) - 1;
        if (g_array_index(bw, double, li) != bandwidth ||
            g_array_index(lat, double, li) != latency) {
          ok = fail(R, "link '%s'-'%s': the edges in the two directions differ in bandwidth "
                    "or latency", names[to], names[from]);
          break;
        }
        g_hash_table_remove(pending, &rev); /* merged: a third edge is a parallel link */
        continue;
      }
    }
    int li = ns_topology_add_link(topo, ids[from], ids[to], bandwidth, latency, 0, R->error);
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

NsTopology *ns_topology_read_graphml(const char *path, NsWarnFunc warn, void *warn_data,
                                     GError **error)
{
  g_return_val_if_fail(path != NULL, NULL);
  g_return_val_if_fail(error == NULL || *error == NULL, NULL);
  static GOnce once = G_ONCE_INIT;
  g_once(&once, install_attribute_table, NULL);

  FILE *in = fopen(path, "rb");
  if (in == NULL) {
    int e = errno;
    ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", g_strerror(e));
    return NULL;
  }
  int first = fgetc(in);
  if (first == EOF) {
    int e = errno;
    gboolean failed = ferror(in);
    fclose(in);
    if (failed)
      ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", g_strerror(e));
    else
      ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "empty file (expected GraphML)");
    return NULL;
  }
  rewind(in);
  igraph_t g;
  igraph_reason[0] = '\0';
  igraph_error_handler_t *old_error = igraph_set_error_handler(record_igraph_error);
  igraph_warning_handler_t *old_warning = igraph_set_warning_handler(ignore_igraph_warning);
  igraph_error_t rc = igraph_read_graph_graphml(&g, in, 0);
  igraph_set_error_handler(old_error);
  igraph_set_warning_handler(old_warning);
  fclose(in);
  if (rc != IGRAPH_SUCCESS) {
    /* libxml2's messages may quote raw input bytes and end in a newline. */
    char *reason = g_utf8_make_valid(igraph_reason[0] != '\0' ? igraph_reason
                                                              : igraph_strerror(rc), -1);
    for (char *c = reason; *c != '\0'; c++)
      if ((guchar)*c < 0x20 || *c == 0x7f)
        *c = ' ';
    g_strstrip(reason);
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "not a readable GraphML file: %s", reason);
    g_free(reason);
    return NULL;
  }

  GError *local = NULL;
  Reader R = {
    .source = path,
    .g = &g,
    .vtypes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
    .etypes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
    .error = error != NULL ? error : &local,
  };
  NsTopology *topo = ns_topology_new(path);
  igraph_integer_t n = igraph_vcount(&g);
  gboolean ok = TRUE;
  if (n > NS_HOSTLIST_MAX || igraph_ecount(&g) > NS_HOSTLIST_MAX)
    ok = fail(&R, "more than %d vertices or edges", NS_HOSTLIST_MAX);
  int *ids = ok ? g_new0(int, n + 1) : NULL;
  char **names = ok ? g_new0(char *, n + 1) : NULL;
  ok = ok && list_types(&R, &g) && read_vertices(&R, topo, ids, names) &&
       read_edges(&R, topo, ids, names) &&
       ns_topology_finalize(topo, warn, warn_data, R.error);
  g_free(ids);
  g_strfreev(names);
  g_hash_table_unref(R.vtypes);
  g_hash_table_unref(R.etypes);
  igraph_destroy(&g);
  g_clear_error(&local);
  if (!ok) {
    ns_topology_free(topo);
    return NULL;
  }
  return topo;
}
