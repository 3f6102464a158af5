/* The process-wide state (state.h). */
#include "mpi/lib/state.h"
#include "mpi/lib/lines.h"
#include "mpi/lib/rankmap.h"
#include "mpi/lib/report.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static NsmpiState state;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static uint32_t string_hash(const char *s)
{
  uint32_t h = 2166136261u;
  for (; s != NULL && *s != '\0'; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static void load_table(int i, const char *own_name)
{
  NsmpiConfig *c = &state.config;
  const NsmpiTableSpec *t = &c->tables[i];
  char why[512] = "", esc[NSMPI_MAX_PATH];
  state.this_machine[i] = NSMPI_NOT_LOADED;
  NsrRoutine *r = nsr_routine_load(t->path, why, sizeof why);
  if (r == NULL) {
    /* The runtime's reason names the file ("PATH: what is wrong"). */
    char wesc[sizeof why + 64];
    if (strncmp(why, t->path, strlen(t->path)) == 0)
      nsmpi_config_error(c, 1u << t->collective, "%s: %s", t->where,
                         nsmpi_escape(wesc, sizeof wesc, why));
    else
      nsmpi_config_error(c, 1u << t->collective, "%s: %s: %s", t->where,
                         nsmpi_escape(esc, sizeof esc, t->path),
                         why[0] != '\0' ? nsmpi_escape(wesc, sizeof wesc, why) : "cannot be loaded");
    return;
  }
  NsrCollective k = nsr_routine_collective(r);
  if (k != t->collective) {
    nsmpi_config_error(c, 1u << t->collective, "%s: %s is a table for %s, named for %s",
                       t->where, nsmpi_escape(esc, sizeof esc, t->path),
                       nsmpi_collective_name(k), nsmpi_collective_name(t->collective));
    nsr_routine_free(r);
    return;
  }
  state.routine[i] = r;
  state.digest_hash[i] = string_hash(nsr_routine_digest(r)) & 0x7fffffffu;
  state.this_machine[i] = nsmpi_rankmap_machine(r, c->map_mode, own_name, state.world_rank);
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first (MPI 3.1 §8.7.1):
 * the tables are freed there, while MPI still works. */
static int free_tables(MPI_Comm comm, int keyval, void *value, void *extra)
{
  (void)comm, (void)keyval, (void)value, (void)extra;
  for (int i = 0; i < NSMPI_MAX_TABLES; i++) {
    if (state.routine[i] != NULL)
      nsr_routine_free(state.routine[i]);
    state.routine[i] = NULL;
  }
  return MPI_SUCCESS;
}

static void load(void)
{
  NsmpiConfig *c = &state.config;
  nsmpi_config_read(c);
  PMPI_Comm_rank(MPI_COMM_WORLD, &state.world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &state.world_size);
  if (!c->present) { /* inert; a stray NETSCHED_MPI_VERBOSE=x is still said */
    if (state.world_rank == 0)
      nsmpi_state_say_errors(&state);
    return;
  }
  char own_name[NSMPI_MAX_LINE + 1] = "";
  int have_name = c->map_mode == NSMPI_MAP_ORDER ||
                  nsmpi_rankmap_own_name(c, state.world_rank, state.world_size, own_name,
                                         sizeof own_name);
  if (!have_name)
    c->broken = NSMPI_ALL_COLLECTIVES;
  for (int i = 0; i < c->n_tables; i++) {
    if (c->broken & (1u << c->tables[i].collective))
      state.this_machine[i] = NSMPI_NOT_LOADED;
    else
      load_table(i, c->map_mode == NSMPI_MAP_ORDER ? NULL : own_name);
  }
  state.errors_hash = string_hash(c->errors_text);
  int keyval;
  if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_tables, &keyval, NULL) == MPI_SUCCESS)
    PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
}

void nsmpi_state_say_errors(const NsmpiState *s)
{
  static int said;
  const NsmpiConfig *c = &s->config;
  if (c->errors == 0 || __atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    return;
  const char *line = c->errors_text;
  while (*line != '\0') {
    int n = (int)strcspn(line, "\n");
    if (s->world_rank != 0)
      nsmpi_say("world rank %d: %.*s", s->world_rank, n, line);
    else
      nsmpi_say("%.*s", n, line);
    line += n + (line[n] == '\n');
  }
}

const NsmpiState *nsmpi_state(void)
{
  pthread_once(&once, load);
  return &state;
}
