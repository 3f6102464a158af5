/* netsched — SimGrid platform reader (in progress). */
#include "platforms/error.h"
#include "platforms/read_options.h"

NsTopology *ns_topology_parse_simgrid(const char *source, const char *text, gsize len,
                                      NsWarnFunc warn, void *warn_data, GError **error)
{
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, source, 0, "cannot read the simgrid format");
  return NULL;
}
