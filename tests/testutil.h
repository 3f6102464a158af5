/* netsched — helpers shared by the tests. */
#ifndef NETSCHED_TESTUTIL_H
#define NETSCHED_TESTUTIL_H

#include <glib.h>

/* Absolute path of a file under tests/data (newly allocated). */
char *ns_test_data(const char *relative);
/* Absolute path of a file under the source tree (newly allocated). */
char *ns_test_source(const char *relative);

#endif
