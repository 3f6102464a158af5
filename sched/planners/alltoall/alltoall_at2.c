/* netsched — alltoall/at2: Liu Gang et al.'s complete exchange on an r × c
 * all-port torus (Algorithm AT2, §IV, Fig. 4–5, Table I, Lemmas 3–4), with
 * the imaginary-node padding of §VI for other sizes. The messages' paths
 * and the phase builder are in sched/planners/alltoall/torus_exchange.c, shared with
 * alltoall/ar. */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"
#include "sched/planners/alltoall/torus_exchange_internal.h"
/*
 * ns_alltoall_at2 — Algorithm AT2: complete exchange on an r × c all-port
 * torus, r and c multiples of four (Liu Gang et al. §IV, Fig. 4–5,
 * Table I, Lemmas 3–4); other sizes through §VI's imaginary nodes.
 *
 * The paper's x is the dimension of the smaller size r (rows P(x,·)), y
 * the other (size c); a torus whose dimension 0 is the larger is handled
 * by swapping the roles (the algorithm is symmetric). Groups
 * G_ij = {P(x,y) : x mod 2 = i, y mod 2 = j}.
 * Steps (a message o -> d, offsets Δx, Δy the shorter way round):
 *  Phase 1, step 1 (one transfer per port): a message for a node of
 *    another group leaves by the port of its odd offset: Δx odd, Δy even
 *    down/up (x±1), Δx even, Δy odd right/left (y±1); both odd (G11-
 *    bound, by quadrant): QI (Δx>0, Δy>0) down, QII (Δx<0, Δy>0) right,
 *    QIII up, QIV left — r·c/8 + r·c/16 messages per port (Table I).
 *  Phase 1, step 2: the relays forward the G11-bound ones a second hop:
 *    QI right, QII up, QIII left, QIV down — r·c/16 per port. Every node
 *    then holds only messages for nodes of its own group, from itself and
 *    its eight surrounding nodes.
 *  Phase 2 (c/4 steps): AR (sched/planners/alltoall/alltoall_ar.c) along the logical rows
 *    of G00 and G11 (c/2 nodes two links apart: a Stage-1 hop spans two
 *    links, a sub-ring hop four) and at once along the logical columns of
 *    G01 and G10 (r/2 nodes); each message goes to the node of its group
 *    in its destination's column (row).
 *  Phase 3 (c/4 steps): the same along the other dimension, to the
 *    destination.
 * DECISIONS (docs/algorithms.md):
 *  - AR's "messages" on a logical ring are the bundles a node holds for
 *    one logical destination; they are moved whole by AR's rules, except
 *  - split bundles: on a logical ring of n ≡ 2 (mod 4) nodes (r or c ≡ 4
 *    mod 8, including the rings of two nodes of a size-4 dimension), the
 *    bundle for the antipodal node is split: messages whose origin is an
 *    even number of links from the holder (coordinate sum) take AR's
 *    direction, the others the opposite one (exactly half each way). Lemma
 *    3's Phase-2 cost (rc/32 + rc/32 − r/8)·c is not a whole number of
 *    bundles when c ≡ 4 mod 8; the split reaches it, whole bundles do not;
 *  - stage alignment: the shorter logical rings (r/2 nodes) run their
 *    Stage 1, Stage 2 and Stage 3 steps in the first phases of the longer
 *    rings' corresponding stages (and idle in between), so that no phase
 *    costs more than the longer rings' step (Lemma 3's "T_row ≥ T_column"
 *    holds step by step, not only in total);
 *  - transfers whose path is not the topology's dimension-order route (a
 *    sub-ring hop of four links on a ring of eight sent anticlockwise, a
 *    two-link hop on a ring of four) carry their own route.
 * Padding (§VI "adding imaginary nodes"): each dimension of size N is
 * extended to V = the next multiple of four; virtual node v lies on
 * physical node ⌊v·N/V⌋ (imaginary nodes spread evenly, each hosted by the
 * real node before it, so every virtual link maps onto one physical link or
 * onto none). AT2 runs on the virtual torus; hops inside one machine
 * vanish, hops of one phase leaving one machine the same way over the same
 * links are combined, and where the images of a phase's transfers still
 * share a link (imaginary rows fold onto real ones) the phase is split
 * into contention-free sub-phases. Padded schedules are complete and
 * contention-free but neither shortest-path nor optimal; what they cost is
 * measured in docs/algorithms.md.
 * Phases 2 + c/2 (unpadded); transmission r·c²/8 message times — Lemma 1's
 * bound — whenever r ≡ c (mod 8), and on 104 of the 136 tori r ≤ c ≤ 64.
 * On the others (one size ≡ 0, the other ≡ 4 mod 8: 8 × 12, 16 × 20, …)
 * a column ring's step is in some phase larger than the row rings' (Lemma
 * 3 compares the rings' totals), which costs up to 5.6 % (8 × 12); another
 * placement of whole steps would mend 13 of the 32, the other 19 need
 * transfers split across phases (not done). tests/test_torus.c checks the
 * transmission against the per-step derivation for every r ≤ c up to
 * 32 × 32 and a selection above.
 * Time O(p² · (r + c)/8) (the chunk moves); memory the largest phase's
 * chunks when streamed (`verify -a`, `plan -o`; relays declared
 * store-and-forward), else every phase's. Errors:
 * NS_ERROR_UNSUPPORTED unless the topology is a two-dimensional torus
 * with both sizes at least 3.
 */
NsSchedule *ns_alltoall_at2(const NsTopology *topo, const NsPlanParams *params,
                            GError **error)
{
  int sizes[NS_MAX_DIMS];
  gboolean wrap = FALSE;
  int n_dims = ns_topology_grid(topo, sizes, &wrap);
  if (n_dims != 2 || !wrap || sizes[0] * sizes[1] != ns_topology_n_machines(topo)) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "at2 needs a two-dimensional torus (gen:torus:RxC); %s is not one",
                ns_topology_source(topo));
    return NULL;
  }
  if (sizes[0] < 3 || sizes[1] < 3) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "at2 needs both torus sizes at least 3 (got %dx%d)", sizes[0], sizes[1]);
    return NULL;
  }
  return ns_torus_exchange(topo, params, "at2", 2, error);
}
