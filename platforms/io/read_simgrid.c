/* netsched — reader of SimGrid platform XML (version 4.x), through GLib's
 * GMarkup parser.
 *
 * Read (docs/topology-format.md, section "SimGrid platforms"):
 *   - one <cluster> (in <platform> or in one <zone>) whose topology is
 *     FLAT, TORUS, FAT_TREE or DRAGONFLY, built by simgrid_clusters.c;
 *   - or one flat zone of <host>, <router>, <link> and <route> elements.
 *     Each <link> becomes a netsched link between the two nodes its routes
 *     place at its ends: a route from A to B through links l1..lk puts A at
 *     the start of l1, B at the end of lk, and one node between each pair
 *     of consecutive links (a router of its own, "x0", "x1", ..., when no
 *     host or router is there; a router that no route starts or ends at,
 *     and a link no route crosses, are left out with a warning).
 *     direction="DOWN" in a <link_ctn> crosses
 *     the link from its end to its start. Zones routed "Full" keep their
 *     routes between hosts as explicit routes; "Floyd", "Dijkstra" and
 *     "DijkstraCache" zones are graphs (tree or shortest routing).
 * Bandwidths and latencies take netsched's units; a number without unit
 * is bytes/s or seconds, as SimGrid defines it. Everything else (nested
 * zones, zone routes, includes, backbones, other topologies) is refused
 * with its line; SimGrid's host speeds, properties and loopbacks are
 * ignored.
 */
#include "platforms/model/error.h"
#include "platforms/io/hostlist_internal.h"
#include "platforms/io/read_options.h"
#include "platforms/io/topology_io.h"
#include "platforms/io/simgrid_clusters_internal.h"
#include "platforms/io/topology_input_internal.h"
#include "platforms/model/units.h"

#include <math.h>
#include <string.h>

typedef struct {
  char *id;
  double bandwidth, latency;
  int line;
  int used;              /* crossed by a route */
} SgLink;

typedef struct {
  char *src, *dst;
  GArray *links;         /* int: link index, negative (-1 - i) for direction DOWN */
  gboolean symmetrical;
  int line;
} SgRoute;

typedef struct {
  const char *source;
  GMarkupParseContext *ctx;
  int depth_zone;        /* zones open */
  int zones;             /* zones seen */
  char *routing;         /* of the zone */
  /* the cluster */
  gboolean have_cluster;
  NsSimGridCluster cluster;
  /* a flat zone */
  GPtrArray *nodes;      /* char *: hosts and routers in document order */
  GArray *is_host;       /* gboolean per node */
  GHashTable *node_at;   /* name -> index + 1 */
  GArray *links;         /* SgLink */
  GHashTable *link_at;   /* id -> index + 1 */
  GArray *routes;        /* SgRoute */
  SgRoute *route;        /* open <route> */
  int shared_line;       /* first SHARED link, for the warning */
} Sg;

static void sg_link_clear(gpointer p)
{
  g_free(((SgLink *)p)->id);
}

static void sg_route_clear(gpointer p)
{
  SgRoute *r = p;
  g_free(r->src);
  g_free(r->dst);
  g_array_free(r->links, TRUE);
}

static int line_of(const Sg *S)
{
  int line = 0, ch = 0;
  g_markup_parse_context_get_position(S->ctx, &line, &ch);
  return line;
}

