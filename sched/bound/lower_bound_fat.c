/* netsched — the routed all-to-all loads of fat trees under d-mod-k and
 * s-mod-k: in closed form on k-ary n-trees, level by level on the other
 * levelled fat trees. See routed_loads_internal.h. */
#include "sched/bound/routed_loads_internal.h"
#include "platforms/routing/updown.h"
#include "sched/ir/route_table_internal.h"
#include <string.h>

/* Why a closed form: the next-hop trees cost O(|M|·|V|), 738 M node visits
 * on a 4-ary 7-tree (16,384 machines), past NS_ROUTED_LOAD_MAX_WORK.
 *
 * The route table's closed form (FatTable; Petrini & Vanneschi 1997 for
 * k-ary n-trees, Zahavi et al. 2010 for d-mod-k) says: with key K (the
 * destination under d-mod-k), the route from machine s climbs at level l
 * the edge that the own climb of x_l = s ^ ((s ^ K) & mask_l) climbs, and
 * it climbs level l exactly when the meeting level of s and K passes l:
 * meet[bit length of s ^ K] > l, meet non-decreasing in the bit length.
 * Then it comes down K's own climb. Let p = 2^P and B_l the longest bit
 * length whose meeting level is at most l, c_l = min(2^B_l, p).
 *
 * Down: the edge down K's own climb at level l carries the sources whose
 * route meets K above l, the s with s ^ K ≥ 2^B_l: p − c_l of them.
 *
 * Up: the pairs (s, K) with x_l = x are those where s has x's bits above
 * the mask (m = min(bits of mask_l, P)) and any of the 2^m below, K has
 * x's bits in the mask and any of the 2^(P−m) above: p pairs. Those that
 * have met by level l have s ^ K < 2^B_l: if B_l ≥ m, any low bits and
 * the high ones below 2^(B_l−m), 2^B_l pairs (at most p); if B_l < m, the
 * same high bits and low ones below 2^B_l, 2^B_l pairs. So every machine's
 * own climb edge at level l carries p − c_l messages up for the machines
 * x_l that name it, and by the down count as many down for the
 * destinations whose climb it is: Zahavi et al.'s even spread of an
 * all-to-all by d-mod-k, per edge. Under s-mod-k the key is the source and
 * every route is the d-mod-k route of the reversed pair reversed: the same
 * counts on the reversed edges.
 *
 * Path lengths: a pair meeting at level L crosses 2L − 1 nodes; of the
 * p − 1 destinations of a source, c_L − c_(L−1) meet it at L. */
static gboolean closed_loads(const FatTable *f, uint64_t *edge, NsRoutedPaths *paths)
{
  int p = f->n_machines, w = f->levels;
  if (!f->closed || p < 2 || (p & (p - 1)) != 0)
    return FALSE;
  int bits_p = __builtin_ctz((unsigned)p);
  uint64_t met[33] = { 0 }; /* met[l]: c_l, the destinations (the source too) met by level l */
  for (int l = 0; l < w; l++) {
    int b = 0;
    while (b < 32 && f->meet[b + 1] <= l)
      b++;
    met[l] = (uint64_t)1 << MIN(b, bits_p);
  }
  if (met[w - 1] != (uint64_t)p) /* some pair never meets: the topology routes it */
    return FALSE;
  for (int l = 0; l + 1 < w; l++) {
    uint64_t load = (uint64_t)p - met[l];
    if (load == 0)
      continue;
    const int *up = f->edge + (gsize)l * f->stride;
    for (int x = 0; x < p; x++) {
      if (up[x] < 0)
        return FALSE; /* not reached: closed means every own climb reaches the top */
      edge[up[x]] += load;
      edge[up[x] ^ 1] += load;
    }
  }
  double sum = 0, pairs = (double)p * (p - 1);
  paths->min = G_MAXINT;
  paths->max = 0;
  for (int l = 1; l < w; l++) {
    uint64_t at = met[l] - met[l - 1]; /* per source, meeting at level l */
    if (at == 0)
      continue;
    paths->min = MIN(paths->min, 2 * l - 1);
    paths->max = MAX(paths->max, 2 * l - 1);
    sum += (double)at * p * (2 * l - 1);
  }
  paths->mean = sum / pairs;
  return TRUE;
}

/**
 * \function ns_fat_closed_loads
 * \brief The routed all-to-all loads of a k-ary n-tree in closed form.
 *
 * Under d-mod-k and s-mod-k on a fat tree where the route table's closed
 * form holds and the machines are a power of two: every machine's own
 * climb edge at level l carries p − c_l messages each way for each machine
 * whose climb takes it, c_l the machines within the bits that meet by
 * level l (see lower_bound_fat.c).
 *
 * \param topo A finalized topology.
 * \param edge ns_topology_n_edges() counters, zeroed by the caller, filled.
 * \param paths Filled with the routes' path lengths.
 * \return FALSE (nothing written) where the closed form does not hold.
 * \errors none.
 * \complexity O(|V| · arity + |M| · levels) (the route table's climbs).
 * \source Petrini and Vanneschi 1997 (k-ary n-trees); Zahavi et al. 2010
 *         (d-mod-k spreads an all-to-all evenly); docs/architecture.md.
 */
gboolean ns_fat_closed_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths)
{
  NsRoutingKind r = ns_topology_routing(t);
  if (r != NS_ROUTING_DMODK && r != NS_ROUTING_SMODK)
    return FALSE;
  g_autoptr(NsRouteTable) rt = ns_route_table_new(t);
  return rt->fat != NULL && closed_loads(rt->fat, edge, paths);
}

