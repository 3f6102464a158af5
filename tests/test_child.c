/* The children of the simulator stage (sim/child.h): a program that
 * cannot run is reported by the parent, in the parent's words ("cannot
 * run ARGV0: why", the step named when one before exec failed), through
 * the child's close-on-exec status pipe; the child itself formats nothing
 * between fork and exec (async-signal-safe calls only: that part is
 * checked on the source by scripts/check-child-safe.sh, not here). */
#include "platforms/model/error.h"
#include "sim/child.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv through ns_child_spawn with stdout and stderr collected;
 * returns what it returned, *end, *status, the error in *error. */
static gboolean spawn(const char *const *argv, const char *cwd, NsChildEnd *end, int *status,
                      GString *out, GError **error)
{
  g_autoptr(GString) err = g_string_new(NULL);
  NsChildOptions o = { .cwd = cwd, .out = out, .err = err };
  NsSignalGuard guard;
  ns_signals_catch(&guard);
  gboolean ok = ns_child_spawn(argv, &o, status, end, error);
  ns_signals_release(&guard);
  return ok;
}

/* Asserts that argv (in cwd) does not run, with exactly `message`. */
static void assert_not_run(const char *const *argv, const char *cwd, const char *message)
{
  g_autoptr(GString) out = g_string_new(NULL);
  GError *error = NULL;
  NsChildEnd end = NS_CHILD_ENDED;
  int status = -1;
  gboolean ok = spawn(argv, cwd, &end, &status, out, &error);
  g_assert_false(ok);
  g_assert_error(error, NS_ERROR, NS_ERROR_IO);
  g_assert_cmpstr(error->message, ==, message);
  g_assert_cmpint(end, ==, NS_CHILD_NOT_RUN);
  g_assert_cmpuint(out->len, ==, 0);
  g_clear_error(&error);
  /* ns_child_run says the same */
  g_autoptr(GString) err = g_string_new(NULL);
  NsSignalGuard guard;
  ns_signals_catch(&guard);
  ok = ns_child_run(argv, cwd, 0, out, err, &status, &error);
  ns_signals_release(&guard);
  g_assert_false(ok);
  g_assert_error(error, NS_ERROR, NS_ERROR_IO);
  g_assert_cmpstr(error->message, ==, message);
  g_assert_cmpuint(err->len, ==, 0); /* nothing from the child */
  g_error_free(error);
}

/* A program that runs: found in PATH, its output collected, its status. */
static void test_runs(void)
{
  const char *argv[] = { "sh", "-c", "echo ran; exit 3", NULL };
  g_autoptr(GString) out = g_string_new(NULL);
  GError *error = NULL;
  NsChildEnd end = NS_CHILD_NOT_RUN;
  int status = 0;
  g_assert_true(spawn(argv, NULL, &end, &status, out, &error));
  g_assert_no_error(error);
  g_assert_cmpint(end, ==, NS_CHILD_ENDED);
  g_assert_true(WIFEXITED(status));
  g_assert_cmpint(WEXITSTATUS(status), ==, 3);
  g_assert_cmpstr(out->str, ==, "ran\n");
}

/* A path that names nothing; a name PATH does not have. */
static void test_missing(void)
{
  const char *path[] = { "/nonexistent/netsched-no-such-program", NULL };
  assert_not_run(path, NULL,
                 "cannot run /nonexistent/netsched-no-such-program: No such file or directory");
  const char *name[] = { "netsched-no-such-program", "--help", NULL };
  assert_not_run(name, NULL, "cannot run netsched-no-such-program: No such file or directory");
}

/* A file without execute permission: exec's EACCES, in words. */
static void test_not_executable(void)
{
  g_autofree char *dir = g_dir_make_tmp("test-child-XXXXXX", NULL);
  g_assert_nonnull(dir);
  g_autofree char *file = g_build_filename(dir, "script", NULL);
  g_assert_true(g_file_set_contents(file, "#!/bin/sh\necho no\n", -1, NULL));
  g_assert_cmpint(g_chmod(file, 0644), ==, 0);
  const char *argv[] = { file, NULL };
  g_autofree char *message = g_strdup_printf("cannot run %s: Permission denied", file);
  assert_not_run(argv, NULL, message);
  g_unlink(file);
  g_rmdir(dir);
}

/* A directory that does not exist: the step before exec is named (was: a
 * bare exit status 127 and nothing said). */
