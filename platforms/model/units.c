/* netsched — quantities with explicit units (see units.h).
 *
 * A quantity is NUMBER [spaces] UNIT where NUMBER is a plain decimal
 * (optional sign, digits, optional fraction, optional exponent; no "inf",
 * "nan" or hexadecimal) and UNIT is one of the fixed spellings below.
 * Leading and trailing white space is ignored. The value is computed as
 * strtod(NUMBER) * mul(UNIT) / div(UNIT), so the formatters can check that
 * what they print parses back to exactly the same double.
 */
#include "platforms/model/units.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* value = number * mul / div; one of mul and div is 1 and the other an
 * exactly representable integer, so "10us" is the double nearest to 1e-5. */
typedef struct {
  const char *name;
  double mul, div;
} Unit;

#define KILO 1e3
#define MEGA 1e6
#define GIGA 1e9
#define TERA 1e12
#define KIBI 1024.0
#define MEBI (1024.0 * 1024.0)
#define GIBI (1024.0 * 1024.0 * 1024.0)
#define TEBI (1024.0 * 1024.0 * 1024.0 * 1024.0)

/* Accepted spellings. Bits per second first, then bytes per second (x8). */
static const Unit bandwidth_units[] = {
  {"bps", 1.0, 1},          {"bit/s", 1.0, 1},
  {"kbps", KILO, 1},        {"Kbps", KILO, 1},        {"Mbps", MEGA, 1},       {"Gbps", GIGA, 1},
  {"Tbps", TERA, 1},        {"Kibps", KIBI, 1},       {"Mibps", MEBI, 1},      {"Gibps", GIBI, 1},
  {"Tibps", TEBI, 1},       {"kbit/s", KILO, 1},      {"Kbit/s", KILO, 1},     {"Mbit/s", MEGA, 1},
  {"Gbit/s", GIGA, 1},      {"Tbit/s", TERA, 1},
  {"Bps", 8.0, 1},          {"B/s", 8.0, 1},
  {"kBps", 8 * KILO, 1},    {"KBps", 8 * KILO, 1},    {"MBps", 8 * MEGA, 1},   {"GBps", 8 * GIGA, 1},
  {"TBps", 8 * TERA, 1},    {"KiBps", 8 * KIBI, 1},   {"MiBps", 8 * MEBI, 1},  {"GiBps", 8 * GIBI, 1},
  {"TiBps", 8 * TEBI, 1},   {"kB/s", 8 * KILO, 1},    {"KB/s", 8 * KILO, 1},   {"MB/s", 8 * MEGA, 1},
  {"GB/s", 8 * GIGA, 1},    {"TB/s", 8 * TERA, 1},    {"KiB/s", 8 * KIBI, 1},  {"MiB/s", 8 * MEBI, 1},
  {"GiB/s", 8 * GIBI, 1},   {"TiB/s", 8 * TEBI, 1},
};

static const Unit time_units[] = {
  {"s", 1, 1}, {"ms", 1, 1e3}, {"us", 1, 1e6}, {"\xc2\xb5s", 1, 1e6} /* µs */,
  {"ns", 1, 1e9}, {"ps", 1, 1e12},
};

/* Sizes: bytes, then bits (must give whole bytes). */
static const Unit size_units[] = {
  {"B", 1.0, 1},         {"kB", KILO, 1},       {"KB", KILO, 1},       {"MB", MEGA, 1},
  {"GB", GIGA, 1},       {"TB", TERA, 1},       {"KiB", KIBI, 1},      {"MiB", MEBI, 1},
  {"GiB", GIBI, 1},      {"TiB", TEBI, 1},
  {"b", 1, 8},         {"kb", KILO, 8},     {"Kb", KILO, 8},     {"Mb", MEGA, 8},
  {"Gb", GIGA, 8},     {"Tb", TERA, 8},     {"Kib", KIBI, 8},    {"Mib", MEBI, 8},
  {"Gib", GIBI, 8},    {"Tib", TEBI, 8},
};

/* Units the formatters use, largest first. */
static const Unit bandwidth_out[] = {
  {"Tbps", TERA, 1}, {"Gbps", GIGA, 1}, {"Mbps", MEGA, 1}, {"kbps", KILO, 1}, {"bps", 1.0, 1},
};
static const Unit time_out[] = {
  {"s", 1, 1}, {"ms", 1, 1e3}, {"us", 1, 1e6}, {"ns", 1, 1e9}, {"ps", 1, 1e12},
};
static const struct {
  const char *name;
  uint64_t factor;
} size_out[] = {
  {"TiB", UINT64_C(1) << 40}, {"TB", UINT64_C(1000000000000)}, {"GiB", UINT64_C(1) << 30},
  {"GB", UINT64_C(1000000000)}, {"MiB", UINT64_C(1) << 20},    {"MB", UINT64_C(1000000)},
  {"KiB", UINT64_C(1) << 10},   {"kB", UINT64_C(1000)},
};