/* Levelled fat trees under d-mod-k and s-mod-k where the closed form does
 * not hold (k not a power of two, other levelled up/down networks): per
 * destination d, the routes towards d climb with d's digits until they
 * stand on d's own climb c_0 = d, c_1, ... and then come down it
 * (platforms/routing/updown.h). So the machines' counts go up level by
 * level in one fixed order of the nodes (by level, computed once), each
 * node off d's climb passing its count up the up-link of d's digit at its
 * level, each node c_l keeping what arrives (the sources meeting d at level
 * l); the edge down from c_l carries what arrived at c_l and above. No
 * next-hop table, no tree built: two passes over the nodes a destination.
 * FALSE (edge partly written) when some climb ends without meeting d's:
 * the caller zeroes edge and takes the next-hop trees. */
static gboolean level_loads(const NsTopology *t, const NsUpDownLinks *u, uint64_t *edge,
                            NsRoutedPaths *paths)
{
  int n = ns_topology_n_nodes(t), p = ns_topology_n_machines(t), w = u->n_levels;
  g_autofree int *by_level = g_new(int, n), *start = g_new0(int, w + 1);
  g_autofree int *reach = g_new(int, n), *stamp = g_new(int, n), *digit = g_new0(int, w);
  g_autofree int *climb = g_new(int, w), *machines = g_new(int, n);
  g_autofree uint64_t *arrive = g_new(uint64_t, w);
  for (int v = 0; v < n; v++) {
    if (u->level[v] < 0 || u->level[v] >= w)
      return FALSE;
    start[u->level[v] + 1]++;
    stamp[v] = -1;
    machines[v] = ns_topology_node_machine(t, v) >= 0;
  }
  for (int l = 0; l < w; l++)
    start[l + 1] += start[l];
  g_autofree int *fill = g_memdup2(start, sizeof(int) * (gsize)(w + 1));
  for (int v = 0; v < n; v++)
    by_level[fill[u->level[v]]++] = v;
  int flip = u->by_source ? 1 : 0; /* s-mod-k: the reversed pairs' routes, reversed */
  double sum = 0;
  paths->min = G_MAXINT;
  paths->max = 0;
  for (int d = 0; d < p; d++) {
    uint32_t rest = (uint32_t)d; /* the key's digits, as the routing divides them */
    for (int l = 0; l < w; l++)
      if (u->arity[l] > 0) {
        digit[l] = (int)(rest % (uint32_t)u->arity[l]);
        rest /= (uint32_t)u->arity[l];
      }
    int top = 0, v = ns_topology_machine_node(t, d);
    for (;;) { /* d's own climb: climb[l] (edge up from c_l), top its last level */
      stamp[v] = d;
      arrive[top] = 0;
      int slot = u->up_start[v] + digit[top];
      if (top + 1 >= w || slot >= u->up_start[v + 1])
        break;
      climb[top++] = u->up_edge[slot];
      v = u->up_node[slot];
    }
    memcpy(reach, machines, sizeof(int) * (gsize)n);
    for (int i = 0; i < n; i++) {
      int x = by_level[i], l = u->level[x];
      if (reach[x] == 0)
        continue;
      if (stamp[x] == d && l <= top) {
        arrive[l] += (uint64_t)reach[x];
        continue;
      }
      int slot = u->up_start[x] + digit[l];
      if (slot >= u->up_start[x + 1])
        return FALSE; /* a climb that never meets d's */
      edge[u->up_edge[slot] ^ flip] += (uint64_t)reach[x];
      reach[u->up_node[slot]] += reach[x];
    }
    uint64_t below = 0; /* the sources that meet d at c_l or above */
    for (int l = top; l >= 1; l--) {
      below += arrive[l];
      edge[climb[l - 1] ^ 1 ^ flip] += below;
      if (arrive[l] > 0) {
        paths->min = MIN(paths->min, 2 * l - 1);
        paths->max = MAX(paths->max, 2 * l - 1);
        sum += (double)arrive[l] * (2 * l - 1);
      }
    }
    if (below != (uint64_t)p - 1)
      return FALSE; /* some machine's climb did not come to d's */
  }
  paths->mean = sum / ((double)p * (p - 1));
  return TRUE;
}

/**
 * \function ns_updown_loads
 * \brief The routed all-to-all loads of a levelled fat tree, level by level.
 *
 * Under d-mod-k and s-mod-k, the counts of the routes towards each
 * destination carried up the levels in one fixed node order until they
 * meet the destination's own climb, then down it (see lower_bound_fat.c):
 * the next-hop trees' counts without building a tree per destination.
 *
 * \param topo A finalized topology.
 * \param edge ns_topology_n_edges() counters, zeroed by the caller, filled.
 * \param paths Filled with the routes' path lengths.
 * \return FALSE (edge zeroed) under another routing or when some climb
 *         does not meet the destination's.
 * \errors none.
 * \complexity O(|M| · |V|) time, O(|V|) memory besides the loads.
 * \source Zahavi et al. 2010 (d-mod-k); Petrini and Vanneschi 1997;
 *         docs/architecture.md.
 */
gboolean ns_updown_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths)
{
  NsUpDownLinks u;
  if (!ns_updown_links(t, &u) || u.n_levels < 1 || ns_topology_n_machines(t) < 2)
    return FALSE;
  if (level_loads(t, &u, edge, paths))
    return TRUE;
  memset(edge, 0, sizeof(uint64_t) * (gsize)ns_topology_n_edges(t));
  return FALSE;
}
