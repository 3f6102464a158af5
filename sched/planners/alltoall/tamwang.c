/* netsched — Tam & Wang's permutations and global window. See tamwang.h. */
#include "sched/planners/alltoall/tamwang.h"
#include "platforms/model/error.h"
#include "sched/planners/registry.h"

/* ---- §3.1: permutations --------------------------------------------------- */

/* The rounds of alltoall/gpe as a partner table: round r is its phase r. */
static gboolean colour_table(NsTwPermutation *perm, const NsTopology *topo, GError **error)
{
  NsPlanParams params = { .msize = 1 };
  g_autoptr(NsSchedule) gpe = ns_alltoall_gpe(topo, &params, error);
  if (gpe == NULL)
    return FALSE;
  int p = perm->p;
  perm->steps = (int)ns_schedule_n_phases(gpe);
  perm->partner = g_new(int, (gsize)perm->steps * p);
  for (gsize i = 0; i < (gsize)perm->steps * p; i++)
    perm->partner[i] = -1;
  for (uint32_t r = 0; r < ns_schedule_n_phases(gpe); r++) {
    uint64_t first, n;
    ns_schedule_phase_range(gpe, r, &first, &n);
    for (uint64_t t = first; t < first + n; t++) {
      const NsTransfer *tr = ns_schedule_transfer(gpe, t);
      perm->partner[(gsize)r * p + tr->src] = tr->dst;
    }
  }
  return TRUE;
}

/**
 * \function ns_tw_permutation_init
 * \brief A node contention-free permutation over the machines of a topology.
 *
 * \param perm Filled (ns_tw_permutation_clear() it).
 * \param kind Shift, XOR, or the edge colouring of K_p read off alltoall/gpe's rounds.
 * \param topo A finalized topology.
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors those of the gpe planner (none in practice).
 * \complexity O(p²) for the colouring, O(1) otherwise.
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §3.1, §3.4.
 */
gboolean ns_tw_permutation_init(NsTwPermutation *perm, NsTwPermKind kind, const NsTopology *topo,
                                GError **error)
{
  int p = ns_topology_n_machines(topo);
  *perm = (NsTwPermutation){ .kind = kind, .p = p };
  switch (kind) {
  case NS_TW_SHIFT:
    perm->steps = p - 1;
    return TRUE;
  case NS_TW_XOR: {
    int span = 1;
    while (span < p)
      span *= 2;
    perm->steps = span - 1;
    return TRUE;
  }
  case NS_TW_COLOUR:
    return colour_table(perm, topo, error);
  }
  return FALSE;
}

/**
 * \function ns_tw_permutation_clear
 * \brief Frees what a permutation holds.
 *
 * \param perm The permutation.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §3.1.
 */
void ns_tw_permutation_clear(NsTwPermutation *perm)
{
  g_free(perm->partner);
  perm->partner = NULL;
}

/**
 * \function ns_tw_phi
 * \brief φ(x, step): whom machine x sends to in a step.
 *
 * \param perm The permutation.
 * \param x The machine.
 * \param step 0 .. steps−1 (the paper's i = step + 1).
 * \return The destination, or −1 when x idles in that step.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §3.1.
 */
int ns_tw_phi(const NsTwPermutation *perm, int x, int step)
{
  int i = step + 1, y;
  switch (perm->kind) {
  case NS_TW_SHIFT:
    return (x + i) % perm->p;
  case NS_TW_XOR:
    y = x ^ i;
    return y < perm->p ? y : -1;
  case NS_TW_COLOUR:
    return perm->partner[(gsize)step * perm->p + x];
  }
  return -1;
}

/* ---- §2.3, §3.3: the hierarchy -------------------------------------------- */

/**
 * \function ns_tw_hierarchy_clear
 * \brief Frees what a hierarchy holds.
 *
 * \param h The hierarchy.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §2.3.
 */
void ns_tw_hierarchy_clear(NsTwHierarchy *h)
{
  g_free(h->physical);
  g_free(h->machine);
  h->physical = h->machine = NULL;
}

/**
 * \function ns_tw_hierarchy
 * \brief The machines of a topology grouped by the switch they hang from.
 *
 * \param topo A finalized topology.
 * \param h Filled: p, d1, d2 and the physical ids (ns_tw_hierarchy_clear() it).
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_UNSUPPORTED when a machine is not a leaf on a switch or the switches do not
 *        all hold the same number d1 of machines (eq. 5 needs p = d1·d2).
 * \complexity O(|M|).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §2.3, Figure 1.
 */
