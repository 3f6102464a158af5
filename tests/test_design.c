/* netsched — the design study engine (analysis/design_internal.h): which model may
 * name an algorithm, the summary, resume and retry, "what one change
 * buys", hardware counts and prices. Measurements are synthetic (a table
 * of times per model, label and design), so every expected number is
 * known exactly and no simulator runs. */
#include "analysis/design_internal.h"
#include "analysis/design_spec_internal.h"
#include "analysis/csv_internal.h"
#include "analysis/experiment_pattern_internal.h"
#include "analysis/scenario_internal.h"
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "testutil.h"
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* ---- synthetic measurements ------------------------------------------------ */

typedef struct {
  GHashTable *times;     /* "label/design/size" -> seconds (double*) */
  const char *fail_once; /* this label fails on its first call */
  double spread;         /* > 0: three runs, at (1 -+ spread) x the median */
  int calls;
  gboolean failed;
} Fake;

static gboolean fake_measure(const NsTopology *topo, const NsSchedule *s, const NsVariant *v,
                             uint64_t msize, const NsRowFacts *facts, NsMeasure *out, void *user,
                             GError **error)
{
  (void)facts;
  (void)s;
  Fake *f = user;
  f->calls++;
  if (f->fail_once != NULL && strcmp(v->label, f->fail_once) == 0 && !f->failed) {
    f->failed = TRUE;
    g_set_error(error, NS_ERROR, NS_ERROR_IO, "simulation stopped (synthetic)");
    return FALSE;
  }
  g_autofree char *key = g_strdup_printf("%s/%d/%d", v->label,
                                         MIN(ns_topology_n_switches(topo) - 1, 2), msize > 65536);
  const double *t = g_hash_table_lookup(f->times, key);
  g_assert_nonnull(t);
  *out = (NsMeasure){ .completion_s = *t, .throughput_bps = 1e9, .valid = TRUE };
  if (f->spread > 0)
    *out = (NsMeasure){ .completion_s = *t, .min_s = *t * (1 - f->spread),
                        .max_s = *t * (1 + f->spread), .runs = 3, .throughput_bps = 1e9,
                        .valid = TRUE };
  g_strlcpy(out->sync, "posted", sizeof out->sync);
  return TRUE;
}

/* Times of faraj, ring, simple and mpich on design d (its switches - 1,
 * at most 2) at size k. */
static void fake_set(Fake *f, int d, int k, double faraj, double ring, double simple,
                     double mpich)
{
  const char *labels[4] = { "faraj", "ring", "simple", "mpich" };
  double t[4] = { faraj, ring, simple, mpich };
  for (int i = 0; i < 4; i++) {
    double *x = g_new(double, 1);
    *x = t[i];
    g_hash_table_insert(f->times, g_strdup_printf("%s/%d/%d", labels[i], d, k), x);
  }
}

static void fake_init(Fake *f)
{
  *f = (Fake){ .times = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free) };
}

/* ---- a study of two designs: one switch, and two switches chained ---------- */

typedef struct {
  char *dir;
  NsDesign designs[3];     /* the third, three chained switches, when n_designs = 3 */
  NsDesignCollective coll;
  GArray *sizes;
  NsDesignModel models[2];
  Fake fakes[2];
  NsDesignSpec spec;
} Study;

static void study_init(Study *st, gboolean with_packet)
{
  memset(st, 0, sizeof *st);
  st->dir = g_dir_make_tmp("netsched-design-XXXXXX", NULL);
  g_assert_nonnull(st->dir);
  st->designs[0] = (NsDesign){ .name = "single", .description = "one switch",
                               .topo = ns_shape_star(8, 1e9, 1e-6) };
  st->designs[1] = (NsDesign){ .name = "chain", .topo = ns_shape_chain(2, 4, 1e9, 1e-6),
                               .versus = "single", .change = "a second switch" };
  st->designs[2] = (NsDesign){ .name = "chain3", .topo = ns_shape_chain(3, 4, 1e9, 1e-6) };
  GError *error = NULL;
  st->coll.collective = NS_COLL_ALLTOALL;
  st->coll.variants = ns_variants_parse("faraj,ring,simple,mpich", NS_COLL_ALLTOALL, &error);
  g_assert_no_error(error);
  st->sizes = ns_msizes_parse("msizes", "64KiB,128KiB", &error);
  g_assert_no_error(error);
  /* ideal, one switch: faraj and ring tie within 1 % at 64 KiB, faraj
   * is clearly first at 128 KiB; two switches: simple (which shares
   * links) is fastest. packet: faraj clearly first everywhere. */
  fake_init(&st->fakes[0]);
  fake_set(&st->fakes[0], 0, 0, 1.0, 1.005, 1.2, 1.3);
  fake_set(&st->fakes[0], 0, 1, 2.0, 3.0, 2.4, 2.6);
  fake_set(&st->fakes[0], 1, 0, 2.0, 2.2, 1.8, 2.5);
  fake_set(&st->fakes[0], 1, 1, 4.0, 4.4, 3.6, 5.0);
  fake_set(&st->fakes[0], 2, 0, 3.6, 4.0, 3.8, 4.2);
  fake_set(&st->fakes[0], 2, 1, 7.2, 8.0, 7.6, 8.4);
  fake_init(&st->fakes[1]);
  fake_set(&st->fakes[1], 0, 0, 1.0, 1.3, 2.5, 1.6);
  fake_set(&st->fakes[1], 0, 1, 2.0, 2.6, 5.0, 3.2);
  fake_set(&st->fakes[1], 1, 0, 4.0, 5.2, 10.0, 6.4);
  fake_set(&st->fakes[1], 1, 1, 8.0, 10.4, 20.0, 12.8);
  fake_set(&st->fakes[1], 2, 0, 1.05, 1.5, 3.0, 1.7);
  fake_set(&st->fakes[1], 2, 1, 2.5, 3.0, 6.0, 3.5);
  st->models[0] = (NsDesignModel){ .name = "ideal", .fluid = TRUE, .settings = "ideal",
                                   .measure_data = &st->fakes[0] };
  st->models[1] = (NsDesignModel){ .name = "packet", .fluid = FALSE, .settings = "packet",
                                   .measure_data = &st->fakes[1] };
  st->spec = (NsDesignSpec){
    .designs = st->designs, .n_designs = 2, .collectives = &st->coll, .n_collectives = 1,
    .sizes = st->sizes, .models = st->models, .n_models = with_packet ? 2 : 1,
    .measure = NULL, .outdir = st->dir, .one_collective_layout = TRUE,
  };
}

