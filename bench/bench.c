/* SPDX-License-Identifier: MIT */
/* Benchmark: per input, the library's stages and the closest spirv-opt pipelines, timed in the same
 * run. Each stage runs in a fresh process (this program again, with --child), which reads its input
 * file itself, so its peak RSS is the input plus what the library allocates (reported also beyond a
 * constant: the stage's RSS on a minimal module plus one 2 MB huge page): one warm-up, then the
 * median of --inner calls, all in one context, as a JIT compiler keeps one (its heap keeps the pages
 * of one call for the next; --fresh-context makes a context per call instead; --cold empties the
 * caches before each timed call). The machine we measure on changes speed by up to 2x within minutes, so the
 * stages and the references are timed in --runs interleaved rounds (for every module in turn, every
 * stage, then every reference, once a round; so modules of all sizes meet the same phases and their
 * times per MB compare): a stage's time is the median over rounds, its ratio the median of the rounds'
 * ratios (each from timings seconds apart); the fastest round is kept too, as the machine's
 * disturbances only ever slow a run down. Prints a table and writes CSV.
 *
 *   bench [--runs N] [--inner N] [--csv FILE] [--no-spirv-opt] [--opt-max-mb MB] [--fresh-context | --cold]
 *         MODULE.spv...
 *   bench --child STAGE RUNS FILE [fresh|cold]   (one stage on one file; also the entry point for profiling)
 *
 * Stages: parse (read + index), emit (parse + emit without edits), annotate (parse + annotate + emit),
 * specialize-<device> (parse of the annotated module + specialize + emit), validate (parse + validate
 * of the annotated module). References, timed in the same run on the original module (bookworm's
 * SPIRV-Tools cannot load the annotated one): spirv-opt `--skip-validation` (load + store) against
 * parse and emit; `--skip-validation --freeze-spec-const --fold-spec-const-op-composite
 * --eliminate-dead-functions` against annotate and specialize; spirv-val against validate. Modules
 * over --opt-max-mb (default 30) skip them, as spirv-opt needs minutes for those. */
#include <spvcond/spvcond.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "spirv_names.h"
#include "spirv_words.h"
#include <time.h>
#include <unistd.h>

enum stage { PARSE, EMIT, ANNOTATE, SPECIALIZE_A, SPECIALIZE_B, VALIDATE, STAGES };
static const char *const stage_names[STAGES] = {"parse", "emit", "annotate", "specialize-acm_g10",
                                                "specialize-pvc", "validate"};
static const char *const devices[2] = {"intel_gpu_acm_g10", "intel_gpu_pvc"};

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int
compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void *
read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *buf = n > 0 ? malloc((size_t)n) : NULL;
    *size = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    return buf;
}

/* One run of a stage on its input (the annotated module for specialize and validate), in `shared` (a
 * context kept over the calls, as a JIT compiler keeps one) or, if NULL, in a context of its own. */
