/* netsched — summary statistics. See stats.h. */
#include "analysis/stats.h"
#include <math.h>
#include <stdlib.h>

/* Continued fraction of the regularized incomplete beta function
 * (modified Lentz evaluation). Converges fast for x < (a+1)/(a+b+2). */
static double beta_fraction(double a, double b, double x)
{
  const double tiny = 1e-300, eps = 1e-15;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (fabs(d) < tiny)
    d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 500; m++) {
    double m2 = 2.0 * m;
    double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2)); /* even step */
    d = 1 + num * d;
    c = 1 + num / c;
    d = 1 / (fabs(d) < tiny ? tiny : d);
    c = fabs(c) < tiny ? tiny : c;
    h *= d * c;
    num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)); /* odd step */
    d = 1 + num * d;
    c = 1 + num / c;
    d = 1 / (fabs(d) < tiny ? tiny : d);
    c = fabs(c) < tiny ? tiny : c;
    double delta = d * c;
    h *= delta;
    if (fabs(delta - 1) < eps)
      break;
  }
  return h;
}

/* I_x(a, b). */
static double incomplete_beta(double a, double b, double x)
{
  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;
  double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
  if (x < (a + 1) / (a + b + 2))
    return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with df degrees of freedom. */
static double student_t_cdf(double t, double df)
{
  double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
  return t >= 0 ? 1 - tail : tail;
}

/**
 * \function ns_student_t_quantile
 * \brief The quantile of Student's t distribution.
 *
 * \param p 0 < p < 1.
 * \param df Degrees of freedom (> 0).
 * \return t such that P(T <= t) = p, to about 1e-12.
 * \errors none.
 * \complexity O(60 bisection steps × continued-fraction terms).
 * \source the regularized incomplete beta function I_x(df/2, 1/2) by its continued fraction
 *        (Numerical Recipes §6.4).
 */
double ns_student_t_quantile(double p, double df)
{
  if (!(p > 0 && p < 1 && df > 0))
    return NAN;
  if (p == 0.5)
    return 0;
  if (p < 0.5)
    return -ns_student_t_quantile(1 - p, df);
  double lo = 0, hi = 1;
  while (student_t_cdf(hi, df) < p && hi < 1e12)
    hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
    double mid = 0.5 * (lo + hi);
    if (student_t_cdf(mid, df) < p)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

/**
 * \function ns_quantile_sorted
 * \brief The q-quantile of sorted values, type 7.
 *
 * \param sorted The values, sorted.
 * \param n How many.
 * \param q 0 <= q <= 1.
 * \return The quantile.
 * \errors none.
 * \complexity O(1).
 * \source Hyndman and Fan (1996), type 7.
 */
double ns_quantile_sorted(const double *sorted, gsize n, double q)
{
  if (n == 0)
    return NAN;
  double h = (double)(n - 1) * q;
  gsize lo = (gsize)floor(h);
  if (lo + 1 >= n)
    return sorted[n - 1];
  return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

/**
 * \function ns_median_sorted
 * \brief The median of sorted values: the middle one, or the mean of the two middle ones.
 *
 * The type-7 median up to rounding ((a + b) / 2 rather than a + (b − a) / 2), computed as
 * every row and `simulate --runs` always have been.
 *
 * \param sorted The values, sorted ascending (e.g. the completion times of repeated runs).
 * \param n How many; at least 1 (n = 0 reads outside the array).
 * \return The median.
 * \errors none.
 * \complexity O(1).
 * \source Hyndman and Fan (1996), type 7; docs/simulator.md, "Variance: --runs N".
 */
double ns_median_sorted(const double *sorted, gsize n)
{
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

static int compare_doubles(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/**
 * \function ns_summary_compute
 * \brief Mean, deviation, 95 % interval and percentiles of a sample.
 *
 * \param x The values (copied and sorted; the array is untouched).
 * \param n How many (0 gives n = 0 and NaN everywhere).
 * \param out Filled.
 * \errors none.
 * \complexity O(n log n) time, O(n) memory.
 * \source Hyndman and Fan (1996) type 7 quantiles; Student's t interval.
 */
void ns_summary_compute(const double *x, gsize n, NsSummary *out)
{
  *out = (NsSummary){ .n = (guint)n };
  if (n == 0) {
    out->mean = out->sd = out->ci95_lo = out->ci95_hi = out->min = out->p5 = out->p25 =
        out->median = out->p75 = out->p95 = out->max = NAN;
    return;
  }
  double sum = 0;
  for (gsize i = 0; i < n; i++)
    sum += x[i];
  out->mean = sum / (double)n;
  double ss = 0;
  for (gsize i = 0; i < n; i++)
    ss += (x[i] - out->mean) * (x[i] - out->mean);
  out->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
  double half = n > 1 ? ns_student_t_quantile(0.975, (double)(n - 1)) * out->sd / sqrt((double)n)
                      : 0;
  out->ci95_lo = out->mean - half;
  out->ci95_hi = out->mean + half;
  double *s = g_memdup2(x, n * sizeof(double));
  qsort(s, n, sizeof(double), compare_doubles);
  out->min = s[0];
  out->max = s[n - 1];
  out->p5 = ns_quantile_sorted(s, n, 0.05);
  out->p25 = ns_quantile_sorted(s, n, 0.25);
  out->median = ns_quantile_sorted(s, n, 0.5);
  out->p75 = ns_quantile_sorted(s, n, 0.75);
  out->p95 = ns_quantile_sorted(s, n, 0.95);
  g_free(s);
}
