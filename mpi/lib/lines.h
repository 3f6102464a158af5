/* The library's two readers' shared parts: a bounded whole-file read and
 * a line splitter that refuses overlong lines (config.c, rankmap.c). */
#ifndef NSMPI_LINES_H
#define NSMPI_LINES_H
#include <stddef.h>

enum { NSMPI_MAX_LINE = 4096 }; /* bytes in a line of a configuration or rank-map file */
#define NSMPI_MAX_LINE_TEXT "4096"

/* The whole of a regular file of at most `limit` bytes, NUL-terminated
 * (free() it), its length in *len; NULL with the reason in `why`. */
char *nsmpi_read_file(const char *path, size_t limit, size_t *len, char *why, size_t why_len);

typedef void (*NsmpiLineFn)(void *data, char *line, int number);
typedef void (*NsmpiBadLineFn)(void *data, int number, const char *what);
/* Calls line(data, LINE, NUMBER) for each line of text (modified: each
 * line NUL-terminated in place, a trailing CR removed); a line longer
 * than NSMPI_MAX_LINE or holding a NUL byte goes to bad() instead. */
void nsmpi_each_line(char *text, size_t len, NsmpiLineFn line, NsmpiBadLineFn bad, void *data);
#endif