static int
run_stage(spvcond_context *shared, enum stage s, const uint32_t *words, size_t count)
{
    spvcond_context *ctx = shared;
    spvcond_module *m;
    if (!ctx && spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 1;
    uint32_t flags = SPVCOND_PARSE_BORROW | (s == ANNOTATE ? SPVCOND_PARSE_FOR_ANNOTATE : 0);
    int rc = spvcond_module_parse(ctx, words, count, flags, &m) != SPVCOND_OK;
    if (!rc && s != PARSE) {
        spvcond_result r = SPVCOND_OK;
        if (s == ANNOTATE) {
            spvcond_annotate_options o = {0};
            r = spvcond_annotate(m, &o, NULL);
        } else if (s == SPECIALIZE_A || s == SPECIALIZE_B) {
            spvcond_device_info d;
            spvcond_spec_value *v = NULL;
            size_t nv = 0;
            spvcond_builtin_device_find(devices[s - SPECIALIZE_A], &d);
            r = spvcond_device_spec_values(m, &d, &v, &nv);
            spvcond_specialize_options o = {v, nv, NULL, 0};
            if (r == SPVCOND_OK)
                r = spvcond_specialize(m, &o, NULL);
            spvcond_free(ctx, v);
        } else if (s == VALIDATE) {
            r = spvcond_validate(m, NULL);
        }
        if (r == SPVCOND_OK && s != VALIDATE) {
            uint32_t *out;
            size_t on;
            r = spvcond_module_emit(m, &out, &on);
            spvcond_free(ctx, out);
        }
        rc = r != SPVCOND_OK;
    }
    if (m)
        spvcond_module_destroy(m);
    if (!shared)
        spvcond_context_destroy(ctx);
    return rc;
}

struct measure {
    double median_ms;
    long rss_kb;
    int ok;
};

/* --cold: the caches emptied of the input and the library's tables before each timed call, by
 * writing a buffer larger than the last-level cache (this machine's holds about 64 MB: reading a
 * buffer in it ran at 28 GB/s, past 128 MB at 13-16), so that modules of every size are timed from
 * memory, as a module too large for the caches always is. */
#define EVICT_BYTES ((size_t)512 << 20)

static void
evict_caches(void)
{
    static unsigned char *buffer;
    static unsigned char round;
    if (!buffer && !(buffer = malloc(EVICT_BYTES)))
        return;
    memset(buffer, ++round, EVICT_BYTES);
}

/* Median of a warm-up plus `runs` timed calls of fn(arg); with `cold`, the caches emptied before each. */
static double
median_ms(int runs, int (*fn)(void *), void *arg, bool cold, int *ok)
{
    double *t = calloc((size_t)runs, sizeof(double));
    if (!t)
        return (*ok = 0), 0;
    *ok = fn(arg) == 0;
    for (int k = 0; k < runs && *ok; k++) {
        if (cold)
            evict_caches();
        double t0 = now();
        *ok = fn(arg) == 0;
        t[k] = (now() - t0) * 1e3;
    }
    qsort(t, (size_t)runs, sizeof(double), compare_double);
    double m = t[runs / 2];
    free(t);
    return m;
}

struct stage_arg {
    spvcond_context *ctx;
    enum stage s;
    const uint32_t *words;
    size_t count;
};

static int
stage_fn(void *p)
{
    struct stage_arg *a = p;
    return run_stage(a->ctx, a->s, a->words, a->count);
}

static int
command_fn(void *p)
{
    int rc = system((const char *)p);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 1;
}

/* --child STAGE RUNS FILE [fresh|cold]: prints "median_ms peak_rss_kb ok". The calls share one context
 * (its heap keeps pages for the next call), or with `fresh` each has its own; with `cold` the caches
 * are emptied before each (the peak RSS then counts the buffer that does it). */
static int
child_main(const char *stage, int runs, const char *path, bool fresh, bool cold)
{
    int s = 0;
    while (s < STAGES && strcmp(stage_names[s], stage) != 0)
        s++;
    size_t size;
    uint32_t *words = s < STAGES ? read_file(path, &size) : NULL;
    if (!words) {
        fprintf(stderr, "bench: unknown stage %s or unreadable %s\n", stage, path);
        return 2;
    }
    spvcond_context *ctx = NULL;
    if (!fresh && spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 2;
    struct stage_arg arg = {ctx, (enum stage)s, words, size / 4};
    int ok;
    double ms = median_ms(runs, stage_fn, &arg, cold, &ok);
    spvcond_context_destroy(ctx);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%f %ld %d\n", ms, ru.ru_maxrss, ok);
    free(words);
    return 0;
}

/* One stage in a fresh process: this program with --child. */
static bool fresh_contexts; /* --fresh-context */
static bool cold_caches;    /* --cold */

static struct measure
run_child(const char *self, enum stage s, int runs, const char *path)
{
    struct measure res = {0, 0, 0};
    char cmd[4096], runs_text[16];
    snprintf(runs_text, sizeof(runs_text), "%d", runs);
    snprintf(cmd, sizeof(cmd), "'%s' --child %s %s '%s'%s", self, stage_names[s], runs_text, path,
             fresh_contexts ? " fresh" : cold_caches ? " cold" : "");
    FILE *p = popen(cmd, "r");
    if (!p)
        return res;
    if (fscanf(p, "%lf %ld %d", &res.median_ms, &res.rss_kb, &res.ok) != 3)
        res.ok = 0;
    if (pclose(p) != 0)
        res.ok = 0;
    return res;
}

/* The reference pipelines, each timed as a whole command (process start and file I/O included): the
 * closest thing the SPIRV-Tools on this machine do to each stage. */
enum reference { REF_LOAD_STORE, REF_SPECIALIZE, REF_VALIDATE, REFS };
static const char *const reference_names[REFS] = {"spirv-opt load+store", "spirv-opt specialization",
                                                  "spirv-val"};
/* parse and emit against load+store; annotate and specialize against the specialization pipeline (the
 * issue's yardstick for both); validate against spirv-val. */
static const enum reference stage_reference[STAGES] = {REF_LOAD_STORE, REF_LOAD_STORE, REF_SPECIALIZE,
                                                       REF_SPECIALIZE, REF_SPECIALIZE, REF_VALIDATE};

/* Wall time of one run of a reference command in a child process (system() itself forks); 0 if it
 * failed. */
static double
reference_ms(enum reference ref, const char *path, const char *tmpdir)
{
    char cmd[4096];
    if (ref == REF_LOAD_STORE)
        snprintf(cmd, sizeof(cmd), "spirv-opt --skip-validation '%s' -o %s/o.spv", path, tmpdir);
    else if (ref == REF_SPECIALIZE)
        snprintf(cmd, sizeof(cmd),
                 "spirv-opt --skip-validation --freeze-spec-const --fold-spec-const-op-composite "
                 "--eliminate-dead-functions '%s' -o %s/o.spv",
                 path, tmpdir);
    else
        snprintf(cmd, sizeof(cmd), "spirv-val '%s'", path);
    double t0 = now();
    int ok = command_fn(cmd) == 0;
    return ok ? (now() - t0) * 1e3 : 0;
}

/* Median of n values (reordered). */
static double
median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), compare_double);
    return n ? v[n / 2] : 0;
}

