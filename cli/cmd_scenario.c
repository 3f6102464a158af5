/* netsched scenario — run a declarative experiment (GLib key file).
 *
 *   [scenario]
 *   description = what the experiment reproduces
 *   collective  = alltoall                     (default)
 *   algorithms  = simple,mpich,faraj:sender-all
 *   msizes      = 8KiB..256KiB
 *   models      = ideal,tcp,packet              (default ideal)
 *   output      = ../results/faraj-yuan         (relative to this file)
 *
 *   [topology a]                                (one group per topology)
 *   file   = topologies/faraj-a.topo            (relative to this file, or gen:SPEC)
 *   models = ideal                              (optional, overrides)
 *
 * Every topology x model runs the compare engine into OUTPUT/NAME-MODEL/,
 * resuming, so an interrupted scenario continues where it stopped.
 */
#include "cli/cli.h"
#include "platforms/error.h"
#include <string.h>

static char *resolve(const char *base_dir, const char *path)
{
  if (path == NULL || g_str_has_prefix(path, "gen:") || g_path_is_absolute(path))
    return g_strdup(path);
  return g_build_filename(base_dir, path, NULL);
}

static int run_scenario(const char *path)
{
  g_autoptr(GKeyFile) kf = g_key_file_new();
  GError *error = NULL;
  if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &error)) {
    int status = ns_cli_fail(g_error_new(NS_ERROR, NS_ERROR_INPUT, "%s: %s", path, error->message));
    g_error_free(error);
    return status;
  }
  g_autofree char *dir = g_path_get_dirname(path);
  g_autofree char *algorithms = g_key_file_get_string(kf, "scenario", "algorithms", NULL);
  g_autofree char *msizes = g_key_file_get_string(kf, "scenario", "msizes", NULL);
  g_autofree char *collective = g_key_file_get_string(kf, "scenario", "collective", NULL);
  g_autofree char *models = g_key_file_get_string(kf, "scenario", "models", NULL);
  g_autofree char *output_rel = g_key_file_get_string(kf, "scenario", "output", NULL);
  g_autofree char *description = g_key_file_get_string(kf, "scenario", "description", NULL);
  if (algorithms == NULL || output_rel == NULL) {
    fprintf(stderr, "netsched: %s: [scenario] needs 'algorithms' and 'output'\n", path);
    return 2;
  }
  g_autofree char *output = resolve(dir, output_rel);
  if (description != NULL)
    printf("scenario: %s\n", description);
  gsize n_groups = 0;
  g_auto(GStrv) groups = g_key_file_get_groups(kf, &n_groups);
  int worst = 0, runs = 0;
  for (gsize g = 0; g < n_groups; g++) {
    if (!g_str_has_prefix(groups[g], "topology "))
      continue;
    const char *name = groups[g] + strlen("topology ");
    g_autofree char *file_rel = g_key_file_get_string(kf, groups[g], "file", NULL);
    if (file_rel == NULL) {
      fprintf(stderr, "netsched: %s: [%s] needs 'file'\n", path, groups[g]);
      return 2;
    }
    g_autofree char *file = resolve(dir, file_rel);
    g_autofree char *own_models = g_key_file_get_string(kf, groups[g], "models", NULL);
    g_auto(GStrv) model_list = g_strsplit(own_models ? own_models : models ? models : "ideal", ",", -1);
    for (int m = 0; model_list[m] != NULL; m++) {
      const char *model = g_strstrip(model_list[m]);
      g_autofree char *out = g_strdup_printf("%s/%s-%s", output, name, model);
      printf("\n== topology %s (%s), model %s -> %s\n", name, file, model, out);
      fflush(stdout);
      NsCompareArgs args = { .topology = file, .collective = collective, .algorithms = algorithms,
                             .msizes = msizes, .model = (char *)model, .outdir = out,
                             .resume = TRUE };
      int status = ns_compare_run(&args); /* not inside MAX(): it evaluates twice */
      worst = MAX(worst, status);
      runs++;
    }
  }
  if (runs == 0) {
    fprintf(stderr, "netsched: %s: no [topology NAME] group\n", path);
    return 2;
  }
  return worst;
}

int ns_cmd_scenario(int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new("run SCENARIO.ini - run an experiment");
  GOptionEntry entries[] = { { NULL } };
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_summary(ctx, "Runs a declarative experiment: every [topology NAME] x model\n"
                                    "of the key file through 'netsched compare', resumably.");
  g_option_context_set_description(ctx, "Example:\n  netsched scenario run scenarios/faraj-yuan.ini\n"
                                        "The key file format is described in docs/scenarios.md.\n");
  gboolean parsed = ns_cli_parse(ctx, &argc, &argv);
  g_option_context_free(ctx);
  if (!parsed)
    return 2;
  if (argc != 3 || strcmp(argv[1], "run") != 0)
    return ns_cli_usage("scenario", "expected 'run SCENARIO.ini'");
  return run_scenario(argv[2]);
}
