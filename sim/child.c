/* netsched — child processes of the simulator stage (see child.h). */
#include "sim/child.h"
#include "platforms/model/error.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The stop signals: analysis/stop_signal.c. */

/* Reads what is there from `fd` into `into` (the whole of it when `keep`
 * is 0, else only its last `keep` bytes). FALSE at end of file. */
static gboolean drain(int fd, GString *into, gsize keep)
{
  char buf[16384];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0)
    return errno == EINTR || errno == EAGAIN;
  if (n == 0)
    return FALSE;
  g_string_append_len(into, buf, n);
  if (keep > 0 && into->len > keep)
    g_string_erase(into, 0, (gssize)(into->len - keep));
  return TRUE;
}

void ns_child_remove_tree(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  if (d != NULL) {
    for (const char *name; (name = g_dir_read_name(d)) != NULL;) {
      g_autofree char *path = g_build_filename(dir, name, NULL);
      struct stat st;
      if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
        ns_child_remove_tree(path);
      else
        g_unlink(path);
    }
    g_dir_close(d);
  }
  g_rmdir(dir);
}

/* Whether a process other than a zombie is in process group `pgid`
 * (Linux: field 5 of /proc/PID/stat, after the parenthesised name). */
static gboolean group_alive(pid_t pgid)
{
  GDir *proc = g_dir_open("/proc", 0, NULL);
  if (proc == NULL)
    return FALSE;
  gboolean alive = FALSE;
  for (const char *name; !alive && (name = g_dir_read_name(proc)) != NULL;) {
    if (!g_ascii_isdigit(name[0]))
      continue;
    g_autofree char *path = g_build_filename("/proc", name, "stat", NULL);
    g_autofree char *stat = NULL;
    if (!g_file_get_contents(path, &stat, NULL, NULL))
      continue; /* gone meanwhile */
    const char *after = strrchr(stat, ')');
    char state = 0;
    long group = 0;
    if (after != NULL && sscanf(after + 1, " %c %*d %ld", &state, &group) == 2)
      alive = group == (long)pgid && state != 'Z';
  }
  g_dir_close(proc);
  return alive;
}

/* Stops process group `pid`, whose leader has not been reaped (so the
 * group's id cannot be another's): SIGTERM first, so that compilers and
 * smpirun remove their temporary files, SIGKILL to what is left after
 * NS_CHILD_GRACE_S seconds; then up to a second more for the kernel to end
 * what SIGKILL hit (it is delivered, not done, when kill returns), so that
 * nothing of the group runs once this returns. */
static void stop_group(pid_t pid)
{
  kill(-pid, SIGTERM);
  gint64 until = g_get_monotonic_time() + (gint64)(NS_CHILD_GRACE_S * G_USEC_PER_SEC);
  while (group_alive(pid) && g_get_monotonic_time() < until)
    g_usleep(20000);
  if (kill(-pid, SIGKILL) != 0)
    return; /* nobody left */
  until = g_get_monotonic_time() + G_USEC_PER_SEC;
  while (group_alive(pid) && g_get_monotonic_time() < until)
    g_usleep(5000);
}

/* Whether the child `pid` has ended, without reaping it (its group's id
 * stays ours until waitpid). An error (it cannot be waited for) counts as
 * ended, so that no loop waits for it forever. */
static gboolean leader_ended(pid_t pid)
{
  siginfo_t info;
  info.si_pid = 0;
  int r;
  while ((r = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT)) < 0 && errno == EINTR)
    ;
  return r < 0 || info.si_pid == pid;
}

/* ---- between fork and exec ----------------------------------------------
 * The child of a process that may have threads (GLib's, SimGrid's) may call
 * only async-signal-safe functions until it execs (POSIX, System
 * Interfaces 2.4.3): a lock another thread held at fork (malloc's,
 * g_strerror's, stdio's) stays held forever in the child. So the child
 * formats nothing: it writes which step failed and errno, two ints, to a
 * close-on-exec pipe and _exits with 127; the parent reads end of file
 * when exec succeeded, else the report, and words it. Everything the
 * child needs (the program's absolute path, its argument vector and
 * environment, the stack limit) is made in the parent. From here to the
 * end marker: system calls only (scripts/check-child-safe.sh checks the
 * calls). setrlimit and prctl are not in POSIX's list but are system
 * calls without locks in glibc. */

