/* libnetsched-mpi's messages (report.h). Plain libc: the library is
 * preloaded into programs that know nothing of GLib. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* qsort_r, strdup, strtok_r when built by mpicc/smpicc alone */
#endif
#include "mpi/lib/report.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void nsmpi_say(const char *fmt, ...)
{
  char line[1024];
  int n = snprintf(line, sizeof line, "netsched-mpi: ");
  va_list ap;
  va_start(ap, fmt);
  int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
  va_end(ap);
  size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
  if (len > sizeof line - 2)
    len = sizeof line - 2;
  line[len++] = '\n';
  const char *p = line;
  while (len > 0) {
    ssize_t w = write(STDERR_FILENO, p, len);
    if (w <= 0)
      return;
    p += w;
    len -= (size_t)w;
  }
}

const char *nsmpi_escape(char *out, size_t out_len, const char *in)
{
  static const char hex[] = "0123456789abcdef";
  size_t o = 0;
  for (const unsigned char *c = (const unsigned char *)in; *c != '\0'; c++) {
    int plain = *c >= 0x20 && *c < 0x7f && *c != '\'' && *c != '"' && *c != '\\';
    size_t need = plain ? 1 : 4;
    if (o + need >= out_len)
      break;
    if (plain) {
      out[o++] = (char)*c;
    } else {
      out[o++] = '\\';
      out[o++] = 'x';
      out[o++] = hex[*c >> 4];
      out[o++] = hex[*c & 15];
    }
  }
  if (out_len > 0)
    out[o] = '\0';
  return out;
}

const char *nsmpi_basename(const char *path)
{
  const char *slash = strrchr(path, '/');
  return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}
