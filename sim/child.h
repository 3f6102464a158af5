/* netsched — the child processes of the simulator stage: the replay and
 * netsched-ns3 (sim/sim.c), SMPI's tools (sim/smpi_tool.c), netsched-ns3's
 * route dump (sim/ns3_net.c). All start, wait and stop through
 * ns_child_spawn.
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

/* How a child of ns_child_spawn ended. */
typedef enum {
  NS_CHILD_ENDED,    /* by itself: *status says how */
  NS_CHILD_SIGNALED, /* stopped: a stop signal arrived (ns_stop_signal()) */
  NS_CHILD_LATE,     /* stopped: the wall-time limit passed */
  NS_CHILD_TOO_MUCH, /* stopped: more than NS_CHILD_MAX_OUTPUT on stdout */
  NS_CHILD_NOT_RUN,  /* with FALSE: its program did not run (not found, exec or a
                        step before it failed in the child); the error says which */
} NsChildEnd;

/* What a child needs beyond its argv; zero is the default of each field. */
typedef struct {
  const char *name;      /* in messages ("cannot run NAME: ..."); NULL: argv[0] */
  const char *cwd;       /* its directory; NULL: this process's */
  char *const *env;      /* its environment (TMPDIR replaced); NULL: this process's */
  double wall_limit;     /* seconds; 0: none */
  guint64 stack_bytes;   /* its soft RLIMIT_STACK raised to this (up to the hard
                            limit) when lower; 0: inherited */
  GString *out;          /* its stdout, up to NS_CHILD_MAX_OUTPUT; NULL: inherited */
  GString *err;          /* the last 4 KiB of its stderr; NULL: inherited */
  /* Called every 200 ms while it runs (the progress reporter). */
  void (*tick)(void *data);
  void *data;            /* for tick */
} NsChildOptions;

/* Starts argv[0] (looked up in this process's PATH when it has no slash;
 * no shell, not even for a script without "#!") as `o` says, with stdin
 * from /dev/null, in a process group of its own, dying with this process
 * (PR_SET_PDEATHSIG), TMPDIR a private directory (0700, in this process's
 * TMPDIR); descriptors without FD_CLOEXEC are inherited. Waits until it
 * ends (and its stdout and stderr, when collected, are closed), or stops
 * the whole group (SIGTERM, SIGKILL after NS_CHILD_GRACE_S) on a stop
 * signal, at the wall-time limit or when it writes too much; processes it
 * leaves running in its group are stopped the same way. Then reaps it and
 * removes the private TMPDIR with all it holds. Call between
 * ns_signals_catch() and ns_signals_release(). *status is waitpid's
 * status, *end how it ended. FALSE with NS_ERROR_IO only when it cannot
 * start; when its program did not run, *end is NS_CHILD_NOT_RUN and the
 * message "cannot run ARGV0: why" (exec's errno) or "cannot run ARGV0:
 * STEP: why" (a step before exec: its process group, its death with this
 * process, /dev/null, its streams, "cannot change to directory CWD").
 * Between fork and exec the child makes only async-signal-safe system
 * calls: it reports a failure through a close-on-exec pipe and exits with
 * 127; this process words it. */
gboolean ns_child_spawn(const char *const *argv, const NsChildOptions *o, int *status,
                        NsChildEnd *end, GError **error);

/* Runs argv[0] (looked up in PATH as ns_child_spawn does) in directory `cwd` in a
 * process group of its own, its stdout collected in `out` (up to
 * NS_CHILD_MAX_OUTPUT), the tail of its stderr in `err`, stdin from
 * /dev/null, TMPDIR a private directory (0700, in this process's TMPDIR)
 * removed with all it holds when the child ends, however it ends. Call
 * between ns_signals_catch() and ns_signals_release(): a stop signal, or
 * `wall_limit` seconds (0: none), stops the whole group (SIGTERM, SIGKILL
 * after NS_CHILD_GRACE_S) and reaps it; processes the child leaves
 * running in its group when it ends are stopped the same way. *status is waitpid's status. FALSE with NS_ERROR_IO when
 * it cannot start ("cannot run ARGV0: ...", as ns_child_spawn says), was
 * stopped (naming the signal or the limit) or wrote too much. ns_child_spawn with `out` and `err` collected. */
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
