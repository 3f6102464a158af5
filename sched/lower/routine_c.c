/* netsched — a routine as one C file (see routine.h, docs/generate.md).
 *
 * Table-driven, not straight-line code (Faraj & Yuan §5 generate
 * straight-line MPI calls per phase; a 1024-machine all-to-all would then
 * be a million calls): the file carries the runtime once and the routine
 * table as one string literal, which compilers take as a single token, so
 * a 1024-machine faraj routine compiles in seconds. Small routines get the
 * table commented machine by machine and phase by phase. */
#include "sched/lower/routine_internal.h"
#include <string.h>

extern const char ns_routine_runtime_text[];

void ns_routine_c_append_runtime(GString *out)
{
  g_string_append(out, "#include <mpi.h>\n#include <stddef.h>\n#include <stdio.h>\n\n"
                       "#define NSR_EMBEDDED 1\n"
                       "/* ==== the netsched routine runtime ==== */\n");
  g_string_append(out, ns_routine_runtime_text);
}

gboolean ns_routine_name_ok(const char *name)
{
  gsize n = strlen(name);
  if (n == 0 || n > 64 || g_ascii_isdigit(name[0]))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isalnum(name[i]) && name[i] != '_')
      return FALSE;
  return TRUE;
}

/* Text safe inside a C comment: printable ASCII, no comment end. */
static void put_comment_text(GString *out, const char *text)
{
  for (const char *c = text; *c != '\0'; c++) {
    if (c[0] == '*' && c[1] == '/')
      g_string_append(out, "* ");
    else if (*c >= 0x20 && *c < 0x7f)
      g_string_append_c(out, *c);
    else
      g_string_append_c(out, '?');
  }
}

/* Bytes [from, to) of the table as string-literal lines (octal escapes:
 * always three digits, so no escape runs into the next character). */
static void put_bytes(GString *out, const guint8 *data, gsize from, gsize to)
{
  char line[3 + 32 * 4 + 3];
  for (gsize i = from; i < to; i += 32) {
    gsize n = 0;
    line[n++] = ' ';
    line[n++] = ' ';
    line[n++] = '"';
    for (gsize k = i; k < to && k < i + 32; k++) {
      line[n++] = '\\';
      line[n++] = (char)('0' + (data[k] >> 6));
      line[n++] = (char)('0' + ((data[k] >> 3) & 7));
      line[n++] = (char)('0' + (data[k] & 7));
    }
    line[n++] = '"';
    line[n++] = '\n';
    g_string_append_len(out, line, (gssize)n);
  }
}

/* "phase 3: to n1, from n7 (2 syncs awaited)". */
static void describe_step(GString *out, const NsRoutine *r, const NsStep *st)
{
  const NsLowered *l = r->lowered;
  char *const *name = r->schedule->machines;
  g_string_append_printf(out, "  /* phase %u:", st->phase);
  uint64_t syncs = 0;
  for (uint32_t k = 0; k < st->n_sends; k++) {
    uint32_t t = l->ops[st->send_first + k];
    g_string_append(out, k == 0 ? " to " : ", ");
    put_comment_text(out, name[l->dst[t]]);
    if (t < l->n_real && ns_schedule_transfer(r->schedule, t)->n_chunks > 1)
      g_string_append_printf(out, " (%u blocks)", ns_schedule_transfer(r->schedule, t)->n_chunks);
    else if (t >= l->n_real)
      g_string_append(out, " (dummy)");
    syncs += l->needed[t];
  }
  for (uint32_t k = 0; k < st->n_recvs; k++) {
    uint32_t t = l->ops[st->recv_first + k];
    g_string_append(out, k == 0 ? (st->n_sends ? "; from " : " from ") : ", ");
    put_comment_text(out, name[l->src[t]]);
  }
  if (syncs > 0)
    g_string_append_printf(out, "; %" G_GUINT64_FORMAT " sync message%s awaited", syncs,
                           syncs == 1 ? "" : "s");
  g_string_append(out, " */\n");
}

