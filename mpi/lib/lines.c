/* Bounded file reading and line splitting (lines.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* qsort_r, strdup, strtok_r when built by mpicc/smpicc alone */
#endif
#include "mpi/lib/lines.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The whole of a regular file of at most `limit` bytes, NUL-terminated,
 * or NULL with the reason in `why`. */
char *nsmpi_read_file(const char *path, size_t limit, size_t *len, char *why, size_t why_len)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, why_len, "%s", strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(why, why_len, "not a regular file");
    close(fd);
    return NULL;
  }
  if ((unsigned long long)st.st_size > limit) {
    snprintf(why, why_len, "larger than %zu bytes", limit);
    close(fd);
    return NULL;
  }
  char *buf = malloc(limit + 1);
  size_t got = 0;
  while (buf != NULL && got <= limit) {
    ssize_t r = read(fd, buf + got, limit + 1 - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      snprintf(why, why_len, "%s", strerror(errno));
      free(buf);
      buf = NULL;
      break;
    }
    if (r == 0)
      break;
    got += (size_t)r;
  }
  close(fd);
  if (buf == NULL) {
    if (why[0] == '\0')
      snprintf(why, why_len, "out of memory");
    return NULL;
  }
  if (got > limit) {
    snprintf(why, why_len, "larger than %zu bytes", limit);
    free(buf);
    return NULL;
  }
  buf[got] = '\0';
  *len = got;
  return buf;
}

/* Calls line(data, text, number) for each line of `text` (of `len`
 * bytes); lines longer than NSMPI_MAX_LINE or holding a NUL byte are
 * handed to bad(data, number, what) instead. Shared with the rank map. */
void nsmpi_each_line(char *text, size_t len, NsmpiLineFn line, NsmpiBadLineFn bad, void *data)
{
  int number = 0;
  size_t i = 0;
  while (i < len) {
    number++;
    size_t start = i;
    while (i < len && text[i] != '\n')
      i++;
    size_t n = i - start;
    if (i < len)
      i++; /* the newline */
    if (n > 0 && text[start + n - 1] == '\r')
      n--;
    if (n > NSMPI_MAX_LINE) {
      bad(data, number, "line longer than " NSMPI_MAX_LINE_TEXT " bytes");
      continue;
    }
    if (memchr(text + start, '\0', n) != NULL) {
      bad(data, number, "NUL byte in a line");
      continue;
    }
    text[start + n] = '\0';
    line(data, text + start, number);
  }
}

