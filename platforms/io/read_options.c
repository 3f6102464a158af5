/* netsched — format specifications with reader options (read_options.h). */
#include "platforms/model/error.h"
#include "platforms/io/hostlist_internal.h"
#include "platforms/io/read_options.h"
#include "platforms/model/units.h"

#include <string.h>

/* Format names (the CLI's -f, a scenario's format =, error messages). */
static const struct {
  NsTopoFormat format;
  const char *name;
} formats[] = {
  {NS_TOPO_FORMAT_AUTO, "auto"},       {NS_TOPO_FORMAT_NATIVE, "native"},
  {NS_TOPO_FORMAT_SLURM, "slurm"},     {NS_TOPO_FORMAT_GRAPHML, "graphml"},
  {NS_TOPO_FORMAT_DOT, "dot"},         {NS_TOPO_FORMAT_SIMGRID, "simgrid"},
};

/**
 * \function ns_topo_format_from_name
 * \brief A topology format from its name ("native", "slurm", "graphml",
 *        "dot", "simgrid", "auto"; any case).
 *
 * \param name The name (NULL: unknown).
 * \param format Receives the format.
 * \return FALSE for an unknown name (*format untouched).
 * \errors none.
 * \complexity O(formats).
 * \source docs/topology-format.md.
 */
gboolean ns_topo_format_from_name(const char *name, NsTopoFormat *format)
{
  if (name == NULL)
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS(formats); i++)
    if (g_ascii_strcasecmp(name, formats[i].name) == 0) {
      *format = formats[i].format;
      return TRUE;
    }
  return FALSE;
}

/**
 * \function ns_topo_format_name
 * \brief The name of a topology format.
 *
 * \param format The format.
 * \return A static string ("unknown" for a value out of range).
 * \errors none.
 * \complexity O(formats).
 * \source docs/topology-format.md.
 */
const char *ns_topo_format_name(NsTopoFormat format)
{
  for (gsize i = 0; i < G_N_ELEMENTS(formats); i++)
    if (formats[i].format == format)
      return formats[i].name;
  return "unknown";
}

/**
 * \function ns_read_options_init
 * \brief Zero read options: the format guessed, nothing assumed.
 *
 * \param o The options to fill.
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, the format options table.
 */
void ns_read_options_init(NsReadOptions *o)
{
  *o = (NsReadOptions){ .format = NS_TOPO_FORMAT_AUTO };
}

/* The options each format takes, for messages. */
static const char *options_of(NsTopoFormat f)
{
  switch (f) {
  case NS_TOPO_FORMAT_SLURM:
    return "slurm takes UNIT (the speed of LinkSpeed=1, e.g. 1Gbps) and core=SPEED";
  case NS_TOPO_FORMAT_GRAPHML:
    return "graphml takes machines-per-switch=K, largest-component and bandwidth=SPEED";
  default:
    return "only slurm and graphml take options";
  }
}

static gboolean bad(GError **error, const char *text, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean bad(GError **error, const char *text, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *why = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "format '%s': %s", text, why);
  return FALSE;
}

static gboolean speed(GError **error, const char *text, const char *item, const char *value,
                      double *out)
{
  const char *why = NULL;
  if (*out > 0)
    return bad(error, text, "'%s' given twice", item);
  if (!ns_parse_bandwidth(value, out, &why))
    return bad(error, text, "'%s': %s", item, why);
  return TRUE;
}

/* One OPTION of FORMAT:OPTION:... */
static gboolean parse_item(const char *text, const char *item, NsReadOptions *o, GError **error)
{
  const char *eq = strchr(item, '=');
  g_autofree char *key = eq != NULL ? g_strndup(item, (gsize)(eq - item)) : g_strdup(item);
  const char *value = eq != NULL ? eq + 1 : NULL;
  if (o->format == NS_TOPO_FORMAT_SLURM) {
    if (eq == NULL) {
      const char *why = NULL;
      if (o->link_unit > 0)
        return bad(error, text, "the unit of LinkSpeed given twice");
      if (!ns_parse_bandwidth(item, &o->link_unit, &why))
        return bad(error, text, "the unit of LinkSpeed must be a bandwidth such as 1Mbps or "
                   "1Gbps (%s)", why);
      return TRUE;
    }
    if (strcmp(key, "core") == 0)
      return speed(error, text, item, value, &o->core_bandwidth);
  } else if (o->format == NS_TOPO_FORMAT_GRAPHML) {
    if (strcmp(key, "largest-component") == 0 && eq == NULL) {
      if (o->largest_component)
        return bad(error, text, "'%s' given twice", item);
      o->largest_component = TRUE;
      return TRUE;
    }
    if (strcmp(key, "bandwidth") == 0 && eq != NULL)
      return speed(error, text, item, value, &o->bandwidth);
    if (strcmp(key, "machines-per-switch") == 0 && eq != NULL) {
      guint64 k = 0;
      if (o->machines_per_switch > 0)
        return bad(error, text, "'%s' given twice", item);
      if (!g_ascii_string_to_unsigned(value, 10, 1, 1024, &k, NULL))
        return bad(error, text, "'%s': expected a whole number of machines from 1 to 1024",
                   item);
      o->machines_per_switch = (int)k;
      return TRUE;
    }
  }
  return bad(error, text, "unknown option '%s' (%s)", item, options_of(o->format));
}

/**
 * \function ns_read_options_parse
 * \brief Reads a format specification FORMAT[:OPTION]...
 *
 * \param text "native", "slurm:1Gbps:core=10Gbps", "graphml:largest-component",
 *        "simgrid", ...; NULL or "auto" guesses the format from the file name.
 * \param o Filled (ns_read_options_init() first, here).
 * \param error Set on failure (see errors).
 * \return TRUE on success.
 * \errors NS_ERROR_INPUT "format 'TEXT': what is wrong" (an unknown format,
 *         an empty or unknown option, an option of another format).
 * \complexity O(length of text).
 * \source The format options table of docs/topology-format.md.
 */
gboolean ns_read_options_parse(const char *text, NsReadOptions *o, GError **error)
{
  ns_read_options_init(o);
  if (text == NULL)
    return TRUE;
  g_auto(GStrv) items = g_strsplit(text, ":", -1);
  if (items[0] == NULL || !ns_topo_format_from_name(items[0], &o->format) ||
      o->format == NS_TOPO_FORMAT_DOT) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "unknown topology format '%s' (native, slurm, slurm:UNIT, graphml, "
                    "simgrid)", text);
    return FALSE;
  }
  for (int i = 1; items[i] != NULL; i++) {
    if (items[i][0] == '\0')
      return bad(error, text, "empty option after ':'");
    if (!parse_item(text, items[i], o, error))
      return FALSE;
  }
  return TRUE;
}