static void sg_fail(Sg *S, GError **error, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void sg_fail(Sg *S, GError **error, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  /* NS_ERROR domain, so that GMarkup hands it back as it is. */
  ns_set_error_at(error, NS_ERROR_INPUT, S->source, line_of(S), "%s", msg);
}

static const char *attr(const char **names, const char **values, const char *name)
{
  for (int i = 0; names[i] != NULL; i++)
    if (strcmp(names[i], name) == 0)
      return values[i];
  return NULL;
}

/* A SimGrid bandwidth: netsched's units, or a bare number of bytes/s. */
static gboolean parse_bw(Sg *S, const char *text, const char *what, double *out, GError **error)
{
  const char *why = NULL;
  char *end = NULL;
  double x = text != NULL ? g_ascii_strtod(text, &end) : NAN;
  if (text != NULL && end != text && *end == '\0' && x > 0 && isfinite(x) && x * 8 <= 1e15) {
    *out = x * 8;
    return TRUE;
  }
  if (text != NULL && ns_parse_bandwidth(text, out, &why))
    return TRUE;
  sg_fail(S, error, "%s '%s': %s", what, text != NULL ? text : "",
          text == NULL ? "missing" : why != NULL ? why : "not a positive bandwidth");
  return FALSE;
}

static gboolean parse_lat(Sg *S, const char *text, const char *what, double *out, GError **error)
{
  const char *why = NULL;
  char *end = NULL;
  if (text == NULL) {
    *out = 0;
    return TRUE;
  }
  double x = g_ascii_strtod(text, &end);
  if (end != text && *end == '\0' && x >= 0 && x <= 1e6) {
    *out = x;
    return TRUE;
  }
  /* the model's limit (ns_topology_add_link): a cluster's latency reaches
   * the links through a generator, which does not check it again */
  if (ns_parse_time(text, out, &why)) {
    if (*out <= 1e6)
      return TRUE;
    why = "above the 1e6 s limit";
  }
  sg_fail(S, error, "%s '%s': %s", what, text, why != NULL ? why : "not a latency");
  return FALSE;
}

static gboolean add_node(Sg *S, const char *id, gboolean host, GError **error)
{
  if (id == NULL || *id == '\0') {
    sg_fail(S, error, "<%s> without id", host ? "host" : "router");
    return FALSE;
  }
  if (g_hash_table_contains(S->node_at, id)) {
    sg_fail(S, error, "'%s' declared twice", id);
    return FALSE;
  }
  if (S->nodes->len >= NS_HOSTLIST_MAX) {
    sg_fail(S, error, "more than %d hosts and routers", NS_HOSTLIST_MAX);
    return FALSE;
  }
  g_ptr_array_add(S->nodes, g_strdup(id));
  g_array_append_val(S->is_host, host);
  g_hash_table_insert(S->node_at, S->nodes->pdata[S->nodes->len - 1],
                      GUINT_TO_POINTER(S->nodes->len));
  return TRUE;
}

static void on_start(GMarkupParseContext *ctx, const char *el, const char **names,
                     const char **values, gpointer data, GError **error)
{
  Sg *S = data;
  if (strcmp(el, "platform") == 0 || strcmp(el, "prop") == 0 || strcmp(el, "config") == 0)
    return;
  if (strcmp(el, "zone") == 0 || strcmp(el, "AS") == 0) {
    if (S->depth_zone > 0 || S->zones > 0 || S->have_cluster) {
      sg_fail(S, error, "a second zone: netsched reads one zone (a cluster, or hosts, routers, "
              "links and routes)");
      return;
    }
    S->depth_zone++;
    S->zones++;
    const char *routing = attr(names, values, "routing");
    S->routing = g_strdup(routing != NULL ? routing : "");
    static const char *const known[] = {"Full", "Floyd", "Dijkstra", "DijkstraCache"};
    for (gsize i = 0; i < G_N_ELEMENTS(known); i++)
      if (strcmp(S->routing, known[i]) == 0)
        return;
    sg_fail(S, error, "zone routing '%s' is not read (netsched reads Full, Floyd, Dijkstra and "
            "DijkstraCache zones, and clusters)", S->routing);
    return;
  }
  if (strcmp(el, "cluster") == 0) {
    if (S->have_cluster || S->nodes->len > 0 || S->links->len > 0) {
      sg_fail(S, error, "a cluster beside other hosts or clusters: netsched reads one cluster "
              "alone");
      return;
    }
    S->have_cluster = TRUE;
    S->cluster.line = line_of(S);
    const char *radical = attr(names, values, "radical");
    if (radical == NULL) {
      sg_fail(S, error, "<cluster> without radical");
      return;
    }
    S->cluster.radical = g_strdup(radical);
    S->cluster.prefix = g_strdup(attr(names, values, "prefix") ? attr(names, values, "prefix") : "");
    S->cluster.suffix = g_strdup(attr(names, values, "suffix") ? attr(names, values, "suffix") : "");
    const char *topology = attr(names, values, "topology");
    S->cluster.topology = g_strdup(topology != NULL ? topology : "FLAT");
    const char *params = attr(names, values, "topo_parameters");
    S->cluster.params = g_strdup(params != NULL ? params : "");
    if (attr(names, values, "bb_bw") != NULL) {
      sg_fail(S, error, "a cluster backbone (bb_bw) is a shared link netsched cannot model: "
              "describe the switch and its links as a flat zone");
      return;
    }
    if (parse_bw(S, attr(names, values, "bw"), "bw", &S->cluster.bw, error))
      parse_lat(S, attr(names, values, "lat"), "lat", &S->cluster.lat, error);
    return;
  }
  if (strcmp(el, "host") == 0 || strcmp(el, "router") == 0) {
    if (S->have_cluster) {
      sg_fail(S, error, "<%s> beside a cluster: netsched reads one cluster alone", el);
      return;
    }
    add_node(S, attr(names, values, "id"), el[0] == 'h', error);
    return;
  }
  if (strcmp(el, "link") == 0) {
    const char *id = attr(names, values, "id");
    SgLink l = {.line = line_of(S)};
    if (id == NULL || *id == '\0') {
      sg_fail(S, error, "<link> without id");
      return;
    }
    if (g_hash_table_contains(S->link_at, id)) {
      sg_fail(S, error, "link '%s' declared twice", id);
      return;
    }
    const char *policy = attr(names, values, "sharing_policy");
    if ((policy == NULL || strcmp(policy, "SHARED") == 0) && S->shared_line == 0)
      S->shared_line = l.line;
    if (!parse_bw(S, attr(names, values, "bandwidth"), "bandwidth", &l.bandwidth, error) ||
        !parse_lat(S, attr(names, values, "latency"), "latency", &l.latency, error))
      return;
    if (S->links->len >= NS_HOSTLIST_MAX) {
      sg_fail(S, error, "more than %d links", NS_HOSTLIST_MAX);
      return;
    }
    l.id = g_strdup(id);
    g_array_append_val(S->links, l);
    g_hash_table_insert(S->link_at, g_array_index(S->links, SgLink, S->links->len - 1).id,
                        GUINT_TO_POINTER(S->links->len));
    return;
  }
  if (strcmp(el, "route") == 0) {
    const char *src = attr(names, values, "src"), *dst = attr(names, values, "dst");
    const char *sym = attr(names, values, "symmetrical");
    if (src == NULL || dst == NULL || !g_hash_table_contains(S->node_at, src) ||
        !g_hash_table_contains(S->node_at, dst)) {
      sg_fail(S, error, "<route> from '%s' to '%s': both ends must be hosts or routers declared "
              "before it", src ? src : "", dst ? dst : "");
      return;
    }
    if (strcmp(src, dst) == 0) {
      sg_fail(S, error, "<route> from '%s' to itself", src);
      return;
    }
    SgRoute r = {g_strdup(src), g_strdup(dst), g_array_new(FALSE, FALSE, sizeof(int)),
                 sym == NULL || g_ascii_strcasecmp(sym, "YES") == 0, line_of(S)};
    g_array_append_val(S->routes, r);
    S->route = &g_array_index(S->routes, SgRoute, S->routes->len - 1);
    return;
  }
  if (strcmp(el, "link_ctn") == 0) {
    const char *id = attr(names, values, "id"), *dir = attr(names, values, "direction");
    gpointer at = id != NULL ? g_hash_table_lookup(S->link_at, id) : NULL;
    if (S->route == NULL) {
      sg_fail(S, error, "<link_ctn> outside a <route>");
    } else if (at == NULL) {
      sg_fail(S, error, "<link_ctn> names link '%s', which no <link> declares before it",
              id != NULL ? id : "");
    } else if (S->route->links->len >= 4096) {
      sg_fail(S, error, "a route of more than 4096 links");
    } else {
      int i = (int)GPOINTER_TO_UINT(at) - 1;
      int v = dir != NULL && strcmp(dir, "DOWN") == 0 ? -1 - i : i;
      g_array_append_val(S->route->links, v);
    }
    return;
  }
  sg_fail(S, error, "<%s> is not read by netsched (it reads <platform>, one <zone>, <cluster>, "
          "<host>, <router>, <link>, <route> and <link_ctn>)", el);
}

static void on_end(GMarkupParseContext *ctx, const char *el, gpointer data, GError **error)
{
  Sg *S = data;
  if (strcmp(el, "route") == 0)
    S->route = NULL;
  else if (strcmp(el, "zone") == 0 || strcmp(el, "AS") == 0)
    S->depth_zone--;
}

static const GMarkupParser sg_parser = {on_start, on_end, NULL, NULL, NULL};

/* Union-find over hosts, routers and link ends (2 per link). */
static int uf_find(int *up, int x)
{
  while (up[x] != x)
    x = up[x] = up[up[x]];
  return x;
}

static NsTopology *build_flat(Sg *S, NsWarnFunc warn, void *warn_data, GError **error)
{
  int n = (int)S->nodes->len, nl = (int)S->links->len;
  int total = n + 2 * nl;
  int *up = g_new(int, total);
  for (int i = 0; i < total; i++)
    up[i] = i;
  /* A route puts its source at the start of its first link, each link's
   * end at the next one's start, its destination at the last link's end. */
  for (guint r = 0; r < S->routes->len; r++) {
    const SgRoute *rt = &g_array_index(S->routes, SgRoute, r);
    int cur = GPOINTER_TO_INT(g_hash_table_lookup(S->node_at, rt->src)) - 1;
    for (guint k = 0; k < rt->links->len; k++) {
      int v = g_array_index(rt->links, int, k), i = v >= 0 ? v : -1 - v;
      int in = n + 2 * i + (v < 0), out = n + 2 * i + (v >= 0);
      up[uf_find(up, in)] = uf_find(up, cur);
      cur = out;
      g_array_index(S->links, SgLink, i).used++;
    }
    int dst = GPOINTER_TO_INT(g_hash_table_lookup(S->node_at, rt->dst)) - 1;
    up[uf_find(up, dst)] = uf_find(up, cur);
  }
  /* Each class holds at most one host or router; the others are routers
   * of their own. */
  int *node_of = g_new(int, total);
  gboolean *at_link = g_new0(gboolean, total); /* classes holding an end of a used link */
  for (int i = 0; i < total; i++)
    node_of[i] = -1;
  for (int i = 0; i < nl; i++)
    if (g_array_index(S->links, SgLink, i).used > 0)
      at_link[uf_find(up, n + 2 * i)] = at_link[uf_find(up, n + 2 * i + 1)] = TRUE;
  NsTopology *t = ns_topology_new(S->source);
  gboolean ok = TRUE;
  int unplaced = 0, unused = 0;
  for (int v = 0; ok && v < n; v++) {
    int c = uf_find(up, v);
    if (!g_array_index(S->is_host, gboolean, v) && !at_link[c]) {
      unplaced++; /* a router no route ends at: its place is unknown */
      continue;
    }
    if (node_of[c] >= 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, S->source, 0, "the routes make '%s' and '%s' one "
                      "node (a link crossed in both directions needs direction=\"UP\" or "
                      "\"DOWN\" in its <link_ctn>, and a route's links must form a path)",
                      ns_topology_node(t, node_of[c])->name, (char *)S->nodes->pdata[v]);
      ok = FALSE;
      break;
    }
    node_of[c] = ns_topology_add_node(t, S->nodes->pdata[v],
                                      g_array_index(S->is_host, gboolean, v) ? NS_NODE_MACHINE
                                                                             : NS_NODE_SWITCH,
                                      0, error);
    ok = node_of[c] >= 0;
  }
  int implied = 0;
  for (int i = 0; ok && i < nl; i++) {
    SgLink *l = &g_array_index(S->links, SgLink, i);
    unused += l->used == 0;
    if (l->used == 0)
      continue;
    int ends[2];
    for (int e = 0; ok && e < 2; e++) {
      int c = uf_find(up, n + 2 * i + e);
      if (node_of[c] < 0) {
        char name[32];
        do
          g_snprintf(name, sizeof name, "x%d", implied++);
        while (g_hash_table_contains(S->node_at, name));
        node_of[c] = ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, error);
        ok = node_of[c] >= 0;
      }
      ends[e] = node_of[c];
    }
    if (ok && ends[0] == ends[1]) {
      ns_set_error_at(error, NS_ERROR_INPUT, S->source, l->line, "link '%s': its routes put "
                      "both its ends on '%s'", l->id, ns_topology_node(t, ends[0])->name);
      ok = FALSE;
    }
    if (ok)
      ok = ns_topology_add_link(t, ends[0], ends[1], l->bandwidth, l->latency, l->line,
                                error) >= 0;
  }
  /* Full zones: the routes between hosts, as listed (and reversed when
   * symmetrical, unless the reverse is listed too). */
  if (ok && strcmp(S->routing, "Full") == 0) {
    GHashTable *listed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint r = 0; r < S->routes->len; r++) {
      const SgRoute *rt = &g_array_index(S->routes, SgRoute, r);
      g_hash_table_add(listed, g_strconcat(rt->src, "\n", rt->dst, NULL));
    }
    GArray *path = g_array_new(FALSE, FALSE, sizeof(int));
    for (guint r = 0; ok && r < S->routes->len; r++) {
      const SgRoute *rt = &g_array_index(S->routes, SgRoute, r);
      int src = GPOINTER_TO_INT(g_hash_table_lookup(S->node_at, rt->src)) - 1;
      int dst = GPOINTER_TO_INT(g_hash_table_lookup(S->node_at, rt->dst)) - 1;
      if (!g_array_index(S->is_host, gboolean, src) || !g_array_index(S->is_host, gboolean, dst))
        continue;
      for (int dir = 0; ok && dir < 2; dir++) {
        g_autofree char *rev = g_strconcat(rt->dst, "\n", rt->src, NULL);
        if (dir == 1 && (!rt->symmetrical || g_hash_table_contains(listed, rev)))
          break;
        g_array_set_size(path, 0);
        int first = node_of[uf_find(up, dir == 0 ? src : dst)];
        g_array_append_val(path, first);
        guint k_n = rt->links->len;
        for (guint k = 0; k < k_n; k++) {
          int v = g_array_index(rt->links, int, dir == 0 ? k : k_n - 1 - k);
          int i = v >= 0 ? v : -1 - v;
          gboolean forward = (v >= 0) == (dir == 0);
          int node = node_of[uf_find(up, n + 2 * i + forward)];
          g_array_append_val(path, node);
        }
        ok = ns_topology_add_route(t, (int *)path->data, (int)path->len, rt->line, error);
      }
    }
    g_array_free(path, TRUE);
    g_hash_table_unref(listed);
    ns_topology_set_routing(t, NS_ROUTING_EXPLICIT, 0);
  }
  if (ok && (unplaced > 0 || unused > 0) && warn != NULL) {
    g_autofree char *msg = g_strdup_printf("%s: %d router%s that no route starts or ends at and "
                                           "%d link%s that no route crosses left out; nodes "
                                           "inside routes are named x0, x1, ...", S->source,
                                           unplaced, unplaced == 1 ? "" : "s", unused,
                                           unused == 1 ? "" : "s");
    warn(msg, warn_data);
  }
  if (ok && S->shared_line > 0 && warn != NULL) {
    g_autofree char *msg = g_strdup_printf("%s:%d: SHARED link (SimGrid's default): its two "
                                           "directions share one bandwidth in SimGrid, while a "
                                           "netsched link is full duplex", S->source,
                                           S->shared_line);
    warn(msg, warn_data);
  }
  if (ok)
    ok = ns_topology_finalize(t, warn, warn_data, error);
  g_free(up);
  g_free(node_of);
  g_free(at_link);
  if (!ok) {
    ns_topology_free(t);
    return NULL;
  }
  return t;
}

