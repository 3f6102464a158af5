/* netsched — the one error mechanism.
 *
 * Every fallible function returns a gboolean (or a pointer, NULL on error)
 * and fills a GError in the NS_ERROR domain. The message of an input error
 * already carries its location ("file:line: what is wrong"), so the CLI
 * prints it verbatim. The error code decides the exit status:
 *   NS_ERROR_INPUT       bad input (file, option, topology)  -> exit 2
 *   NS_ERROR_UNSUPPORTED valid input an algorithm cannot take -> exit 2
 *   NS_ERROR_CHECK       a verification failed                -> exit 1
 *   NS_ERROR_IO          cannot read or write a file          -> exit 2
 */
#ifndef NETSCHED_ERROR_H
#define NETSCHED_ERROR_H

#include <glib.h>
#include <stdarg.h>

#define NS_ERROR (ns_error_quark())
GQuark ns_error_quark(void);

typedef enum {
  NS_ERROR_INPUT,
  NS_ERROR_UNSUPPORTED,
  NS_ERROR_CHECK,
  NS_ERROR_IO,
} NsErrorCode;

/* Sets *error to "SOURCE:LINE: message" (or "SOURCE: message" when line <= 0,
 * or just "message" when source is NULL). */
void ns_set_error_at(GError **error, NsErrorCode code, const char *source, int line,
                     const char *fmt, ...) G_GNUC_PRINTF(5, 6);

/* The same with a va_list, for parsers' own fail() helpers. */
void ns_set_error_atv(GError **error, NsErrorCode code, const char *source, int line,
                      const char *fmt, va_list ap) G_GNUC_PRINTF(5, 0);

/* Exit status for an error according to the table above. */
int ns_error_exit_status(const GError *error);

#endif
