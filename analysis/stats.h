/* netsched — summary statistics of repeated measurements (sweeps).
 *
 * For the n values of one grid point (one per random topology):
 *   mean        Σx/n (two passes: the mean, then the deviations, for accuracy)
 *   sd          the sample standard deviation √(Σ(x−mean)²/(n−1)); 0 for n < 2
 *   ci95        mean ± t_{0.975, n−1}·sd/√n, Student's t interval for the
 *               mean of normal samples (the points of a sweep are means over
 *               random topologies, so t, not 1.96: t_{0.975,49} = 2.0096 for
 *               the dissertation's 50 topologies, 2.0930 for 20); for n < 2
 *               both ends are the mean
 *   percentiles linear interpolation between order statistics, the
 *               "type 7" rule of Hyndman & Fan (R's and NumPy's default):
 *               q-th percentile = x_(h) + (h − ⌊h⌋)(x_(⌊h⌋+1) − x_(⌊h⌋)),
 *               h = (n − 1)·q on the sorted values, 0-based
 * Everything is computed in a fixed order from the values as given, so the
 * same values in the same order give bit-identical results.
 */
#ifndef NETSCHED_STATS_H
#define NETSCHED_STATS_H

#include <glib.h>

typedef struct {
  guint n;
  double mean, sd;
  double ci95_lo, ci95_hi;
  double min, p5, p25, median, p75, p95, max;
} NsSummary;

/*
 * ns_summary_compute — the summary of x[0..n-1] (n >= 1; n = 0 gives a
 * summary with n = 0 and NaN everywhere). Values are copied and sorted;
 * the caller's array is untouched. Time O(n log n), memory O(n).
 */
void ns_summary_compute(const double *x, gsize n, NsSummary *out);

/* The q-quantile (0 <= q <= 1) of sorted[0..n-1], type 7. O(1). */
double ns_quantile_sorted(const double *sorted, gsize n, double q);

/* The median of repeated runs of one measurement, sorted[0..n-1] (n >= 1):
 * the middle value, or the mean (a + b) / 2 of the two middle values — the
 * type-7 median up to rounding, computed as every row and `simulate
 * --runs` always have been. O(1). */
double ns_median_sorted(const double *sorted, gsize n);

/*
 * ns_student_t_quantile — t such that P(T <= t) = p for Student's t with
 * `df` > 0 degrees of freedom (0 < p < 1): bisection on the distribution
 * function, computed from the regularized incomplete beta function
 * I_x(df/2, 1/2) by its continued fraction. Accurate to about 1e-12.
 * O(60 bisection steps × continued-fraction terms).
 */
double ns_student_t_quantile(double p, double df);

#endif
