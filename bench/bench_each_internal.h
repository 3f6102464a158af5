/* netsched — benchmarks: each case in a process of its own, so that one
 * case's peak memory (getrusage RUSAGE_SELF) and allocations do not reach
 * the next. */
#ifndef NETSCHED_BENCH_EACH_INTERNAL_H
#define NETSCHED_BENCH_EACH_INTERNAL_H

#include <glib.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs run(specs[i]) in a child for each i; the worst exit status (2 for a
 * child that did not exit). */
static inline int bench_each_in_process(int n, const char *const *specs,
                                        int (*run)(const char *spec))
{
  int worst = 0;
  fflush(stdout);
  for (int i = 0; i < n; i++) {
    pid_t pid = fork();
    if (pid == 0) {
      int code = run(specs[i]);
      fflush(NULL); /* _exit does not flush stdio */
      _exit(code);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    worst = MAX(worst, WIFEXITED(status) ? WEXITSTATUS(status) : 2);
  }
  return worst;
}

#endif