/* The measure function is per model: a trampoline picks the Fake. */
static gboolean measure(const NsTopology *topo, const NsSchedule *s, const NsVariant *v,
                        uint64_t msize, const NsRowFacts *facts, NsMeasure *out, void *user,
                        GError **error)
{
  return fake_measure(topo, s, v, msize, facts, out, user, error);
}

static void study_clear(Study *st)
{
  for (int d = 0; d < 3; d++)
    ns_topology_free(st->designs[d].topo);
  ns_variants_free(st->coll.variants);
  g_array_unref(st->sizes);
  for (int m = 0; m < 2; m++)
    g_hash_table_unref(st->fakes[m].times);
  g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", st->dir);
  g_assert_cmpint(system(cmd), ==, 0);
  g_free(st->dir);
}

static char *read_out(const Study *st, const char *name)
{
  g_autofree char *path = g_build_filename(st->dir, name, NULL);
  char *text = NULL;
  g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
  return text;
}

/* The summary.csv row of (model, design, size), split. */
static char **summary_row(const Study *st, const char *model, const char *design,
                          const char *size)
{
  g_autofree char *csv = read_out(st, "summary.csv");
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  g_auto(GStrv) header = ns_csv_split(lines[0]);
  g_assert_cmpstr(header[0], ==, "collective");
  g_assert_cmpstr(header[3], ==, "topology");
  for (int i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++) {
    char **f = ns_csv_split(lines[i]);
    g_assert_cmpuint(g_strv_length(f), ==, g_strv_length(header));
    if (strcmp(f[1], size) == 0 && strcmp(f[2], model) == 0 && strcmp(f[3], design) == 0)
      return f;
    g_strfreev(f);
  }
  g_assert_not_reached();
}

enum { S_RANKING = 5, S_FASTEST, S_TIED, S_FASTEST_S, S_FASTEST_RATIO, S_BEST_CF, S_BEST_CF_S,
       S_MPICH = 13, S_MPICH_S, S_SWITCHES = 20, S_CABLES };

/* Fluid only: a tie is not ranked, a fastest schedule that shares links
 * is not named, a contention-free one clearly ahead is. */
static void test_fluid_refuses_to_rank(void)
{
  Study st;
  study_init(&st, FALSE);
  st.spec.measure = measure;
  GError *error = NULL;
  g_assert_true(ns_design_study(&st.spec, &error));
  g_assert_no_error(error);
  g_auto(GStrv) tie = summary_row(&st, "ideal", "single", "65536");
  g_assert_cmpstr(tie[S_RANKING], ==, "tie");
  g_assert_cmpstr(tie[S_FASTEST], ==, "");
  g_assert_cmpstr(tie[S_TIED], ==, "faraj ring");
  g_assert_cmpfloat_with_epsilon(g_ascii_strtod(tie[S_FASTEST_S], NULL), 1.0, 1e-9);
  g_assert_cmpstr(tie[S_MPICH], ==, "mpich(pair)");
  g_auto(GStrv) named = summary_row(&st, "ideal", "single", "131072");
  g_assert_cmpstr(named[S_RANKING], ==, "named");
  g_assert_cmpstr(named[S_FASTEST], ==, "faraj");
  g_auto(GStrv) chain = summary_row(&st, "ideal", "chain", "65536");
  g_assert_cmpstr(chain[S_RANKING], ==, "shares-links");
  g_assert_cmpstr(chain[S_FASTEST], ==, "");
  g_assert_cmpstr(chain[S_TIED], ==, "simple");
  g_assert_cmpfloat_with_epsilon(g_ascii_strtod(chain[S_FASTEST_S], NULL), 1.8, 1e-9);
  g_assert_cmpstr(chain[S_BEST_CF], ==, "faraj");
  g_assert_cmpfloat_with_epsilon(g_ascii_strtod(chain[S_BEST_CF_S], NULL), 2.0, 1e-9);
  g_assert_cmpstr(chain[S_SWITCHES], ==, "2");
  g_assert_cmpstr(chain[S_CABLES], ==, "9");
  g_autofree char *report = read_out(&st, "report.md");
  g_assert_nonnull(strstr(report, "- **chain**:\n  - alltoall: 3.6 s, "));
  g_assert_nonnull(strstr(report, "no algorithm named: the fastest under the ideal model "
                                  "(fluid), simple, shares links"));
  g_assert_nonnull(strstr(report, "configure `faraj` (contention-free) — 2 s"));
  g_assert_nonnull(strstr(report, "MPICH default mpich(pair): 1.30x the fastest's time"));
  /* One change, under the only model, by the fastest verified schedules. */
  g_assert_nonnull(strstr(report, "- **chain** vs single (a second switch): alltoall 64KiB "
                                  "1.80x slower (ideal); alltoall 128KiB 1.80x slower (ideal)."));
  /* Every bar names its algorithm (a tie says so); MPICH's by its choice. */
  g_autofree char *dat = read_out(&st, "alltoall-ideal.dat");
  g_assert_nonnull(strstr(dat, " \"faraj (tie of 2)\" \"faraj\" \"mpich(pair)\" \"\"\n"));
  g_autofree char *gp = read_out(&st, "alltoall-ideal.gp");
  g_assert_nonnull(strstr(gp, "with labels"));
  /* The tallest bar of the first panel (chain's MPICH default, 2.5 s)
   * with 12 % headroom, not gnuplot's autoscale to the next tic. */
  g_assert_null(strstr(gp, "set yrange [0:*]"));
  g_assert_nonnull(strstr(gp, "set yrange [0:2800]\n"));
  /* The subtitle states the ratios the bars show, from the data. */
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
  const char *designs[] = { "single", "chain" }, *sizes[] = { "65536", "131072" };
  for (int d = 0; d < 2; d++)
    for (int k = 0; k < 2; k++) {
      g_auto(GStrv) row = summary_row(&st, "ideal", designs[d], sizes[k]);
      double r[2] = { g_ascii_strtod(row[S_FASTEST_RATIO], NULL),
                      g_ascii_strtod(row[S_BEST_CF + 2], NULL) };
      for (int i = 0; i < 2; i++) {
        lo[i] = MIN(lo[i], r[i]);
        hi[i] = MAX(hi[i], r[i]);
      }
    }
  g_autofree char *subtitle =
      g_strdup_printf("'fastest verified %.2f-%.2fx the bound; best contention-free "
                      "%.2f-%.2fx the bound'", lo[0], hi[0], lo[1], hi[1]);
  if (strstr(gp, subtitle) == NULL)
    g_error("no subtitle %s in\n%s", subtitle, gp);
  g_assert_null(strstr(gp, "contention-free schedules tie"));
  study_clear(&st);
}

