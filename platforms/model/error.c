#include "platforms/model/error.h"

G_DEFINE_QUARK(netsched-error-quark, ns_error)

void ns_set_error_at(GError **error, NsErrorCode code, const char *source, int line,
                     const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ns_set_error_atv(error, code, source, line, fmt, ap);
  va_end(ap);
}

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

int ns_error_exit_status(const GError *error)
{
  if (error != NULL && error->domain == NS_ERROR && error->code == NS_ERROR_CHECK)
    return 1;
  return 2;
}