static void put_table(GString *out, const NsRoutine *r, const char *name)
{
  const NsLowered *l = r->lowered;
  const guint8 *data = r->table->data;
  gboolean commented = 2 * l->n_all <= NS_ROUTINE_C_COMMENTED_OPS;
  g_string_append_printf(out,
                         "/* The routine table (docs/generate.md, \"Table format\"): %u bytes, "
                         "checked when loaded. */\n"
                         "static const unsigned char netsched_%s_table[] =\n"
                         "  /* header: collective, machines, flags, names, barriers */\n",
                         r->table->len, name);
  put_bytes(out, data, 0, r->machine_at[0]);
  for (int m = 0; m < l->p; m++) {
    g_string_append_printf(out, "  /* machine %d, ", m);
    put_comment_text(out, r->schedule->machines[m]);
    g_string_append_printf(out, ": %u steps */\n", l->step_start[m + 1] - l->step_start[m]);
    if (!commented) {
      put_bytes(out, data, r->machine_at[m], r->machine_at[m + 1]);
      continue;
    }
    gsize first_step = l->step_start[m] < l->step_start[m + 1] ? r->step_at[l->step_start[m]]
                                                               : r->machine_at[m + 1];
    put_bytes(out, data, r->machine_at[m], first_step);
    for (uint32_t st = l->step_start[m]; st < l->step_start[m + 1]; st++) {
      describe_step(out, r, &l->steps[st]);
      gsize end = st + 1 < l->step_start[m + 1] ? r->step_at[st + 1] : r->machine_at[m + 1];
      put_bytes(out, data, r->step_at[st], end);
    }
  }
  g_string_append(out, "  /* digest */\n");
  put_bytes(out, data, r->machine_at[l->p], r->table->len);
  g_string_append(out, "  ;\n\n");
}

/* The table, its loader and the entry points of `r` named `name`. An
 * `internal` routine (one of a tuned dispatcher's) has its _mapped entry
 * point only, static. */
static void put_routine(GString *out, const NsRoutine *r, const char *name, gboolean internal)
{
  const NsSchedule *s = r->schedule;
  const char *coll = ns_collective_name(s->collective);
  put_table(out, r, name);
  g_string_append_printf(out,
                         "static NsrRoutine *netsched_%s_routine(void)\n"
                         "{\n"
                         "  static NsrRoutine *routine;\n"
                         "  if (routine == NULL) {\n"
                         "    char why[256];\n"
                         "    routine = nsr_routine_from_data(netsched_%s_table, sizeof "
                         "netsched_%s_table - 1, why,\n"
                         "                                    sizeof why);\n"
                         "    if (routine == NULL)\n"
                         "      fprintf(stderr, \"netsched_%s: %%s\\n\", why);\n"
                         "  }\n"
                         "  return routine;\n"
                         "}\n\n",
                         name, name, name, name);
  if (internal) {
    if (s->collective == NS_COLL_BCAST)
      g_string_append_printf(
          out,
          "static int netsched_%s_bcast_mapped(void *buffer, size_t bytes,\n"
          "                                    const int *machine_of_rank, MPI_Comm comm)\n"
          "{\n"
          "  NsrRoutine *routine = netsched_%s_routine();\n"
          "  return routine == NULL ? MPI_ERR_OTHER\n"
          "                         : nsr_routine_run(routine, buffer, buffer, bytes, "
          "machine_of_rank, comm);\n"
          "}\n\n",
          name, name);
    else
      g_string_append_printf(
          out,
          "static int netsched_%s_%s_mapped(const void *sendbuf, void *recvbuf,\n"
          "                                 size_t block_bytes, const int *machine_of_rank,\n"
          "                                 MPI_Comm comm)\n"
          "{\n"
          "  NsrRoutine *routine = netsched_%s_routine();\n"
          "  return routine == NULL ? MPI_ERR_OTHER\n"
          "                         : nsr_routine_run(routine, sendbuf, recvbuf, block_bytes,\n"
          "                                           machine_of_rank, comm);\n"
          "}\n\n",
          name, coll, name);
    return;
  }
  if (s->collective == NS_COLL_BCAST) {
    g_string_append_printf(
        out,
        "int netsched_%s_bcast_mapped(void *buffer, size_t bytes, const int *machine_of_rank,\n"
        "                             MPI_Comm comm);\n"
        "int netsched_%s_bcast_mapped(void *buffer, size_t bytes, const int *machine_of_rank,\n"
        "                             MPI_Comm comm)\n"
        "{\n"
        "  NsrRoutine *routine = netsched_%s_routine();\n"
        "  return routine == NULL ? MPI_ERR_OTHER\n"
        "                         : nsr_routine_run(routine, buffer, buffer, bytes, "
        "machine_of_rank, comm);\n"
        "}\n\n"
        "int netsched_%s_bcast(void *buffer, size_t bytes, MPI_Comm comm);\n"
        "int netsched_%s_bcast(void *buffer, size_t bytes, MPI_Comm comm)\n"
        "{\n"
        "  return netsched_%s_bcast_mapped(buffer, bytes, NULL, comm);\n"
        "}\n",
        name, name, name, name, name, name);
  } else {
    const char *sig = "(const void *sendbuf, void *recvbuf, size_t block_bytes";
    g_string_append_printf(
        out,
        "int netsched_%s_%s_mapped%s,\n"
        "                          const int *machine_of_rank, MPI_Comm comm);\n"
        "int netsched_%s_%s_mapped%s,\n"
        "                          const int *machine_of_rank, MPI_Comm comm)\n"
        "{\n"
        "  NsrRoutine *routine = netsched_%s_routine();\n"
        "  return routine == NULL ? MPI_ERR_OTHER\n"
        "                         : nsr_routine_run(routine, sendbuf, recvbuf, block_bytes,\n"
        "                                           machine_of_rank, comm);\n"
        "}\n\n"
        "int netsched_%s_%s%s, MPI_Comm comm);\n"
        "int netsched_%s_%s%s, MPI_Comm comm)\n"
        "{\n"
        "  return netsched_%s_%s_mapped(sendbuf, recvbuf, block_bytes, NULL, comm);\n"
        "}\n",
        name, coll, sig, name, coll, sig, name, name, coll, sig, name, coll, sig, name, coll);
  }
}

