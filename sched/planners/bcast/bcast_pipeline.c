/* netsched — bcast trees, segmentation and the pipeline phase construction
 * shared by the bcast planners. See bcast_pipeline_internal.h. */
#include "sched/planners/bcast/bcast_pipeline_internal.h"
#include "platforms/model/error.h"

typedef struct {
  int parent, child;
} TreeEdge;

NsBcastTree *ns_bcast_tree_new(int n, int root)
{
  g_return_val_if_fail(n >= 1 && root >= 0 && root < n, NULL);
  NsBcastTree *t = g_new0(NsBcastTree, 1);
  t->n = n;
  t->root = root;
  t->parent = g_new(int, n);
  for (int m = 0; m < n; m++)
    t->parent[m] = -1;
  t->edges = g_array_sized_new(FALSE, FALSE, sizeof(TreeEdge), (guint)n);
  return t;
}

void ns_bcast_tree_free(NsBcastTree *t)
{
  if (t == NULL)
    return;
  g_free(t->parent);
  g_free(t->child_start);
  g_free(t->children);
  if (t->edges != NULL)
    g_array_unref(t->edges);
  g_free(t);
}

static gboolean in_tree(const NsBcastTree *t, int m)
{
  return m == t->root || t->parent[m] >= 0;
}

gboolean ns_bcast_tree_add(NsBcastTree *t, int parent, int child)
{
  if (t->edges == NULL || parent < 0 || parent >= t->n || child < 0 || child >= t->n ||
      !in_tree(t, parent) || in_tree(t, child))
    return FALSE;
  t->parent[child] = parent;
  TreeEdge e = { parent, child };
  g_array_append_val(t->edges, e);
  return TRUE;
}

gboolean ns_bcast_tree_finish(NsBcastTree *t, GError **error)
{
  g_return_val_if_fail(t->edges != NULL, FALSE);
  for (int m = 0; m < t->n; m++)
    if (!in_tree(t, m)) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "broadcast tree: machine %d is not reached from the root %d", m, t->root);
      return FALSE;
    }
  /* Counting sort of the edges by parent keeps each parent's call order. */
  t->child_start = g_new0(int, t->n + 1);
  t->children = g_new(int, MAX(t->n - 1, 1));
  for (guint e = 0; e < t->edges->len; e++)
    t->child_start[g_array_index(t->edges, TreeEdge, e).parent + 1]++;
  for (int m = 0; m < t->n; m++)
    t->child_start[m + 1] += t->child_start[m];
  int *fill = g_memdup2(t->child_start, sizeof(int) * (gsize)t->n);
  for (guint e = 0; e < t->edges->len; e++) {
    const TreeEdge *te = &g_array_index(t->edges, TreeEdge, e);
    t->children[fill[te->parent]++] = te->child;
  }
  g_free(fill);
  g_array_unref(t->edges);
  t->edges = NULL;
  return TRUE;
}

/* Machines in breadth-first order from the root (parents before children). */
static int *bfs_order(const NsBcastTree *t)
{
  int *order = g_new(int, t->n);
  int head = 0, tail = 0;
  order[tail++] = t->root;
  while (head < tail) {
    int v = order[head++];
    const int *c = ns_bcast_tree_children(t, v);
    for (int k = 0; k < ns_bcast_tree_n_children(t, v); k++)
      order[tail++] = c[k];
  }
  return order;
}

int ns_bcast_tree_height(const NsBcastTree *t)
{
  int *order = bfs_order(t), *depth = g_new0(int, t->n), height = 0;
  for (int i = 1; i < t->n; i++) {
    int v = order[i];
    depth[v] = depth[t->parent[v]] + 1;
    height = MAX(height, depth[v]);
  }
  g_free(order);
  g_free(depth);
  return height;
}

int ns_bcast_tree_degree(const NsBcastTree *t)
{
  int d = 0;
  for (int m = 0; m < t->n; m++)
    d = MAX(d, ns_bcast_tree_n_children(t, m));
  return d;
}

uint64_t ns_bcast_tree_conflicts(const NsTopology *topo, const NsBcastTree *t, int first[3])
{
  int n_edges = ns_topology_n_edges(topo);
  int *owner = g_new(int, n_edges); /* first sender routed over the edge, -1 */
  for (int e = 0; e < n_edges; e++)
    owner[e] = -1;
  int *route = g_new(int, ns_topology_max_route_len(topo));
  uint64_t clashes = 0;
  /* A clash exists on edge e iff two different senders use it; comparing
   * every use with the first user finds every such edge. */
  for (int v = 0; v < t->n; v++) {
    const int *c = ns_bcast_tree_children(t, v);
    for (int k = 0; k < ns_bcast_tree_n_children(t, v); k++) {
      int len = ns_topology_route_machines(topo, v, c[k], route);
      gboolean clash = FALSE;
      for (int r = 0; r < len; r++) {
        int e = route[r];
        if (owner[e] < 0) {
          owner[e] = v;
        } else if (owner[e] != v && !clash) {
          clash = TRUE;
          if (clashes == 0 && first != NULL) {
            first[0] = owner[e];
            first[1] = v;
            first[2] = e;
          }
        }
      }
      clashes += clash;
    }
  }
  g_free(owner);
  g_free(route);
  return clashes;
}