#define MAX_ROUNDS 64

/* The smallest module every stage accepts (one empty kernel): run through each stage, its peak RSS is
 * what the stage costs whatever the input (process, C library, the library's first allocations). The
 * issue's memory target is "peak RSS <= 3x the input plus a small constant": the constant is that, plus
 * one 2 MB huge page, the unit in which the library's heap touches memory. */
static const uint32_t minimal_module[] = {
    SPVCOND_MAGIC, 0x00010200, 0, 5, 0,
    SPVCOND_FIRST_WORD(2, SPVCOND_OP_CAPABILITY), SPVCOND_CAPABILITY_ADDRESSES,
    SPVCOND_FIRST_WORD(2, SPVCOND_OP_CAPABILITY), SPVCOND_CAPABILITY_KERNEL,
    SPVCOND_FIRST_WORD(3, SPVCOND_OP_MEMORY_MODEL), SPVCOND_ADDRESSING_MODEL_PHYSICAL64, SPVCOND_MEMORY_MODEL_OPENCL,
    SPVCOND_FIRST_WORD(4, SPVCOND_OP_ENTRY_POINT), SPVCOND_EXECUTION_MODEL_KERNEL, 1, 0x6b, /* %1 "k" */
    SPVCOND_FIRST_WORD(2, SPVCOND_OP_TYPE_VOID), 2,
    SPVCOND_FIRST_WORD(3, SPVCOND_OP_TYPE_FUNCTION), 3, 2,
    SPVCOND_FIRST_WORD(5, SPVCOND_OP_FUNCTION), 2, 1, SPVCOND_FUNCTION_CONTROL_NONE, 3,
    SPVCOND_FIRST_WORD(2, SPVCOND_OP_LABEL), 4,
    SPVCOND_FIRST_WORD(1, SPVCOND_OP_RETURN),
    SPVCOND_FIRST_WORD(1, SPVCOND_OP_FUNCTION_END),
};
#define HUGE_PAGE_KB 2048

static int
write_file(const char *path, const uint32_t *words, size_t count)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(words, 4, count, f) == count;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* One module of the run: its annotated copy and every round's timings. */
struct input {
    const char *path, *base;
    char annotated[64];
    size_t size, instructions;
    bool usable;
    double ours[STAGES][MAX_ROUNDS], refs[REFS][MAX_ROUNDS], ratios[STAGES][MAX_ROUNDS];
    struct measure worst[STAGES]; /* the largest RSS; ok only if every round was */
};

