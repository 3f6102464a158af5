/* netsched — internal: Tam & Wang's permutations and global window, shared
 * by the shuffle planners (sched/planners/alltoall/alltoall_shuffle.c), gpe-ca
 * (sched/alltoall_gpe_ca.c) and the bounds (analysis/bounds_tamwang.h).
 *
 * Tam & Wang, "Contention-aware communication schedule for high-speed
 * communication" (complete exchange on hierarchical Ethernet):
 *   §3.1  node contention-free permutations φ(x, i): at step i every
 *         machine x sends to φ(x, i), and no two send to one machine —
 *         shift (x + i mod p), bitwise XOR (x ^ i) and edge colouring
 *         (the rounds of Algorithm 3's edgeColor);
 *   §3.2  the global window W_g = B_L / ν (eq. 3–4) from the buffer B_L
 *         of the bottleneck and the packets ν the pattern sends into it
 *         per step;
 *   §3.3  the contention-aware permutation ϕ (eq. 5): logical id =
 *         ⌊physical / d1⌋ + (physical mod d1)·d2, so that a machine's
 *         consecutive steps go to machines of different switches.
 */
#ifndef NETSCHED_SCHED_TAMWANG_H
#define NETSCHED_SCHED_TAMWANG_H

#include "sched/planners/registry.h"

/* ---- §3.1: node contention-free permutations ---------------------------- */

typedef enum {
  NS_TW_SHIFT,   /* φ(x, i) = (x + i) mod p, i = 1 .. p−1 */
  NS_TW_XOR,     /* φ(x, i) = x XOR i, i = 1 .. 2^⌈lg p⌉ − 1; idle when ≥ p */
  NS_TW_COLOUR,  /* round i of the edge colouring of K_p (alltoall/gpe): p−1
                    rounds for even p, p for odd p (each machine idles once) */
} NsTwPermKind;

typedef struct {
  NsTwPermKind kind;
  int p;
  int steps;      /* steps of one sweep over all destinations */
  int *partner;   /* NS_TW_COLOUR: partner[step * p + x], −1 idle; else NULL */
} NsTwPermutation;

/*
 * ns_tw_permutation_init — the permutation `kind` over the p machines of
 * `topo`. The edge colouring is read off alltoall/gpe's rounds (one
 * colouring in the project, Tam & Wang §3.4). Time O(p²) for the colouring,
 * O(1) otherwise. Errors: those of the gpe planner (none).
 */
gboolean ns_tw_permutation_init(NsTwPermutation *perm, NsTwPermKind kind, const NsTopology *topo,
                                GError **error);
void ns_tw_permutation_clear(NsTwPermutation *perm);
/* φ(x, step) for step = 0 .. steps−1 (the paper's i = step + 1), or −1
 * when x idles in that step. O(1). */
int ns_tw_phi(const NsTwPermutation *perm, int x, int step);

/* ---- §2.3, §3.3: the two-level hierarchy and ϕ -------------------------- */

typedef struct {
  int p, d1, d2;  /* machines, machines per leaf switch, leaf switches (p = d1·d2) */
  int *physical;  /* per machine index: its physical id, switch·d1 + rank on it */
  int *machine;   /* per physical id: the machine index */
} NsTwHierarchy;

/*
 * ns_tw_hierarchy — the machines of `topo` grouped by the switch they hang
 * from (Figure 1's level-1 switches), numbered switch by switch: switches in
 * the order of their lowest machine index, machines by index within a
 * switch. On gen:hierarchy:AxB the physical id is the machine index.
 * Time O(|M|). Errors: NS_ERROR_UNSUPPORTED when a machine is not a leaf on
 * a switch, or the switches do not all hold the same number d1 of machines
 * (eq. 5 needs p = d1·d2).
 */
gboolean ns_tw_hierarchy(const NsTopology *topo, NsTwHierarchy *h, GError **error);
void ns_tw_hierarchy_clear(NsTwHierarchy *h);