gboolean ns_bcast_segments(const NsTopology *topo, const NsPlanParams *params,
                           const char *algorithm, uint32_t *n_segments,
                           uint64_t *segment_bytes, GError **error)
{
  int p = ns_topology_n_machines(topo);
  if (params->root < 0 || params->root >= p) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "bcast/%s: root %d is not a machine index (0..%d)", algorithm, params->root,
                    p - 1);
    return FALSE;
  }
  if (params->msize == 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "bcast/%s: the message size must be positive", algorithm);
    return FALSE;
  }
  uint64_t seg = params->segment == 0 || params->segment >= params->msize ? params->msize
                                                                           : params->segment;
  uint64_t x = params->msize / seg + (params->msize % seg != 0);
  if (x > NS_BCAST_MAX_TRANSFERS / (uint64_t)MAX(p - 1, 1)) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "bcast/%s: %" G_GUINT64_FORMAT " segments of %" G_GUINT64_FORMAT
                    " bytes to %d machines exceed the limit of %" G_GUINT64_FORMAT
                    " transfers; use a larger segment size",
                    algorithm, x, seg, p - 1, (guint64)NS_BCAST_MAX_TRANSFERS);
    return FALSE;
  }
  *n_segments = (uint32_t)x;
  *segment_bytes = seg;
  return TRUE;
}

NsSchedule *ns_bcast_schedule_new(const NsTopology *topo, const char *algorithm, int root,
                                  uint32_t n_segments, uint64_t segment_bytes)
{
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_BCAST, algorithm, segment_bytes);
  s->root = root;
  s->n_segments = n_segments;
  return s;
}

typedef struct {
  uint32_t phase;
  int32_t src, dst;
  uint32_t segment;
} Send;

/* See the header: every send as early as possible, in (segment, child)
 * order per machine; machines in BFS order so a parent's sends (hence its
 * children's receipt phases) are known before the children are visited. */
NsSchedule *ns_bcast_pipeline(const NsTopology *topo, const NsBcastTree *tree,
                              const char *algorithm, uint32_t n_segments,
                              uint64_t segment_bytes)
{
  const int n = tree->n;
  const uint64_t x = n_segments;
  NsSchedule *s = ns_bcast_schedule_new(topo, algorithm, tree->root, n_segments, segment_bytes);
  uint64_t n_sends = x * (uint64_t)(n - 1);
  if (n_sends == 0)
    return s;
  uint32_t *received = g_new(uint32_t, (gsize)(x * (uint64_t)n)); /* phase of receipt */
  Send *sends = g_new(Send, (gsize)n_sends);
  int *order = bfs_order(tree);
  uint64_t k = 0;
  uint32_t n_phases = 0;
  for (int i = 0; i < n; i++) {
    int v = order[i];
    int d = ns_bcast_tree_n_children(tree, v);
    const int *c = ns_bcast_tree_children(tree, v);
    uint32_t next_free = 0; /* first phase in which v may send again */
    for (uint64_t seg = 0; seg < x && d > 0; seg++) {
      uint32_t ready = v == tree->root ? 0 : received[seg * (uint64_t)n + (uint64_t)v] + 1;
      for (int j = 0; j < d; j++) {
        uint32_t ph = MAX(ready, next_free);
        next_free = ph + 1;
        received[seg * (uint64_t)n + (uint64_t)c[j]] = ph;
        sends[k++] = (Send){ ph, v, c[j], (uint32_t)seg };
        n_phases = MAX(n_phases, ph + 1);
      }
    }
  }
  g_assert(k == n_sends);
  /* Counting sort by phase (stable: BFS order of the senders in a phase). */
  uint64_t *start = g_new0(uint64_t, (gsize)n_phases + 1);
  for (uint64_t i = 0; i < n_sends; i++)
    start[sends[i].phase + 1]++;
  for (uint32_t p = 0; p < n_phases; p++)
    start[p + 1] += start[p];
  uint32_t *sorted = g_new(uint32_t, (gsize)n_sends);
  uint64_t *fill = g_memdup2(start, sizeof(uint64_t) * n_phases);
  for (uint64_t i = 0; i < n_sends; i++)
    sorted[fill[sends[i].phase]++] = (uint32_t)i;
  ns_schedule_reserve(s, n_phases, n_sends);
  for (uint32_t p = 0; p < n_phases; p++) {
    if (start[p] == start[p + 1])
      continue; /* cannot happen (see the header), kept for safety */
    ns_schedule_begin_phase(s);
    for (uint64_t i = start[p]; i < start[p + 1]; i++) {
      const Send *e = &sends[sorted[i]];
      ns_schedule_add(s, e->src, e->dst, e->segment);
    }
  }
  g_free(fill);
  g_free(sorted);
  g_free(start);
  g_free(order);
  g_free(sends);
  g_free(received);
  return s;
}
