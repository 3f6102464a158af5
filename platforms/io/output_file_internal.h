/* netsched — output files created without following links.
 *
 * A symbolic link planted where netsched writes (a shared output
 * directory, an unpacked archive) must never redirect a write to another
 * file. Every output is therefore either
 *   - a new temporary file "PATH.XXXXXX" created (O_EXCL) in PATH's own
 *     directory and renamed over PATH when it is complete: rename(2)
 *     replaces a link at PATH, it never writes through it, and readers see
 *     the old file or the new one, never a partial one; or
 *   - an existing file opened with O_NOFOLLOW (files appended to, such as
 *     the resumable row files of analysis/rowfile_internal.h).
 * A device or pipe that a user names as an output (/dev/null, a FIFO,
 * /dev/stdout, which is itself a link) is written directly: there is
 * nothing to replace, and a rename would replace the device.
 */
#ifndef NETSCHED_OUTPUT_FILE_H
#define NETSCHED_OUTPUT_FILE_H

#include <glib.h>

/*
 * ns_output_temp — creates "PATH.XXXXXX" (mode 0644, O_EXCL, close-on-exec)
 * open for writing with the extra open(2) `flags` (e.g. O_APPEND); sets
 * *temp to its name (newly allocated). Returns the descriptor, or -1 with
 * NS_ERROR_IO "PATH: cannot write: ...". O(1).
 */
int ns_output_temp(const char *path, int flags, char **temp, GError **error);

/*
 * ns_output_open — opens a whole output named by the user: an existing
 * device or pipe (also through a link) is opened for writing as it is
 * (*temp = NULL, never created or truncated); anything else is
 * ns_output_temp(path) (*temp set). A directory is NS_ERROR_IO
 * "PATH: cannot write: is a directory". Returns the descriptor or -1.
 */
int ns_output_open(const char *path, char **temp, GError **error);

/*
 * ns_output_commit — renames the complete temporary file `temp` over
 * `path` (replacing a link there, never following it). On failure the
 * temporary file is removed: NS_ERROR_IO "PATH: cannot write: ...".
 */
gboolean ns_output_commit(const char *temp, const char *path, GError **error);

/*
 * ns_output_write_in — writes `text` (`len` bytes, -1: up to its NUL) as the
 * whole file DIR/NAME, through a temporary file renamed into place
 * (g_file_set_contents: a link there is replaced, never followed). FALSE
 * with NS_ERROR_IO "DIR/NAME: cannot write: ..." on failure. O(len).
 */
gboolean ns_output_write_in(const char *dir, const char *name, const char *text, gssize len,
                            GError **error);

/* ns_write_all — writes `len` bytes to `fd`, retrying on EINTR and short writes. FALSE
 * with errno set on failure. */
gboolean ns_write_all(int fd, const char *buf, gsize len);

#endif
