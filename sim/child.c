/* netsched — child processes of the simulator stage (see child.h). */
#include "sim/child.h"
#include "platforms/model/error.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/prctl.h>
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

gboolean ns_child_run(const char *const *argv, const char *cwd, double wall_limit, GString *out,
                      GString *err, int *status, GError **error)
{
  int po[2], pe[2];
  if (pipe2(po, O_CLOEXEC) != 0) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot run %s: %s", argv[0], g_strerror(errno));
    return FALSE;
  }
  if (pipe2(pe, O_CLOEXEC) != 0) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot run %s: %s", argv[0], g_strerror(errno));
    close(po[0]);
    close(po[1]);
    return FALSE;
  }
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0); /* the group is killed as one: smpirun starts smpimain */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
      _exit(127);
    int in = open("/dev/null", O_RDONLY);
    if (in < 0 || dup2(in, 0) < 0 || dup2(po[1], 1) < 0 || dup2(pe[1], 2) < 0 ||
        chdir(cwd) != 0)
      _exit(127);
    execvp(argv[0], (char *const *)argv);
    dprintf(2, "cannot run %s: %s\n", argv[0], g_strerror(errno));
    _exit(127);
  }
  close(po[1]);
  close(pe[1]);
  if (pid < 0) {
    close(po[0]);
    close(pe[0]);
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot fork %s: %s", argv[0],
                    g_strerror(errno));
    return FALSE;
  }
  setpgid(pid, pid); /* also here: the child may not have run yet */
  gint64 deadline = wall_limit > 0 ? g_get_monotonic_time() + (gint64)(wall_limit * 1e6) : 0;
  struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
  gboolean open_out = TRUE, open_err = TRUE, too_much = FALSE, late = FALSE;
  while ((open_out || open_err) && ns_stop_signal() == 0 && !too_much && !late) {
    fds[0].fd = open_out ? po[0] : -1;
    fds[1].fd = open_err ? pe[0] : -1;
    if (poll(fds, 2, 100) < 0 && errno != EINTR)
      break;
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
      open_out = drain(po[0], out, 0);
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR))
      open_err = drain(pe[0], err, 4096);
    too_much = out->len > NS_CHILD_MAX_OUTPUT;
    late = deadline != 0 && g_get_monotonic_time() > deadline;
  }
  gboolean stopped = ns_stop_signal() != 0 || too_much || late;
  if (stopped)
    kill(-pid, SIGKILL);
  while (waitpid(pid, status, 0) < 0 && errno == EINTR)
    ;
  close(po[0]);
  close(pe[0]);
  if (ns_stop_signal() != 0)
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s interrupted by %s", argv[0],
                    g_strsignal(ns_stop_signal()));
  else if (too_much)
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s wrote more than %" G_GSIZE_FORMAT
                    " bytes: stopped", argv[0], NS_CHILD_MAX_OUTPUT);
  else if (late)
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "%s stopped after the wall-time limit of %.0f s", argv[0], wall_limit);
  return !stopped;
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
