/* netsched-replay — the simulation process started by ns_simulate().
 *
 * Usage (internal): netsched-replay PROGRAM_FD RESULTS_FD PLATFORM [SIMGRID OPTIONS...]
 *
 * A fresh exec rather than a bare fork because ns-3 reads its attribute
 * defaults (NS_ATTRIBUTE_DEFAULT: queue sizes, TCP buffers) while the
 * libraries initialise, before main; the parent passes them in this
 * process's environment. The program and the results travel in memfds.
 */
#include "sim/program.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
  /* A crash of ns-3 or SimGrid is reported by the parent; it must not drop
   * a core file (hundreds of MB) into the user's directory, whatever the
   * shell's ulimit or the system's core_pattern. */
  struct rlimit no_core = { 0, 0 };
  setrlimit(RLIMIT_CORE, &no_core);
  prctl(PR_SET_DUMPABLE, 0);
  if (argc < 4) {
    fprintf(stderr, "netsched-replay: internal tool of netsched simulate; not for direct use\n");
    return 2;
  }
  const char *why = NULL;
  Program *prog = ns_program_from_fds(atoi(argv[1]), atoi(argv[2]), &why);
  if (prog == NULL) {
    fprintf(stderr, "netsched-replay: %s\n", why);
    return 3;
  }
  /* SimGrid sees argv[0] and the options after the platform. */
  char *platform = argv[3];
  argv[3] = argv[0];
  ns_replay_run(prog, platform, argc - 3, argv + 3);
}
