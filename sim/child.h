/* netsched — the child processes of the simulator stage: the replay
 * (sim/sim.c) and SMPI's tools (sim/smpi_baseline.c).
 *
 * While a child runs, SIGINT, SIGTERM and SIGHUP only set a flag: the
 * waiting loop stops the child's process group (SIGTERM, then SIGKILL
 * after NS_CHILD_GRACE_S seconds), reaps it, removes the child's private
 * TMPDIR, the caller removes what it made,
 * and ns_signals_release() restores the caller's handlers and raises the
 * signal again, so an interrupted run leaves no process and no file
 * behind. Children die with their parent (PR_SET_PDEATHSIG).
 */
#ifndef NETSCHED_SIM_CHILD_H
#define NETSCHED_SIM_CHILD_H

#include "analysis/stop_signal_internal.h" /* NsSignalGuard, ns_signals_catch */
#include <glib.h>

/* The most output ns_child_run keeps of a child's stdout (and, for
 * messages, of its stderr: the last 4 KiB): more is an error. */
#define NS_CHILD_MAX_OUTPUT ((gsize)64 << 20)

/* How long a stopped child's process group has between SIGTERM (time for
 * compilers and smpirun to remove their files) and SIGKILL. */
#define NS_CHILD_GRACE_S 2.0

/* Runs argv[0] (looked up in PATH; no shell) in directory `cwd` in a
 * process group of its own, its stdout collected in `out` (up to
 * NS_CHILD_MAX_OUTPUT), the tail of its stderr in `err`, stdin from
 * /dev/null, TMPDIR a private directory (0700, in this process's TMPDIR)
 * removed with all it holds when the child ends, however it ends. Call
 * between ns_signals_catch() and ns_signals_release(): a stop signal, or
 * `wall_limit` seconds (0: none), stops the whole group (SIGTERM, SIGKILL
 * after NS_CHILD_GRACE_S) and reaps it; processes the child leaves
 * running in its group when it ends are stopped the same way. *status is waitpid's status. FALSE with NS_ERROR_IO when
 * it cannot start, was stopped (naming the signal or the limit) or wrote
 * too much. */
gboolean ns_child_run(const char *const *argv, const char *cwd, double wall_limit, GString *out,
                      GString *err, int *status, GError **error);

/* Removes `dir` and everything in it, never following a link. */
void ns_child_remove_tree(const char *dir);

/* Where one of netsched's child programs is: the environment variable
 * `env_var` when set, else `name` or `relative` (may be NULL) in this
 * program's directory (where `cmake --install` puts it: LIBEXECDIR/
 * netsched relative to the binary), else `installed` (the configured
 * prefix; may be NULL) when it is there, else `built` (where the build put
 * it). Newly allocated. */
char *ns_child_program_path(const char *env_var, const char *name, const char *relative,
                            const char *installed, const char *built);

#endif