char *ns_routine_c_source(const NsRoutine *r, const char *name, const char *command)
{
  const NsSchedule *s = r->schedule;
  const char *coll = ns_collective_name(s->collective);
  GString *out = g_string_new(NULL);
  g_string_append(out, "/* netsched routine: ");
  put_comment_text(out, coll);
  g_string_append(out, "/");
  put_comment_text(out, s->algorithm);
  g_string_append_printf(out, " on %d machines of ", s->n_machines);
  put_comment_text(out, r->topology);
  g_string_append(out, "\n *\n *   schedule digest  ");
  put_comment_text(out, r->digest);
  g_string_append_printf(out, " (sha256)\n *   sync scheme      %s\n", r->scheme_name);
  if (!r->synchronous)
    g_string_append(out, " *   send mode        MPI_Isend (posted)\n");
  else if (r->eager_threshold == 0)
    g_string_append(out, " *   send mode        MPI_Issend (phased: rendezvous at every size, as "
                         "replayed with --eager-threshold 0)\n");
  else
    g_string_append_printf(out, " *   send mode        MPI_Isend below %" G_GUINT64_FORMAT
                           " B (eager), MPI_Issend at or above\n *                    (phased: "
                           "as replayed with --eager-threshold %" G_GUINT64_FORMAT "B)\n",
                           r->eager_threshold, r->eager_threshold);
  g_string_append(out, " *   made by          ");
  put_comment_text(out, command);
  g_string_append(out, "\n *\n * Depends on MPI alone: it carries the netsched routine runtime "
                       "(mpi/runtime/ns_routine.c\n * of netsched " NETSCHED_VERSION
                       ", every function static) and the routine table.\n *\n");
  if (s->collective == NS_COLL_BCAST)
    g_string_append_printf(out,
                           " *   int netsched_%s_bcast(void *buffer, size_t bytes, MPI_Comm comm);\n"
                           " * broadcasts `bytes` from rank %d (schedule machine %d) in %u "
                           "segments;\n",
                           name, s->root, s->root, s->n_segments);
  else
    g_string_append_printf(out,
                           " *   int netsched_%s_%s(const void *sendbuf, void *recvbuf, size_t "
                           "block_bytes,\n *                      MPI_Comm comm);\n"
                           " * %s block_bytes bytes per %s;\n",
                           name, coll,
                           s->collective == NS_COLL_ALLTOALL ? "exchanges" : "gathers",
                           s->collective == NS_COLL_ALLTOALL ? "pair" : "rank");
  g_string_append_printf(out,
                         " * comm must have %d ranks; rank r plays schedule machine r (the "
                         "_mapped variant\n * takes machine_of_rank). Returns an MPI error "
                         "code.\n */\n",
                         s->n_machines);
  ns_routine_c_append_runtime(out);
  g_string_append(out, "/* ==== the routine ==== */\n\n");
  put_routine(out, r, name, FALSE);
  return g_string_free(out, FALSE);
}

