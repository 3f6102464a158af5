/* netsched — the analytic cost model of complete exchange on tori (Liu
 * Gang et al. §III-B, §IV-D, §V Table II). See torus_model.h. */
#include "analysis/torus_model.h"
#include <math.h>

/**
 * \function ns_torus_algo_name
 * \brief A torus algorithm's short name ("tseng97", "suh98", "suh01", "at2").
 *
 * \param a The algorithm.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source Liu Gang et al. §III-B, §IV-D, §V, Table II.
 */
const char *ns_torus_algo_name(NsTorusAlgo a)
{
  static const char *names[] = { "tseng97", "suh98", "suh01", "at2" };
  return a < NS_TORUS_N_ALGOS ? names[a] : "?";
}

/**
 * \function ns_torus_algo_label
 * \brief A torus algorithm's label in the paper.
 *
 * \param a The algorithm.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source Liu Gang et al. §III-B, §IV-D, §V, Table II.
 */
const char *ns_torus_algo_label(NsTorusAlgo a)
{
  static const char *labels[] = { "[5] Tseng et al. (diagonal propagation)",
                                  "[6] Suh & Yalamanchili", "[10] Suh & Shin",
                                  "proposed (AT2)" };
  return a < NS_TORUS_N_ALGOS ? labels[a] : "?";
}

/**
 * \function ns_torus_model_table2
 * \brief Table II's cost of an algorithm on a 2^d × 2^d torus.
 *
 * \param a The algorithm.
 * \param d 2 <= d <= 15 (asserted).
 * \return Startups, transmission and rearrangement coefficients.
 * \errors none (d is asserted in range).
 * \complexity O(1).
 * \source Liu Gang et al. Table II.
 */
NsTorusCost ns_torus_model_table2(NsTorusAlgo a, int d)
{
  g_assert(d >= 2 && d <= 15);
  double n = ldexp(1, d), n2 = n * n, n3 = n2 * n;
  NsTorusCost c = { 0, 0, 0 };
  switch (a) {
  case NS_TORUS_TSENG97:
    c.startups = n / 2 + 2;
    c.transmission = n3 / 4 + n2;
    c.rearrangement = (n / 2 + 1) * n2;
    break;
  case NS_TORUS_SUH98:
    c.startups = 3.0 * d - 3;
    c.transmission = 9 * n3 / 16 + ((double)d * d - 5.0 * d + 3) * n2 / 2;
    c.rearrangement = c.transmission;
    break;
  case NS_TORUS_SUH01:
    c.startups = n / 2 + 2;
    c.transmission = n3 / 4 + n2;
    c.rearrangement = 3 * n2;
    break;
  case NS_TORUS_PROPOSED:
  default:
    c.startups = n / 2 + 2;
    c.transmission = n3 / 8;
    c.rearrangement = 3 * n2;
    break;
  }
  return c;
}

/**
 * \function ns_torus_model_ar
 * \brief Lemma 2's cost of AR on a ring of p.
 *
 * \param p Even, >= 4 (asserted).
 * \return p/2 startups, ⌈p²/8⌉ message times, 3p rearrangement.
 * \errors none (p is asserted).
 * \complexity O(1).
 * \source Liu Gang et al. Lemma 2.
 */
NsTorusCost ns_torus_model_ar(int p)
{
  g_assert(p >= 4 && p % 2 == 0);
  NsTorusCost c = { p / 2.0, ceil((double)p * p / 8.0 - 1e-9), 3.0 * p };
  return c;
}

/**
 * \function ns_torus_model_at2
 * \brief §IV-D's cost of AT2 on an r × c torus.
 *
 * \param r Rows, a positive multiple of four.
 * \param c Columns, a positive multiple of four (swapped with r when r > c).
 * \param out Receives (c/2 + 2) startups, r·c²/8 message times, 3·r·c rearrangement.
 * \return FALSE when a size is not a positive multiple of four.
 * \errors none (FALSE).
 * \complexity O(1).
 * \source Liu Gang et al. §IV-D, Lemma 4.
 */
gboolean ns_torus_model_at2(int r, int c, NsTorusCost *out)
{
  if (r <= 0 || c <= 0 || r % 4 != 0 || c % 4 != 0)
    return FALSE;
  if (r > c) {
    int t = r;
    r = c;
    c = t;
  }
  out->startups = c / 2.0 + 2;
  out->transmission = (double)r * c * c / 8.0;
  out->rearrangement = 3.0 * r * c;
  return TRUE;
}

/**
 * \function ns_torus_time
 * \brief The time of a cost for messages of m bytes.
 *
 * \param c The cost.
 * \param ts Startup time (s).
 * \param tw Time per byte in a channel (s).
 * \param rho Time per byte rearranged (s).
 * \param m Message bytes.
 * \return startups·ts + transmission·m·tw + rearrangement·m·rho seconds.
 * \errors none.
 * \complexity O(1).
 * \source Liu Gang et al. §II.
 */
double ns_torus_time(const NsTorusCost *c, double ts, double tw, double rho, double m)
{
  return c->startups * ts + c->transmission * m * tw + c->rearrangement * m * rho;
}
