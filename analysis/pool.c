/* netsched — forked worker processes (see pool_internal.h), first written for the
 * sweep, now shared with the design study's -j.
 *
 * Why processes and not GLib threads: Debian's libigraph 0.10 is built
 * with IGRAPH_THREAD_SAFE 0 (igraph_threading.h), so igraph's default
 * random generator, its error and warning handlers and the IGRAPH_FINALLY
 * clean-up stack are process-wide; two threads calling igraph at once (the
 * generators, spanning trees, bridges of the lower bound, GraphML) would
 * corrupt them. Forked workers each own a copy; the generators draw from
 * their own igraph_rng_t anyway, so rows do not depend on which worker
 * computes them.
 *
 * Protocol: the parent writes task indices (uint32) to a worker's task
 * pipe, at most two ahead so a worker never waits; the worker answers each
 * with one frame — task (uint32), length (uint32), the row's bytes — on its
 * row pipe. EOF on the task pipe tells a worker to exit.
 *
 * Stopping: while workers run, SIGINT, SIGTERM and SIGHUP are caught
 * (analysis/stop_signal_internal.h) and only wake the parent's poll; it
 * sends the signal on to every worker, whose own guard (sim/child.h) kills
 * and reaps its simulator child and removes that child's files before the
 * worker dies, reaps the workers, and raises the signal again. An error
 * stops the workers the same way, with SIGTERM. */
#include "analysis/pool_internal.h"
#include "platforms/model/error.h"
#include "analysis/rowfile_internal.h"
#include "analysis/stop_signal_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define AHEAD 2

typedef struct {
  pid_t pid;
  int task_fd, row_fd;     /* parent's ends */
  guint queued[AHEAD];     /* tasks sent and not answered, oldest first */
  int n_queued;
  gboolean alive;
} Worker;

/* Reads exactly len bytes: 1 done, 0 EOF before any byte, -1 error or EOF inside. */
static int read_exact(int fd, void *buf, gsize len)
{
  gsize got = 0;
  while (got < len) {
    ssize_t r = read(fd, (char *)buf + got, len - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return r == 0 && got == 0 ? 0 : -1;
    got += (gsize)r;
  }
  return 1;
}

G_GNUC_NORETURN static void worker_main(const NsPool *pool, int task_fd, int row_fd)
{
  GString *frame = g_string_new(NULL);
  for (;;) {
    uint32_t task;
    int r = read_exact(task_fd, &task, sizeof task);
    if (r == 0)
      break;
    if (r < 0 || task >= pool->n_tasks)
      _exit(3);
    g_string_set_size(frame, 8);
    pool->work(task, frame, pool->user);
    uint32_t head[2] = { task, (uint32_t)(frame->len - 8) };
    memcpy(frame->str, head, sizeof head);
    if (!ns_write_all(row_fd, frame->str, frame->len))
      _exit(4);
  }
  _exit(0); /* no atexit handlers, no stdio flush: the parent owns those */
}

/* Closes the task pipes (the workers' sign to exit) and reaps every
 * worker; `sig` (0: none) is sent to each first, so that one busy with a
 * simulation cleans up after it and dies. */
static void stop_workers(Worker *w, int n, int sig)
{
  for (int i = 0; i < n; i++) {
    if (w[i].task_fd >= 0)
      close(w[i].task_fd);
    w[i].task_fd = -1;
    if (sig != 0 && w[i].pid > 0 && w[i].alive)
      kill(w[i].pid, sig);
  }
  for (int i = 0; i < n; i++) {
    if (w[i].row_fd >= 0)
      close(w[i].row_fd);
    w[i].row_fd = -1;
    if (w[i].pid > 0) {
      int status;
      while (waitpid(w[i].pid, &status, 0) < 0 && errno == EINTR) {
      }
      w[i].pid = 0;
    }
  }
}

static gboolean send_task(Worker *w, guint task)
{
  uint32_t t = task;
  if (!ns_write_all(w->task_fd, (const char *)&t, sizeof t))
    return FALSE;
  w->queued[w->n_queued++] = task;
  return TRUE;
}

/* Why worker i stopped answering: its exit status, reaped here. */
static void worker_died(const NsPool *pool, Worker *w, int i, GError **error)
{
  int status = 0;
  pid_t r;
  while ((r = waitpid(w->pid, &status, 0)) < 0 && errno == EINTR) {
  }
  w->pid = 0;
  w->alive = FALSE;
  g_autofree char *how =
      r < 0 ? g_strdup("vanished")
      : WIFSIGNALED(status) ? g_strdup_printf("was killed by signal %d (%s)", WTERMSIG(status),
                                              g_strsignal(WTERMSIG(status)))
                            : g_strdup_printf("exited with status %d", WEXITSTATUS(status));
  g_autofree char *label = w->n_queued > 0 ? pool->name(w->queued[0], pool->user) : NULL;
  ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s %d %s%s%s%s: %s", pool->worker, i + 1, how,
                  label ? " while computing " : "", label ? label : "",
                  label ? "" : " between tasks", pool->kept);
}

