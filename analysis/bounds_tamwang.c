/* netsched — Tam & Wang's cost models and bounds. See bounds_tamwang.h. */
#include "analysis/bounds_tamwang.h"
#include "platforms/model/units.h"

/**
 * \function ns_tw_t_w
 * \brief T_w = O_s + L − g + O_r + U_r of eq. 1.
 *
 * \param m The model's parameters.
 * \return Seconds.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet eq. 1.
 */
double ns_tw_t_w(const NsTwModel *m) { return m->o_s + m->l - m->g + m->o_r + m->u_r; }

/**
 * \function ns_tw_sync_time
 * \brief Eq. 2: the synchronous shuffle's time, k(p−1)g + T_w.
 *
 * \param m The model's parameters.
 * \param k Items per message.
 * \param p Machines.
 * \return Seconds.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet eq. 2.
 */
double ns_tw_sync_time(const NsTwModel *m, double k, int p)
{
  return k * (p - 1) * m->g + ns_tw_t_w(m);
}

/**
 * \function ns_tw_gpe_time
 * \brief Eq. 6: pairwise exchange, rounds·(kg + T_w).
 *
 * \param m The model's parameters.
 * \param k Items per message.
 * \param p Machines.
 * \return Seconds.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet eq. 6.
 */
double ns_tw_gpe_time(const NsTwModel *m, double k, int p)
{
  int rounds = p % 2 == 1 ? p : p - 1; /* Algorithm 3: p rounds for odd p */
  return rounds * (k * m->g + ns_tw_t_w(m));
}

/**
 * \function ns_tw_nu
 * \brief Eq. 3: ν = (p − d1)·d1 / (p − 1).
 *
 * \param p Machines.
 * \param d1 Machines per leaf switch.
 * \return Packets per step into an uplink.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet eq. 3.
 */
double ns_tw_nu(int p, int d1) { return (double)(p - d1) * d1 / (p - 1); }

/**
 * \function ns_tw_window_eq4
 * \brief Eq. 4 on a two-level hierarchy with B_L at the uplink ports.
 *
 * \param buffer B_L, packets.
 * \param p Machines.
 * \param d1 Machines per leaf switch.
 * \param control Control packets per data packet (1 for the paper's GBN).
 * \return W_g.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet eq. 4.
 */
int ns_tw_window_eq4(int buffer, int p, int d1, int control)
{
  return ns_tw_window_of(buffer, (uint64_t)(p - d1) * (uint64_t)d1, (uint64_t)(p - 1), control);
}

/**
 * \function ns_tw_node_bandwidth
 * \brief Eq. 7: the best per-machine bandwidth for an uplink capacity.
 *
 * \param uplink U, B/s, both directions together.
 * \param p Machines.
 * \param d1 Machines per leaf switch.
 * \return B/s; 0 when d1 = p (no uplink).
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet eq. 7.
 */
double ns_tw_node_bandwidth(double uplink, int p, int d1)
{
  if (d1 >= p)
    return 0;
  return uplink * (p - 1) / (2.0 * (p - d1) * d1);
}

/**
 * \function ns_tw_cross_switch_time
 * \brief Eq. 7: the best time, 2(p − d1)·d1·msize / U.
 *
 * \param uplink U, B/s.
 * \param msize Bytes per message.
 * \param p Machines.
 * \param d1 Machines per leaf switch.
 * \return Seconds.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet eq. 7.
 */
double ns_tw_cross_switch_time(double uplink, uint64_t msize, int p, int d1)
{
  return 2.0 * (p - d1) * d1 * (double)msize / uplink;
}

/* g: an item over the slowest machine link; L: an item stored and
 * forwarded over the slowest route (every hop's serialisation plus its
 * latency). No software overheads: the replay has none. */
