/* netsched — a digest of a topology's model (see topology_digest.h).
 *
 * The canonical model is hashed field by field rather than through a
 * writer's text: a writer may change how it spells a topology (comments,
 * defaults, compressed names) without changing the network, and every
 * resumable result is keyed by this digest. */
#include "platforms/io/topology_digest.h"
#include "platforms/io/topology_io.h"
#include "platforms/model/topology_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bumped when the fields or their order change (every key changes then). */
#define MODEL_DIGEST_TAG "netsched-topology-model/1"

static void put_u64(GChecksum *c, uint64_t v)
{
  guchar b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (guchar)(v >> (56 - 8 * i));
  g_checksum_update(c, b, sizeof b);
}

static void put_int(GChecksum *c, int64_t v) { put_u64(c, (uint64_t)v); }

static void put_str(GChecksum *c, const char *s)
{
  size_t len = s != NULL ? strlen(s) : 0;
  put_u64(c, len);
  g_checksum_update(c, (const guchar *)s, (gssize)len);
}

/* Exact bits; -0.0 is 0.0 (the readers make no difference between them). */
static void put_double(GChecksum *c, double v)
{
  uint64_t bits;
  if (v == 0)
    v = 0;
  memcpy(&bits, &v, sizeof bits);
  put_u64(c, bits);
}

/**
 * \function ns_topology_digest
 * \brief SHA-256 of a topology's canonical model.
 *
 * Fed to GChecksum directly, in this order: a version tag; every node in
 * node-id order — kind, name, and for a machine its port model and k, for
 * a switch its forwarding, buffering and buffer size; every link in
 * link-id order — its two ends as stored, its bandwidth and latency (exact
 * IEEE-754 bits, -0 as 0); the routing, the grid (sizes and wrap) and every
 * explicit route as its node ids. Integers are 64-bit big-endian and
 * strings length-prefixed, so no two models share an input. Where the
 * topology came from (file name, generator text), its title, source line
 * numbers and how any writer spells it are not part of it: two topologies
 * with the same digest are the same network under the same routing.
 *
 * \param topo A finalized topology.
 * \return 64 lowercase hex digits, newly allocated.
 * \errors none (GLib aborts when memory runs out).
 * \complexity O(|V| + |E| + total length of the explicit routes).
 * \source docs/sweeps.md, "Resume keys"; issue 19 point 4 (a writer change
 *         must not invalidate results).
 */
char *ns_topology_digest(const NsTopology *topo)
{
  GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
  put_str(c, MODEL_DIGEST_TAG);
  int n = ns_topology_n_nodes(topo), m = ns_topology_n_links(topo);
  put_int(c, n);
  for (int v = 0; v < n; v++) {
    const NsNode *node = ns_topology_node(topo, v);
    put_int(c, node->kind);
    put_str(c, node->name);
    if (node->kind == NS_NODE_MACHINE) {
      put_int(c, node->ports);
      put_int(c, node->k_ports);
    } else {
      put_int(c, node->forwarding);
      put_int(c, node->buffering);
      put_int(c, node->buffer_packets);
    }
  }
  put_int(c, m);
  for (int i = 0; i < m; i++) {
    const NsLink *link = ns_topology_link(topo, i);
    put_int(c, link->a);
    put_int(c, link->b);
    put_double(c, link->bandwidth);
    put_double(c, link->latency);
  }
  put_int(c, ns_topology_routing(topo));
  int sizes[NS_MAX_DIMS];
  gboolean wrap = FALSE;
  int dims = ns_topology_grid(topo, sizes, &wrap);
  put_int(c, dims);
  for (int d = 0; d < dims; d++)
    put_int(c, sizes[d]);
  put_int(c, dims > 0 && wrap);
  guint n_routes = topo->route_heads != NULL ? topo->route_heads->len : 0;
  put_int(c, n_routes);
  for (guint r = 0; r < n_routes; r++) {
    const RouteHead *h = &g_array_index(topo->route_heads, RouteHead, r);
    put_int(c, h->n);
    for (int k = 0; k < h->n; k++)
      put_int(c, g_array_index(topo->route_nodes, int, h->first + k));
  }
  char *digest = g_strdup(g_checksum_get_string(c));
  g_checksum_free(c);
  return digest;
}

/**
 * \function ns_topology_digest_legacy
 * \brief The topology digest of netsched 0.x: SHA-256 of the native text.
 *
 * Only to recognise result files keyed before ns_topology_digest() (an
 * alias on resume). The text holds the path the topology was read from, so
 * it depends on how that path was spelled. tests/test_sweep.c pins its
 * value for a few topologies: a writer change that would break the alias
 * fails there.
 *
 * \param topo A finalized topology.
 * \return 64 lowercase hex digits, newly allocated, or NULL.
 * \errors NULL when the native writer refuses the topology (a node name
 *         with control characters) or its text cannot be built.
 * \complexity O(size of the native text).
 * \source ns_topology_write_native(); docs/sweeps.md, "Resume keys".
 */
char *ns_topology_digest_legacy(const NsTopology *topo)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (f == NULL)
    return NULL;
  gboolean ok = ns_topology_write_native(topo, f, NULL);
  ok = fclose(f) == 0 && ok;
  char *digest = ok ? g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, (gssize)len) : NULL;
  free(text);
  return digest;
}