/* Eq. 5: the logical id of a physical id, and back. O(1). */
/**
 * \function ns_tw_logical
 * \brief Eq. 5: the logical id of a physical id.
 *
 * \param h The hierarchy.
 * \param physical The physical id (switch·d1 + rank on it).
 * \return The logical id.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §3.3, eq. 5.
 */
static inline int ns_tw_logical(const NsTwHierarchy *h, int physical)
{
  return physical / h->d1 + (physical % h->d1) * h->d2;
}
/**
 * \function ns_tw_physical
 * \brief Eq. 5 inverted: the physical id of a logical id.
 *
 * \param h The hierarchy.
 * \param logical The logical id.
 * \return The physical id.
 * \errors none.
 * \complexity O(1).
 * \source Tam and Wang, complete exchange on hierarchical Ethernet §3.3, eq. 5.
 */
static inline int ns_tw_physical(const NsTwHierarchy *h, int logical)
{
  return (logical % h->d2) * h->d1 + logical / h->d2;
}

/* ---- §3.2: the global window --------------------------------------------- */

/* Eq. 4 for a region that receives `packets` packets over `steps` steps
 * (ν = packets / steps, eq. 3): ⌊B_L / (ν·(1 + control))⌋, at least 1, in
 * exact integer arithmetic. `control` control packets accompany every data
 * packet through the region (the paper's Go-Back-N correction is 1, §4.2).
 * The floor, as in every worked example of the paper (Figure 3: ⌊30/3.2⌋ =
 * 9; §4.2: ⌊45 ÷ 128/15⌋ = 5), keeps W_g·ν ≤ B_L; eq. 4 as printed rounds
 * up. 0 when packets or buffer is 0 (no window derivable). */
int ns_tw_window_of(int buffer, uint64_t packets, uint64_t steps, int control);

typedef struct {
  int window;           /* W_g, or 0 when no switch declares a buffer size */
  int node;             /* the binding switch (node id), −1 */
  int edge;             /* its binding port: the directed edge into it (input
                           buffers) or out of it (output buffers); −1 shared */
  NsBuffering buffering;
  int buffer;           /* its B_L, packets */
  uint64_t packets;     /* packets the exchange sends into it over p − 1 steps */
  double nu;            /* packets / (p − 1): per step (eq. 3) */
} NsTwWindow;

/*
 * ns_tw_global_window — W_g for an all-to-all in which every machine sends
 * one packet per step (the synchronous shuffle, any node contention-free
 * φ): the generalisation of eq. 3–4 to any topology.
 *
 * Steps:
 *  1. Every switch with a buffer size is a buffer region: one per input
 *     port (input-buffered), one per output port (output-buffered), or the
 *     whole switch (shared-buffered).
 *  2. Over p − 1 steps every ordered machine pair exchanges one packet, so a
 *     region receives ν = (pairs whose route enters it) / (p − 1) packets
 *     per step; on a two-level FE/GE hierarchy an FE switch's uplink port
 *     gets exactly eq. 3's (p − d1)·d1 / (p − 1).
 *  3. W_g = min over regions of ⌊B / (ν·(1 + control))⌋ (eq. 4).
 * Time O(|M|² · route length). Errors: none; out->window = 0 when no
 * switch has a buffer size (a window cannot be derived).
 */
void ns_tw_global_window(const NsTopology *topo, int control, NsTwWindow *out);

/* ---- the shuffle builder (sched/planners/alltoall/alltoall_shuffle.c) ----------------------- */

/* The synchronous shuffle exchange with permutation `kind`, on the logical
 * ids of eq. 5 when `ca`, named `name`: see the comment in
 * sched/planners/alltoall/alltoall_shuffle.c. */
NsSchedule *ns_tw_shuffle(const NsTopology *topo, const NsPlanParams *params, NsTwPermKind kind,
                          gboolean ca, const char *name, GError **error);

#endif