/* The table's rows and the CSV lines of one module; nonzero if a stage failed. */
static int
report(struct input *x, int runs, const long *base_kb, FILE *csv)
{
    int status = 0;
    double mb = (double)x->size / 1e6, ref_ms[REFS];
    for (int k = 0; k < REFS; k++)
        ref_ms[k] = median_of(x->refs[k], runs);
    for (int s = 0; s < STAGES; s++) {
        struct measure me = {median_of(x->ours[s], runs), x->worst[s].rss_kb, x->worst[s].ok};
        double fastest = x->ours[s][0]; /* sorted by median_of */
        double median_ratio = median_of(x->ratios[s], runs);
        status |= !me.ok;
        double opt_ms = ref_ms[stage_reference[s]];
        double mbs = me.median_ms > 0 ? mb / (me.median_ms / 1e3) : 0;
        double ips = me.median_ms > 0 ? (double)x->instructions / 1e6 / (me.median_ms / 1e3) : 0;
        char ratio[32] = "";
        if (median_ratio > 0)
            snprintf(ratio, sizeof(ratio), "%.1fx", median_ratio);
        long constant_kb = base_kb[s] + HUGE_PAGE_KB;
        double beyond = (double)(me.rss_kb - constant_kb) * 1024.0 / (double)x->size;
        printf("| %s | %.2f | %s | %s%.2f | %.0f | %.1f | %.1f | %.2f | %.1f | %s |\n", x->base, mb, stage_names[s],
               me.ok ? "" : "FAILED ", me.median_ms, mbs, ips, me.rss_kb / 1024.0, beyond, opt_ms, ratio);
        fprintf(csv, "%s,%zu,%zu,%s,%.3f,%.1f,%.2f,%ld,%.3f,%s,%s,%ld,%.3f,%.3f\n", x->base, x->size, x->instructions,
                stage_names[s], me.median_ms, mbs, ips, me.rss_kb, opt_ms, ratio,
                opt_ms > 0 ? reference_names[stage_reference[s]] : "", constant_kb, beyond, fastest);
    }
    fflush(stdout);
    return status;
}

/* Counts the instructions of `words` and writes the module annotated to `annotated_path`: 0 if done,
 * 1 if it could not be annotated, -1 if it could not be read. */
