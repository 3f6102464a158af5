/* netsched — calibrations: point-to-point timing tables fitted for
 * SimGrid's SMPI network model.
 *
 * A calibration reproduces a measured table of one-way point-to-point
 * times (size -> time, e.g. a ping-pong's half round trip) between a pair
 * of machines. SimGrid's SMPI network model times a lone message of `size`
 * bytes on a route of total latency L and bottleneck bandwidth B as
 *     T(size) = lat_factor(size) · L + size / (bw_factor(size) · B)
 * where each factor is a piecewise-constant function of the size, given as
 * "THRESHOLD:FACTOR;THRESHOLD:FACTOR;..." (smpi/lat-factor, smpi/bw-factor):
 * the factor of the largest threshold strictly below the size applies, 1
 * when there is none (measured on SimGrid 3.32: a 100-byte message takes
 * the factor of threshold 0, not that of threshold 100).
 *
 * The fit (ns_calibration_fit):
 *   1. a plain linear fit, time = latency + size / bandwidth, by least
 *      squares of the *relative* residuals (weights 1/time²), so that 4 B
 *      counts as much as 256 KiB; reported, and used for the links of the
 *      presets (platforms/gen/presets.c). It cannot match the small sizes.
 *   2. one linear piece per interval between consecutive table sizes,
 *      through both table points (the slope and intercept of the segment),
 *      expressed as factors relative to the route: for sizes in
 *      (s[i-1], s[i]] the line through (s[i-1], t[i-1]) and (s[i], t[i]);
 *      for sizes up to s[0] the first segment's slope through (s[0], t[0]);
 *      above the last size the last segment continues. Every table size
 *      is therefore reproduced exactly, and sizes in between are linearly
 *      interpolated. A segment whose time does not grow (4 B and 256 B
 *      both 8 us on Lemieux) would need an infinite bandwidth: it gets the
 *      highest bandwidth of any segment of the table and stays exact at its
 *      upper size; a segment whose line would need a negative latency goes
 *      through the origin and its upper point instead.
 *
 * Tables (ns_cal_table_read) are text: one "SIZE,TIME" or "SIZE TIME" per
 * line, units required ("4KiB,0.029ms"; K is decimal, KiB binary, as in
 * platforms/model/units.h), '#' starts a comment, blank lines are skipped, and a
 * first line that does not start with a digit is a header. Sizes must
 * increase; at least two are needed. Errors are "file:line: what".
 *
 * Calibration files are GLib key files with one [calibration] group (see
 * ns_calibration_to_data for the keys). Pure computation: no SimGrid here;
 * cli/cmd_calibrate.c verifies a fit by simulation.
 *
 * Sources: the piece-wise SMPI model, Clauss et al., "Single node on-line
 * simulation of MPI applications with SMPI", IPDPS 2011 (SimGrid's
 * NetworkSmpiModel); the bundled tables, Faraj's dissertation §4.2.2.1,
 * Tables 4.6 and 4.7 (scenarios/calibrations/).
 */
#ifndef NETSCHED_CALIBRATE_H
#define NETSCHED_CALIBRATE_H

#include <glib.h>
#include <stdint.h>

/* One table row. */
typedef struct {
  uint64_t size;   /* bytes, > 0 */
  double time;     /* s, > 0 */
  int line;        /* line of the table file, 0 if none */
} NsCalPoint;

/* One piece of an SMPI factor string: applies to sizes > threshold. */
typedef struct {
  uint64_t threshold;
  double value;
} NsCalFactor;

/* The route a calibration is relative to. */
typedef struct {
  int hops;          /* links on the route, >= 1 */
  double latency;    /* s, sum of the route's link latencies, >= 0 */
  double bandwidth;  /* bit/s, the route's smallest link bandwidth, > 0 */
} NsCalRoute;

typedef struct {
  char *description;
  /* The plain linear fit of the table, per link of the route: a route of
   * `route.hops` such links has latency hops·latency. */
  double latency;          /* s */
  double bandwidth;        /* bit/s */
  double linear_max_error; /* largest |relative error| of the linear fit */
  /* What the factors are relative to. */
  char *topology;          /* topology specification or file, NULL if unknown */
  char *pair[2];           /* machine names, NULL if unknown */
  NsCalRoute route;
  /* SimGrid's smpi/lat-factor and smpi/bw-factor, validated. */
  char *lat_factor, *bw_factor;
  /* The table fitted (NsCalPoint, increasing sizes) and where it came from. */
  GArray *table;
  char *source;
  /* The machines' reduction rate in bytes/s (MPI_Reduce_local, measured by
   * scripts/measure-reduce-rate.sh; key reduce-rate, recorded by calibrate
   * --reduce-rate): the replay's NsSimOptions.reduce_rate under this
   * calibration. 0: not measured (the default rate applies). */
  double reduce_rate;
} NsCalibration;

void ns_calibration_free(NsCalibration *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsCalibration, ns_calibration_free)

/*
 * ns_cal_table_parse — reads a point-to-point timing table.
 *
 * text, length: the table (length -1: NUL-terminated).
 * source: the name errors start with ("file:line: ...").
 * Returns a new GArray of NsCalPoint with strictly increasing sizes, or
 * NULL with NS_ERROR_INPUT: a row without exactly two fields, a size or
 * time without unit or not positive, a size not larger than the one
 * before, fewer than two rows.
 * Time O(length).
 */
