/* Per-communicator agreement (comm.h). */
#include "mpi/lib/comm.h"
#include "mpi/lib/report.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The record each rank contributes; ints, so one MPI_INT allgather. */
enum {
  REC_CONFIG_HASH,
  REC_BROKEN,
  REC_WORLD_RANK,
  REC_ERRORS,                    /* configuration errors this rank found */
  REC_ERRORS_HASH,               /* of their text */
  REC_TABLES,                    /* then, per table: machine, digest hash */
  REC_INTS = REC_TABLES + 2 * NSMPI_MAX_TABLES
};

static int keyval = MPI_KEYVAL_INVALID;
static pthread_once_t keyval_once = PTHREAD_ONCE_INIT;

void nsmpi_out_of_memory(const char *what)
{
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  nsmpi_say("rank %d: out of memory (%s): stopping the job", rank, what);
  PMPI_Abort(MPI_COMM_WORLD, 2);
  abort();
}

static int free_comm(MPI_Comm comm, int key, void *value, void *extra)
{
  (void)comm, (void)key, (void)extra; /* the library builds with -Wextra under plain mpicc too */
  NsmpiComm *c = value;
  for (int i = 0; i < NSMPI_MAX_TABLES; i++)
    free(c->machine_of_rank[i]);
  if (c->adaptive != NULL)
    c->adaptive_free(c->adaptive);
  free(c);
  return MPI_SUCCESS;
}

static void create_keyval(void)
{
  PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_comm, &keyval, NULL);
}

/* A name for messages: the communicator's own (MPI_COMM_WORLD, or one
 * the program set), else its members' world ranks, runs compressed:
 * "world ranks 0,2,4" or "world ranks 0-7" (rank ids are the same on
 * every rank, unlike a counter of communicators). */
static void label(NsmpiComm *c, MPI_Comm comm, const int *rec)
{
  char name[MPI_MAX_OBJECT_NAME] = "", esc[64];
  int len = 0;
  if (PMPI_Comm_get_name(comm, name, &len) == MPI_SUCCESS && len > 0) {
    snprintf(c->label, sizeof c->label, "%s", nsmpi_escape(esc, sizeof esc, name));
    return;
  }
  if (rec == NULL) {
    snprintf(c->label, sizeof c->label, "an inter-communicator");
    return;
  }
  size_t o = (size_t)snprintf(c->label, sizeof c->label, "world ranks ");
  for (int r = 0; r < c->size; r++) {
    int first = rec[r * REC_INTS + REC_WORLD_RANK], last = first;
    while (r + 1 < c->size && rec[(r + 1) * REC_INTS + REC_WORLD_RANK] == last + 1) {
      r++;
      last++;
    }
    char run[32];
    if (last == first)
      snprintf(run, sizeof run, "%s%d", o > 12 ? "," : "", first);
    else
      snprintf(run, sizeof run, "%s%d-%d", o > 12 ? "," : "", first, last);
    if (o + strlen(run) + 4 >= sizeof c->label) {
      snprintf(c->label + o, sizeof c->label - o, ",...");
      return;
    }
    o += (size_t)snprintf(c->label + o, sizeof c->label - o, "%s", run);
  }
}

