/* netsched — alltoall/ar: Liu Gang et al.'s complete exchange on an
 * all-port ring (Algorithm AR, §III, Fig. 2–3, Lemma 2).
 *
 * The OCR of the paper's Fig. 2 is garbled; the algorithm below is
 * reconstructed from §III's text, Fig. 3 (eight nodes), the legible parts
 * of Fig. 2 and the properties the paper proves (shortest paths, no channel
 * contention, every link used, p/2 steps, ⌈p²/8⌉ message times). Every
 * place where a decision was needed is marked DECISION (the paths are in
 * sched/planners/alltoall/torus_exchange.c, shared with alltoall/at2); docs/algorithms.md
 * ("Liu Gang et al.: all-port rings and tori") lists them with the
 * reasons. */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"
#include "sched/planners/alltoall/torus_exchange_internal.h"

/*
 * ns_alltoall_ar — Algorithm AR: complete exchange on an all-port ring of
 * p nodes, p even, p ≥ 4 (Liu Gang et al. §III, Fig. 2–3, Lemma 2).
 *
 * Steps (P_0 … P_{p−1} clockwise = increasing machine index; the two
 * unidirectional sub-rings: the even nodes, the odd nodes):
 *  Stage 1 (1 step): every even node P_2i sends, in one combined transfer
 *    each, its messages for odd nodes of its positive half-circle to
 *    P_{2i+1} and those for odd nodes of its negative half-circle to
 *    P_{2i−1}; every odd node likewise its even-bound messages to P_{2i+2}
 *    and P_{2i}. Afterwards every node holds only messages for nodes of
 *    its own parity.
 *  Stage 2 (⌊p/4⌋ steps): the even sub-ring sends clockwise, the odd
 *    sub-ring anticlockwise, each node to the next node of its sub-ring
 *    (two links, wormhole-routed through the node between, which does not
 *    process it), one transfer combining every message it holds that
 *    travels that way and is not for itself; receivers extract theirs.
 *  Stage 3 (⌈p/4⌉−1 steps): the same in the reverse directions.
 * DECISIONS (docs/algorithms.md):
 *  - antipodal messages (distance p/2): see ns_ar_antipodal_rule;
 *  - a message's direction is its shorter way round (so every message is
 *    on a shortest path, which the paper claims): Stage 1 sends an odd-
 *    bound message of P_2i to the neighbour on its side, and every later
 *    hop continues that way;
 *  - sub-ring transfers that span exactly half the physical ring (p = 4:
 *    P_1 → P_3 through P_0, and P_3 → P_1 through P_2, anticlockwise) get
 *    their own route, because dimension-order routing would send them
 *    clockwise, onto the even sub-ring's links; every transfer whose path
 *    differs from the topology's route carries its own (only those);
 *  - the ring is the topology's one-dimensional torus (gen:ring:P,
 *    gen:torus:P): ring position = machine index.
 * Properties (tests/test_torus.c proves them with the verifier for every
 * even p from 4 to 256): p/2 phases, no two transfers of a phase on one
 * directed link, every message over a shortest path, transmission
 * ⌈p²/8⌉ message times — Lemma 1's bound, so optimal.
 * Time and memory O(p² + chunk moves) (≈ p³/16 chunk moves).
 * Errors: NS_ERROR_UNSUPPORTED unless the topology is a one-dimensional
 * torus of an even number p ≥ 4 of machines.
 */
NsSchedule *ns_alltoall_ar(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  int sizes[NS_MAX_DIMS];
  gboolean wrap = FALSE;
  int n_dims = ns_topology_grid(topo, sizes, &wrap);
  int p = ns_topology_n_machines(topo);
  if (n_dims != 1 || !wrap || sizes[0] != p) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "ar needs a ring (a one-dimensional torus, gen:ring:P); %s is not one",
                ns_topology_source(topo));
    return NULL;
  }
  if (p < 4 || p % 2 != 0) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "ar needs an even number of machines, at least 4 (got a ring of %d)", p);
    return NULL;
  }
  return ns_torus_exchange(topo, params, "ar", 1, error);
}