/* Splits `text` into a number and a unit. On success *value is the number
 * and *unit points into `text` at the first character of the unit (or at
 * the terminating NUL). Rejects everything but plain decimal numbers. */
static gboolean split_number(const char *text, double *value, const char **unit,
                             const char **why)
{
  if (text == NULL) {
    *why = "empty value";
    return FALSE;
  }
  const char *p = text;
  while (g_ascii_isspace(*p))
    p++;
  if (*p == '\0') {
    *why = "empty value";
    return FALSE;
  }
  const char *start = p;
  if (*p == '+' || *p == '-')
    p++;
  gboolean digits = FALSE;
  while (g_ascii_isdigit(*p)) {
    p++;
    digits = TRUE;
  }
  if (*p == '.') {
    p++;
    while (g_ascii_isdigit(*p)) {
      p++;
      digits = TRUE;
    }
  }
  if (!digits) {
    *why = "not a number (expected a decimal number followed by a unit)";
    return FALSE;
  }
  if (*p == 'e' || *p == 'E') {
    const char *q = p + 1;
    if (*q == '+' || *q == '-')
      q++;
    if (g_ascii_isdigit(*q)) {
      while (g_ascii_isdigit(*q))
        q++;
      p = q;
    }
  }
  /* Parse exactly the characters scanned above. */
  char buf[64];
  gsize n = (gsize)(p - start);
  if (n >= sizeof buf) {
    *why = "number too long";
    return FALSE;
  }
  memcpy(buf, start, n);
  buf[n] = '\0';
  errno = 0;
  char *end = NULL;
  double v = g_ascii_strtod(buf, &end);
  if (end != buf + n) {
    *why = "not a number (expected a decimal number followed by a unit)";
    return FALSE;
  }
  if (errno == ERANGE || !isfinite(v)) {
    *why = "number out of range";
    return FALSE;
  }
  if (v < 0 || (v == 0 && buf[0] == '-')) {
    *why = "negative value";
    return FALSE;
  }
  while (g_ascii_isspace(*p))
    p++;
  *value = v;
  *unit = p;
  return TRUE;
}

/* Looks up the unit at `u` (trailing white space allowed). */
static const Unit *find_unit(const char *u, const Unit *units, gsize n)
{
  gsize len = strlen(u);
  while (len > 0 && g_ascii_isspace(u[len - 1]))
    len--;
  for (gsize i = 0; i < n; i++)
    if (strlen(units[i].name) == len && strncmp(units[i].name, u, len) == 0)
      return &units[i];
  return NULL;
}

static double apply(double number, const Unit *unit)
{
  return unit->div == 1 ? number * unit->mul : number / unit->div;
}

static gboolean parse_with(const char *text, const Unit *units, gsize n_units,
                           double *out, const char *no_unit, const char *bad_unit,
                           const char **why)
{
  double v;
  const char *u;
  if (!split_number(text, &v, &u, why))
    return FALSE;
  if (*u == '\0') {
    *why = no_unit;
    return FALSE;
  }
  const Unit *unit = find_unit(u, units, n_units);
  if (unit == NULL) {
    *why = bad_unit;
    return FALSE;
  }
  double r = apply(v, unit);
  if (!isfinite(r)) {
    *why = "value out of range";
    return FALSE;
  }
  *out = r;
  return TRUE;
}

/**
 * \function ns_parse_bandwidth
 * \brief A bandwidth with its unit ("100Mbps", "1Gbit/s", "12.5MB/s") in bit/s.
 *
 * \param text The text.
 * \param bits_per_s Receives the bandwidth.
 * \param why On failure, a static explanation.
 * \return FALSE when the text is not a bandwidth from NS_MIN_BANDWIDTH (1 bit/s) to
 *        NS_MAX_BANDWIDTH (1 Ebit/s).
 * \errors FALSE with *why; no GError.
 * \complexity O(length of text).
 * \source docs/topology-format.md, "Attributes and values".
 */
gboolean ns_parse_bandwidth(const char *text, double *bits_per_s, const char **why)
{
  const char *dummy;
  if (why == NULL)
    why = &dummy;
  double v;
  if (!parse_with(text, bandwidth_units, G_N_ELEMENTS(bandwidth_units), &v,
                  "missing unit (units are never guessed: write e.g. 100Mbps)",
                  "unknown unit (expected bps, Bps or bit/s with an optional prefix "
                  "k, M, G, T, Ki, Mi, Gi, Ti, e.g. 100Mbps)",
                  why))
    return FALSE;
  if (v <= 0) {
    *why = "bandwidth must be positive";
    return FALSE;
  }
  if (v < NS_MIN_BANDWIDTH) {
    *why = "bandwidth is below the 1bps limit";
    return FALSE;
  }
  if (v > NS_MAX_BANDWIDTH) {
    *why = "bandwidth is above the 1 Ebit/s limit";
    return FALSE;
  }
  *bits_per_s = v;
  return TRUE;
}

