/* netsched — the analytic cost model of complete exchange on tori
 * (Liu Gang et al. §III-B, §IV-D and §V, Table II).
 *
 * A cost is three coefficients: T = startups·t_s + transmission·m·t_w +
 * rearrangement·m·ρ, for messages of m bytes, startup time t_s, time per
 * byte in a channel t_w and per byte rearranged between phases ρ (§II).
 * The algorithms: AR on a ring of p (Lemma 2), AT2 on r × c (§IV-D), and
 * Table II's rows for 2^d × 2^d tori — Tseng, Lin, Gupta & Panda's
 * diagonal propagation [5], Suh & Yalamanchili [6], Suh & Shin [10] — as
 * the paper states them (their own derivations are not reproduced).
 */
#ifndef NETSCHED_TORUS_MODEL_H
#define NETSCHED_TORUS_MODEL_H

#include <glib.h>

typedef enum {
  NS_TORUS_TSENG97,      /* [5] Tseng, Lin, Gupta & Panda, diagonal propagation */
  NS_TORUS_SUH98,        /* [6] Suh & Yalamanchili */
  NS_TORUS_SUH01,        /* [10] Suh & Shin */
  NS_TORUS_PROPOSED,     /* Liu Gang et al.'s AT2 */
  NS_TORUS_N_ALGOS
} NsTorusAlgo;

typedef struct {
  double startups;       /* multiples of t_s */
  double transmission;   /* multiples of m·t_w */
  double rearrangement;  /* multiples of m·ρ */
} NsTorusCost;

/* Paragon parameters of §V (from [10]), seconds and seconds per byte. */
#define NS_PARAGON_TS 75e-6
#define NS_PARAGON_TW 0.011e-6
#define NS_PARAGON_RHO 0.014e-6

/* Short name ("tseng97", "suh98", "suh01", "at2") and the paper's label. */
const char *ns_torus_algo_name(NsTorusAlgo a);
const char *ns_torus_algo_label(NsTorusAlgo a);

/*
 * ns_torus_model_table2 — Table II's row for algorithm `a` on a 2^d × 2^d
 * torus (d ≥ 2):
 *   [5]  (2^{d−1}+2), 2^{3d−2}+2^{2d}, (2^{d−1}+1)·2^{2d}
 *   [6]  3d−3, 9·2^{3d−4}+(d²−5d+3)·2^{2d−1} (both transmission and
 *        rearrangement)
 *   [10] (2^{d−1}+2), 2^{3d−2}+2^{2d}, 3·2^{2d}
 *   AT2  (2^{d−1}+2), 2^{3d−3}, 3·2^{2d}
 * Complexity O(1). No errors (d is asserted ≥ 2 and ≤ 15).
 */
NsTorusCost ns_torus_model_table2(NsTorusAlgo a, int d);

/*
 * ns_torus_model_ar — Lemma 2: p/2 startups, ⌈p²/8⌉ message times, and
 * (by analogy with §IV-D's "at the beginning of each phase") one
 * rearrangement of the p messages per stage, 3p. p even, p ≥ 4 (asserted).
 * Complexity O(1).
 */
NsTorusCost ns_torus_model_ar(int p);

/*
 * ns_torus_model_at2 — §IV-D for r × c (r, c multiples of four; the
 * arguments are swapped when r > c): (c/2 + 2) startups, r·c²/8 message
 * times (Lemma 4), 3·r·c rearrangement. FALSE when a size is not a
 * positive multiple of four. Complexity O(1).
 */
gboolean ns_torus_model_at2(int r, int c, NsTorusCost *out);

/* The time of a cost for messages of m bytes. O(1). */
double ns_torus_time(const NsTorusCost *c, double ts, double tw, double rho, double m);

#endif
