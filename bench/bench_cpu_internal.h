/* netsched — benchmarks: CPU time. The machine a benchmark runs on may be
 * shared, so benchmarks time CPU (user + system), not wall. */
#ifndef NETSCHED_BENCH_CPU_INTERNAL_H
#define NETSCHED_BENCH_CPU_INTERNAL_H

#include <sys/resource.h>

/* The CPU seconds one getrusage() record holds. */
static inline double bench_rusage_seconds(const struct rusage *ru)
{
  return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
         (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

/* CPU seconds this process has used. */
static inline double bench_cpu_seconds(void)
{
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return bench_rusage_seconds(&ru);
}

/* CPU seconds this process and its waited-for children have used: for a
 * figure that includes a simulator or compiler run as a child. */
static inline double bench_cpu_seconds_with_children(void)
{
  struct rusage self, children;
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  return bench_rusage_seconds(&self) + bench_rusage_seconds(&children);
}

#endif
