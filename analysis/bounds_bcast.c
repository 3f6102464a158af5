/* netsched — broadcast bounds and Table 3.7 estimates. See bounds_bcast.h. */
#include "analysis/bounds_bcast.h"
#include "analysis/bounds_allgather.h"
#include "sched/bound/lower_bound.h"
#include "platforms/model/error.h"
#include <math.h>
#include <string.h>

/**
 * \function ns_bcast_tree_shape
 * \brief Height and largest degree of a broadcast tree.
 *
 * \param n Number of machines.
 * \param root The root machine index.
 * \param parent parent[m]: the machine m receives from (parent[root] = -1).
 * \param height Receives H, edges on the longest root-to-machine path.
 * \param degree Receives D, the largest number of children.
 * \param error Set on failure (see errors).
 * \return FALSE when parent[] is not a tree rooted at root.
 * \errors NS_ERROR_INPUT for an index out of range, a second root or a cycle.
 * \complexity O(n).
 * \source dissertation Table 3.7 (broadcast estimates).
 */
gboolean ns_bcast_tree_shape(int n, int root, const int *parent, int *height, int *degree,
                             GError **error)
{
  if (n < 1 || root < 0 || root >= n || parent[root] != -1) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "broadcast tree: root %d is not a root of the %d machines", root, n);
    return FALSE;
  }
  int *children = g_new0(int, n), *depth = g_new(int, n);
  for (int m = 0; m < n; m++) {
    depth[m] = m == root ? 0 : -1;
    if (m != root && (parent[m] < 0 || parent[m] >= n)) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "broadcast tree: machine %d has no parent (parent %d)", m, parent[m]);
      g_free(children);
      g_free(depth);
      return FALSE;
    }
    if (m != root)
      children[parent[m]]++;
  }
  /* Depths by climbing to the first machine of known depth, then writing
   * the path back; a path longer than n is a cycle. O(n) overall. */
  int *path = g_new(int, n);
  int h = 0, d = 0;
  gboolean ok = TRUE;
  for (int m = 0; m < n && ok; m++) {
    int len = 0, v = m;
    while (depth[v] < 0 && len < n) {
      path[len++] = v;
      v = parent[v];
    }
    if (depth[v] < 0) { /* n machines climbed without reaching the root */
      ok = FALSE;
      break;
    }
    for (int k = len - 1; k >= 0; k--)
      depth[path[k]] = depth[k == len - 1 ? v : path[k + 1]] + 1;
    h = MAX(h, depth[m]);
  }
  for (int m = 0; m < n; m++)
    d = MAX(d, children[m]);
  g_free(path);
  g_free(children);
  g_free(depth);
  if (!ok) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "broadcast tree: the parents of the %d machines form a cycle", n);
    return FALSE;
  }
  *height = h;
  *degree = d;
  return TRUE;
}

/**
 * \function ns_bcast_schedule_tree
 * \brief The broadcast tree of a planned bcast schedule.
 *
 * \param s A bcast schedule.
 * \param parent Receives, per schedule machine, the machine it receives its segments from (-1
 *        for the root).
 * \param error Set on failure (see errors).
 * \return FALSE when there is no single tree.
 * \errors NS_ERROR_UNSUPPORTED when a machine receives from two machines (as in
 *        scatter-allgather) or from none; NS_ERROR_INPUT for a non-bcast schedule.
 * \complexity O(transfers + chunks).
 * \source dissertation Table 3.7 (broadcast estimates).
 */
