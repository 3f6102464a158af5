/* netsched — topology formats: names, guessing, loading and saving. */
#include "platforms/error.h"
#include "platforms/topology_io.h"
#include "platforms/topology_simgrid.h"

#include <string.h>

static const struct {
  NsTopoFormat format;
  const char *name;
} formats[] = {
  {NS_TOPO_FORMAT_AUTO, "auto"},       {NS_TOPO_FORMAT_NATIVE, "native"},
  {NS_TOPO_FORMAT_SLURM, "slurm"},     {NS_TOPO_FORMAT_GRAPHML, "graphml"},
  {NS_TOPO_FORMAT_DOT, "dot"},         {NS_TOPO_FORMAT_SIMGRID, "simgrid"},
};

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

const char *ns_topo_format_name(NsTopoFormat format)
{
  for (gsize i = 0; i < G_N_ELEMENTS(formats); i++)
    if (formats[i].format == format)
      return formats[i].name;
  return "unknown";
}

static gboolean has_suffix(const char *s, const char *suffix)
{
  gsize n = strlen(s), k = strlen(suffix);
  return n >= k && g_ascii_strcasecmp(s + n - k, suffix) == 0;
}

NsTopoFormat ns_topo_format_guess(const char *path)
{
  if (path == NULL)
    return NS_TOPO_FORMAT_NATIVE;
  char *base = g_path_get_basename(path);
  NsTopoFormat f = NS_TOPO_FORMAT_NATIVE;
  if (has_suffix(base, ".graphml") || has_suffix(base, ".xml"))
    f = NS_TOPO_FORMAT_GRAPHML;
  else if (strcmp(base, "topology.conf") == 0 || has_suffix(base, ".conf"))
    f = NS_TOPO_FORMAT_SLURM;
  g_free(base);
  return f;
}

NsTopology *ns_topology_load(const char *path, NsTopoFormat format, NsWarnFunc warn,
                             void *warn_data, GError **error)
{
  g_return_val_if_fail(path != NULL, NULL);
  if (format == NS_TOPO_FORMAT_AUTO)
    format = ns_topo_format_guess(path);
  switch (format) {
  case NS_TOPO_FORMAT_GRAPHML:
    return ns_topology_read_graphml(path, warn, warn_data, error);
  case NS_TOPO_FORMAT_NATIVE:
  case NS_TOPO_FORMAT_SLURM: {
    char *text = NULL;
    gsize len = 0;
    GError *io = NULL;
    if (!g_file_get_contents(path, &text, &len, &io)) {
      /* GLib's message already names the file; keep only the reason. */
      const char *reason = io->message;
      const char *colon = strstr(reason, ": ");
      if (colon != NULL && strstr(reason, path) != NULL)
        reason = colon + 2;
      ns_set_error_at(error, NS_ERROR_IO, path, 0, "cannot read: %s", reason);
      g_error_free(io);
      return NULL;
    }
    NsTopology *t = format == NS_TOPO_FORMAT_NATIVE
                        ? ns_topology_parse_native(path, text, len, warn, warn_data, error)
                        : ns_topology_parse_slurm(path, text, len, warn, warn_data, error);
    g_free(text);
    return t;
  }
  default:
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, path, 0,
                    "cannot read the %s format (readers: native, slurm, graphml)",
                    ns_topo_format_name(format));
    return NULL;
  }
}

gboolean ns_topology_save(const NsTopology *topo, NsTopoFormat format, FILE *out,
                          GError **error)
{
  switch (format) {
  case NS_TOPO_FORMAT_AUTO:
  case NS_TOPO_FORMAT_NATIVE:
    return ns_topology_write_native(topo, out, error);
  case NS_TOPO_FORMAT_DOT:
    return ns_topology_write_dot(topo, out, error);
  case NS_TOPO_FORMAT_GRAPHML:
    return ns_topology_write_graphml(topo, out, error);
  case NS_TOPO_FORMAT_SIMGRID:
    return ns_topology_write_simgrid(topo, out, error);
  default:
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "cannot write the %s format (writers: native, dot, graphml, simgrid)",
                    ns_topo_format_name(format));
    return FALSE;
  }
}