static int
prepare(const char *name, const uint32_t *words, size_t count, const char *annotated_path, size_t *instructions)
{
    spvcond_context *ctx;
    spvcond_module *m;
    if (spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return -1;
    if (spvcond_module_parse(ctx, words, count, SPVCOND_PARSE_BORROW, &m) != SPVCOND_OK) {
        fprintf(stderr, "%s: %s\n", name, spvcond_context_first_error(ctx)->message);
        spvcond_context_destroy(ctx);
        return -1;
    }
    *instructions = spvcond_module_instruction_count(m);
    spvcond_annotate_options o = {0};
    uint32_t *annotated = NULL;
    size_t acount = 0;
    int rc = 0;
    if (spvcond_annotate(m, &o, NULL) != SPVCOND_OK || spvcond_module_emit(m, &annotated, &acount) != SPVCOND_OK ||
        write_file(annotated_path, annotated, acount) != 0) {
        fprintf(stderr, "%s: cannot annotate\n", name);
        rc = 1;
    }
    spvcond_module_destroy(m);
    spvcond_free(ctx, annotated);
    spvcond_context_destroy(ctx);
    return rc;
}

int
main(int argc, char **argv)
{
    if ((argc == 5 || (argc == 6 && (!strcmp(argv[5], "fresh") || !strcmp(argv[5], "cold")))) &&
        !strcmp(argv[1], "--child"))
        return child_main(argv[2], atoi(argv[3]), argv[4], argc == 6 && !strcmp(argv[5], "fresh"),
                          argc == 6 && !strcmp(argv[5], "cold"));
    int runs = 5, inner = 3, spirv_opt = 1;
    double opt_max_mb = 30;
    const char *csv_path = "bench-results.csv";
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--runs") && first + 1 < argc)
            runs = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--inner") && first + 1 < argc)
            inner = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--csv") && first + 1 < argc)
            csv_path = argv[++first];
        else if (!strcmp(argv[first], "--opt-max-mb") && first + 1 < argc)
            opt_max_mb = atof(argv[++first]);
        else if (!strcmp(argv[first], "--no-spirv-opt"))
            spirv_opt = 0;
        else if (!strcmp(argv[first], "--fresh-context"))
            fresh_contexts = true;
        else if (!strcmp(argv[first], "--cold"))
            cold_caches = true;
        else
            break; /* an unknown option: the usage below */
    }
    if (first >= argc || argv[first][0] == '-' || runs < 1 || runs > MAX_ROUNDS || inner < 1) {
        fprintf(stderr,
                "usage: %s [--runs N (1..%d)] [--inner N] [--csv FILE] [--no-spirv-opt] [--opt-max-mb MB] [--fresh-context | --cold] MODULE.spv...\n",
                argv[0], MAX_ROUNDS);
        return 2;
    }
    FILE *csv = fopen(csv_path, "w");
    if (!csv)
        return 3;
    fprintf(csv, "module,bytes,instructions,stage,median_ms,mb_per_s,minstr_per_s,peak_rss_kb,reference_ms,ratio,"
                 "reference,constant_rss_kb,rss_beyond_constant_per_input,fastest_round_ms\n");
    char tmpdir[] = "/tmp/spvcond-bench-XXXXXX";
    if (!mkdtemp(tmpdir))
        return 3;
    char annotated_path[64], minimal_path[64];
    snprintf(annotated_path, sizeof(annotated_path), "%s/annotated.spv", tmpdir);
    snprintf(minimal_path, sizeof(minimal_path), "%s/minimal.spv", tmpdir);
    int status = 0;
    /* Each stage's RSS on the minimal module (the annotated one for specialize and validate). */
    long base_kb[STAGES] = {0};
    size_t minimal_count = sizeof(minimal_module) / sizeof(minimal_module[0]), unused;
    if (write_file(minimal_path, minimal_module, minimal_count) != 0 ||
        prepare("minimal module", minimal_module, minimal_count, annotated_path, &unused) != 0)
        return 3;
    for (int s = 0; s < STAGES; s++) {
        struct measure me = run_child(argv[0], (enum stage)s, 1, s >= SPECIALIZE_A ? annotated_path : minimal_path);
        if (!me.ok) {
            fprintf(stderr, "bench: stage %s fails on the minimal module\n", stage_names[s]);
            return 3;
        }
        base_kb[s] = me.rss_kb;
    }
    remove(minimal_path);
    remove(annotated_path);
    printf("| module | MB | stage | median ms | MB/s | Minstr/s | peak RSS MB | (RSS - constant) / input | reference ms | ratio |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    fflush(stdout);
    /* Every module annotated first; then rounds over all of them, so that modules of every size are
     * timed in the same phases of the machine and their times per MB compare. */
    int count = argc - first;
    struct input *in = calloc((size_t)(count > 0 ? count : 1), sizeof(*in));
    if (!in)
        return 3;
    for (int f = 0; f < count; f++) {
        struct input *x = &in[f];
        x->path = argv[first + f];
        x->base = strrchr(x->path, '/') ? strrchr(x->path, '/') + 1 : x->path;
        snprintf(x->annotated, sizeof(x->annotated), "%s/annotated-%d.spv", tmpdir, f);
        uint32_t *words = read_file(x->path, &x->size);
        if (!words) {
            fprintf(stderr, "cannot read %s\n", x->path);
            status = 1;
            continue;
        }
        int prepared = prepare(x->path, words, x->size / 4, x->annotated, &x->instructions);
        free(words);
        status |= prepared != 0;
        x->usable = prepared >= 0;
        for (int st = 0; st < STAGES; st++)
            x->worst[st] = (struct measure){0, 0, 1};
    }
    for (int r = 0; r < runs; r++) {
        for (int f = 0; f < count; f++) {
            struct input *x = &in[f];
            if (!x->usable)
                continue;
            for (int st = 0; st < STAGES; st++) {
                struct measure me = run_child(argv[0], (enum stage)st, inner, st >= SPECIALIZE_A ? x->annotated : x->path);
                x->ours[st][r] = me.median_ms;
                if (me.rss_kb > x->worst[st].rss_kb)
                    x->worst[st].rss_kb = me.rss_kb;
                x->worst[st].ok = x->worst[st].ok && me.ok;
            }
            bool with_refs = spirv_opt && (double)x->size / 1e6 <= opt_max_mb;
            for (int k = 0; k < REFS; k++)
                x->refs[k][r] = with_refs ? reference_ms((enum reference)k, x->path, tmpdir) : 0;
            for (int st = 0; st < STAGES; st++) {
                double opt = x->refs[stage_reference[st]][r];
                x->ratios[st][r] = opt > 0 && x->ours[st][r] > 0 ? opt / x->ours[st][r] : 0;
            }
        }
    }
    for (int f = 0; f < count; f++) {
        struct input *x = &in[f];
        if (x->usable)
            status |= report(x, runs, base_kb, csv);
        remove(x->annotated);
    }
    free(in);
    fclose(csv);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        return 1;
    return status;
}
