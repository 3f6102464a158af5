/* netsched — helpers shared by the subcommands. */
#include "cli/cli.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include "platforms/io/topology_spec.h"
#include "platforms/model/units.h"
#include "sched/planners/registry.h"
#include <errno.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

int ns_cli_fail(GError *error)
{
  int status = ns_error_exit_status(error);
  fprintf(stderr, "netsched: %s\n", error->message);
  g_error_free(error);
  return status;
}

int ns_cli_usage(const char *command, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  fprintf(stderr, "netsched %s: %s\nTry 'netsched %s --help'.\n", command, msg, command);
  g_free(msg);
  return 2;
}

void ns_cli_print_warning(const char *message, void *data)
{
  fprintf(stderr, "warning: %s\n", message);
}

char *ns_cli_command_line(int argc, char **argv)
{
  GString *s = g_string_new("netsched");
  for (int i = 0; i < argc; i++) {
    g_autofree char *q = ns_shell_word(argv[i]);
    g_string_append_c(s, ' ');
    g_string_append(s, q);
  }
  return g_string_free(s, FALSE);
}

void ns_cli_print_note(const char *message, void *data)
{
  fprintf(stderr, "note: %s\n", message);
}

NsTopology *ns_cli_load_topology(const char *path, const char *format, const char *spanning,
                                 GError **error)
{
  if (path == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "no topology given (--topology FILE)");
    return NULL;
  }
  NsTopologySpecOptions options = { .format = format, .spanning = spanning,
                                    .warn = ns_cli_print_warning };
  return ns_topology_from_spec(path, &options, error);
}

gboolean ns_cli_option_once(const char *option, const char *value, gpointer data,
                            GError **error)
{
  char **slot = data;
  if (*slot != NULL) {
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "%s given twice ('%s' and '%s'): it takes one value", option, *slot, value);
    return FALSE;
  }
  *slot = g_strdup(value);
  return TRUE;
}

gboolean ns_cli_parse_size(const char *option, const char *text, uint64_t *bytes,
                           GError **error)
{
  const char *why = NULL;
  if (!ns_parse_msize(text, bytes, &why)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s '%s': %s", option, text, why);
    return FALSE;
  }
  return TRUE;
}

gboolean ns_cli_check_writable(const char *path, GError **error)
{
  if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "is a directory (a file name is expected)");
    return FALSE;
  }
  g_autofree char *dir = g_path_get_dirname(path);
  if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "directory %s does not exist", dir);
    return FALSE;
  }
  if (access(g_file_test(path, G_FILE_TEST_EXISTS) ? path : dir, W_OK) != 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "cannot be written: %s", g_strerror(errno));
    return FALSE;
  }
  return TRUE;
}

int ns_cli_option_error(GError *error)
{
  fprintf(stderr, "netsched: %s\nTry '--help'.\n", error->message);
  g_error_free(error);
  return 2;
}

gboolean ns_cli_parse(GOptionContext *ctx, int *argc, char ***argv)
{
  GError *error = NULL;
  if (!g_option_context_parse(ctx, argc, argv, &error)) {
    ns_cli_option_error(error);
    return FALSE;
  }
  return TRUE;
}

const char *ns_cli_collective_choices(void)
{
  static gsize once;
  static char *choices;
  if (g_once_init_enter(&once)) {
    choices = ns_collective_names("|");
    g_once_init_leave(&once, 1);
  }
  return choices;
}

gboolean ns_cli_plan_params(const NsTopology *topo, const char *collective, uint64_t msize,
                            const char *root, uint64_t segment, int arity, NsCollective *c,
                            NsPlanParams *params, GError **error)
{
  if (!ns_collective_from_name(collective, c)) {
    g_autofree char *known = ns_collective_names(", ");
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "unknown collective '%s' (%s)", collective,
                    known);
    return FALSE;
  }
  int root_machine = 0;
  if (root != NULL && (root_machine = ns_topology_find_machine(topo, root)) < 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--root '%s' is not a machine of %s", root,
                    ns_topology_source(topo));
    return FALSE;
  }
  if (segment > msize) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "--segment (%" G_GUINT64_FORMAT " bytes) is larger than --msize (%" G_GUINT64_FORMAT
                    " bytes)", segment, msize);
    return FALSE;
  }
  *params = (NsPlanParams){ .msize = msize, .root = root_machine, .segment = segment,
                            .arity = arity };
  return TRUE;
}

NsSchedule *ns_cli_plan(const NsTopology *topo, const char *collective, const char *algorithm,
                        uint64_t msize, const char *root, uint64_t segment, int arity,
                        GError **error)
{
  NsCollective c;
  NsPlanParams params;
  if (!ns_cli_plan_params(topo, collective, msize, root, segment, arity, &c, &params, error))
    return NULL;
  return ns_plan(topo, c, algorithm, &params, error);
}

void ns_cli_print_json(JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root(builder);
  g_autoptr(JsonGenerator) gen = json_generator_new();
  json_generator_set_pretty(gen, TRUE);
  json_generator_set_root(gen, root);
  g_autofree char *text = json_generator_to_data(gen, NULL);
  printf("%s\n", text);
}