/* What the child was doing when it failed. */
typedef enum {
  STEP_EXEC,   /* execve */
  STEP_GROUP,  /* setpgid */
  STEP_PARENT, /* prctl(PR_SET_PDEATHSIG) */
  STEP_STDIN,  /* open("/dev/null") or dup2 onto 0 */
  STEP_STDOUT, /* dup2 onto 1 */
  STEP_STDERR, /* dup2 onto 2 */
  STEP_CWD,    /* chdir */
} ChildStep;

/* What the child writes to the status pipe when a step fails. */
typedef struct {
  int step; /* ChildStep */
  int err;  /* errno */
} ChildReport;

/* Everything exec_child needs, made before fork. */
typedef struct {
  const char *exe;           /* absolute (or relative with a slash) path */
  char *const *argv;
  char *const *env;
  const char *cwd;           /* NULL: this process's */
  const struct rlimit *stack; /* NULL: inherited */
  pid_t parent;
  int status_fd;             /* write end, FD_CLOEXEC, above 2 */
  int out_fd, err_fd;        /* -1: inherited; above 2 */
} ChildPlan;

/* Tells the parent that `step` failed with `err` and ends the child. */
static void G_GNUC_NORETURN child_fail(const ChildPlan *c, ChildStep step, int err)
{
  ChildReport r = { (int)step, err };
  ssize_t n;
  do
    n = write(c->status_fd, &r, sizeof r); /* at most PIPE_BUF: written whole */
  while (n < 0 && errno == EINTR);
  _exit(127);
}

/* In the child, between fork and exec: its group, its death with the
 * parent, its stack, its standard streams, its directory; then exec.
 * Never returns. */
static void G_GNUC_NORETURN exec_child(const ChildPlan *c)
{
  if (setpgid(0, 0) != 0) /* the group is stopped as one: smpirun starts smpimain */
    child_fail(c, STEP_GROUP, errno);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
    child_fail(c, STEP_PARENT, errno);
  if (getppid() != c->parent)
    _exit(127); /* the parent is gone: nobody to tell */
  if (c->stack != NULL)
    (void)setrlimit(RLIMIT_STACK, c->stack); /* best effort, as the limit says */
  int in = open("/dev/null", O_RDONLY);
  if (in < 0 || dup2(in, 0) < 0)
    child_fail(c, STEP_STDIN, errno);
  if (in != 0)
    close(in);
  if (c->out_fd >= 0 && dup2(c->out_fd, 1) < 0)
    child_fail(c, STEP_STDOUT, errno);
  if (c->err_fd >= 0 && dup2(c->err_fd, 2) < 0)
    child_fail(c, STEP_STDERR, errno);
  if (c->cwd != NULL && chdir(c->cwd) != 0)
    child_fail(c, STEP_CWD, errno);
  execve(c->exe, c->argv, c->env);
  child_fail(c, STEP_EXEC, errno);
}
/* ---- end of the code between fork and exec ---- */

/* "cannot run ARGV0: ..." for what the child reported. */
static void set_child_error(GError **error, const char *exe, const char *cwd,
                            const ChildReport *r)
{
  const char *why = g_strerror(r->err);
  switch ((ChildStep)r->step) {
  case STEP_GROUP:
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "cannot run %s: cannot give it a process group of its own: %s", exe, why);
    break;
  case STEP_PARENT:
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "cannot run %s: cannot make it die with netsched (PR_SET_PDEATHSIG): %s",
                    exe, why);
    break;
  case STEP_STDIN:
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "cannot run %s: cannot open /dev/null as its standard input: %s", exe, why);
    break;
  case STEP_STDOUT:
  case STEP_STDERR:
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot run %s: cannot redirect its %s: %s",
                    exe, r->step == STEP_STDOUT ? "standard output" : "standard error", why);
    break;
  case STEP_CWD:
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "cannot run %s: cannot change to directory %s: %s", exe, cwd, why);
    break;
  case STEP_EXEC:
  default:
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot run %s: %s", exe, why);
    break;
  }
}