/**
 * \function ns_topology_parse_simgrid
 * \brief Reads a SimGrid platform XML in memory (the mapping is at the top
 *        of this file).
 *
 * \param source Name used in messages (NULL: "<platform>").
 * \param text, len The XML (at most NS_TOPOLOGY_MAX_BYTES).
 * \param warn, warn_data Receive non-fatal findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors NS_ERROR_INPUT "source:line: what is wrong".
 * \complexity O(len + nodes + links + route entries) for flat zones; the
 *         generators' for clusters (a dragonfly's routes are O(P²)).
 * \source SimGrid's platform description (simgrid.org, "Describing your
 *         platform"); docs/topology-format.md, "SimGrid platforms".
 */
NsTopology *ns_topology_parse_simgrid(const char *source, const char *text, gsize len,
                                      NsWarnFunc warn, void *warn_data, GError **error)
{
  g_return_val_if_fail(error == NULL || *error == NULL, NULL);
  if (source == NULL)
    source = "<platform>";
  GError *local = NULL;
  GError **err = error != NULL ? error : &local;
  Sg S = {
    .source = source,
    .cluster.source = source,
    .nodes = g_ptr_array_new_with_free_func(g_free),
    .is_host = g_array_new(FALSE, FALSE, sizeof(gboolean)),
    .node_at = g_hash_table_new(g_str_hash, g_str_equal),
    .links = g_array_new(FALSE, TRUE, sizeof(SgLink)),
    .link_at = g_hash_table_new(g_str_hash, g_str_equal),
    .routes = g_array_new(FALSE, TRUE, sizeof(SgRoute)),
    .routing = NULL,
  };
  g_array_set_clear_func(S.links, sg_link_clear);
  g_array_set_clear_func(S.routes, sg_route_clear);
  NsInputWarn w = {warn, warn_data};
  NsWarnFunc escaped = warn != NULL ? ns_input_escaping_warn : NULL;
  NsTopology *t = NULL;
  gboolean ok = TRUE;
  if (text == NULL || len == 0) {
    ns_set_error_at(err, NS_ERROR_INPUT, source, 0, "empty file (expected a SimGrid platform)");
    ok = FALSE;
  } else if (len > NS_TOPOLOGY_MAX_BYTES || !g_utf8_validate(text, (gssize)len, NULL)) {
    ns_set_error_at(err, NS_ERROR_INPUT, source, 0, "not a UTF-8 file of at most 256 MiB");
    ok = FALSE;
  }
  if (ok) {
    S.ctx = g_markup_parse_context_new(&sg_parser, 0, &S, NULL);
    GError *gm = NULL;
    ok = g_markup_parse_context_parse(S.ctx, text, (gssize)len, &gm) &&
         g_markup_parse_context_end_parse(S.ctx, &gm);
    if (!ok && gm != NULL && gm->domain == NS_ERROR) {
      g_propagate_error(err, gm);
    } else if (!ok) {
      ns_set_error_at(err, NS_ERROR_INPUT, source, line_of(&S), "cannot read the XML: %s",
                      gm != NULL ? gm->message : "?");
      g_clear_error(&gm);
    }
    g_markup_parse_context_free(S.ctx);
  }
  if (S.routing == NULL)
    S.routing = g_strdup("Full");
  if (ok && S.have_cluster)
    t = ns_simgrid_cluster_build(&S.cluster, escaped, &w, err);
  else if (ok && S.nodes->len > 0)
    t = build_flat(&S, escaped, &w, err);
  else if (ok)
    ns_set_error_at(err, NS_ERROR_INPUT, source, 0, "no <cluster> and no <host>: not a "
                    "platform netsched can read");
  if (t == NULL)
    ns_input_escape_error(*err);
  g_ptr_array_free(S.nodes, TRUE);
  g_array_free(S.is_host, TRUE);
  g_hash_table_unref(S.node_at);
  g_array_free(S.links, TRUE);
  g_hash_table_unref(S.link_at);
  g_array_free(S.routes, TRUE);
  g_free(S.routing);
  g_free(S.cluster.prefix);
  g_free(S.cluster.suffix);
  g_free(S.cluster.radical);
  g_free(S.cluster.topology);
  g_free(S.cluster.params);
  g_clear_error(&local);
  return t;
}
