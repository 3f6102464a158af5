/* netsched — alltoall/ar: Liu Gang et al.'s complete exchange on an
 * all-port ring (Algorithm AR, §III, Fig. 2–3, Lemma 2).
 *
 * The OCR of the paper's Fig. 2 is garbled; the algorithm below is
 * reconstructed from §III's text, Fig. 3 (eight nodes), the legible parts
 * of Fig. 2 and the properties the paper proves (shortest paths, no channel
 * contention, every link used, p/2 steps, ⌈p²/8⌉ message times). Every
 * place where a decision was needed is marked DECISION; docs/algorithms.md
 * ("Liu Gang et al.: all-port rings and tori") lists them with the
 * reasons. */
#include "platforms/error.h"
#include "sched/registry.h"
#include "sched/torus_exchange.h"


/*
 * ns_ar_antipodal_rule — the direction AR sends a message whose
 * destination b (a ring position) lies exactly half a ring away: clockwise
 * (+1) to an even node, anticlockwise (−1) to an odd one, i.e. the
 * direction in which b's sub-ring sends during Stage 2, the longer stage.
 * DECISION (the tie rule): §III's definition puts P_{i+p/2} on the positive
 * half-circle of every P_i, but with that rule an odd node's antipodal
 * message (p ≡ 0 mod 4) needs p/4 clockwise sub-ring steps, and the odd
 * sub-ring sends clockwise only in Stage 3, which has ⌈p/4⌉−1 of them; and
 * sending every antipodal message clockwise would load each clockwise link
 * with Σ_{d≤p/2} d > ⌈p²/8⌉ messages. The legible part of Fig. 2 agrees
 * with this rule for p ≡ 2 mod 4 (even nodes send M^{2i}_{2i+2⌊p/4⌋+1,…}
 * — the antipodal one included — to P_{2i−1}; odd nodes send
 * M^{2i+1}_{2i+2,…,2i+2⌈p/4⌉} — the antipodal one included — to P_{2i+2}).
 * Complexity O(1).
 */
int ns_ar_antipodal_rule(int b)
{
  return b % 2 == 0 ? 1 : -1;
}

/*
 * ns_ar_hops — the hops of one message of Algorithm AR on a ring of n
 * nodes (n even, n ≥ 2), from the node at position a that holds it to its
 * destination b (positions 0..n−1, clockwise).
 *
 * Parameters: n_ref ≥ n is the ring whose steps the schedule follows (n
 * itself for a plain ring; AT2 aligns a shorter ring's stages with the
 * longer ring's, see alltoall_at2.c); antipodal_dir is the direction of a
 * message at distance exactly n/2: 0 for AR's rule (ns_ar_antipodal_rule),
 * or ±1 to force one. Receives the direction in *dir and, for each hop k,
 * its step step[k] (0 = Stage 1; 1 + j = Stage 2 step j; 1 + ⌊n_ref/4⌋ + j
 * = Stage 3 step j), the position it leaves from[k] and its span span[k]
 * in ring positions (1: Stage 1, to the neighbour; 2: a sub-ring hop
 * through the node in between, which does not process it). The arrays
 * need room for 1 + n/4 hops. Returns the number of hops (0 when a == b).
 *
 * Steps (the algorithm, per message):
 *  1. direction: the shorter way round; at distance n/2 antipodal_dir;
 *  2. Stage 1: when a and b differ in parity, one hop to a's neighbour in
 *     that direction (an even node's odd-bound messages go to P_{2i+1} or
 *     P_{2i−1}, an odd node's even-bound ones to P_{2i+2} or P_{2i});
 *  3. Stages 2 and 3: the remaining distance (even) in sub-ring hops of
 *     two positions, one per step, on b's sub-ring, in Stage 2 when that
 *     sub-ring sends this way in Stage 2 (even sub-ring clockwise, odd
 *     anticlockwise), else in Stage 3 (the reverse directions); a message
 *     leaves at the first step of its stage and moves at every step until
 *     it arrives ("each node extracts the messages meant for it and
 *     forwards the rest").
 * DECISION: hops start at the first step of their stage (§III leaves when
 * each message starts open; starting all at once is what gives Lemma 2's
 * per-step counts (⌊p/4⌋−k)+(⌈p/4⌉−1−k) in Stage 2).
 * The hop counts never exceed the stages' lengths: ⌊n/4⌋ steps in Stage 2,
 * ⌈n/4⌉−1 in Stage 3 (asserted). Complexity O(1 + n/4).
 */
int ns_ar_hops(int n, int n_ref, int a, int b, int antipodal_dir, int *dir, int *step,
               int *from, int *span)
{
  g_assert(n >= 2 && n % 2 == 0 && n_ref >= n);
  int dist = ((b - a) % n + n) % n;
  if (dist == 0)
    return 0;
  int d;
  if (2 * dist < n) {
    *dir = 1;
    d = dist;
  } else if (2 * dist > n) {
    *dir = -1;
    d = n - dist;
  } else {
    *dir = antipodal_dir != 0 ? antipodal_dir : ns_ar_antipodal_rule(b);
    d = n / 2;
  }
  int k = 0, pos = a;
  if (((a ^ b) & 1) != 0) { /* Stage 1: to the neighbour of b's parity */
    step[k] = 0;
    from[k] = pos;
    span[k] = 1;
    k++;
    pos = ((pos + *dir) % n + n) % n;
    d--;
  }
  int m = d / 2;
  gboolean stage2 = (b % 2 == 0) == (*dir > 0);
  g_assert(m <= (stage2 ? n / 4 : (n + 3) / 4 - 1));
  for (int j = 0; j < m; j++) {
    step[k] = stage2 ? 1 + j : 1 + n_ref / 4 + j;
    from[k] = pos;
    span[k] = 2;
    k++;
    pos = ((pos + 2 * *dir) % n + n) % n;
  }
  g_assert(pos == b);
  return k;
}

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