/* Decides table i from the gathered records; identical on every rank. */
static void decide(NsmpiComm *c, const NsmpiState *s, int i, const int *rec, int *used)
{
  const NsmpiTableSpec *t = &s->config.tables[i];
  const char *file = nsmpi_basename(t->path);
  char esc[96];
  nsmpi_escape(esc, sizeof esc, file);
  int p = c->size;
  unsigned broken = 0;
  for (int r = 0; r < p; r++)
    broken |= (unsigned)rec[r * REC_INTS + REC_BROKEN];
  for (int r = 1; r < p; r++) {
    if (rec[r * REC_INTS + REC_CONFIG_HASH] == rec[REC_CONFIG_HASH])
      continue;
    c->verdict[i] = NSMPI_RANKS_DISAGREE;
    snprintf(c->detail[i], sizeof c->detail[i],
             "world ranks %d and %d read different configurations "
             "(NETSCHED_MPI_* must be the same on every rank)",
             rec[REC_WORLD_RANK], rec[r * REC_INTS + REC_WORLD_RANK]);
    return;
  }
  if (broken & (1u << t->collective)) {
    c->verdict[i] = NSMPI_CONFIG_ERROR;
    snprintf(c->detail[i], sizeof c->detail[i], "a configuration error concerns %s (said above)",
             nsmpi_collective_function(t->collective));
    for (int r = 0; r < p; r++)
      if (rec[r * REC_INTS + REC_BROKEN] & (1 << t->collective) && r != 0 &&
          !(rec[REC_BROKEN] & (1 << t->collective))) {
        /* Only another rank saw it (a file missing on its node): say so. */
        c->verdict[i] = NSMPI_LOAD_ELSEWHERE;
        snprintf(c->detail[i], sizeof c->detail[i],
                 "world rank %d could not read its configuration, rank map or %s table "
                 "(its files differ from world rank %d's)",
                 rec[r * REC_INTS + REC_WORLD_RANK], nsmpi_collective_name(t->collective),
                 rec[REC_WORLD_RANK]);
        break;
      }
    return;
  }
  const int *machine0 = &rec[REC_TABLES + 2 * i];
  int table_p = s->routine[i] != NULL ? nsr_routine_size(s->routine[i]) : -1;
  if (table_p != p) {
    c->verdict[i] = NSMPI_COMM_SIZE;
    snprintf(c->detail[i], sizeof c->detail[i], "%s is for %d machines, the communicator has %d ranks",
             esc, table_p, p);
    return;
  }
  for (int r = 0; r < p; r++) {
    const int *mine = &rec[r * REC_INTS + REC_TABLES + 2 * i];
    if (mine[1] != machine0[1]) {
      c->verdict[i] = NSMPI_RANKS_DISAGREE;
      snprintf(c->detail[i], sizeof c->detail[i],
               "world ranks %d and %d loaded different tables as %s", rec[REC_WORLD_RANK],
               rec[r * REC_INTS + REC_WORLD_RANK], esc);
      return;
    }
  }
  for (int m = 0; m < p; m++)
    used[m] = -1;
  for (int r = 0; r < p; r++) {
    int m = rec[r * REC_INTS + REC_TABLES + 2 * i];
    int w = rec[r * REC_INTS + REC_WORLD_RANK];
    if (m < 0 || m >= p) {
      c->verdict[i] = NSMPI_MEMBERSHIP;
      snprintf(c->detail[i], sizeof c->detail[i],
               "rank %d (world rank %d) plays none of %s's machines under rankmap %s", r, w, esc,
               s->config.map_mode == NSMPI_MAP_ORDER  ? "order"
               : s->config.map_mode == NSMPI_MAP_NAME ? "name"
                                                      : "file");
      return;
    }
    if (used[m] >= 0) {
      char mesc[96];
      nsmpi_escape(mesc, sizeof mesc, nsr_routine_machine(s->routine[i], m));
      c->verdict[i] = NSMPI_DUPLICATE;
      snprintf(c->detail[i], sizeof c->detail[i], "ranks %d and %d both play %s's machine '%s'",
               used[m], r, esc, mesc);
      return;
    }
    used[m] = r;
  }
  c->machine_of_rank[i] = malloc(sizeof(int) * (size_t)p);
  if (c->machine_of_rank[i] == NULL)
    nsmpi_out_of_memory("rank map");
  for (int r = 0; r < p; r++)
    c->machine_of_rank[i][r] = rec[r * REC_INTS + REC_TABLES + 2 * i];
  c->verdict[i] = NSMPI_OK;
}

/* The lowest rank with configuration errors says them, unless an earlier
 * communicator's lowest such rank said the same text (a configuration
 * shared by all ranks is said once, by the first rank to find it; a file
 * missing on one node only is said by a rank of that node). Under
 * on-error abort that rank then stops the job (the others go on and are
 * stopped by the abort: none aborts before the message is out). */
static void say_errors(const NsmpiComm *c, const NsmpiState *s, const int *rec)
{
  static int said[8], n_said; /* error texts said, by their hash */
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  int first = -1;
  for (int r = 0; r < c->size && first < 0; r++)
    if (rec[r * REC_INTS + REC_ERRORS] > 0)
      first = r;
  if (first < 0)
    return;
  int hash = rec[first * REC_INTS + REC_ERRORS_HASH], known = 0;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < n_said; i++)
    known |= said[i] == hash;
  if (!known && n_said < 8)
    said[n_said++] = hash;
  pthread_mutex_unlock(&lock);
  if (first != c->rank || (known && !s->config.abort_on_error))
    return;
  nsmpi_state_say_errors(s);
  if (s->config.abort_on_error) {
    nsmpi_say("world rank %d: on-error abort: stopping the job", s->world_rank);
    PMPI_Abort(MPI_COMM_WORLD, 2);
  }
}

/* A table that does not fit MPI_COMM_WORLD is said even without
 * NETSCHED_MPI_VERBOSE (once, by rank 0): a table for another size or
 * another topology is most often a mistake. Tables meant for
 * sub-communicators are said too, once, and fall through on the world
 * only. */