/* `fd` moved above the standard streams (2), keeping FD_CLOEXEC: the child
 * puts /dev/null and its pipes on 0, 1 and 2, which must not overwrite
 * another of its descriptors (they are 0-2 when this process has closed
 * its own). -1 when it cannot be moved (errno set); -1 stays -1. */
static int above_stdio(int fd)
{
  if (fd < 0 || fd > 2)
    return fd;
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  int e = errno;
  close(fd);
  errno = e;
  return moved;
}

/* Closes each of the `n` descriptors of `fds` that is open. */
static void close_all(int *fds, int n)
{
  for (int i = 0; i < n; i++)
    if (fds[i] >= 0) {
      close(fds[i]);
      fds[i] = -1;
    }
}

/* Reads the child's report from `fd` (the status pipe's read end): TRUE
 * and *r filled when a step failed, FALSE at end of file (exec succeeded)
 * or when a stop signal interrupts the wait (the waiting loop then stops
 * the child). */
static gboolean read_report(int fd, ChildReport *r)
{
  for (;;) {
    ssize_t n = read(fd, r, sizeof *r);
    if (n == (ssize_t)sizeof *r)
      return TRUE;
    if (n >= 0 || errno != EINTR || ns_stop_signal() != 0)
      return FALSE;
  }
}

gboolean ns_child_spawn(const char *const *argv, const NsChildOptions *o, int *status,
                        NsChildEnd *end, GError **error)
{
  const char *name = o->name != NULL ? o->name : argv[0];
  *status = 0;
  *end = NS_CHILD_ENDED;
  /* The program's path, found here: the child cannot search PATH safely
   * (execvpe allocates when the path is long). No shell fallback. */
  g_autofree char *exe = strchr(argv[0], '/') != NULL ? g_strdup(argv[0])
                                                      : g_find_program_in_path(argv[0]);
  if (exe == NULL) {
    ChildReport missing = { STEP_EXEC, ENOENT };
    set_child_error(error, argv[0], o->cwd, &missing);
    *end = NS_CHILD_NOT_RUN;
    return FALSE;
  }
  /* The child's own TMPDIR, removed whatever way it ends: what a compiler,
   * smpirun or a simulator leaves there (stopped before its clean-up) goes
   * with it. */
  GError *local = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp("netsched-child-XXXXXX", &local);
  if (tmpdir == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot run %s: %s", name, local->message);
    g_error_free(local);
    return FALSE;
  }
  /* Pipes: its stdout, its stderr, its exec status; read end, write end. */
  int pipes[6] = { -1, -1, -1, -1, -1, -1 };
  gboolean piped = (o->out == NULL || pipe2(pipes, O_CLOEXEC) == 0) &&
                   (o->err == NULL || pipe2(pipes + 2, O_CLOEXEC) == 0) &&
                   pipe2(pipes + 4, O_CLOEXEC) == 0;
  for (int i = 1; piped && i < 6; i += 2)
    if (pipes[i] >= 0 && (pipes[i] = above_stdio(pipes[i])) < 0)
      piped = FALSE;
  if (!piped) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot run %s: %s", name, g_strerror(errno));
    close_all(pipes, 6);
    ns_child_remove_tree(tmpdir);
    return FALSE;
  }
  char **env = o->env != NULL ? g_strdupv((char **)o->env) : g_get_environ();
  env = g_environ_setenv(env, "TMPDIR", tmpdir, TRUE);
  struct rlimit stack;
  gboolean raise_stack = o->stack_bytes > 0 && getrlimit(RLIMIT_STACK, &stack) == 0 &&
                         stack.rlim_cur != RLIM_INFINITY && stack.rlim_cur < (rlim_t)o->stack_bytes;
  if (raise_stack)
    stack.rlim_cur = MIN(stack.rlim_max, (rlim_t)o->stack_bytes); /* RLIM_INFINITY is the largest */
  ChildPlan plan = {
    .exe = exe, .argv = (char *const *)argv, .env = env, .cwd = o->cwd,
    .stack = raise_stack ? &stack : NULL, .parent = getpid(),
    .status_fd = pipes[5], .out_fd = pipes[1], .err_fd = pipes[3],
  };
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0)
    exec_child(&plan);
  int fork_errno = errno;
  g_strfreev(env);
  for (int i = 1; i < 6; i += 2) /* the child's ends */
    close_all(pipes + i, 1);
  if (pid < 0) {
    close_all(pipes, 6);
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot fork %s: %s", name,
                    g_strerror(fork_errno));
    ns_child_remove_tree(tmpdir);
    return FALSE;
  }
  setpgid(pid, pid); /* also here: the child may not have run yet */
  ChildReport report;
  gboolean not_run = read_report(pipes[4], &report);
  close_all(pipes + 4, 1);
  if (not_run) { /* it has _exited or is about to */
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
      ;
    close_all(pipes, 6);
    ns_child_remove_tree(tmpdir);
    set_child_error(error, argv[0], o->cwd, &report);
    *end = NS_CHILD_NOT_RUN;
    return FALSE;
  }
  int out_fd = pipes[0], err_fd = pipes[2];
  gint64 now = g_get_monotonic_time();
  gint64 deadline = o->wall_limit > 0 ? now + (gint64)(o->wall_limit * 1e6) : 0;
  gint64 next_tick = now + 200000;
  gboolean open_out = o->out != NULL, open_err = o->err != NULL;
  for (;;) {
    if (ns_stop_signal() != 0) {
      *end = NS_CHILD_SIGNALED;
      break;
    }
    if (!open_out && !open_err && leader_ended(pid))
      break;
    /* Its streams wake the loop; without them, it looks every 10 ms. */
    struct pollfd fds[2] = { { open_out ? out_fd : -1, POLLIN, 0 },
                             { open_err ? err_fd : -1, POLLIN, 0 } };
    (void)poll(fds, 2, open_out || open_err ? 100 : 10); /* EINTR: looked at next turn */
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
      open_out = drain(out_fd, o->out, 0);
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR))
      open_err = drain(err_fd, o->err, 4096);
    if (o->out != NULL && o->out->len > NS_CHILD_MAX_OUTPUT) {
      *end = NS_CHILD_TOO_MUCH;
      break;
    }
    now = g_get_monotonic_time();
    if (deadline != 0 && now > deadline) {
      *end = NS_CHILD_LATE;
      break;
    }
    if (o->tick != NULL && now >= next_tick) {
      o->tick(o->data);
      next_tick = now + 200000;
    }
  }
  /* Stopped, or ended (waited for but not reaped: the group's id stays
   * ours) with processes left running in its group: they are stopped too. */
  if (*end != NS_CHILD_ENDED || group_alive(pid))
    stop_group(pid);
  while (waitpid(pid, status, 0) < 0 && errno == EINTR)
    ;
  close_all(pipes, 6);
  ns_child_remove_tree(tmpdir);
  return TRUE;
}

