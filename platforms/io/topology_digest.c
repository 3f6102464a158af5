/* netsched — a digest of a topology's contents (see topology_io.h). */
#include "platforms/io/topology_digest.h"
#include "platforms/io/topology_io.h"
#include <stdio.h>
#include <stdlib.h>

char *ns_topology_digest(const NsTopology *topo)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (f == NULL)
    return NULL;
  gboolean ok = ns_topology_write_native(topo, f, NULL);
  ok = fclose(f) == 0 && ok;
  char *digest = ok ? g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, (gssize)len) : NULL;
  free(text);
  return digest;
}
