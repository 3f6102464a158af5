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
 * NS_CHILD_GRACE_S seconds. */
static void stop_group(pid_t pid)
{
  kill(-pid, SIGTERM);
  gint64 until = g_get_monotonic_time() + (gint64)(NS_CHILD_GRACE_S * G_USEC_PER_SEC);
  while (group_alive(pid) && g_get_monotonic_time() < until)
    g_usleep(20000);
  kill(-pid, SIGKILL);
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

/* In the child, between fork and exec: its group, its death with
 * `parent`, its stack, its standard streams, its directory; then exec.
 * Never returns. */
static void G_GNUC_NORETURN exec_child(const char *const *argv, const NsChildOptions *o,
                                       char **env, pid_t parent, int out_fd, int err_fd)
{
  setpgid(0, 0); /* the group is stopped as one: smpirun starts smpimain */
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
    _exit(127);
  struct rlimit stack;
  if (o->stack_bytes > 0 && getrlimit(RLIMIT_STACK, &stack) == 0 &&
      stack.rlim_cur != RLIM_INFINITY && stack.rlim_cur < (rlim_t)o->stack_bytes) {
    stack.rlim_cur = MIN(stack.rlim_max, (rlim_t)o->stack_bytes); /* RLIM_INFINITY is the largest */
    (void)setrlimit(RLIMIT_STACK, &stack);
  }
  int in = open("/dev/null", O_RDONLY);
  if (in < 0 || dup2(in, 0) < 0 || (out_fd >= 0 && dup2(out_fd, 1) < 0) ||
      (err_fd >= 0 && dup2(err_fd, 2) < 0) || (o->cwd != NULL && chdir(o->cwd) != 0))
    _exit(127);
  execvpe(argv[0], (char *const *)argv, env);
  int e = errno;
  if (o->exec_failed != NULL)
    o->exec_failed(argv[0], e, o->data);
  else
    dprintf(2, "cannot run %s: %s\n", argv[0], g_strerror(e));
  _exit(127);
}

gboolean ns_child_spawn(const char *const *argv, const NsChildOptions *o, int *status,
                        NsChildEnd *end, GError **error)
{
  const char *name = o->name != NULL ? o->name : argv[0];
  *status = 0;
  *end = NS_CHILD_ENDED;
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
  int po[2] = { -1, -1 }, pe[2] = { -1, -1 };
  if ((o->out != NULL && pipe2(po, O_CLOEXEC) != 0) ||
      (o->err != NULL && pipe2(pe, O_CLOEXEC) != 0)) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot run %s: %s", name, g_strerror(errno));
    for (int i = 0; i < 2; i++) {
      if (po[i] >= 0)
        close(po[i]);
      if (pe[i] >= 0)
        close(pe[i]);
    }
    ns_child_remove_tree(tmpdir);
    return FALSE;
  }
  char **env = o->env != NULL ? g_strdupv((char **)o->env) : g_get_environ();
  env = g_environ_setenv(env, "TMPDIR", tmpdir, TRUE);
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0)
    exec_child(argv, o, env, parent, po[1], pe[1]);
  g_strfreev(env);
  if (po[1] >= 0)
    close(po[1]);
  if (pe[1] >= 0)
    close(pe[1]);
  if (pid < 0) {
    if (po[0] >= 0)
      close(po[0]);
    if (pe[0] >= 0)
      close(pe[0]);
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot fork %s: %s", name, g_strerror(errno));
    ns_child_remove_tree(tmpdir);
    return FALSE;
  }
  setpgid(pid, pid); /* also here: the child may not have run yet */
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
    struct pollfd fds[2] = { { open_out ? po[0] : -1, POLLIN, 0 },
                             { open_err ? pe[0] : -1, POLLIN, 0 } };
    (void)poll(fds, 2, open_out || open_err ? 100 : 10); /* EINTR: looked at next turn */
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
      open_out = drain(po[0], o->out, 0);
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR))
      open_err = drain(pe[0], o->err, 4096);
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
  if (po[0] >= 0)
    close(po[0]);
  if (pe[0] >= 0)
    close(pe[0]);
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