static void say_misfits(NsmpiComm *c, const NsmpiState *s, MPI_Comm comm)
{
  int same = MPI_UNEQUAL;
  if (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &same) != MPI_SUCCESS || same != MPI_IDENT)
    return;
  for (int i = 0; i < s->config.n_tables; i++) {
    NsmpiReason v = c->verdict[i];
    if (v != NSMPI_COMM_SIZE && v != NSMPI_MEMBERSHIP && v != NSMPI_DUPLICATE)
      continue;
    NsrCollective k = s->config.tables[i].collective;
    if (s->config.tables[i].candidate) { /* the other candidates still run */
      nsmpi_say("%s: does not fit MPI_COMM_WORLD: %s (left out of %s's candidates there)",
                s->config.tables[i].where, c->detail[i], nsmpi_collective_function(k));
      continue;
    }
    c->said[k] |= 1u << v;
    nsmpi_say("%s: does not fit MPI_COMM_WORLD: %s (%s there uses the MPI library's own)",
              s->config.tables[i].where, c->detail[i], nsmpi_collective_function(k));
  }
}

static NsmpiComm *make(MPI_Comm comm, const NsmpiState *s)
{
  NsmpiComm *c = calloc(1, sizeof *c);
  if (c == NULL)
    nsmpi_out_of_memory("communicator record");
  PMPI_Comm_size(comm, &c->size);
  PMPI_Comm_rank(comm, &c->rank);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    label(c, comm, NULL);
    for (int i = 0; i < NSMPI_MAX_TABLES; i++) {
      c->verdict[i] = NSMPI_INTERCOMM;
      snprintf(c->detail[i], sizeof c->detail[i], "an inter-communicator");
    }
    return c;
  }
  int mine[REC_INTS];
  memset(mine, 0, sizeof mine);
  mine[REC_CONFIG_HASH] = (int)(s->config.hash & 0x7fffffffu);
  mine[REC_BROKEN] = (int)s->config.broken;
  mine[REC_WORLD_RANK] = s->world_rank;
  mine[REC_ERRORS] = s->config.errors;
  mine[REC_ERRORS_HASH] = (int)(s->errors_hash & 0x7fffffffu);
  for (int i = 0; i < s->config.n_tables; i++) {
    mine[REC_TABLES + 2 * i] = s->this_machine[i];
    mine[REC_TABLES + 2 * i + 1] = (int)s->digest_hash[i];
  }
  int *all = malloc(sizeof(int) * REC_INTS * (size_t)c->size);
  int *used = malloc(sizeof(int) * (size_t)c->size);
  if (all == NULL || used == NULL)
    nsmpi_out_of_memory("rank records");
  int rc = PMPI_Allgather(mine, REC_INTS, MPI_INT, all, REC_INTS, MPI_INT, comm);
  label(c, comm, rc == MPI_SUCCESS ? all : NULL);
  if (rc == MPI_SUCCESS)
    say_errors(c, s, all);
  for (int i = 0; i < s->config.n_tables; i++) {
    if (rc != MPI_SUCCESS) {
      c->verdict[i] = NSMPI_RANKS_DISAGREE;
      snprintf(c->detail[i], sizeof c->detail[i], "the ranks' records could not be exchanged");
    } else {
      decide(c, s, i, all, used);
    }
  }
  free(all);
  free(used);
  if (c->rank == 0)
    say_misfits(c, s, comm);
  return c;
}

void nsmpi_say_fallthrough(const NsmpiState *s, NsmpiComm *c, NsrCollective k, NsmpiReason why,
                           const char *detail)
{
  if (c->rank != 0 || (!s->config.verbose && !NSMPI_REASON_ALWAYS(why)) ||
      (c->said[k] & (1u << why)))
    return;
  c->said[k] |= 1u << why;
  nsmpi_say("%s on %s (%d ranks): falls through to the MPI library: %s",
            nsmpi_collective_function(k), c->label, c->size, detail);
}

NsmpiComm *nsmpi_comm(MPI_Comm comm, const NsmpiState *s)
{
  pthread_once(&keyval_once, create_keyval);
  if (keyval == MPI_KEYVAL_INVALID)
    nsmpi_out_of_memory("attribute key");
  void *value = NULL;
  int found = 0;
  if (PMPI_Comm_get_attr(comm, keyval, &value, &found) == MPI_SUCCESS && found)
    return value;
  NsmpiComm *c = make(comm, s);
  PMPI_Comm_set_attr(comm, keyval, c);
  return c;
}