gboolean ns_bcast_schedule_tree(const NsSchedule *s, int *parent, GError **error)
{
  if (s->collective != NS_COLL_BCAST) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s schedule is not a broadcast",
                    ns_collective_name(s->collective));
    return FALSE;
  }
  int n = s->n_machines;
  for (int m = 0; m < n; m++)
    parent[m] = -1;
  for (uint64_t t = 0; t < ns_schedule_n_transfers(s); t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    if (tr->src < 0 || tr->src >= n || tr->dst < 0 || tr->dst >= n) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "transfer #%" G_GUINT64_FORMAT ": machine index out of range", t);
      return FALSE;
    }
    if (tr->dst == s->root || (parent[tr->dst] >= 0 && parent[tr->dst] != tr->src)) {
      ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                      "not a single broadcast tree: %s receives from %s and from %s",
                      s->machines[tr->dst],
                      tr->dst == s->root ? "nobody (root)" : s->machines[parent[tr->dst]],
                      s->machines[tr->src]);
      return FALSE;
    }
    parent[tr->dst] = tr->src;
  }
  for (int m = 0; m < n; m++)
    if (m != s->root && parent[m] < 0) {
      ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                      "not a single broadcast tree: %s receives nothing", s->machines[m]);
      return FALSE;
    }
  return TRUE;
}

/* Bottleneck bandwidth and total latency of the route between two nodes. */
static void route_params(const NsTopology *topo, int a, int b, int *route, double *bw,
                         double *lat)
{
  int len = ns_topology_route(topo, a, b, route);
  *bw = INFINITY;
  *lat = 0;
  for (int k = 0; k < len; k++) {
    const NsLink *l = ns_topology_link(topo, ns_edge_link(route[k]));
    *bw = MIN(*bw, l->bandwidth);
    *lat += l->latency;
  }
}

static double time_of(double bw, double lat, double bytes)
{
  return isinf(bw) ? 0.0 : bytes * 8.0 / bw + lat;
}

/**
 * \function ns_bcast_transfer_time
 * \brief T(bytes) = bytes·8/B + λ over the route between two machines.
 *
 * \param topo A finalized topology.
 * \param src_machine The sender.
 * \param dst_machine The receiver (0 s when it is the sender).
 * \param bytes The bytes sent.
 * \return Seconds.
 * \errors none.
 * \complexity O(route length).
 * \source dissertation Table 3.7 (broadcast estimates).
 */
double ns_bcast_transfer_time(const NsTopology *topo, int src_machine, int dst_machine,
                              double bytes)
{
  int *route = g_new(int, ns_topology_max_route_len(topo));
  double bw, lat;
  route_params(topo, ns_topology_machine_node(topo, src_machine),
               ns_topology_machine_node(topo, dst_machine), route, &bw, &lat);
  g_free(route);
  return time_of(bw, lat, bytes);
}

/**
 * \function ns_bcast_pipelined_time
 * \brief Table 3.7's pipelined tree: (X + H − 1)·D·T(msize/X).
 *
 * \param n_segments X.
 * \param height H.
 * \param degree D.
 * \param t_segment T of one segment.
 * \return Seconds.
 * \errors none.
 * \complexity O(1).
 * \source dissertation Table 3.7 (broadcast estimates).
 */
double ns_bcast_pipelined_time(uint64_t n_segments, int height, int degree, double t_segment)
{
  if (height == 0)
    return 0;
  return (double)(n_segments + (uint64_t)height - 1) * degree * t_segment;
}

/**
 * \function ns_bcast_flat_time
 * \brief Table 3.7's flat tree: (P − 1)·T(msize).
 *
 * \param n_machines P.
 * \param t_msize T of the whole message.
 * \return Seconds.
 * \errors none.
 * \complexity O(1).
 * \source dissertation Table 3.7 (broadcast estimates).
 */
double ns_bcast_flat_time(int n_machines, double t_msize) { return (n_machines - 1) * t_msize; }

/**
 * \function ns_bcast_binomial_time
 * \brief Table 3.7's binomial tree: ⌈log2 P⌉·T(msize).
 *
 * \param n_machines P.
 * \param t_msize T of the whole message.
 * \return Seconds.
 * \errors none.
 * \complexity O(1).
 * \source dissertation Table 3.7 (broadcast estimates).
 */
double ns_bcast_binomial_time(int n_machines, double t_msize)
{
  int rounds = 0;
  while (((int64_t)1 << rounds) < n_machines)
    rounds++;
  return rounds * t_msize;
}