static void link_model(const NsTopology *topo, uint64_t item, NsTwModel *m)
{
  *m = (NsTwModel){ 0 };
  int p = ns_topology_n_machines(topo);
  double bits = 8.0 * (double)item, slowest = 0;
  for (int x = 0; x < p; x++) {
    int v = ns_topology_machine_node(topo, x);
    const int *inc = ns_topology_incident(topo, v);
    for (int k = 0; k < ns_topology_degree(topo, v); k++) {
      double bw = ns_topology_link(topo, inc[k])->bandwidth;
      slowest = slowest == 0 ? bw : MIN(slowest, bw);
    }
  }
  m->g = bits / slowest;
  int *route = g_new(int, ns_topology_max_route_len(topo) + 1);
  for (int x = 0; x < p; x++)
    for (int y = 0; y < p; y++) {
      int len = x == y ? 0 : ns_topology_route_machines(topo, x, y, route);
      double l = 0;
      for (int e = 0; e < len; e++) {
        const NsLink *link = ns_topology_link(topo, ns_edge_link(route[e]));
        l += bits / link->bandwidth + link->latency;
      }
      m->l = MAX(m->l, l);
    }
  g_free(route);
}

/* Does a switch state its buffer (gen:hierarchy, a `buffer=` in the native
 * format)? Without one the window's O(|M|² · route) walk is skipped. */
static gboolean buffered(const NsTopology *topo)
{
  for (int v = 0; v < ns_topology_n_nodes(topo); v++)
    if (ns_topology_node(topo, v)->kind == NS_NODE_SWITCH &&
        ns_topology_node(topo, v)->buffer_packets > 0)
      return TRUE;
  return FALSE;
}


/**
 * \function ns_tw_bound
 * \brief Tam and Wang's figures for an all-to-all on a topology.
 *
 * \param topo A finalized topology.
 * \param msize Bytes per message.
 * \param item Bytes per item (0: NS_SYNC_WINDOW_ITEM).
 * \param uplink Effective uplink capacity U, B/s (NS_TW_UPLINK_MEASURED for the paper's).
 * \param out Filled: W_g, eq. 2 and 6 times, and eq. 7 on a d1-per-switch hierarchy.
 * \return FALSE, with nothing to print, when no switch declares a buffer size.
 * \errors none.
 * \complexity O(|M|² · route length).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §3-4.
 */
gboolean ns_tw_bound(const NsTopology *topo, uint64_t msize, uint64_t item, double uplink,
                     NsTwBound *out)
{
  *out = (NsTwBound){ .p = ns_topology_n_machines(topo), .msize = msize, .uplink = uplink,
                      .item = item > 0 ? item : NS_SYNC_WINDOW_ITEM };
  if (!buffered(topo))
    return FALSE;
  ns_tw_global_window(topo, 0, &out->window);
  if (out->window.window == 0)
    return FALSE;
  /* ⌊x / 2⌋ is monotone in x: the region that binds binds with GBN too. */
  out->window_gbn = ns_tw_window_of(out->window.buffer, out->window.packets,
                                    (uint64_t)(out->p - 1), 1);
  NsTwHierarchy h;
  out->hierarchy = ns_tw_hierarchy(topo, &h, NULL);
  if (out->hierarchy) {
    out->d1 = h.d1;
    out->d2 = h.d2;
    ns_tw_hierarchy_clear(&h);
  }
  out->k = (double)msize / (double)out->item;
  link_model(topo, out->item, &out->model);
  out->t_sync = ns_tw_sync_time(&out->model, out->k, out->p);
  out->t_gpe = ns_tw_gpe_time(&out->model, out->k, out->p);
  if (out->hierarchy && out->d2 > 1) {
    out->cross_time = ns_tw_cross_switch_time(uplink, msize, out->p, out->d1);
    out->node_bandwidth = ns_tw_node_bandwidth(uplink, out->p, out->d1);
  }
  return TRUE;
}