gboolean ns_tw_hierarchy(const NsTopology *topo, NsTwHierarchy *h, GError **error)
{
  int p = ns_topology_n_machines(topo);
  *h = (NsTwHierarchy){ .p = p };
  /* Group of every machine: its switch, numbered by first machine. */
  int *group = g_new(int, p), *rank = g_new(int, p), *size = g_new0(int, p);
  GHashTable *index = g_hash_table_new(g_direct_hash, g_direct_equal);
  gboolean ok = TRUE;
  for (int m = 0; m < p && ok; m++) {
    int v = ns_topology_machine_node(topo, m);
    int sw = ns_topology_degree(topo, v) == 1
                 ? ns_topology_link_other(topo, ns_topology_incident(topo, v)[0], v)
                 : -1;
    if (sw < 0 || ns_topology_node(topo, sw)->kind != NS_NODE_SWITCH) {
      ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                      "the contention-aware permutation (Tam & Wang §3.3) needs every machine "
                      "on one switch; machine %s is not",
                      ns_topology_machine_name(topo, m));
      ok = FALSE;
      break;
    }
    gpointer known;
    if (!g_hash_table_lookup_extended(index, GINT_TO_POINTER(sw), NULL, &known)) {
      known = GINT_TO_POINTER(h->d2++);
      g_hash_table_insert(index, GINT_TO_POINTER(sw), known);
    }
    group[m] = GPOINTER_TO_INT(known);
    rank[m] = size[group[m]]++;
  }
  g_hash_table_unref(index);
  h->d1 = ok ? size[0] : 0;
  for (int g = 1; ok && g < h->d2; g++)
    if (size[g] != h->d1) {
      ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                      "the contention-aware permutation (Tam & Wang eq. 5) needs the same number "
                      "of machines on every switch (%d on the first, %d on another)",
                      h->d1, size[g]);
      ok = FALSE;
    }
  if (ok) {
    h->physical = g_new(int, p);
    h->machine = g_new(int, p);
    for (int m = 0; m < p; m++) {
      h->physical[m] = group[m] * h->d1 + rank[m];
      h->machine[h->physical[m]] = m;
    }
  }
  g_free(group);
  g_free(rank);
  g_free(size);
  return ok;
}

/* ---- §3.2: the global window ---------------------------------------------- */

/**
 * \function ns_tw_window_of
 * \brief Eq. 4: the global window of one buffer region.
 *
 * \param buffer B_L, packets.
 * \param packets Packets the region receives over the exchange.
 * \param steps Steps of the exchange (ν = packets / steps, eq. 3).
 * \param control Control packets per data packet (1 for Go-Back-N, §4.2).
 * \return ⌊B_L / (ν·(1 + control))⌋, at least 1, exact; 0 when packets or buffer is 0.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §3.2, eq. 3-4 (the floor of
 *        the worked examples).
 */
int ns_tw_window_of(int buffer, uint64_t packets, uint64_t steps, int control)
{
  if (buffer <= 0 || packets == 0)
    return 0;
  uint64_t w = (uint64_t)buffer * steps / (packets * (uint64_t)(1 + control));
  return (int)CLAMP(w, 1, (uint64_t)G_MAXINT);
}

/* Pairs of machines whose route crosses each directed edge. */
static uint64_t *edge_use(const NsTopology *topo)
{
  int p = ns_topology_n_machines(topo);
  uint64_t *use = g_new0(uint64_t, ns_topology_n_edges(topo) + 1);
  int *route = g_new(int, ns_topology_max_route_len(topo) + 1);
  for (int x = 0; x < p; x++)
    for (int y = 0; y < p; y++) {
      int len = x == y ? 0 : ns_topology_route_machines(topo, x, y, route);
      for (int k = 0; k < len; k++)
        use[route[k]]++;
    }
  g_free(route);
  return use;
}

/* Keeps the region if its window is smaller than the best so far. */
static void consider(NsTwWindow *best, int p, int control, int node, int edge, uint64_t packets,
                     const NsNode *sw)
{
  int w = ns_tw_window_of(sw->buffer_packets, packets, (uint64_t)(p - 1), control);
  if (w == 0 || (best->window > 0 && w >= best->window))
    return;
  *best = (NsTwWindow){ .window = w, .node = node, .edge = edge, .buffering = sw->buffering,
                        .buffer = sw->buffer_packets, .packets = packets,
                        .nu = (double)packets / (p - 1) };
}

/**
 * \function ns_tw_global_window
 * \brief W_g of an all-to-all on any topology: eq. 3-4 over every buffer region.
 *
 * \param topo A finalized topology.
 * \param control Control packets per data packet.
 * \param out Filled: the window and the binding switch, port and figures (window 0 when no
 *        switch has a buffer size).
 * \errors none.
 * \complexity O(|M|² · route length).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §3.2.
 */
void ns_tw_global_window(const NsTopology *topo, int control, NsTwWindow *out)
{
  *out = (NsTwWindow){ .node = -1, .edge = -1 };
  int p = ns_topology_n_machines(topo);
  uint64_t *use = edge_use(topo);
  for (int v = 0; v < ns_topology_n_nodes(topo); v++) {
    const NsNode *sw = ns_topology_node(topo, v);
    if (sw->kind != NS_NODE_SWITCH || sw->buffer_packets <= 0)
      continue;
    uint64_t entering = 0;
    const int *inc = ns_topology_incident(topo, v);
    for (int k = 0; k < ns_topology_degree(topo, v); k++) {
      int out_edge = ns_topology_edge_from(topo, 2 * inc[k]) == v ? 2 * inc[k] : 2 * inc[k] + 1;
      int in_edge = out_edge ^ 1;
      entering += use[in_edge];
      if (sw->buffering == NS_BUFFER_INPUT)
        consider(out, p, control, v, in_edge, use[in_edge], sw);
      else if (sw->buffering == NS_BUFFER_OUTPUT)
        consider(out, p, control, v, out_edge, use[out_edge], sw);
    }
    if (sw->buffering == NS_BUFFER_SHARED)
      consider(out, p, control, v, -1, entering, sw);
  }
  g_free(use);
}