GArray *ns_cal_table_parse(const char *text, gssize length, const char *source, GError **error);

/* ns_cal_table_parse() of a file; NS_ERROR_IO when it cannot be read.
 * Time O(file size). */
GArray *ns_cal_table_read(const char *path, GError **error);

/*
 * ns_cal_linear_fit — the plain linear model time = latency + size·8 / bandwidth.
 *
 * Least squares of the relative residuals (weights 1/t²); when that line
 * has a negative latency or no positive slope, the best line through the
 * origin.
 * points, n: the table (n >= 2). *latency in s, *bandwidth in bit/s,
 * *max_error the largest |relative error| over the table.
 * Errors: NS_ERROR_INPUT when the time never grows from one size to the
 * next (no bandwidth can be fitted).
 * Time O(n).
 */
gboolean ns_cal_linear_fit(const NsCalPoint *points, guint n, double *latency, double *bandwidth,
                           double *max_error, GError **error);

/*
 * ns_calibration_fit — fits SMPI factors that reproduce a table on a route.
 *
 * table: NsCalPoint with increasing sizes (ns_cal_table_parse).
 * route: the route of the pair the table was measured between, in the
 *        topology the calibration will be simulated on (the factors are
 *        relative to its latency and bandwidth).
 * Returns a calibration with the linear fit (per link: its latency divided
 * by route->hops), the factors (method in the file comment) and a copy of
 * the table; description, topology, pair and source are left NULL for the
 * caller. NULL with NS_ERROR_INPUT when the times never grow with the size
 * or the route has no latency while the table needs one.
 * Time O(n log n) for n table rows.
 */
NsCalibration *ns_calibration_fit(const GArray *table, const NsCalRoute *route, GError **error);

/*
 * ns_cal_factors_parse — parses SimGrid's "THRESHOLD:FACTOR;..." syntax.
 *
 * Thresholds are whole byte counts, all different; factors finite and
 * > 0 (`allow_zero`: >= 0, for latency factors). Nothing else (no spaces,
 * no empty pieces) is accepted, so a valid string can be handed to SimGrid
 * as it is. Returns the pieces sorted by threshold, or NULL with
 * NS_ERROR_INPUT "what: why" (`what` names the string in the message).
 * Time O(n log n).
 */
GArray *ns_cal_factors_parse(const char *text, gboolean allow_zero, const char *what,
                             GError **error);

/* The factor SimGrid applies to a message of `size` bytes: that of the
 * largest threshold < size, else 1. factors sorted. O(n). */
double ns_cal_factor_at(const GArray *factors, double size);

/*
 * ns_calibration_time — the SMPI model's time for one lone message.
 *
 * lat_factor(size)·route.latency + size·8 / (bw_factor(size)·route.bandwidth),
 * with the calibration's factors and route. c must be valid (fitted or
 * read). Time O(number of factors).
 */
double ns_calibration_time(const NsCalibration *c, uint64_t size);

/* `v` rounded to 4 significant digits: how the linear fit is written, and
 * the link values of the presets (platforms/gen/presets.c). */
double ns_cal_round(double v);

/*
 * ns_calibration_to_data — the calibration as a key file.
 *
 * Group [calibration], keys: description; latency, bandwidth (the linear
 * fit, per link, with units, rounded by ns_cal_round) and
 * linear-max-error (%); topology, pair
 * ("A,B"), hops, route-latency, route-bandwidth (what the factors are
 * relative to); lat-factor, bw-factor (SimGrid syntax); source, sizes and
 * times (the table, ';'-separated with units). Numbers are written in the
 * C locale and round-trip. Newly allocated.
 */
char *ns_calibration_to_data(const NsCalibration *c);

/*
 * ns_calibration_parse — reads a calibration key file.
 *
 * lat-factor and bw-factor are required and validated
 * (ns_cal_factors_parse); the other keys are optional but checked when
 * present (units, a pair of two names, as many times as sizes). Errors:
 * NS_ERROR_INPUT "source:line: what" (the line of the offending key, or of
 * the file when the key is missing).
 * Time O(length).
 */
NsCalibration *ns_calibration_parse(const char *text, gssize length, const char *source,
                                    GError **error);

/*
 * ns_calibration_load — a calibration file, or a bundled one by name.
 *
 * `name` is a path when such a file exists; else a bare name (letters,
 * digits, '-', '_', '.') is looked up as NAME.ini in the installed
 * calibrations (../share/netsched/calibrations beside the executable),
 * then in the source tree's scenarios/calibrations (NETSCHED_SOURCE_DIR).
 * Errors: NS_ERROR_INPUT for an unknown name (listing the bundled ones)
 * or a bad file, NS_ERROR_IO when a file cannot be read.
 * Time O(file size + bundled files).
 */
NsCalibration *ns_calibration_load(const char *name, GError **error);

/* Names of the bundled calibrations found in the directories above
 * (sorted, g_strfreev). O(n²) for n files. */
char **ns_calibration_bundled(void);

#endif