gboolean ns_pool_run(const NsPool *pool, const guint *tasks, guint n_tasks, int jobs,
                     NsPoolSink sink, void *sink_data, GError **error)
{
  if (jobs <= 1 || n_tasks <= 1) { /* in this process */
    GString *row = g_string_new(NULL);
    gboolean ok = TRUE;
    for (guint i = 0; ok && i < n_tasks; i++) {
      g_string_truncate(row, 0);
      pool->work(tasks[i], row, pool->user);
      ok = sink(tasks[i], row->str, row->len, sink_data, error);
    }
    g_string_free(row, TRUE);
    return ok;
  }
  int n = (int)MIN((guint)jobs, n_tasks);
  Worker *w = g_new0(Worker, n);
  for (int i = 0; i < n; i++)
    w[i].task_fd = w[i].row_fd = -1;
  struct sigaction ignore = { .sa_handler = SIG_IGN }, old_pipe;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &old_pipe); /* a dead worker is an error, not a signal */
  /* The stop signals wait, blocked, for ppoll: none is lost between a
   * look at the flag and the wait. */
  NsSignalGuard guard;
  sigset_t stops, unblocked;
  ns_stop_signal_set(&stops);
  sigprocmask(SIG_BLOCK, &stops, &unblocked);
  ns_signals_catch(&guard);
  gboolean ok = FALSE;
  pid_t parent = getpid();
  fflush(NULL);
  for (int i = 0; i < n; i++) {
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0) {
      ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot create a pipe: %s", g_strerror(errno));
      goto out;
    }
    if (pipe2(from_child, O_CLOEXEC) != 0) {
      ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot create a pipe: %s", g_strerror(errno));
      close(to_child[0]);
      close(to_child[1]);
      goto out;
    }
    pid_t pid = fork();
    if (pid < 0) {
      ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot start a worker: %s",
                      g_strerror(errno));
      close(to_child[0]);
      close(to_child[1]);
      close(from_child[0]);
      close(from_child[1]);
      goto out;
    }
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL); /* dies with the parent, even a SIGKILLed one */
      if (getppid() != parent)
        _exit(1);
      signal(SIGPIPE, SIG_DFL);
      ns_signals_default();
      sigprocmask(SIG_SETMASK, &unblocked, NULL);
      for (int k = 0; k < i; k++) { /* the other workers' pipes */
        close(w[k].task_fd);
        close(w[k].row_fd);
      }
      close(to_child[1]);
      close(from_child[0]);
      worker_main(pool, to_child[0], from_child[1]);
    }
    close(to_child[0]);
    close(from_child[1]);
    w[i] = (Worker){ .pid = pid, .task_fd = to_child[1], .row_fd = from_child[0], .alive = TRUE };
  }
  guint next = 0, done = 0;
  for (int k = 0; k < AHEAD; k++)
    for (int i = 0; i < n && next < n_tasks; i++)
      if (!send_task(&w[i], tasks[next++])) {
        worker_died(pool, &w[i], i, error);
        goto out;
      }
  struct pollfd *fds = g_new(struct pollfd, n);
  GString *row = g_string_new(NULL);
  while (done < n_tasks && ns_stop_signal() == 0) {
    int nf = 0;
    for (int i = 0; i < n; i++)
      if (w[i].n_queued > 0)
        fds[nf++] = (struct pollfd){ .fd = w[i].row_fd, .events = POLLIN };
    if (ppoll(fds, (nfds_t)nf, NULL, &unblocked) < 0) {
      if (errno == EINTR)
        continue;
      ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "poll: %s", g_strerror(errno));
      break;
    }
    gboolean failed = FALSE;
    for (int f = 0, i = 0; f < nf && !failed; f++) {
      if (fds[f].revents == 0)
        continue;
      while (w[i].row_fd != fds[f].fd)
        i++;
      uint32_t head[2];
      int r = read_exact(w[i].row_fd, head, sizeof head);
      if (r == 1) {
        g_string_set_size(row, head[1]);
        r = read_exact(w[i].row_fd, row->str, head[1]);
      }
      if (r != 1 || head[0] != w[i].queued[0]) {
        worker_died(pool, &w[i], i, error);
        failed = TRUE;
        break;
      }
      memmove(w[i].queued, w[i].queued + 1, sizeof(guint) * (AHEAD - 1));
      w[i].n_queued--;
      done++;
      if (!sink(head[0], row->str, row->len, sink_data, error)) {
        failed = TRUE;
        break;
      }
      if (next < n_tasks && !send_task(&w[i], tasks[next++])) {
        worker_died(pool, &w[i], i, error);
        failed = TRUE;
      }
    }
    if (failed)
      break;
  }
  ok = done == n_tasks;
  g_string_free(row, TRUE);
  g_free(fds);
out:
  stop_workers(w, n, ns_stop_signal() != 0 ? ns_stop_signal() : ok ? 0 : SIGTERM);
  sigaction(SIGPIPE, &old_pipe, NULL);
  g_free(w);
  int sig = ns_stop_signal();
  if (sig != 0 && (ok || error == NULL || *error == NULL)) {
    ok = FALSE;
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "stopped by signal %d (%s)", sig,
                    g_strsignal(sig));
  }
  sigprocmask(SIG_SETMASK, &unblocked, NULL); /* a stop signal pending now sets the flag */
  ns_signals_release(&guard);                  /* and is raised again here */
  return ok;
}