/* With the packet model, the report names its fastest and says which
 * model ranked it; the fluid rows are still reported. */
static void test_packet_names(void)
{
  Study st;
  study_init(&st, TRUE);
  st.spec.measure = measure;
  GError *error = NULL;
  g_assert_true(ns_design_study(&st.spec, &error));
  g_assert_no_error(error);
  g_auto(GStrv) chain = summary_row(&st, "packet", "chain", "131072");
  g_assert_cmpstr(chain[S_RANKING], ==, "named");
  g_assert_cmpstr(chain[S_FASTEST], ==, "faraj");
  g_assert_cmpfloat_with_epsilon(g_ascii_strtod(chain[S_FASTEST_S], NULL), 8.0, 1e-9);
  g_autofree char *report = read_out(&st, "report.md");
  g_assert_nonnull(strstr(report, "configure `faraj` (contention-free) — 8 s"));
  g_assert_nonnull(strstr(report, "(packet model)"));
  g_assert_nonnull(strstr(report, "MPICH default mpich(pair): 1.60x the fastest's time"));
  g_assert_nonnull(strstr(report, "Fastest under packet: **single** 2 s; chain 8 s (4.00x "
                                  "single's time)."));
  /* packet is the common model: 4x */
  g_assert_nonnull(strstr(report, "alltoall 64KiB 4.00x slower (packet)"));
  g_autofree char *plot = read_out(&st, "alltoall-packet.dat");
  g_assert_nonnull(strstr(plot, "\"chain\" "));
  study_clear(&st);
}

/* With several packet runs, the packet model names the fastest only when
 * its runs are apart from every other schedule's. */
static void test_packet_runs_overlap(void)
{
  Study st;
  study_init(&st, TRUE);
  st.spec.measure = measure;
  st.fakes[1].spread = 0.1;
  fake_set(&st.fakes[1], 0, 0, 1.0, 1.1, 2.5, 1.6); /* ring's runs reach 0.99 < 1.1 */
  GError *error = NULL;
  g_assert_true(ns_design_study(&st.spec, &error));
  g_assert_no_error(error);
  g_auto(GStrv) tie = summary_row(&st, "packet", "single", "65536");
  g_assert_cmpstr(tie[S_RANKING], ==, "tie");
  g_assert_cmpstr(tie[S_TIED], ==, "faraj ring");
  g_auto(GStrv) apart = summary_row(&st, "packet", "single", "131072"); /* ring 2.6: 2.34 > 2.2 */
  g_assert_cmpstr(apart[S_RANKING], ==, "named");
  g_assert_cmpstr(apart[S_FASTEST], ==, "faraj");
  g_autofree char *csv = read_out(&st, "design.csv");
  g_assert_nonnull(strstr(csv, ",runs,completion_min_s,completion_max_s,status\n"));
  g_assert_nonnull(strstr(csv, ",3,0.900000000,1.100000000,ok\n"));
  g_autofree char *report = read_out(&st, "report.md");
  g_assert_nonnull(strstr(report, "| single | packet | 3.67 ms | tie: faraj, ring | 1 s |"));
  g_assert_nonnull(strstr(report, "| single | packet | 7.34 ms | faraj | 2 s |"));
  study_clear(&st);
}

/* Designs whose packet runs overlap are not ranked: "fastest" only
 * outside the run-to-run spread. */
