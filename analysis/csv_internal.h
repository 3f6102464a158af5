/* netsched — CSV fields and lines, RFC 4180.
 *
 * Every CSV netsched writes quotes a field that holds a comma, a double
 * quote, a carriage return or a line feed, doubling inner quotes, so a
 * machine or file name such as `a,"b"` never shifts the columns; and reads
 * back (resume) with the same rules. */
#ifndef NETSCHED_CSV_H
#define NETSCHED_CSV_H

#include <glib.h>

/* Appends `field` to `row`, quoted when it must be, preceded by a comma
 * unless `row` is empty. O(length). */
void ns_csv_append(GString *row, const char *field);
/* Appends a printf-formatted field (numbers, which never need quotes). */
void ns_csv_appendf(GString *row, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Appends `value` with `digits` decimals, or an empty field when it is not
 * positive: a bound a row does not have (its planner refused it) is no
 * number, never 0. */
void ns_csv_append_bound(GString *row, int digits, double value);

/* Splits one CSV line (without its line end) into fields, undoing the
 * quoting. NULL when the line is malformed (an unterminated or misplaced
 * quote). Newly allocated, g_strfreev. O(length). */
char **ns_csv_split(const char *line);

#endif
