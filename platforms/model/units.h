/* netsched — quantities with explicit units.
 *
 * Every file format and option states its unit: bandwidths ("100Mbps",
 * "1Gbps", "12.5MBps"), times ("5us", "1ms", "0.2s") and sizes ("64KiB",
 * "1MB", "512B"). Decimal prefixes k/K, M, G, T are powers of 1000;
 * binary prefixes Ki, Mi, Gi, Ti are powers of 1024.
 *   bandwidth units: bps, Bps (bytes per second, x8) with prefixes; "bit/s" too.
 *   time units:      s, ms, us, ns, ps.
 *   size units:      B, b (bits, must give whole bytes) with prefixes.
 * A bare number without unit is rejected: units are never guessed.
 */
#ifndef NETSCHED_UNITS_H
#define NETSCHED_UNITS_H

#include <glib.h>
#include <stdint.h>

/* Bandwidths netsched accepts, in bit/s: from 1 bit/s (below it a 1 TiB
 * message would take longer than 2^43 s, and times print with hundreds of
 * digits: 1e-300bps was once accepted) to 1 Ebit/s. */
#define NS_MIN_BANDWIDTH 1.0
#define NS_MAX_BANDWIDTH 1e18

/* Parse "100Mbps" into bits per second. Returns FALSE and sets *why to a
 * static explanation when the text is not a bandwidth from
 * NS_MIN_BANDWIDTH to NS_MAX_BANDWIDTH. */
gboolean ns_parse_bandwidth(const char *text, double *bits_per_s, const char **why);
/* Parse "5us" into seconds (>= 0). */
gboolean ns_parse_time(const char *text, double *seconds, const char **why);
/* Parse "64KiB" into bytes (a whole number > 0). */
gboolean ns_parse_size(const char *text, uint64_t *bytes, const char **why);

/* The largest message (chunk) size netsched plans, verifies or simulates:
 * 1 TiB. Byte totals (a chunk times p² or times segments) then stay far
 * inside 64 bits and exact in double up to 2^53 for every realistic run;
 * what exceeds that is reported in floating point, never wrapped. */
#define NS_MAX_MSIZE ((uint64_t)1 << 40)

/* ns_parse_size() limited to NS_MAX_MSIZE ("above the 1TiB limit of a
 * message size"). */
gboolean ns_parse_msize(const char *text, uint64_t *bytes, const char **why);

/* Format for people and for round-tripping into the parsers above:
 * "100Mbps", "10us", "64KiB". Results are newly allocated. */
char *ns_format_bandwidth(double bits_per_s);
char *ns_format_time(double seconds);
char *ns_format_size(uint64_t bytes);
/* A byte total that may exceed 64 bits: exact like ns_format_size() up to
 * 2^53, else four significant digits with a binary prefix ("1.5EiB"). */
char *ns_format_bytes(double bytes);

#endif
