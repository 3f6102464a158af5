/* netsched — alltoall/shuffle, shuffle-xor, shuffle-color: Tam & Wang's
 * synchronous shuffle exchange, and the builder its contention-aware
 * variants share (sched/planners/alltoall/alltoall_shuffle_ca.c).
 *
 * How an item maps onto the IR. Algorithm 1 cuts every message into k
 * items of one MTU and sends item s of every message before item s+1:
 *   for s = 1..k: for i = 1..p−1: send item s to φ(myid, i).
 * The schedule keeps the message as the unit — one transfer per ordered
 * pair, chunk (x, y), msize bytes — in one posted phase whose list order
 * is each sender's step order φ(x, 1), …, φ(x, p−1); that is the IR's
 * posting order. The items are cut at execution: the planner records the
 * synchronisation scheme window:W_g (sched/ir/sync.h), under which the replay
 * sends every transfer as k = ⌈msize / b⌉ items of b = NS_SYNC_WINDOW_ITEM
 * = 1500 B (one Ethernet MTU), in exactly Algorithm 1's loop order, and
 * gates them with Algorithm 2's η < W_g. One transfer per item would
 * deliver the chunk (x, y) k times, which the verifier rightly calls a
 * duplicate: the all-to-all's postcondition is "every message once", and
 * it holds here.
 */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"
#include "sched/ir/sync.h"
#include "sched/planners/alltoall/tamwang.h"

/* Records window:W_g when the topology gives W_g a buffer to work from
 * (eq. 4); otherwise no scheme, and the replay posts the messages whole. */
static void record_window(NsSchedule *s, const NsTopology *topo, const char *name)
{
  NsTwWindow w;
  ns_tw_global_window(topo, 0, &w);
  if (w.window == 0)
    return;
  NsSyncScheme scheme = { .kind = NS_SYNC_WINDOW, .block = w.window };
  g_autofree char *text = ns_sync_scheme_to_string(&scheme);
  ns_schedule_relabel(s, name, text);
}

/*
 * ns_tw_shuffle — the synchronous shuffle exchange (Tam & Wang §3.1,
 * Algorithm 1; with `ca`, §3.3's Algorithm 2 ordering) as a posted
 * schedule named `name`.
 *
 * Steps:
 *  1. φ = the permutation `kind` (shift, XOR or edge colouring, §3.1);
 *     with `ca` the machines' logical ids of eq. 5 (ϕ), from the switch
 *     hierarchy of the topology; otherwise the machine indices.
 *  2. Machine x, of id X, posts its messages in step order: at step
 *     i = 1 .. steps, to the machine of id φ(X, i) (none when it idles).
 *  3. The scheme window:W_g (eq. 4 on the topology's switch buffers) makes
 *     the replay cut MTU items and gate them (Algorithm 2); none when no
 *     switch declares a buffer size.
 * Every step is a permutation, so no two machines send to one machine at
 * once (node contention-free), and every machine sends to every other once.
 * Time O(p²) plus O(p² · route length) for W_g. Errors: NS_ERROR_UNSUPPORTED
 * from the hierarchy when `ca` and the switches hold different numbers of
 * machines.
 */
/**
 * \function ns_tw_shuffle
 * \brief The synchronous shuffle exchange with a node contention-free permutation.
 *
 * \param topo A finalized topology.
 * \param params The planning parameters.
 * \param kind The permutation.
 * \param ca TRUE: on the logical ids of eq. 5 (contention-aware).
 * \param name The algorithm's name in the schedule.
 * \param error Set on failure (see errors).
 * \return The schedule, or NULL.
 * \errors those of ns_tw_permutation_init() and ns_tw_hierarchy() (ca).
 * \complexity O(p²) transfers.
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §3;
 *        sched/planners/alltoall/alltoall_shuffle.c.
 */
NsSchedule *ns_tw_shuffle(const NsTopology *topo, const NsPlanParams *params, NsTwPermKind kind,
                          gboolean ca, const char *name, GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsTwHierarchy h = { 0 };
  NsTwPermutation perm;
  if (ca && !ns_tw_hierarchy(topo, &h, error))
    return NULL;
  if (!ns_tw_permutation_init(&perm, kind, topo, error)) {
    ns_tw_hierarchy_clear(&h);
    return NULL;
  }
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, name, params->msize);
  s->execution = NS_EXEC_POSTED;
  ns_schedule_reserve(s, 1, (uint64_t)p * (p - 1));
  ns_schedule_begin_phase(s);
  for (int x = 0; x < p; x++) {
    int id = ca ? ns_tw_logical(&h, h.physical[x]) : x;
    for (int step = 0; step < perm.steps; step++) {
      int to = ns_tw_phi(&perm, id, step);
      if (to < 0)
        continue;
      int y = ca ? h.machine[ns_tw_physical(&h, to)] : to;
      ns_schedule_add(s, x, y, ns_a2a_chunk(p, x, y));
    }
  }
  ns_tw_permutation_clear(&perm);
  ns_tw_hierarchy_clear(&h);
  record_window(s, topo, name);
  return s;
}

/*
 * ns_alltoall_shuffle — the synchronous shuffle exchange with the shift
 * permutation φ(x, i) = (x + i) mod p (Tam & Wang §3.1, Algorithm 1;
 * global window §3.2): see ns_tw_shuffle(). Any p.
 */
NsSchedule *ns_alltoall_shuffle(const NsTopology *topo, const NsPlanParams *params,
                                GError **error)
{
  return ns_tw_shuffle(topo, params, NS_TW_SHIFT, FALSE, "shuffle", error);
}

/*
 * ns_alltoall_shuffle_xor — the synchronous shuffle with the XOR
 * permutation φ(x, i) = x XOR i, i = 1 .. 2^⌈lg p⌉ − 1 (§3.1); for p not a
 * power of two a machine skips the steps whose partner does not exist.
 */
NsSchedule *ns_alltoall_shuffle_xor(const NsTopology *topo, const NsPlanParams *params,
                                    GError **error)
{
  return ns_tw_shuffle(topo, params, NS_TW_XOR, FALSE, "shuffle-xor", error);
}

/*
 * ns_alltoall_shuffle_color — the synchronous shuffle with the edge-colour
 * permutation of §3.1 (Figure 2): step i sends to the partner of round i of
 * alltoall/gpe's edge colouring of K_p; p−1 steps for even p, p for odd p
 * (each machine skips one).
 */
NsSchedule *ns_alltoall_shuffle_color(const NsTopology *topo, const NsPlanParams *params,
                                      GError **error)
{
  return ns_tw_shuffle(topo, params, NS_TW_COLOUR, FALSE, "shuffle-color", error);
}