/**
 * \function ns_bcast_scatter_allgather_time
 * \brief Table 3.7's scatter/allgather: 2·T((P−1)/P·msize).
 *
 * \param t_part T((P−1)/P·msize).
 * \return Seconds.
 * \errors none.
 * \complexity O(1).
 * \source dissertation Table 3.7 (broadcast estimates).
 */
double ns_bcast_scatter_allgather_time(double t_part) { return 2 * t_part; }

/* Algorithm names compare with '-' and '_' alike (sched/planners/registry.h). */
static gboolean is_algorithm(const char *name, const char *want)
{
  for (; *name != '\0' && *want != '\0'; name++, want++)
    if (*name != *want && !((*name == '_' || *name == '-') && (*want == '_' || *want == '-')))
      return FALSE;
  return *name == *want;
}

/**
 * \function ns_bcast_bound
 * \brief Bounds and the Table 3.7 estimate of a bcast schedule on a topology.
 *
 * \param topo A finalized topology.
 * \param s A bcast schedule (machines matched by name).
 * \param out Filled.
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT for a non-bcast schedule or an unknown machine name.
 * \complexity O(Σ route lengths over the transfers); memory O(P).
 * \source dissertation Table 3.7 (broadcast estimates).
 */
gboolean ns_bcast_bound(const NsTopology *topo, const NsSchedule *s, NsBcastBound *out,
                        GError **error)
{
  memset(out, 0, sizeof *out);
  if (s->collective != NS_COLL_BCAST || s->root < 0 || s->root >= s->n_machines) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "not a broadcast schedule with a root");
    return FALSE;
  }
  const int n = s->n_machines;
  int *node = ns_schedule_machine_nodes(topo, s, error);
  if (node == NULL)
    return FALSE;
  out->n_machines = n;
  out->n_segments = s->n_segments;
  out->segment_bytes = s->msize;
  out->msize = (uint64_t)s->n_segments * s->msize;
  out->n_phases = ns_schedule_n_phases(s);
  int *route = g_new(int, ns_topology_max_route_len(topo));
  double bw, lat;

  /* Lower bound: the root to its farthest machine — with segments over
   * machines of several ports, T(msize/X) there and the ports' bound. */
  double far_segment = 0;
  for (int m = 0; m < n; m++) {
    route_params(topo, node[s->root], node[m], route, &bw, &lat);
    out->lower_bound = MAX(out->lower_bound, time_of(bw, lat, (double)out->msize));
    if (m != s->root)
      far_segment = MAX(far_segment, time_of(bw, lat, (double)s->msize));
  }
  out->t_msize = out->lower_bound;
  int root_machine = ns_topology_find_machine(topo, s->machines[s->root]);
  if (s->n_segments > 1 && ns_bounds_max_ports(topo) > 1 && root_machine >= 0) {
    NsLowerBound ports;
    ns_lower_bound(topo, NS_COLL_BCAST, s->msize, root_machine, s->n_segments, &ports);
    out->lower_bound = MAX(far_segment, ports.seconds);
    out->t_msize_estimate = TRUE;
  }

  /* Slowest route the schedule uses (as bandwidth, latency pairs: the
   * slowest for one size need not be the slowest for another), and the
   * phase-by-phase time. */
  double min_bw = INFINITY, max_lat = 0, worst_part = 0;
  double part = (double)out->msize * (n - 1) / n;
  for (uint32_t ph = 0; ph < out->n_phases; ph++) {
    uint64_t first, count;
    ns_schedule_phase_range(s, ph, &first, &count);
    double slowest = 0;
    for (uint64_t t = first; t < first + count; t++) {
      const NsTransfer *tr = ns_schedule_transfer(s, t);
      route_params(topo, node[tr->src], node[tr->dst], route, &bw, &lat);
      slowest = MAX(slowest, time_of(bw, lat, (double)tr->n_chunks * (double)s->msize));
      min_bw = MIN(min_bw, bw);
      max_lat = MAX(max_lat, lat);
      worst_part = MAX(worst_part, time_of(bw, lat, part));
    }
    out->phased_time += slowest;
  }
  /* T over the slowest bandwidth and the longest latency of the routes used. */
  double t_seg = time_of(min_bw, max_lat, (double)s->msize);
  double t_msize = time_of(min_bw, max_lat, (double)out->msize);

  int *parent = g_new(int, n);
  out->is_tree = ns_bcast_schedule_tree(s, parent, NULL) &&
                 ns_bcast_tree_shape(n, s->root, parent, &out->height, &out->degree, NULL);
  if (out->is_tree)
    out->pipeline_phases = ((uint64_t)s->n_segments + out->height - 1) * out->degree;
  else
    out->height = out->degree = 0;
  g_free(parent);

  if (is_algorithm(s->algorithm, "flat")) {
    out->formula = "(P-1)*T(msize)";
    out->estimate = ns_bcast_flat_time(n, t_msize);
  } else if (is_algorithm(s->algorithm, "binomial") && s->n_segments == 1) {
    out->formula = "ceil(log2 P)*T(msize)";
    out->estimate = ns_bcast_binomial_time(n, t_msize);
  } else if (is_algorithm(s->algorithm, "scatter-allgather")) {
    out->formula = "2*T((P-1)/P*msize)";
    out->estimate = ns_bcast_scatter_allgather_time(worst_part);
  } else if (out->is_tree) {
    out->formula = "(X+H-1)*D*T(msize/X)";
    out->estimate = ns_bcast_pipelined_time(s->n_segments, out->height, out->degree, t_seg);
  } else {
    out->formula = "sum over phases of the slowest transfer";
    out->estimate = out->phased_time;
  }
  g_free(route);
  g_free(node);
  return TRUE;
}