gboolean ns_child_run(const char *const *argv, const char *cwd, double wall_limit, GString *out,
                      GString *err, int *status, GError **error)
{
  NsChildOptions o = { .cwd = cwd, .wall_limit = wall_limit, .out = out, .err = err };
  NsChildEnd end;
  if (!ns_child_spawn(argv, &o, status, &end, error))
    return FALSE;
  if (end == NS_CHILD_SIGNALED)
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s interrupted by %s", argv[0],
                    g_strsignal(ns_stop_signal()));
  else if (end == NS_CHILD_TOO_MUCH)
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s wrote more than %" G_GSIZE_FORMAT
                    " bytes: stopped", argv[0], NS_CHILD_MAX_OUTPUT);
  else if (end == NS_CHILD_LATE)
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "%s stopped after the wall-time limit of %.0f s", argv[0], wall_limit);
  return end == NS_CHILD_ENDED;
}

char *ns_child_program_path(const char *env_var, const char *name, const char *relative,
                            const char *installed, const char *built)
{
  const char *env = g_getenv(env_var);
  if (env != NULL && *env != '\0')
    return g_strdup(env);
  g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
  if (self != NULL) {
    g_autofree char *dir = g_path_get_dirname(self);
    const char *const beside[] = { name, relative };
    for (gsize i = 0; i < G_N_ELEMENTS(beside); i++) {
      if (beside[i] == NULL)
        continue;
      char *path = g_build_filename(dir, beside[i], NULL);
      if (g_file_test(path, G_FILE_TEST_IS_EXECUTABLE))
        return path;
      g_free(path);
    }
  }
  if (installed != NULL && g_file_test(installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup(installed);
  return g_strdup(built);
}