/* "the input port of s1 from s0" and the like (newly allocated). */
static char *region_name(const NsTopology *topo, const NsTwWindow *w)
{
  const char *name = ns_topology_node(topo, w->node)->name;
  if (w->edge < 0)
    return g_strdup_printf("%s (shared buffer)", name);
  int other = w->buffering == NS_BUFFER_INPUT ? ns_topology_edge_from(topo, w->edge)
                                              : ns_topology_edge_to(topo, w->edge);
  return g_strdup_printf("%s's %s port %s %s", name,
                         w->buffering == NS_BUFFER_INPUT ? "input" : "output",
                         w->buffering == NS_BUFFER_INPUT ? "from" : "to",
                         ns_topology_node(topo, other)->name);
}

/**
 * \function ns_tw_bound_print
 * \brief Tam and Wang's figures as lines for `netsched bound`.
 *
 * \param f The stream.
 * \param topo The topology.
 * \param b The figures.
 * \errors none (the caller checks the stream).
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet.
 */
void ns_tw_bound_print(FILE *f, const NsTopology *topo, const NsTwBound *b)
{
  g_autofree char *region = region_name(topo, &b->window);
  g_autofree char *item = ns_format_size(b->item);
  fprintf(f, "Tam & Wang         complete exchange on hierarchical Ethernet\n");
  if (b->hierarchy && b->d2 > 1)
    fprintf(f, "hierarchy          d1 = %d machines on each of d2 = %d switches\n", b->d1, b->d2);
  else if (b->hierarchy)
    fprintf(f, "hierarchy          d1 = %d machines on one switch\n", b->d1);
  fprintf(f, "global window      W_g = %d = floor(B_L / nu): B_L = %d packets at %s, "
             "nu = %.3f packets per step (eq. 3-4)\n",
          b->window.window, b->window.buffer, region, b->window.nu);
  fprintf(f, "  with GBN control W_g = %d (one control packet per data packet, §4.2)\n",
          b->window_gbn);
  fprintf(f, "eq. 2 shuffle      %.6f s = k(p-1)g + T_w, k = %.2f items of %s, g = %.3f us, "
             "T_w = %.3f us\n",
          b->t_sync, b->k, item, b->model.g * 1e6, ns_tw_t_w(&b->model) * 1e6);
  fprintf(f, "eq. 6 pairwise     %.6f s = rounds (kg + T_w)\n", b->t_gpe);
  if (b->node_bandwidth > 0)
    fprintf(f, "eq. 7 uplinks      %.6f s = 2(p-d1)d1 msize / U, per-machine bandwidth <= "
               "%.2f MB/s (U = %.0f MB/s across both directions of an uplink)\n",
            b->cross_time, b->node_bandwidth / 1e6, b->uplink / 1e6);
}

/**
 * \function ns_tw_bound_json
 * \brief Tam and Wang's figures as a member "tam_wang" of a JSON object being built.
 *
 * \param j The builder, inside an object.
 * \param topo The topology.
 * \param b The figures.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet; docs/sweeps.md, "bound
 *        --json".
 */
void ns_tw_bound_json(JsonBuilder *j, const NsTopology *topo, const NsTwBound *b)
{
  g_autofree char *region = region_name(topo, &b->window);
  json_builder_set_member_name(j, "tam_wang");
  json_builder_begin_object(j);
#define MEMBER(name, kind, value) \
  do { json_builder_set_member_name(j, name); json_builder_add_##kind##_value(j, value); } while (0)
  MEMBER("window", int, b->window.window);
  MEMBER("window_gbn", int, b->window_gbn);
  MEMBER("window_region", string, region);
  MEMBER("buffer_packets", int, b->window.buffer);
  MEMBER("nu", double, b->window.nu);
  MEMBER("d1", int, b->hierarchy ? b->d1 : 0);
  MEMBER("d2", int, b->hierarchy ? b->d2 : 0);
  MEMBER("item_bytes", int, (gint64)b->item);
  MEMBER("sync_time_s", double, b->t_sync);
  MEMBER("gpe_time_s", double, b->t_gpe);
  MEMBER("uplink_bytes_per_s", double, b->uplink);
  MEMBER("cross_switch_time_s", double, b->cross_time);
  MEMBER("node_bandwidth_bytes_per_s", double, b->node_bandwidth);
#undef MEMBER
  json_builder_end_object(j);
}