/**
 * \function ns_bcast_estimates
 * \brief Table 3.7's broadcast algorithms planned and estimated on a topology.
 *
 * linear-cf, binary-cf, binomial, flat and scatter-allgather, each planned
 * with `params` (a planner that refuses the fabric gives its error) and
 * estimated by ns_bcast_bound().
 *
 * \param topo A finalized topology; NULL: the algorithms' names only, none planned.
 * \param params The message size, root, segment and arity to plan with.
 * \param n Receives the number of entries.
 * \return The entries, in that order (ns_bcast_estimates_free()).
 * \errors none: each entry carries its own.
 * \complexity the five planners' and O(Σ route lengths) per schedule.
 * \source dissertation §3.4.1, Table 3.7.
 */
NsBcastEstimate *ns_bcast_estimates(const NsTopology *topo, const NsPlanParams *params, int *n)
{
  static const char *const algos[] = { "linear-cf", "binary-cf", "binomial", "flat",
                                       "scatter-allgather" };
  *n = (int)G_N_ELEMENTS(algos);
  NsBcastEstimate *e = g_new0(NsBcastEstimate, *n);
  for (int i = 0; i < *n; i++) {
    e[i].algorithm = algos[i];
    if (topo == NULL)
      continue;
    g_autoptr(NsSchedule) s = ns_plan(topo, NS_COLL_BCAST, algos[i], params, &e[i].error);
    e[i].ok = s != NULL && ns_bcast_bound(topo, s, &e[i].bound, &e[i].error);
  }
  return e;
}

/**
 * \function ns_bcast_estimates_free
 * \brief Frees what ns_bcast_estimates() returned.
 *
 * \param e The entries (may be NULL).
 * \param n Their number.
 * \errors none.
 * \complexity O(n).
 * \source dissertation §3.4.1.
 */
void ns_bcast_estimates_free(NsBcastEstimate *e, int n)
{
  for (int i = 0; e != NULL && i < n; i++)
    g_clear_error(&e[i].error);
  g_free(e);
}
