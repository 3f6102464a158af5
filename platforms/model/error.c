#include "platforms/model/error.h"

/**
 * \function ns_error_quark
 * \brief The GError domain of netsched's errors (NS_ERROR).
 *
 * \return The quark of "netsched-error-quark".
 * \errors none.
 * \complexity O(1).
 * \source GLib's error reporting (GError, G_DEFINE_QUARK).
 */
G_DEFINE_QUARK(netsched-error-quark, ns_error)

/**
 * \function ns_set_error_at
 * \brief Sets an NS_ERROR error located at a file and line.
 *
 * The message reads "SOURCE:LINE: message", "SOURCE: message" when line
 * <= 0, or "message" when source is NULL: what every reader reports.
 *
 * \param error Where to put the error (NULL: nothing is set).
 * \param code NS_ERROR_INPUT, NS_ERROR_UNSUPPORTED, NS_ERROR_CHECK or
 *        NS_ERROR_IO (the exit status follows from it).
 * \param source The file or generator the error is about, or NULL.
 * \param line Its 1-based line, or <= 0 for none.
 * \param fmt, ... A printf format and its arguments.
 * \errors none.
 * \complexity O(length of the message).
 * \source docs/architecture.md, "Errors".
 */
void ns_set_error_at(GError **error, NsErrorCode code, const char *source, int line,
                     const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ns_set_error_atv(error, code, source, line, fmt, ap);
  va_end(ap);
}

/**
 * \function ns_set_error_atv
 * \brief ns_set_error_at() with a va_list, for parsers' own fail() helpers.
 *
 * \param error Where to put the error (NULL: nothing is set).
 * \param code The error code.
 * \param source The file or generator, or NULL.
 * \param line The 1-based line, or <= 0 for none.
 * \param fmt, ap A printf format and its arguments.
 * \errors none.
 * \complexity O(length of the message).
 * \source docs/architecture.md, "Errors".
 */
void ns_set_error_atv(GError **error, NsErrorCode code, const char *source, int line,
                      const char *fmt, va_list ap)
{
  if (error == NULL)
    return;
  char *msg = g_strdup_vprintf(fmt, ap);
  if (source != NULL && line > 0)
    g_set_error(error, NS_ERROR, code, "%s:%d: %s", source, line, msg);
  else if (source != NULL)
    g_set_error(error, NS_ERROR, code, "%s: %s", source, msg);
  else
    g_set_error_literal(error, NS_ERROR, code, msg);
  g_free(msg);
}

/**
 * \function ns_error_exit_status
 * \brief The exit status an error calls for.
 *
 * \param error The error (NULL is taken as an error of input).
 * \return 1 for NS_ERROR_CHECK (a verification failed), 2 for everything
 *         else (bad input, unsupported, I/O, other domains).
 * \errors none.
 * \complexity O(1).
 * \source docs/architecture.md, "Errors".
 */
int ns_error_exit_status(const GError *error)
{
  if (error != NULL && error->domain == NS_ERROR && error->code == NS_ERROR_CHECK)
    return 1;
  return 2;
}
