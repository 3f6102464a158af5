/* netsched — resumable result files, shared by the experiment engine
 * (compare, scenario) and the sweep engine.
 *
 * A result file is a header line followed by one row per line:
 *   - atomic rows: the file is opened O_APPEND and every row goes out in
 *     one write(2), so a killed run leaves whole rows and at most one last
 *     line cut short, which a resume drops (truncating the file before
 *     it) with a warning through the spec's `warn`;
 *   - the header identifies the file's columns (compare.csv) or its whole
 *     configuration (a sweep's grid digest): a file that does not start
 *     with it is refused at line 1, never appended to;
 *   - keys: every row carries a key of everything that determines it; on
 *     resume each row is handed to the caller's NsRowFunc, which returns
 *     its key or refuses the row ("row of another configuration" is an
 *     error, never a row kept), and the keys are remembered so the caller
 *     runs only what is missing; optionally a key seen twice is an error;
 *   - optionally the file's lock (analysis/output_dir_internal.h), so two runs never
 *     append to one file; the kernel drops it when the process dies, even
 *     by SIGKILL (a caller that locks the whole directory needs none);
 *   - never written through a link: a resumed file is opened O_NOFOLLOW
 *     (a link is refused), a file started over is a new file renamed over
 *     the old one (platforms/io/output_file_internal.h).
 * Digests of configurations are ns_row_digest(): 64 bits of SHA-256.
 */
#ifndef NETSCHED_ROWFILE_H
#define NETSCHED_ROWFILE_H

#include "platforms/io/output_file_internal.h" /* ns_write_all */
#include "platforms/model/topology.h" /* NsWarnFunc */
#include <glib.h>

typedef struct NsRowFile NsRowFile;

/* Reads one row on resume: `line` without its line end, `lineno` its
 * 1-based line in the file. Sets *key (newly allocated), or returns FALSE
 * with an NS_ERROR_INPUT "path:line: ..." error that aborts the resume.
 * May record what it needs of the row in `user`. */
typedef gboolean (*NsRowFunc)(const char *line, int lineno, char **key, void *user,
                              GError **error);

/* Checks the first line of a resumed file (without its line end):
 * FALSE with an NS_ERROR_INPUT "path:1: ..." error refuses the file. */
typedef gboolean (*NsHeaderFunc)(const char *line, void *user, GError **error);

typedef struct {
  const char *path;
  const char *header;       /* the first line, with its '\n' */
  const char *header_hint;  /* why a file with another header is refused, and what to do */
  NsHeaderFunc header_check; /* instead of requiring `header` exactly (may be NULL) */
  gboolean resume;          /* keep the rows already there; FALSE: start the file over */
  gboolean unique_keys;     /* a key twice in the file is an error */
  gboolean lock;            /* take the file's lock; another holder is an error */
  NsRowFunc row;            /* resume: called for every row (may be NULL: no keys) */
  void *user;
  NsWarnFunc warn;          /* told of a last row cut short and dropped (NULL: nobody) */
  void *warn_data;
} NsRowFileSpec;

/*
 * ns_row_file_open — takes the lock, then opens the result file (creating
 * it) and reads the rows of a resumed file through spec->row, or, when not
 * resuming, replaces it by a new file; writes the header into an empty file.
 * Errors: NS_ERROR_IO when the file cannot be opened, read, truncated or
 * written or is locked by another run; NS_ERROR_INPUT for a resumed file
 * that is a symbolic link or not a regular file, a header that differs
 * ("path:1: <header_hint>"), a duplicate key ("path:N: ...") or what
 * spec->row refuses. Time O(file size) plus the callbacks.
 */
NsRowFile *ns_row_file_open(const NsRowFileSpec *spec, GError **error);

/* TRUE when a row with this key was in the file when it was opened, or
 * has been appended since. O(1). */
gboolean ns_row_file_has(const NsRowFile *f, const char *key);
/* Number of distinct keys seen (resumed and appended). */
guint ns_row_file_n_keys(const NsRowFile *f);

/*
 * ns_row_file_append — writes `row` (one line, with its '\n') in one
 * write(2) (looping only if the kernel writes part of it, or on EINTR)
 * and records `key` (may be NULL). NS_ERROR_IO "path: cannot write: ...".
 * O(length).
 */
gboolean ns_row_file_append(NsRowFile *f, const char *key, const char *row, gsize len,
                            GError **error);

/* Closes the file (and drops the lock). NULL is accepted. */
void ns_row_file_close(NsRowFile *f);

/* The first 16 hex digits of SHA-256(text): 64 bits tell configurations
 * apart. Newly allocated. O(length). */
char *ns_row_digest(const char *text);


#endif