char *ns_routine_c_tuned_source(const NsRoutine *const *routines, const char *const *names,
                                const guint *row_routine, const uint64_t *from_bytes,
                                guint n_rows, const char *command)
{
  const NsSchedule *s0 = routines[row_routine[0]]->schedule;
  const char *coll = ns_collective_name(s0->collective);
  gboolean bcast = s0->collective == NS_COLL_BCAST;
  guint n_routines = 0;
  for (guint i = 0; i < n_rows; i++)
    n_routines = MAX(n_routines, row_routine[i] + 1);
  GString *out = g_string_new(NULL);
  g_string_append_printf(out, "/* netsched tuned routine: %s on %d machines of ", coll,
                         s0->n_machines);
  put_comment_text(out, routines[row_routine[0]]->topology);
  g_string_append(out, "\n *\n * The algorithm is chosen by the message size, as tuned (Faraj's "
                       "dissertation\n * §4.1.1.4, Figure 4.5(a)):\n");
  for (guint i = 0; i < n_rows; i++) {
    const NsRoutine *r = routines[row_routine[i]];
    g_string_append_printf(out, " *   %s >= %-10" G_GUINT64_FORMAT " ",
                           bcast ? "bytes      " : "block_bytes", from_bytes[i]);
    put_comment_text(out, r->schedule->algorithm);
    g_string_append_printf(out, " (sync %s, schedule ", r->scheme_name);
    put_comment_text(out, r->digest);
    g_string_append(out, ")\n");
  }
  g_string_append(out, " *   made by ");
  put_comment_text(out, command);
  g_string_append(out, "\n *\n * Depends on MPI alone: it carries the netsched routine runtime "
                       "(mpi/runtime/ns_routine.c\n * of netsched " NETSCHED_VERSION
                       ", every function static) and the routine tables.\n *\n");
  if (bcast)
    g_string_append(out, " *   int netsched_tuned_bcast(void *buffer, size_t bytes, MPI_Comm comm);\n");
  else
    g_string_append_printf(out,
                           " *   int netsched_tuned_%s(const void *sendbuf, void *recvbuf, "
                           "size_t block_bytes,\n *                         MPI_Comm comm);\n",
                           coll);
  g_string_append_printf(out,
                         " * comm must have %d ranks; rank r plays schedule machine r (the "
                         "_mapped variant\n * takes machine_of_rank). Returns an MPI error "
                         "code.\n */\n",
                         s0->n_machines);
  ns_routine_c_append_runtime(out);
  for (guint k = 0; k < n_routines; k++) {
    g_string_append_printf(out, "/* ==== routine %u: ", k);
    put_comment_text(out, routines[k]->schedule->algorithm);
    g_string_append(out, " ==== */\n\n");
    put_routine(out, routines[k], names[k], TRUE);
  }
  const char *args = bcast ? "buffer, bytes, machine_of_rank, comm"
                           : "sendbuf, recvbuf, block_bytes, machine_of_rank, comm";
  const char *size = bcast ? "bytes" : "block_bytes";
  if (bcast)
    g_string_append(out,
                    "int netsched_tuned_bcast_mapped(void *buffer, size_t bytes,\n"
                    "                                const int *machine_of_rank, MPI_Comm comm);\n"
                    "int netsched_tuned_bcast_mapped(void *buffer, size_t bytes,\n"
                    "                                const int *machine_of_rank, MPI_Comm comm)\n"
                    "{\n");
  else
    g_string_append_printf(out,
                           "int netsched_tuned_%s_mapped(const void *sendbuf, void *recvbuf, "
                           "size_t block_bytes,\n"
                           "                             const int *machine_of_rank, MPI_Comm comm);\n"
                           "int netsched_tuned_%s_mapped(const void *sendbuf, void *recvbuf, "
                           "size_t block_bytes,\n"
                           "                             const int *machine_of_rank, MPI_Comm comm)\n"
                           "{\n",
                           coll, coll);
  for (guint i = 0; i < n_rows; i++) {
    const char *name = names[row_routine[i]];
    if (i + 1 < n_rows)
      g_string_append_printf(out, "  %sif (%s < %" G_GUINT64_FORMAT "u)\n  ", i ? "else " : "",
                             size, from_bytes[i + 1]);
    else if (i > 0)
      g_string_append(out, "  else\n  ");
    g_string_append_printf(out, "  return netsched_%s_%s_mapped(%s);\n", name, coll, args);
  }
  g_string_append(out, "}\n\n");
  if (bcast)
    g_string_append(out,
                    "int netsched_tuned_bcast(void *buffer, size_t bytes, MPI_Comm comm);\n"
                    "int netsched_tuned_bcast(void *buffer, size_t bytes, MPI_Comm comm)\n"
                    "{\n  return netsched_tuned_bcast_mapped(buffer, bytes, NULL, comm);\n}\n");
  else
    g_string_append_printf(out,
                           "int netsched_tuned_%s(const void *sendbuf, void *recvbuf, size_t "
                           "block_bytes, MPI_Comm comm);\n"
                           "int netsched_tuned_%s(const void *sendbuf, void *recvbuf, size_t "
                           "block_bytes, MPI_Comm comm)\n"
                           "{\n  return netsched_tuned_%s_mapped(sendbuf, recvbuf, block_bytes, "
                           "NULL, comm);\n}\n",
                           coll, coll, coll);
  return g_string_free(out, FALSE);
}