static void test_designs_tie_within_spread(void)
{
  Study st;
  study_init(&st, TRUE);
  st.spec.n_designs = 3;
  st.spec.measure = measure;
  st.fakes[1].spread = 0.1; /* single's faraj 0.9-1.1 s, chain3's 0.945-1.155 s */
  GError *error = NULL;
  g_assert_true(ns_design_study(&st.spec, &error));
  g_assert_no_error(error);
  g_autofree char *report = read_out(&st, "report.md");
  const char *want =
      "Fastest under packet: tie within run-to-run spread between **single** 1 s (3 runs: "
      "900 ms to 1.1 s) and **chain3** 1.05 s (1.05x single's time; 3 runs: 945 ms to 1.155 s); "
      "then chain 4 s (4.00x single's time; 3 runs: 3.6 s to 4.4 s).\n";
  if (strstr(report, want) == NULL)
    g_error("no '%s' in\n%s", want, report);
  /* 128 KiB: chain3's runs (2.25-2.75 s) are apart from single's (1.8-2.2 s) */
  g_assert_nonnull(strstr(report, "Fastest under packet: **single** 2 s (3 runs: 1.8 s to 2.2 s); "
                                  "chain3 2.5 s (1.25x single's time; 3 runs: 2.25 s to 2.75 s)"));
  study_clear(&st);
}

/* design.csv holds every row with its topology, collective and model. */
static void test_design_csv(void)
{
  Study st;
  study_init(&st, TRUE);
  st.spec.measure = measure;
  GError *error = NULL;
  g_assert_true(ns_design_study(&st.spec, &error));
  g_autofree char *csv = read_out(&st, "design.csv");
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  g_assert_true(g_str_has_prefix(lines[0], "topology,collective,model,label,algorithm,"));
  /* 2 designs x 2 models x 4 labels x 2 sizes */
  g_assert_cmpuint(g_strv_length(lines), ==, 1 + 32 + 1);
  int chain_packet = 0;
  for (int i = 1; lines[i][0] != '\0'; i++) {
    g_auto(GStrv) f = ns_csv_split(lines[i]);
    g_assert_cmpstr(f[1], ==, "alltoall");
    chain_packet += strcmp(f[0], "chain") == 0 && strcmp(f[2], "packet") == 0;
  }
  g_assert_cmpint(chain_packet, ==, 8);
  study_clear(&st);
}

/* A second run measures nothing; --retry-failed reruns exactly the row
 * that failed. */
/* Every design is ranked against the fastest one, not against the one
 * before it; a fluid model's designs within 1 % share first place. */
static void test_ranking_against_fastest(void)
{
  Study st;
  study_init(&st, FALSE);
  st.spec.n_designs = 3;
  st.spec.measure = measure;
  fake_set(&st.fakes[0], 2, 1, 2.01, 3.0, 2.5, 2.6); /* chain3 at 128 KiB: 0.5 % behind single */
  GError *error = NULL;
  g_assert_true(ns_design_study(&st.spec, &error));
  g_assert_no_error(error);
  g_autofree char *report = read_out(&st, "report.md");
  const char *want[] = {
    "Fastest under ideal: **single** 1 s; chain 1.8 s (1.80x single's time); chain3 3.6 s "
    "(3.60x single's time).\n",
    "Fastest under ideal: tie within 1 % (a fluid model's times) between **single** 2 s and "
    "**chain3** 2.01 s (1.00x single's time); then chain 3.6 s (1.80x single's time).\n",
  };
  for (gsize i = 0; i < G_N_ELEMENTS(want); i++)
    if (strstr(report, want[i]) == NULL)
      g_error("no '%s' in\n%s", want[i], report);
  g_assert_null(strstr(report, "slower than"));
  study_clear(&st);
}

static void test_resume_and_retry(void)
{
  Study st;
  study_init(&st, FALSE);
  st.spec.measure = measure;
  st.fakes[0].fail_once = "ring";
  GError *error = NULL;
  g_assert_true(ns_design_study(&st.spec, &error));
  int first = st.fakes[0].calls;
  g_assert_cmpint(first, ==, 16);
  g_assert_true(ns_design_study(&st.spec, &error));
  g_assert_cmpint(st.fakes[0].calls, ==, first); /* resumed: nothing run */
  g_auto(GStrv) before = summary_row(&st, "ideal", "single", "65536");
  g_assert_true(strstr(before[S_TIED], "ring") == NULL); /* its one row failed */
  st.spec.retry_failed = TRUE;
  g_assert_true(ns_design_study(&st.spec, &error));
  g_assert_no_error(error);
  g_assert_cmpint(st.fakes[0].calls, ==, first + 1);
  g_assert_true(ns_design_study(&st.spec, &error));
  g_assert_cmpint(st.fakes[0].calls, ==, first + 1); /* the retried row is kept now */
  g_autofree char *csv = read_out(&st, "design.csv");
  g_assert_null(strstr(csv, "synthetic")); /* the failed attempt is superseded */
  study_clear(&st);
}

