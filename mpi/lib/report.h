/* What libnetsched-mpi says on stderr: every line starts "netsched-mpi: "
 * and goes out as one write(2), so lines of different ranks never mix. */
#ifndef NSMPI_REPORT_H
#define NSMPI_REPORT_H
#include <stddef.h>

void nsmpi_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* `in` made printable for a message: control characters, quotes and
 * backslashes as \xNN, cut at out_len - 1 bytes (a user's file name or a
 * table's machine name never reaches the terminal raw). Returns out. */
const char *nsmpi_escape(char *out, size_t out_len, const char *in);

/* The last path component of `path` (messages name a table by its file). */
const char *nsmpi_basename(const char *path);
#endif