/**
 * \function ns_parse_time
 * \brief A time with its unit ("5us", "1ms") in seconds (>= 0).
 *
 * \param text The text.
 * \param seconds Receives the time.
 * \param why On failure, a static explanation.
 * \return FALSE when the text is not a time.
 * \errors FALSE with *why; no GError.
 * \complexity O(length of text).
 * \source docs/topology-format.md, "Attributes and values".
 */
gboolean ns_parse_time(const char *text, double *seconds, const char **why)
{
  const char *dummy;
  if (why == NULL)
    why = &dummy;
  double v;
  if (!parse_with(text, time_units, G_N_ELEMENTS(time_units), &v,
                  "missing unit (units are never guessed: write e.g. 10us)",
                  "unknown unit (expected s, ms, us, ns or ps, e.g. 10us)", why))
    return FALSE;
  *seconds = v;
  return TRUE;
}

/* Exact integer path for sizes written as DIGITS UNIT, so that every
 * uint64_t (beyond 2^53) round-trips. Returns FALSE when `text` is not of
 * that shape; otherwise TRUE with *ok telling whether it is valid. */
static gboolean parse_size_integer(const char *text, uint64_t *bytes, gboolean *ok,
                                   const char **why)
{
  const char *p = text;
  while (g_ascii_isspace(*p))
    p++;
  if (*p == '+')
    p++;
  if (!g_ascii_isdigit(*p))
    return FALSE;
  uint64_t n = 0;
  gboolean overflow = FALSE;
  for (; g_ascii_isdigit(*p); p++) {
    unsigned d = (unsigned)(*p - '0');
    if (n > (UINT64_MAX - d) / 10)
      overflow = TRUE;
    else
      n = n * 10 + d;
  }
  if (*p == '.' || *p == 'e' || *p == 'E')
    return FALSE;
  while (g_ascii_isspace(*p))
    p++;
  if (*p == '\0')
    return FALSE; /* "missing unit", reported by the general path */
  const Unit *unit = find_unit(p, size_units, G_N_ELEMENTS(size_units));
  if (unit == NULL)
    return FALSE;
  *ok = FALSE;
  uint64_t mul = (uint64_t)unit->mul, div = (uint64_t)unit->div;
  if (overflow || (mul > 1 && n > UINT64_MAX / mul)) {
    *why = "size out of range";
    return TRUE;
  }
  n *= mul;
  if (n % div != 0) {
    *why = "size is not a whole number of bytes";
    return TRUE;
  }
  n /= div;
  if (n == 0) {
    *why = "size must be positive";
    return TRUE;
  }
  *bytes = n;
  *ok = TRUE;
  return TRUE;
}

/**
 * \function ns_parse_size
 * \brief A size with its unit ("64KiB") in bytes, a whole number > 0.
 *
 * \param text The text.
 * \param bytes Receives the size.
 * \param why On failure, a static explanation.
 * \return FALSE when the text is not a size.
 * \errors FALSE with *why; no GError.
 * \complexity O(length of text).
 * \source docs/topology-format.md, "Attributes and values".
 */
gboolean ns_parse_size(const char *text, uint64_t *bytes, const char **why)
{
  const char *dummy;
  if (why == NULL)
    why = &dummy;
  gboolean ok;
  if (text != NULL && parse_size_integer(text, bytes, &ok, why))
    return ok;
  double v;
  if (!parse_with(text, size_units, G_N_ELEMENTS(size_units), &v,
                  "missing unit (units are never guessed: write e.g. 64KiB)",
                  "unknown unit (expected B or b with an optional prefix "
                  "k, M, G, T, Ki, Mi, Gi, Ti, e.g. 64KiB)",
                  why))
    return FALSE;
  if (v <= 0) {
    *why = "size must be positive";
    return FALSE;
  }
  if (v != floor(v)) {
    *why = "size is not a whole number of bytes";
    return FALSE;
  }
  /* 2^64 is exactly representable; anything at or above it overflows. */
  if (v >= 18446744073709551616.0) {
    *why = "size out of range";
    return FALSE;
  }
  *bytes = (uint64_t)v;
  return TRUE;
}

/* ---- formatting --------------------------------------------------------- */

/* Shortest plain decimal rendering of `q` (no exponent, at most 15
 * decimals) that parses back, through the same computation as the parsers,
 * to exactly `v` in `unit`; NULL if there is none. */