static void test_bad_designs(void)
{
  Study st;
  study_init(&st, FALSE);
  st.spec.measure = measure;
  GError *error = NULL;
  st.designs[1].versus = "nowhere";
  g_assert_false(ns_design_study(&st.spec, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_nonnull(strstr(error->message, "versus 'nowhere'"));
  g_clear_error(&error);
  st.designs[1].versus = NULL;
  st.designs[1].name = "single";
  g_assert_false(ns_design_study(&st.spec, &error));
  g_assert_nonnull(strstr(error->message, "given twice"));
  g_clear_error(&error);
  st.designs[1].name = "../x";
  g_assert_false(ns_design_study(&st.spec, &error));
  g_assert_nonnull(strstr(error->message, "design name"));
  g_clear_error(&error);
  st.designs[1].name = "chain";
  st.coll.root = "n99";
  g_assert_false(ns_design_study(&st.spec, &error));
  g_assert_nonnull(strstr(error->message, "root 'n99'"));
  g_clear_error(&error);
  study_clear(&st);
}

static void test_names(void)
{
  const char *good[] = { "a", "leaves-10g", "fat.tree_4", "X9" };
  const char *bad[] = { "", ".hidden", "-x", "a b", "a/b", "a'b", "$(x)", "é" };
  for (gsize i = 0; i < G_N_ELEMENTS(good); i++)
    g_assert_true(ns_design_name_valid(good[i]));
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++)
    g_assert_false(ns_design_name_valid(bad[i]));
  char long_name[66];
  memset(long_name, 'a', 65);
  long_name[65] = '\0';
  g_assert_false(ns_design_name_valid(long_name));
  long_name[64] = '\0';
  g_assert_true(ns_design_name_valid(long_name));
}

/* ---- hardware and prices ------------------------------------------------------ */

static void test_hardware(void)
{
  GError *error = NULL;
  struct {
    const char *spec;
    NsHardware want;
  } cases[] = {
    { "star:16", { 1, 16, 16, 16 } },
    { "tree:4,4", { 5, 20, 24, 16 } },      /* 16 machine links + 4 uplinks */
    { "chain:2,32", { 2, 65, 66, 64 } },
    { "fattree:4,3", { 48, 192, 320, 64 } }, /* 3 levels of 16 switches, 64 links each */
    { "torus:8x8", { 0, 128, 0, 256 } },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(NsTopology) t = ns_shape_from_spec(cases[i].spec, &error);
    g_assert_no_error(error);
    NsHardware hw;
    ns_design_hardware(t, &hw);
    g_assert_cmpint(hw.switches, ==, cases[i].want.switches);
    g_assert_cmpint(hw.cables, ==, cases[i].want.cables);
    g_assert_cmpint(hw.switch_ports, ==, cases[i].want.switch_ports);
    g_assert_cmpint(hw.nic_ports, ==, cases[i].want.nic_ports);
  }
}

static char *write_temp(const char *text)
{
  char *path = NULL;
  int fd = g_file_open_tmp("netsched-prices-XXXXXX.ini", &path, NULL);
  g_assert_cmpint(fd, >=, 0);
  close(fd);
  g_assert_true(g_file_set_contents(path, text, -1, NULL));
  return path;
}

static void test_prices(void)
{
  GError *error = NULL;
  g_autofree char *good = write_temp("[prices]\ncurrency = EUR\nswitch = 1000\n"
                                     "switch-port = 1Gbps:40, 10Gbps:300\n"
                                     "nic-port = 1Gbps:30\ncable = 1Gbps:5,10Gbps:60\n");
  g_autoptr(NsPrices) p = ns_prices_load(good, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(ns_prices_currency(p), ==, "EUR");
  /* tree:4,4, 1G machine links, 10G uplinks: 5 switches; 16 machine links
   * (switch port 40, nic 30, cable 5) and 4 uplinks (2 ports x 300, cable 60). */
  g_autoptr(NsTopology) t = ns_shape_from_spec("tree:4,4:bandwidth=1Gbps:uplink=10Gbps", &error);
  g_assert_no_error(error);
  double cost = 0;
  g_assert_true(ns_design_cost(p, t, &cost, &error));
  g_assert_cmpfloat_with_epsilon(cost, 5 * 1000 + 16 * (40 + 30 + 5) + 4 * (600 + 60), 1e-9);
  /* a torus needs 10G NIC ports, which are not priced */
  g_autoptr(NsTopology) torus = ns_shape_from_spec("torus:4x4:bandwidth=10Gbps", &error);
  g_assert_false(ns_design_cost(p, torus, &cost, &error));
  g_assert_nonnull(strstr(error->message, "no 'nic-port' price for 10Gbps links"));
  g_clear_error(&error);

  /* A chassis by its ports in use: the core has 4, each leaf 5 (4
   * machines and the uplink); a design's file overrides key by key. */
  g_autofree char *chassis = write_temp("[prices]\nswitch = 8:300, 4:100\n");
  g_autoptr(NsPrices) by_ports = ns_prices_load_over(p, chassis, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(ns_prices_currency(by_ports), ==, "EUR");
  g_assert_true(ns_design_cost(by_ports, t, &cost, &error));
  g_assert_cmpfloat_with_epsilon(cost, 100 + 4 * 300 + 16 * (40 + 30 + 5) + 4 * (600 + 60), 1e-9);
  g_autofree char *small = write_temp("[prices]\nswitch = 4:100\n");
  g_autoptr(NsPrices) too_small = ns_prices_load(small, &error);
  g_assert_no_error(error);
  g_assert_false(ns_design_cost(too_small, t, &cost, &error));
  g_assert_nonnull(strstr(error->message, "has 5 ports; the largest chassis of the 'switch' "
                                          "prices has 4"));
  g_clear_error(&error);
  g_remove(chassis);
  g_remove(small);
  g_remove(good);

  const char *bad[][2] = {
    { "[prices]\nswitch = -1\n", ":2: switch: price '-1' is not a number >= 0" },
    { "[prices]\nswitch = 8:10, 20\n", ":2: switch: '20' is not PORTS:PRICE" },
    { "[prices]\nswitch = 0:10\n", ":2: switch: ports '0' is not a whole number" },
    { "[prices]\nswitch = 8:1, 8:2\n", ":2: switch: 8 ports are priced twice" },
    { "[prices]\ncable = 1Gbps\n", ":2: cable: '1Gbps' is not SPEED:PRICE" },
    { "[prices]\ncable = fast:3\n", ":2: cable: speed 'fast'" },
    { "[prices]\ncable = 1Gbps:3, 1Gbps:4\n", "priced twice" },
    { "[prices]\nswitchport = 1Gbps:3\n", ":2: unknown key 'switchport'" },
    { "[price]\nswitch = 1\n", ":1: unknown group [price]" },
    { "# nothing\n", "no [prices] group" },
    /* #18.11: once summed to a cost of inf */
    { "[prices]\nswitch = 1e308\n", ":2: switch: price '1e308' is above the limit of 1e12 per item" },
    { "[prices]\ncable = 1Gbps:2e12\n", ":2: cable: price '2e12' is above the limit of 1e12 per item" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *path = write_temp(bad[i][0]);
    g_assert_null(ns_prices_load(path, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    if (strstr(error->message, bad[i][1]) == NULL)
      g_error("%s: got '%s', want '%s'", bad[i][0], error->message, bad[i][1]);
    g_clear_error(&error);
    g_remove(path);
  }
}

/* #18.11: scenario values are refused with file:line when the file is read
 * (msizes once failed later without a line; wall-limit = 1e400 was taken). */
static void test_scenario_values(void)
{
  const char *bad[][2] = {
    { "[scenario]\noutput = o\nmsizes = 8KiB..4KiB\n[topology t]\nfile = gen:star:4\n",
      ":3: msizes" },
    { "[scenario]\noutput = o\nwall-limit = 1e400\n[topology t]\nfile = gen:star:4\n",
      ":3: wall-limit '1e400': expected seconds > 0 and at most 1e9" },
    { "[scenario]\noutput = o\nwall-limit = inf\n[topology t]\nfile = gen:star:4\n",
      ":3: wall-limit 'inf': expected seconds > 0 and at most 1e9" },
    { "[scenario]\noutput = o\nwall-limit = 1e10\n[topology t]\nfile = gen:star:4\n",
      ":3: wall-limit '1e10': expected seconds > 0 and at most 1e9" },
  };
  GError *error = NULL;
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *path = write_temp(bad[i][0]);
    g_assert_null(ns_scenario_load(path, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_autofree char *want = g_strconcat(path, bad[i][1], NULL);
    if (!g_str_has_prefix(error->message, want))
      g_error("%s: got '%s', want '%s...'", bad[i][0], error->message, want);
    g_clear_error(&error);
    g_remove(path);
  }
  /* models: where the key is, for the CLI's messages */
  g_autofree char *path = write_temp("[scenario]\noutput = o\nmodels = ideal,nosuch\n"
                                     "[collective bcast]\n[topology a]\nfile = gen:star:4\n"
                                     "[topology b]\nfile = gen:star:4\nmodels = tcp\n");
  g_autoptr(NsScenario) s = ns_scenario_load(path, &error);
  g_assert_no_error(error);
  g_autofree char *want_a = g_strconcat(path, ":3", NULL), *want_b = g_strconcat(path, ":9", NULL);
  g_assert_cmpstr(g_array_index(s->topologies, NsScenarioTopology, 0).models_where, ==, want_a);
  g_assert_cmpstr(g_array_index(s->topologies, NsScenarioTopology, 1).models_where, ==, want_b);
  g_remove(path);
}

/* ---- the study built from a scenario (analysis/design_spec_internal.h) ---------------- */

static NsTopology *spec_load(const char *file, const char *format, const char *spanning,
                             void *user, GError **error)
{
  (void)format; (void)spanning; (void)user;
  if (!g_str_has_prefix(file, "gen:")) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "%s: no such file", file);
    return NULL;
  }
  return ns_shape_from_spec(file + 4, error);
}

static const char *spec_model_name(const char *name, void *user, GError **error)
{
  (void)user;
  if (strcmp(name, "ideal") == 0 || strcmp(name, "packet") == 0)
    return strcmp(name, "ideal") == 0 ? "ideal" : "packet";
  g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "unknown network model '%s'", name);
  return NULL;
}

static gboolean spec_model(const char *name, const NsScenario *sc, int index,
                           NsDesignModel *model, void *user, GError **error)
{
  (void)sc;
  int *calls = user;
  const char *canonical = spec_model_name(name, user, error);
  if (canonical == NULL)
    return FALSE;
  g_assert_cmpint(index, ==, (*calls)++);
  *model = (NsDesignModel){ .name = g_strdup(canonical),
                            .fluid = strcmp(canonical, "packet") != 0,
                            .settings = g_strdup_printf("model=%s", canonical) };
  return TRUE;
}

static void test_spec_build(void)
{
  int calls = 0;
  NsDesignHooks hooks = { .load_topology = spec_load, .model = spec_model,
                          .model_name = spec_model_name, .measure = fake_measure,
                          .user = &calls };
  g_autofree char *path = write_temp("[scenario]\noutput = o\nmodels = ideal,packet\n"
                                     "[collective alltoall]\nalgorithms = ring,pair\n"
                                     "[topology a]\nfile = gen:star:4\n"
                                     "[topology b]\nfile = gen:star:4\nmodels = packet\n");
  GError *error = NULL;
  g_autoptr(NsScenario) sc = ns_scenario_load(path, &error);
  g_assert_no_error(error);
  NsDesignSpec spec;
  NsDesignStudy *study = ns_design_study_build(sc, &hooks, &spec, &error);
  g_assert_no_error(error);
  g_assert_nonnull(study);
  /* the models: the union of the designs' lists, in order; each design's mask */
  g_assert_cmpint(calls, ==, 2);
  g_assert_cmpint(spec.n_models, ==, 2);
  g_assert_cmpstr(spec.models[0].name, ==, "ideal");
  g_assert_true(spec.models[0].fluid);
  g_assert_cmpstr(spec.models[1].name, ==, "packet");
  g_assert_false(spec.models[1].fluid);
  g_assert_cmpint(spec.n_designs, ==, 2);
  g_assert_cmpstr(spec.designs[0].name, ==, "a");
  g_assert_cmpuint(spec.designs[0].model_mask, ==, 3);
  g_assert_cmpuint(spec.designs[1].model_mask, ==, 2);
  g_assert_cmpint(ns_topology_n_machines(spec.designs[1].topo), ==, 4);
  /* the variants listed, then the MPI defaults a cluster gets out of the box */
  g_assert_cmpint(spec.n_collectives, ==, 1);
  g_assert_true(spec.one_collective_layout);
  const GArray *v = spec.collectives[0].variants;
  const char *want[] = { "ring", "pair", "mpich", "ompi" };
  g_assert_cmpuint(v->len, ==, G_N_ELEMENTS(want));
  for (guint i = 0; i < v->len; i++)
    g_assert_cmpstr(g_array_index(v, NsVariant, i).label, ==, want[i]);
  g_assert_cmpuint(spec.sizes->len, ==, 6); /* 8KiB..256KiB */
  g_assert_true(spec.measure == fake_measure);
  g_assert_cmpstr(spec.outdir, ==, sc->output);
  ns_design_study_free(study);
  g_remove(path);

  /* every error names the file:line it comes from */
  const char *bad[][2] = {
    { "[scenario]\noutput = o\n[topology a]\nfile = gen:star:4\nmodels = ideal,nosuch\n"
      "[collective alltoall]\n", ":5: unknown network model 'nosuch'" },
    { "[scenario]\noutput = o\n[topology a]\nfile = gen:star:4\n[topology b]\nfile = b.topo\n"
      "[collective alltoall]\n", ":5: [topology b]: " },
    { "[scenario]\noutput = o\n[collective bcast]\nsegment = 12x\n[topology a]\n"
      "file = gen:star:4\n", "segment '12x': " },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *p = write_temp(bad[i][0]);
    g_autoptr(NsScenario) x = ns_scenario_load(p, &error);
    g_assert_no_error(error);
    calls = 0;
    g_assert_null(ns_design_study_build(x, &hooks, &spec, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_autofree char *prefixed = g_strconcat(p, bad[i][1], NULL);
    if (!g_str_has_prefix(error->message, bad[i][1][0] == ':' ? prefixed : bad[i][1]))
      g_error("%s: got '%s', want '%s...'", bad[i][0], error->message, bad[i][1]);
    g_clear_error(&error);
    g_remove(p);
  }
}

/* An smpi: baseline's row plans the collective's reference schedule for
 * its bound: a planner registered for every collective (reduce has no
 * "simple", which failed every reduce and allreduce baseline row). */
static void test_reference_planners(void)
{
  static const char *const want[] = { "simple", "simple", "flat", "flat",
                                      "reduce-bcast", "simple", "simple" };
  for (int c = NS_COLL_ALLTOALL; c <= NS_COLL_ALLGATHERV; c++) {
    const char *name = ns_variant_reference_planner((NsCollective)c);
    g_assert_cmpstr(name, ==, want[c - NS_COLL_ALLTOALL]);
    if (ns_planner_find((NsCollective)c, name) == NULL)
      g_error("%s/%s: not registered", ns_collective_name((NsCollective)c), name);
  }
}

/* The size-pattern axis of compare, design, sweep and scenarios: which
 * spellings scale with the message size, the whole spec each makes, the
 * refusals, and the content digest that keys a row (checked against a
 * SHA-256 computed apart: header line, then the counts as little-endian
 * 64-bit words). */
static void test_pattern_axis(void)
{
  const char *scaled[] = { "uniform", "random:0.5,7", "nas-is:3" };
  const char *fixed[] = { "uniform:1KiB", "random:1KiB,0.5,7", "nas-is:100,3", "uniform.pat",
                          "random:0.5", "is.pat" };
  for (gsize i = 0; i < G_N_ELEMENTS(scaled); i++)
    g_assert_true(ns_pattern_axis_scaled(scaled[i]));
  for (gsize i = 0; i < G_N_ELEMENTS(fixed); i++)
    g_assert_false(ns_pattern_axis_scaled(fixed[i]));
  const struct {
    const char *text;
    NsCollective c;
    int p;
    uint64_t msize;
    const char *spec;
  } specs[] = {
    { "uniform", NS_COLL_ALLTOALLV, 4, 1024, "uniform:1024B" },
    { "random:0.5,7", NS_COLL_ALLTOALLV, 8, 65536, "random:65536B,0.5,7" },
    { "nas-is:3", NS_COLL_ALLTOALLV, 32, 16384, "nas-is:131072,3" },
    { "nas-is:3", NS_COLL_ALLGATHERV, 32, 16384, "nas-is:4096,3" },
    { "nas-is:3", NS_COLL_ALLGATHERV, 4, 2, "nas-is:1,3" },
    { "uniform:1KiB", NS_COLL_ALLTOALLV, 4, 65536, "uniform:1KiB" },
    { "is.pat", NS_COLL_ALLTOALLV, 4, 65536, "is.pat" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autofree char *spec = ns_pattern_axis_spec(specs[i].text, specs[i].c, specs[i].p,
                                                 specs[i].msize);
    g_assert_cmpstr(spec, ==, specs[i].spec);
  }
  GError *error = NULL;
  g_autoptr(NsSizePattern) u = ns_pattern_axis_at("uniform", "--pattern", NS_COLL_ALLTOALLV, 4,
                                                  1024, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(ns_size_pattern_total(u), ==, 12 * 1024);
  /* a scaled generator's error names what was written and the size */
  g_assert_null(ns_pattern_axis_at("random:2,1", "pattern", NS_COLL_ALLTOALLV, 4, 8192, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==,
                  "pattern random:2,1 at 8KiB (random:8192B,2,1): SKEW '2' is not a number "
                  "from 0 to 1");
  g_clear_error(&error);
  /* nas-is at a size whose key count passes the limit: refused, not wrapped */
  g_assert_null(ns_pattern_axis_at("nas-is:3", "--pattern", NS_COLL_ALLTOALLV, 32,
                                   UINT64_C(1) << 40, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==,
                  "--pattern nas-is:3 at 1TiB (nas-is:268435457,3): KEYS '268435457' is not a "
                  "whole number from 1 to 268435456");
  g_clear_error(&error);
  /* the refusals, before anything runs */
  g_autoptr(GArray) one = ns_msizes_parse("-m", "64KiB", &error);
  g_autoptr(GArray) two = ns_msizes_parse("-m", "8KiB,64KiB", &error);
  g_assert_no_error(error);
  g_assert_true(ns_pattern_axis_check(NULL, NS_COLL_ALLTOALL, two, "--pattern", &error));
  g_assert_true(ns_pattern_axis_check("uniform", NS_COLL_ALLGATHERV, two, "--pattern", &error));
  g_assert_true(ns_pattern_axis_check("is.pat", NS_COLL_ALLTOALLV, one, "--pattern", &error));
  g_assert_no_error(error);
  const struct {
    const char *text;
    NsCollective c;
    const char *message;
  } bad[] = {
    { "uniform", NS_COLL_ALLTOALL,
      "--pattern: only alltoallv and allgatherv take a size pattern (not alltoall)" },
    { NULL, NS_COLL_ALLTOALLV,
      "--pattern: alltoallv needs a size pattern: uniform, random:SKEW,SEED or nas-is:SEED "
      "(scaled to every message size), or a file or a whole generator spec with one message "
      "size" },
    { "is.pat", NS_COLL_ALLTOALLV,
      "--pattern: 'is.pat' fixes every size, so it goes with one message size, not 2 (or "
      "scale a generator with the sizes: uniform, random:SKEW,SEED, nas-is:SEED)" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_assert_false(ns_pattern_axis_check(bad[i].text, bad[i].c, two, "--pattern", &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_assert_cmpstr(error->message, ==, bad[i].message);
    g_clear_error(&error);
  }
  /* the digest: the counts', computed apart; another seed, another digest */
  g_autoptr(NsSizePattern) two_machines =
      ns_size_pattern_generate("uniform:1KiB", NS_COLL_ALLTOALLV, 2, &error);
  g_assert_no_error(error);
  g_autofree char *d = ns_pattern_axis_digest(two_machines);
  g_assert_cmpstr(d, ==, "c2bedcfe657acfad0dbc9c82ec344860aee3036a01011965d88f2c0a19f95fef");
  g_autoptr(NsSizePattern) r7 =
      ns_pattern_axis_at("random:0.5,7", "--pattern", NS_COLL_ALLTOALLV, 4, 4096, &error);
  g_autoptr(NsSizePattern) r7b =
      ns_pattern_axis_at("random:0.5,7", "--pattern", NS_COLL_ALLTOALLV, 4, 4096, &error);
  g_autoptr(NsSizePattern) r8 =
      ns_pattern_axis_at("random:0.5,8", "--pattern", NS_COLL_ALLTOALLV, 4, 4096, &error);
  g_assert_no_error(error);
  g_autofree char *d7 = ns_pattern_axis_digest(r7), *d7b = ns_pattern_axis_digest(r7b);
  g_autofree char *d8 = ns_pattern_axis_digest(r8);
  g_assert_cmpstr(d7, ==, d7b);
  g_assert_cmpstr(d7, !=, d8);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/design/scenario-values", test_scenario_values);
  g_test_add_func("/design/fluid-refuses-to-rank", test_fluid_refuses_to_rank);
  g_test_add_func("/design/packet-names", test_packet_names);
  g_test_add_func("/design/design-csv", test_design_csv);
  g_test_add_func("/design/packet-runs-overlap", test_packet_runs_overlap);
  g_test_add_func("/design/ranking-against-fastest", test_ranking_against_fastest);
  g_test_add_func("/design/designs-tie-within-spread", test_designs_tie_within_spread);
  g_test_add_func("/design/resume-and-retry", test_resume_and_retry);
  g_test_add_func("/design/bad-designs", test_bad_designs);
  g_test_add_func("/design/names", test_names);
  g_test_add_func("/design/hardware", test_hardware);
  g_test_add_func("/design/prices", test_prices);
  g_test_add_func("/design/spec-build", test_spec_build);
  g_test_add_func("/design/reference-planners", test_reference_planners);
  g_test_add_func("/design/pattern-axis", test_pattern_axis);
  return g_test_run();
}