static void test_missing_cwd(void)
{
  const char *argv[] = { "true", NULL };
  assert_not_run(argv, "/nonexistent/netsched-dir",
                 "cannot run true: cannot change to directory /nonexistent/netsched-dir: "
                 "No such file or directory");
}

/* For g_ptr_array_sort of strings. */
static gint compare_strings(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* `text`'s lines, sorted, empty ones dropped (newly allocated). */
static char *sorted_lines(const char *text)
{
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new();
  for (int i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add(kept, lines[i]);
  g_ptr_array_sort(kept, compare_strings);
  GString *all = g_string_new(NULL);
  for (guint i = 0; i < kept->len; i++)
    g_string_append_printf(all, "%s\n", (char *)kept->pdata[i]);
  return g_string_free(all, FALSE);
}

/* What this process's descriptors above 2 without FD_CLOEXEC name (the
 * ones a child inherits), sorted, one a line. */
static char *inherited_descriptors(void)
{
  GDir *d = g_dir_open("/proc/self/fd", 0, NULL);
  g_assert_nonnull(d);
  g_autoptr(GString) names = g_string_new(NULL);
  for (const char *name; (name = g_dir_read_name(d)) != NULL;) {
    int fd = atoi(name);
    int flags = fcntl(fd, F_GETFD);
    if (fd > 2 && flags >= 0 && !(flags & FD_CLOEXEC)) {
      g_autofree char *path = g_build_filename("/proc/self/fd", name, NULL);
      g_autofree char *target = g_file_read_link(path, NULL);
      if (target != NULL)
        g_string_append_printf(names, "%s\n", target);
    }
  }
  g_dir_close(d);
  return sorted_lines(names->str);
}

/* The child gets stdin, stdout and stderr and what this process leaves
 * open across exec, nothing else: the status pipe is closed at exec and
 * /dev/null is open once, on 0 (was: a second descriptor on /dev/null
 * leaked into the program). */
static void test_descriptors(void)
{
  const char *argv[] = { "sh", "-c", "cd /proc/self/fd && for f in *; do "
                         "[ \"$f\" -gt 2 ] && readlink \"$f\"; done; exit 0", NULL };
  g_autoptr(GString) out = g_string_new(NULL);
  GError *error = NULL;
  NsChildEnd end;
  int status = 0;
  g_assert_true(spawn(argv, NULL, &end, &status, out, &error));
  g_assert_no_error(error);
  g_assert_cmpint(end, ==, NS_CHILD_ENDED);
  g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  /* less the directory sh's glob opened, closed when readlink runs */
  g_autoptr(GString) kept = g_string_new(NULL);
  g_auto(GStrv) lines = g_strsplit(out->str, "\n", -1);
  for (int i = 0; lines[i] != NULL; i++)
    if (!g_str_has_prefix(lines[i], "/proc/"))
      g_string_append_printf(kept, "%s\n", lines[i]);
  g_autofree char *seen = sorted_lines(kept->str);
  g_autofree char *expected = inherited_descriptors();
  g_assert_cmpstr(seen, ==, expected);
}

/* This process's stdin, stdout and stderr closed: the pipes are made on
 * 0-2, and the child's /dev/null and dup2s must not overwrite them. */
static void test_closed_stdio(void)
{
  int saved[3];
  for (int fd = 0; fd < 3; fd++) {
    saved[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    g_assert_cmpint(saved[fd], >=, 10);
    close(fd);
  }
  const char *argv[] = { "sh", "-c", "echo out; echo err >&2", NULL };
  g_autoptr(GString) out = g_string_new(NULL), err = g_string_new(NULL);
  GError *error = NULL;
  int status = 0;
  NsSignalGuard guard;
  ns_signals_catch(&guard);
  gboolean ok = ns_child_run(argv, NULL, 0, out, err, &status, &error);
  ns_signals_release(&guard);
  for (int fd = 0; fd < 3; fd++) {
    dup2(saved[fd], fd);
    close(saved[fd]);
  }
  g_assert_no_error(error);
  g_assert_true(ok);
  g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  g_assert_cmpstr(out->str, ==, "out\n");
  g_assert_cmpstr(err->str, ==, "err\n");
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/child/runs", test_runs);
  g_test_add_func("/child/missing", test_missing);
  g_test_add_func("/child/not-executable", test_not_executable);
  g_test_add_func("/child/missing-cwd", test_missing_cwd);
  g_test_add_func("/child/descriptors", test_descriptors);
  g_test_add_func("/child/closed-stdio", test_closed_stdio);
  return g_test_run();
}