static char *shortest(double v, double q, const Unit *unit)
{
  if (!(q < 1e15))
    return NULL;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char fmt[16];
  for (int d = 0; d <= 15; d++) {
    g_snprintf(fmt, sizeof fmt, "%%.%df", d);
    g_ascii_formatd(buf, sizeof buf, fmt, q);
    if (apply(g_ascii_strtod(buf, NULL), unit) == v)
      return g_strdup(buf);
  }
  return NULL;
}

/* Formats v with the largest unit of `units` that gives a quotient >= 1
 * (the smallest unit takes any quotient) and an exact plain decimal
 * rendering; falls back to the shortest exact "%g"-style number with the
 * base unit. Non-finite or non-positive values (which no parser accepts,
 * except time 0) are printed plainly with the base unit. */
static char *format_with(double v, const Unit *units, gsize n, const char *base)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (v == 0)
    return g_strconcat("0", base, NULL);
  if (!isfinite(v) || v < 0)
    return g_strconcat(g_ascii_dtostr(buf, sizeof buf, v), base, NULL);
  for (gsize i = 0; i < n; i++) {
    double q = v / units[i].mul * units[i].div;
    if (q < 1 && i + 1 < n)
      continue;
    char *num = shortest(v, q, &units[i]);
    if (num != NULL) {
      char *r = g_strconcat(num, units[i].name, NULL);
      g_free(num);
      return r;
    }
  }
  /* Shortest "%.Ng" that round-trips; 17 significant digits always do. */
  char fmt[16];
  for (int p = 1; p <= 17; p++) {
    g_snprintf(fmt, sizeof fmt, "%%.%dg", p);
    g_ascii_formatd(buf, sizeof buf, fmt, v);
    if (g_ascii_strtod(buf, NULL) == v)
      break;
  }
  return g_strconcat(buf, base, NULL);
}

/**
 * \function ns_format_bandwidth
 * \brief A bandwidth as text the parser reads back ("100Mbps").
 *
 * \param bits_per_s The bandwidth.
 * \return Newly allocated text.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Attributes and values".
 */
char *ns_format_bandwidth(double bits_per_s)
{
  return format_with(bits_per_s, bandwidth_out, G_N_ELEMENTS(bandwidth_out), "bps");
}

/**
 * \function ns_format_time
 * \brief A time as text the parser reads back ("10us").
 *
 * \param seconds The time.
 * \return Newly allocated text.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Attributes and values".
 */
char *ns_format_time(double seconds)
{
  return format_with(seconds, time_out, G_N_ELEMENTS(time_out), "s");
}

/**
 * \function ns_format_size
 * \brief A size as text the parser reads back ("64KiB").
 *
 * \param bytes The size.
 * \return Newly allocated text.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Attributes and values".
 */
char *ns_format_size(uint64_t bytes)
{
  if (bytes > 0)
    for (gsize i = 0; i < G_N_ELEMENTS(size_out); i++)
      if (bytes % size_out[i].factor == 0)
        return g_strdup_printf("%" G_GUINT64_FORMAT "%s", bytes / size_out[i].factor,
                               size_out[i].name);
  return g_strdup_printf("%" G_GUINT64_FORMAT "B", bytes);
}

/**
 * \function ns_parse_msize
 * \brief A message size: ns_parse_size() limited to NS_MAX_MSIZE (1 TiB).
 *
 * \param text The text.
 * \param bytes Receives the size.
 * \param why On failure, a static explanation ("above the 1TiB limit of a message size").
 * \return FALSE when the text is not a size or is above the limit.
 * \errors FALSE with *why; no GError.
 * \complexity O(length of text).
 * \source docs/security.md, "Limits".
 */
gboolean ns_parse_msize(const char *text, uint64_t *bytes, const char **why)
{
  if (!ns_parse_size(text, bytes, why))
    return FALSE;
  if (*bytes > NS_MAX_MSIZE) {
    *why = "above the 1TiB limit of a message size";
    return FALSE;
  }
  return TRUE;
}

/**
 * \function ns_format_bytes
 * \brief A byte total that may exceed 64 bits, as text.
 *
 * \param bytes The total.
 * \return Newly allocated text: exact like ns_format_size() up to 2^53, else four significant
 *        digits with a binary prefix ("1.5EiB").
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Attributes and values".
 */
char *ns_format_bytes(double bytes)
{
  if (bytes >= 0 && bytes < 9007199254740992.0 && bytes == (double)(uint64_t)bytes)
    return ns_format_size((uint64_t)bytes); /* exact: up to 2^53 */
  static const char *const prefix[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB" };
  int i = 0;
  while (bytes >= 1024 && i + 1 < (int)G_N_ELEMENTS(prefix)) {
    bytes /= 1024;
    i++;
  }
  return g_strdup_printf("%.4g%s", bytes, prefix[i]);
}
