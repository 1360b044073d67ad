/* SPDX-License-Identifier: MIT */
/* Benchmark: per input, the library's stages against SPIRV-Tools, like for like, in the same run.
 *
 * In process: each stage runs in a fresh process (this program again, with --child), which reads its
 * input file itself, so its peak RSS is the input plus what the library allocates (reported also beyond
 * a constant: the stage's RSS on a minimal module plus one 2 MB huge page): one warm-up, then the median
 * of --inner calls on the words in memory, all in one context, as a JIT compiler keeps one (its heap
 * keeps the pages of one call for the next; --fresh-context makes a context per call instead; --cold
 * empties the caches before each timed call). The reference runs the same way when the benchmark is
 * built with SPIRV-Tools' libraries (the `reference` option, bench/reference.cpp): the optimizer set up
 * once with spirv-opt's passes and no validation, then run on the words in memory, as ours are.
 *
 * Whole processes: `spvcond annotate`, `specialize` (with and without --sync) and `validate` against
 * spirv-opt and spirv-val, each reading and writing files, and `cp IN OUT` and `cp IN OUT` + `sync`,
 * the floor for a command that reads and writes the same bytes.
 *
 * The machine we measure on changes speed by up to 2x within minutes, so everything is timed in --runs
 * interleaved rounds (for every module in turn, every stage and its reference, then every command, once
 * a round; so modules of all sizes meet the same phases and their times per MB compare): a time is the
 * median over rounds, a ratio the median of the rounds' ratios (each from timings seconds apart); the
 * fastest round is kept too, as the machine's disturbances only ever slow a run down. Prints a table
 * and writes CSV.
 *
 *   bench [--runs N] [--inner N] [--csv FILE] [--cli SPVCOND] [--no-reference] [--opt-max-mb MB]
 *         [--fresh-context | --cold] MODULE.spv...
 *   bench --child STAGE RUNS FILE [fresh|cold]   (one stage on one file; also the entry point for profiling)
 *   bench --interleaved STAGE RUNS FILE [verbose] [holes]   (a stage and its reference alternated in one
 *                                                           process; see interleaved_main)
 *   bench --floor RUNS FILE   (what any reader of FILE does, against ours and the reference; floor_main)
 *   bench --builds A.so B.so STAGE ROUNDS FILE [cold]   (two builds of the library alternated; builds_main)
 *
 * Stages: parse (read + index), emit (parse + emit without edits), annotate (parse + annotate + emit),
 * specialize-<device> (parse of the annotated module + specialize + emit), validate (parse + validate
 * of the annotated module); in-process references, on the original module (bookworm's SPIRV-Tools
 * cannot load the annotated one): spirv-tools-load-store against emit, spirv-tools-specialize
 * (--freeze-spec-const --fold-spec-const-op-composite --eliminate-dead-functions) against annotate and
 * specialize, spirv-tools-validate against validate; parse has none. Modules over --opt-max-mb
 * (default 30) skip the references and the commands, as SPIRV-Tools needs minutes for those. */
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#include <spvcond/spvcond.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reference.h"
#include "support/grammar.h"
#include "support/spirv_names.h"
#include "support/spirv_words.h"

#ifndef SPVCOND_BENCH_REFERENCE
#define SPVCOND_BENCH_REFERENCE 0
#endif

/* Ours, then the in-process references (stages too: each runs in a child the same way). */
enum stage {
    PARSE, EMIT, ANNOTATE, SPECIALIZE_A, SPECIALIZE_B, VALIDATE, OUR_STAGES,
    REF_LOAD_STORE = OUR_STAGES, REF_SPECIALIZE, REF_VALIDATE, STAGES
};
static const char *const stage_names[STAGES] = {"parse", "emit", "annotate", "specialize-acm_g10", "specialize-pvc",
                                                "validate", "spirv-tools-load-store", "spirv-tools-specialize",
                                                "spirv-tools-validate"};
static const char *const devices[2] = {"intel_gpu_acm_g10", "intel_gpu_pvc"};
/* Each of our stages' in-process reference (STAGES: none). */
static const enum stage stage_reference[OUR_STAGES] = {STAGES, REF_LOAD_STORE, REF_SPECIALIZE, REF_SPECIALIZE,
                                                       REF_SPECIALIZE, REF_VALIDATE};

/* The stage named `name` among the first `count` (OUR_STAGES, or STAGES with the references), or count if
 * none is. */
static int
stage_named(const char *name, int count)
{
    int s = 0;
    while (s < count && strcmp(stage_names[s], name) != 0)
        s++;
    return s;
}

static long
minor_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

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

/* The library's functions the stages call: the ones this program links (`linked`), or a build loaded
 * beside it (bench --builds). */
struct library {
    __typeof__(spvcond_context_create) *context_create;
    __typeof__(spvcond_context_destroy) *context_destroy;
    __typeof__(spvcond_module_parse) *parse;
    __typeof__(spvcond_module_destroy) *destroy;
    __typeof__(spvcond_annotate) *annotate;
    __typeof__(spvcond_builtin_device_find) *device_find;
    __typeof__(spvcond_device_spec_values) *spec_values;
    __typeof__(spvcond_specialize) *specialize;
    __typeof__(spvcond_validate) *validate;
    __typeof__(spvcond_module_emit) *emit;
    __typeof__(spvcond_free) *free;
};
static const struct library linked = {
    spvcond_context_create, spvcond_context_destroy, spvcond_module_parse, spvcond_module_destroy, spvcond_annotate,
    spvcond_builtin_device_find, spvcond_device_spec_values, spvcond_specialize, spvcond_validate,
    spvcond_module_emit, spvcond_free};

/* One run of a stage on its input (the annotated module for specialize and validate) through library l,
 * in `shared` (a context kept over the calls, as a JIT compiler keeps one) or, if NULL, in a context of
 * its own. */
static int
run_stage(const struct library *l, spvcond_context *shared, enum stage s, const uint32_t *words, size_t count)
{
    spvcond_context *ctx = shared;
    spvcond_module *m = NULL;
    if (!ctx && l->context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 1;
    uint32_t flags = SPVCOND_PARSE_BORROW | (s == ANNOTATE ? SPVCOND_PARSE_FOR_ANNOTATE : 0);
    int rc = l->parse(ctx, words, count, flags, &m) != SPVCOND_OK;
    if (!rc && s != PARSE) {
        spvcond_result r = SPVCOND_OK;
        if (s == ANNOTATE) {
            spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
            r = l->annotate(m, &o, NULL);
        } else if (s == SPECIALIZE_A || s == SPECIALIZE_B) {
            spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
            spvcond_spec_value *v = NULL;
            size_t nv = 0;
            l->device_find(devices[s - SPECIALIZE_A], &d);
            r = l->spec_values(m, &d, &v, &nv);
            spvcond_specialize_options o = {sizeof(spvcond_specialize_options), v, nv, NULL, 0};
            if (r == SPVCOND_OK)
                r = l->specialize(m, &o, NULL);
            l->free(ctx, v);
        } else if (s == VALIDATE) {
            r = l->validate(m, NULL);
        }
        if (r == SPVCOND_OK && s != VALIDATE) {
            uint32_t *out = NULL;
            size_t on;
            r = l->emit(m, &out, &on);
            l->free(ctx, out);
        }
        rc = r != SPVCOND_OK;
    }
    if (m)
        l->destroy(m);
    if (!shared)
        l->context_destroy(ctx);
    return rc;
}

/* FILE's words annotated through library l in ctx, into *out (l->free them): the input of specialize
 * and validate. Says so and returns false if they cannot be. */
static bool
annotated_words(const struct library *l, spvcond_context *ctx, const char *path, const uint32_t *words, size_t count,
                uint32_t **out, size_t *out_count)
{
    spvcond_module *m = NULL;
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    bool ok = l->parse(ctx, words, count, SPVCOND_PARSE_FOR_ANNOTATE, &m) == SPVCOND_OK &&
              l->annotate(m, &o, NULL) == SPVCOND_OK && l->emit(m, out, out_count) == SPVCOND_OK;
    if (m)
        l->destroy(m);
    if (!ok)
        fprintf(stderr, "bench: %s cannot be annotated\n", path);
    return ok;
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
    bench_reference_state *reference; /* for the reference stages */
    enum stage s;
    const uint32_t *words;
    size_t count;
};

static int
stage_fn(void *p)
{
    struct stage_arg *a = p;
#if SPVCOND_BENCH_REFERENCE
    if (a->s >= OUR_STAGES)
        return bench_reference_run(a->reference, a->words, a->count);
#endif
    return run_stage(&linked, a->ctx, a->s, a->words, a->count);
}

/* --child STAGE RUNS FILE [fresh|cold]: prints "median_ms peak_rss_kb ok". The calls share one context
 * (its heap keeps pages for the next call), or with `fresh` each has its own; with `cold` the caches
 * are emptied before each (the peak RSS then counts the buffer that does it). A reference stage sets
 * SPIRV-Tools up once, as a context is. */
static int
child_main(const char *stage, int runs, const char *path, bool fresh, bool cold)
{
    int s = stage_named(stage, STAGES);
    if (s >= OUR_STAGES && !SPVCOND_BENCH_REFERENCE)
        s = STAGES; /* built without the reference */
    size_t size;
    uint32_t *words = s < STAGES ? read_file(path, &size) : NULL;
    if (!words) {
        fprintf(stderr, "bench: unknown stage %s or unreadable %s\n", stage, path);
        return 2;
    }
    struct stage_arg arg = {NULL, NULL, (enum stage)s, words, size / 4};
#if SPVCOND_BENCH_REFERENCE
    if (s >= OUR_STAGES && !(arg.reference = bench_reference_create((enum bench_reference)(s - OUR_STAGES))))
        return 2;
#endif
    if (s < OUR_STAGES && !fresh && spvcond_context_create(NULL, NULL, NULL, &arg.ctx) != SPVCOND_OK)
        return 2;
    int ok;
    double ms = median_ms(runs, stage_fn, &arg, cold, &ok);
    spvcond_context_destroy(arg.ctx);
#if SPVCOND_BENCH_REFERENCE
    bench_reference_destroy(arg.reference);
#endif
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

/* Whole processes, each reading its input and writing its output as a user runs it (process start,
 * dynamic loading, file I/O included): ours, SPIRV-Tools' commands, and cp. In this order in every
 * round: those that leave their output to the system first, then those that flush it, each of which
 * returns only once the disk has it, so that no command meets the writeback of another's. */
enum command {
    CP, CLI_ANNOTATE, CLI_SPECIALIZE, CLI_VALIDATE, OPT_SPECIALIZE, SPIRV_VAL,
    CP_SYNC, CLI_ANNOTATE_SYNC, CLI_SPECIALIZE_SYNC, COMMANDS
};
static const char *const command_names[COMMANDS] = {
    "cp", "spvcond annotate", "spvcond specialize", "spvcond validate", "spirv-opt specialization", "spirv-val",
    "cp + sync", "spvcond annotate --sync", "spvcond specialize --sync"};
/* The command each of ours is compared with (COMMANDS: none). */
static const enum command command_reference[COMMANDS] = {COMMANDS, OPT_SPECIALIZE, OPT_SPECIALIZE, SPIRV_VAL,
                                                         COMMANDS, COMMANDS, COMMANDS, OPT_SPECIALIZE,
                                                         OPT_SPECIALIZE};

struct paths {
    const char *cli;    /* the spvcond executable */
    const char *input;  /* the original module */
    const char *annotated;
    const char *output; /* where the commands write (removed before each) */
};

/* Runs argv (stdout and stderr to /dev/null) and waits; 0 if it exited with 0. (No peak RSS: a child
 * spawned from this process starts its count at this process's.) */
static int
spawn_wait(char *const argv[])
{
    extern char **environ;
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0)
        return -1;
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Wall time of one run of a command; 0 if it failed. */
static double
command_ms(enum command c, const struct paths *p)
{
    char *in = (char *)p->input, *ann = (char *)p->annotated, *out = (char *)p->output, *cli = (char *)p->cli;
    char *device = (char *)devices[0];
    char *argv[16] = {0};
    char *const cp[] = {"cp", in, out, NULL}, *const sync[] = {"sync", NULL};
    switch (c) {
    case CLI_ANNOTATE:
    case CLI_ANNOTATE_SYNC: {
        char *const a[] = {cli, "annotate", "-q", c == CLI_ANNOTATE_SYNC ? "--sync" : "--no-sync", in, "-o", out, NULL};
        memcpy(argv, a, sizeof(a));
        break;
    }
    case CLI_SPECIALIZE:
    case CLI_SPECIALIZE_SYNC: {
        char *const a[] = {cli, "specialize", "-q", c == CLI_SPECIALIZE_SYNC ? "--sync" : "--no-sync", "--device",
                           device, ann, "-o", out, NULL};
        memcpy(argv, a, sizeof(a));
        break;
    }
    case CLI_VALIDATE: {
        char *const a[] = {cli, "validate", ann, NULL};
        memcpy(argv, a, sizeof(a));
        break;
    }
    case OPT_SPECIALIZE: {
        char *const a[] = {"spirv-opt", "--skip-validation", "--freeze-spec-const", "--fold-spec-const-op-composite",
                           "--eliminate-dead-functions", in, "-o", out, NULL};
        memcpy(argv, a, sizeof(a));
        break;
    }
    case SPIRV_VAL: {
        char *const a[] = {"spirv-val", in, NULL};
        memcpy(argv, a, sizeof(a));
        break;
    }
    default: memcpy(argv, cp, sizeof(cp)); break;
    }
    remove(p->output);
    double t0 = now();
    int rc = spawn_wait(argv);
    if (rc == 0 && c == CP_SYNC)
        rc = spawn_wait(sync);
    double ms = (now() - t0) * 1e3;
    return rc == 0 ? ms : 0;
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
    char annotated[4200];
    size_t size, instructions;
    bool usable, compared; /* compared: with the references and the commands (up to --opt-max-mb) */
    double stage_ms[STAGES][MAX_ROUNDS], stage_ratio[OUR_STAGES][MAX_ROUNDS];
    double command_ms[COMMANDS][MAX_ROUNDS], command_ratio[COMMANDS][MAX_ROUNDS], floor_ratio[COMMANDS][MAX_ROUNDS];
    struct measure worst[STAGES]; /* the largest RSS; ok only if every round was */
    bool command_ok[COMMANDS];
};

/* One line of the table and of the CSV. */
struct row {
    const char *kind, *name, *reference;
    struct measure me;
    double fastest, reference_ms, ratio, floor_ratio;
    long constant_kb; /* 0: not measured (commands) */
};

static void
print_row(const struct input *x, const struct row *w, FILE *csv)
{
    double mb = (double)x->size / 1e6;
    double mbs = w->me.median_ms > 0 ? mb / (w->me.median_ms / 1e3) : 0;
    double ips = w->me.median_ms > 0 ? (double)x->instructions / 1e6 / (w->me.median_ms / 1e3) : 0;
    char ratio[32] = "", floor_ratio[32] = "", beyond[32] = "", reference_ms[32] = "", rss_mb[32] = "";
    if (w->ratio > 0)
        snprintf(ratio, sizeof(ratio), "%.1fx", w->ratio);
    if (w->floor_ratio > 0)
        snprintf(floor_ratio, sizeof(floor_ratio), "%.2f", w->floor_ratio);
    if (w->constant_kb)
        snprintf(beyond, sizeof(beyond), "%.3f", (double)(w->me.rss_kb - w->constant_kb) * 1024.0 / (double)x->size);
    if (w->reference_ms > 0)
        snprintf(reference_ms, sizeof(reference_ms), "%.3f", w->reference_ms);
    if (w->me.rss_kb)
        snprintf(rss_mb, sizeof(rss_mb), "%.2f", w->me.rss_kb / 1024.0);
    printf("| %s | %.2f | %s | %s%.2f | %.0f | %.1f | %s | %s | %s | %s | %s |\n", x->base, mb, w->name,
           w->me.ok ? "" : "FAILED ", w->me.median_ms, mbs, ips, rss_mb, beyond, reference_ms, ratio, floor_ratio);
    fprintf(csv, "%s,%zu,%zu,%s,%.3f,%.1f,%.2f,%ld,%s,%s,%s,%ld,%s,%.3f,%s,%s\n", x->base, x->size, x->instructions,
            w->name, w->me.median_ms, mbs, ips, w->me.rss_kb, reference_ms, ratio, w->ratio > 0 ? w->reference : "",
            w->constant_kb, beyond, w->fastest, w->kind, floor_ratio);
}

/* The table's rows and the CSV lines of one module; nonzero if something failed. */
static int
report(struct input *x, int runs, const long *base_kb, FILE *csv)
{
    int status = 0;
    double stage_ms[STAGES], command_ms[COMMANDS];
    for (int s = 0; s < STAGES; s++)
        stage_ms[s] = median_of(x->stage_ms[s], runs);
    for (int c = 0; c < COMMANDS; c++)
        command_ms[c] = median_of(x->command_ms[c], runs);
    for (int s = 0; s < STAGES; s++) {
        bool reference = s >= OUR_STAGES;
        if (reference && !(x->compared && SPVCOND_BENCH_REFERENCE))
            continue;
        struct row w = {reference ? "reference" : "stage", stage_names[s], "", {0, 0, 0}, 0, 0, 0, 0, 0};
        w.me = (struct measure){stage_ms[s], x->worst[s].rss_kb, x->worst[s].ok};
        w.fastest = x->stage_ms[s][0]; /* sorted by median_of */
        w.constant_kb = base_kb[s] + HUGE_PAGE_KB;
        if (!reference && stage_reference[s] < STAGES && x->compared && SPVCOND_BENCH_REFERENCE) {
            w.reference = stage_names[stage_reference[s]];
            w.reference_ms = stage_ms[stage_reference[s]];
            w.ratio = median_of(x->stage_ratio[s], runs);
        }
        status |= !w.me.ok;
        print_row(x, &w, csv);
    }
    for (int c = 0; x->compared && c < COMMANDS; c++) {
        struct row w = {"process", command_names[c], "", {0, 0, 0}, 0, 0, 0, 0, 0};
        w.me = (struct measure){command_ms[c], 0, x->command_ok[c]};
        w.fastest = x->command_ms[c][0];
        if (command_reference[c] < COMMANDS) {
            w.reference = command_names[command_reference[c]];
            w.reference_ms = command_ms[command_reference[c]];
            w.ratio = median_of(x->command_ratio[c], runs);
        }
        if (c != CP_SYNC)
            w.floor_ratio = median_of(x->floor_ratio[c], runs);
        status |= !w.me.ok;
        print_row(x, &w, csv);
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
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
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

/* glibc's heap as a library that keeps many small objects leaves it (LLVM's, in the layer's process):
 * `mb` MB of blocks of 32 to 192 bytes, every other one freed, the rest kept to the end of the process. */
static void
leave_holes(size_t mb)
{
    static void **kept; /* reachable to the end */
    size_t n = (mb << 20) / 96;
    kept = malloc(n * sizeof(*kept));
    for (size_t k = 0; kept && k < n; k++)
        if ((kept[k] = malloc(32 + (k * 7) % 160)))
            memset(kept[k], 1, 32);
    for (size_t k = 0; kept && k < n; k += 2)
        free(kept[k]);
}

/* --interleaved STAGE RUNS FILE [verbose] [holes]: our stage and its in-process reference alternated in
 * one process (specialize and validate on FILE annotated, the reference on FILE), one context, one reference state: the case of a JIT compiler or the OpenCL layer, where
 * another library (SPIRV-Tools here, LLVM there) uses the same process's heap between the library's
 * calls; with `holes`, glibc's heap is first left in holes as such a library leaves it (leave_holes) and
 * each round makes a context of its own, as the layer does. Prints "our_median_ms reference_median_ms
 * median_ratio"; with `verbose`, each round's times (and the page faults our call took) first. */
static int
interleaved_main(const char *stage, int runs, const char *path, bool verbose, bool holes)
{
    int s = stage_named(stage, OUR_STAGES);
    size_t size;
    uint32_t *words = s < OUR_STAGES ? read_file(path, &size) : NULL;
    if (!words || stage_reference[s] == STAGES || !SPVCOND_BENCH_REFERENCE || runs < 1 || runs > MAX_ROUNDS) {
        fprintf(stderr, "bench: --interleaved needs one of our stages with a reference (the benchmark built with "
                        "SPIRV-Tools), 1-%d runs and a readable module\n", MAX_ROUNDS);
        free(words);
        return 2;
    }
    struct stage_arg ours = {NULL, NULL, (enum stage)s, words, size / 4};
    struct stage_arg theirs = {NULL, NULL, stage_reference[s], words, size / 4};
    /* Specialize and validate take the annotated module, the reference the original (it cannot read the
     * extension), as in the main benchmark. */
    uint32_t *annotated = NULL;
    size_t annotated_count = 0;
    spvcond_context *setup = NULL;
    if (s == SPECIALIZE_A || s == SPECIALIZE_B || s == VALIDATE) {
        if (spvcond_context_create(NULL, NULL, NULL, &setup) != SPVCOND_OK ||
            !annotated_words(&linked, setup, path, words, size / 4, &annotated, &annotated_count))
            return 2;
        ours.words = annotated;
        ours.count = annotated_count;
    }
#if SPVCOND_BENCH_REFERENCE
    if (!(theirs.reference = bench_reference_create((enum bench_reference)(stage_reference[s] - OUR_STAGES))))
        return 2;
#endif
    if (spvcond_context_create(NULL, NULL, NULL, &ours.ctx) != SPVCOND_OK)
        return 2;
    double our_ms[MAX_ROUNDS], their_ms[MAX_ROUNDS], ratio[MAX_ROUNDS];
    int ok = stage_fn(&ours) == 0 && stage_fn(&theirs) == 0; /* warm-up */
    if (holes)
        leave_holes(400);
    for (int r = 0; r < runs && ok; r++) {
        if (holes) {
            spvcond_context_destroy(ours.ctx);
            ours.ctx = NULL;
            ok = spvcond_context_create(NULL, NULL, NULL, &ours.ctx) == SPVCOND_OK;
        }
        long f0 = minor_faults();
        double t0 = now();
        ok = ok && stage_fn(&ours) == 0;
        double t1 = now();
        long f1 = minor_faults();
        ok = ok && stage_fn(&theirs) == 0;
        double t2 = now();
        our_ms[r] = (t1 - t0) * 1e3;
        their_ms[r] = (t2 - t1) * 1e3;
        ratio[r] = their_ms[r] / our_ms[r];
        if (verbose)
            printf("round %d: %s %.2f ms (%ld page faults), reference %.2f ms, %.1fx\n", r + 1, stage, our_ms[r],
                   f1 - f0, their_ms[r], ratio[r]);
    }
    spvcond_context_destroy(ours.ctx);
#if SPVCOND_BENCH_REFERENCE
    bench_reference_destroy(theirs.reference);
#endif
    spvcond_free(setup, annotated);
    spvcond_context_destroy(setup);
    free(words);
    if (!ok)
        return 1;
    printf("%f %f %f\n", median_of(our_ms, runs), median_of(their_ms, runs), median_of(ratio, runs));
    return 0;
}

/* The floor of reading: what a reader that refuses an undefined id cannot leave out, done as simply
 * as it can be. Tables as ours: each instruction's offset and id words, each id's definition. */
struct floor_tables {
    uint32_t *offsets, *id_words, *def;
    uint32_t bound;
    size_t cap;
};

/* The instructions, by their word counts alone. */
static size_t
floor_walk(const uint32_t *w, size_t n)
{
    size_t count = 0;
    for (size_t p = SPVCOND_HEADER_WORDS; p < n; count++) {
        uint32_t wc = spvcond_word_count_of(w[p]);
        if (wc == 0 || wc > n - p)
            break;
        p += wc;
    }
    return count;
}

/* Id `id` used: 1 if out of range or not defined yet (a real reader records or refuses it). */
static inline size_t
floor_use(const struct floor_tables *t, uint32_t id)
{
    return id - 1u >= t->bound - 1u || !t->def[id];
}

/* The walk, with each instruction's offset and id words recorded, its result type and ids checked
 * against the definitions so far and its result recorded, by the grammar's quick layouts (the fixed
 * words, a tail of ids; an instruction with none is walked over). No function structure, names,
 * decorations, forward uses or faults. Returns the instructions plus the uses found undefined. */
static size_t
floor_checks(const uint32_t *w, size_t n, struct floor_tables *t)
{
    memset(t->def, 0, (size_t)t->bound * sizeof(uint32_t));
    size_t undefined = 0, i = 0;
    for (size_t p = SPVCOND_HEADER_WORDS; p < n && i < t->cap; i++) {
        const uint32_t *x = w + p;
        uint32_t wc = spvcond_word_count_of(x[0]), op = spvcond_opcode_of(x[0]), ids = 0;
        if (wc == 0 || wc > n - p)
            break;
        t->offsets[i] = (uint32_t)p;
        p += wc;
        struct spvcond_grammar_quick q = {0};
        if (op < SPVCOND_GRAMMAR_QUICK_OPCODES)
            q = spvcond_grammar_quick[op];
        if (q.min_words && wc >= q.min_words) {
            if (q.flags & SPVCOND_QUICK_TYPE) {
                ids |= 1u << 1;
                undefined += floor_use(t, x[1]);
            }
            for (uint32_t f = q.ids; f; f &= f - 1) {
                uint32_t k = 1u + (uint32_t)__builtin_ctz(f);
                ids |= 1u << k;
                undefined += floor_use(t, x[k]);
            }
            for (uint32_t k = q.min_words; (q.flags & SPVCOND_QUICK_ID_TAIL) && k < wc; k++) {
                ids |= k < 32 ? 1u << k : 1u;
                undefined += floor_use(t, x[k]);
            }
            uint32_t r = q.result_word ? x[q.result_word] : 0;
            if (r - 1u < t->bound - 1u) {
                undefined += t->def[r] != 0; /* defined twice */
                t->def[r] = (uint32_t)i + 1;
            }
        }
        t->id_words[i] = ids;
    }
    return i + undefined;
}

enum floor_row { FLOOR_WALK, FLOOR_CHECKS, FLOOR_PARSE, FLOOR_ANNOTATE, FLOOR_REFERENCE, FLOOR_ROWS };

/* --floor RUNS FILE: the floor of reading against the library and the reference, alternated in one
 * process, medians of RUNS rounds: walking the instructions; the walk with the checks and tables of
 * floor_checks; our reader (spvcond_module_parse); annotate (read, annotate, emit); SPIRV-Tools'
 * specialization passes when the benchmark has them, and what a ratio of 50 leaves of their time. */
static int
floor_main(int runs, const char *path)
{
    static const char *const labels[FLOOR_ROWS] = {
        "walking the instructions (word counts only)", "+ ids checked, results and tables recorded",
        "our reader (spvcond_module_parse)", "annotate (read, annotate, emit)", "SPIRV-Tools' specialization passes"};
    size_t size;
    uint32_t *words = read_file(path, &size);
    size_t n = size / 4;
    if (!words || n <= SPVCOND_HEADER_WORDS || words[3] == 0 || words[3] > SPVCOND_MAX_BOUND || runs < 1 ||
        runs > MAX_ROUNDS) {
        fprintf(stderr, "bench: --floor needs 1-%d runs and a SPIR-V module with a bound of 1..%u\n", MAX_ROUNDS,
                SPVCOND_MAX_BOUND);
        free(words);
        return 2;
    }
    struct floor_tables t = {malloc((n + 1) * sizeof(uint32_t)), malloc((n + 1) * sizeof(uint32_t)),
                             malloc((size_t)words[3] * sizeof(uint32_t)), words[3], n};
    struct stage_arg parse = {NULL, NULL, PARSE, words, n}, annotate = {NULL, NULL, ANNOTATE, words, n};
    struct stage_arg theirs = {NULL, NULL, REF_SPECIALIZE, words, n};
    int rows = SPVCOND_BENCH_REFERENCE ? FLOOR_ROWS : FLOOR_REFERENCE;
    int ok = t.offsets && t.id_words && t.def && spvcond_context_create(NULL, NULL, NULL, &parse.ctx) == SPVCOND_OK;
    annotate.ctx = parse.ctx;
#if SPVCOND_BENCH_REFERENCE
    ok = ok && (theirs.reference = bench_reference_create(BENCH_REFERENCE_SPECIALIZE)) != NULL;
#endif
    double ms[FLOOR_ROWS][MAX_ROUNDS];
    volatile size_t sink = 0; /* the walks' results, kept */
    for (int r = -1; r < runs && ok; r++) { /* round -1: the warm-up */
        for (int row = 0; row < rows && ok; row++) {
            double t0 = now();
            if (row == FLOOR_WALK)
                sink += floor_walk(words, n);
            else if (row == FLOOR_CHECKS)
                sink += floor_checks(words, n, &t);
            else
                ok = stage_fn(row == FLOOR_PARSE ? &parse : row == FLOOR_ANNOTATE ? &annotate : &theirs) == 0;
            if (r >= 0)
                ms[row][r] = (now() - t0) * 1e3;
        }
    }
    if (!ok) {
        fprintf(stderr, "bench: --floor: %s: %s\n", path,
                t.offsets && t.id_words && t.def ? "the library or the reference refused it" : "out of memory");
    } else {
        printf("%s: %zu instructions, medians of %d rounds\n", path, floor_walk(words, n), runs);
        for (int row = 0; row < rows; row++)
            printf("  %-45s %8.3f ms\n", labels[row], median_of(ms[row], runs));
        if (rows == FLOOR_ROWS)
            printf("  %-45s %8.3f ms\n", "a ratio of 50 leaves", median_of(ms[FLOOR_REFERENCE], runs) / 50);
    }
    (void)sink;
    (void)theirs;
#if SPVCOND_BENCH_REFERENCE
    bench_reference_destroy(theirs.reference);
#endif
    spvcond_context_destroy(parse.ctx);
    free(t.offsets);
    free(t.id_words);
    free(t.def);
    free(words);
    return ok ? 0 : 1;
}

/* --builds A.so B.so STAGE ROUNDS FILE [cold]: two builds of the library (a change against the code before
 * it, a build with profile feedback against the release build) loaded side by side and the stage
 * alternated between them in one process, A B then B A, a context each: both meet the same phases of the
 * machine within a round, which two processes minutes apart do not. With `cold`, the caches are emptied
 * before each call (--cold), as another library's work between the calls leaves them in a JIT compiler
 * or the main benchmark, where alternated calls find each other's lines warm. Stages: parse, annotate,
 * specialize-<device> (on FILE annotated by A). Prints each build's median and the median of the rounds'
 * B/A ratios. */
struct build {
    void *handle;
    struct library l;
    spvcond_context *ctx;
};

/* Loads path and its context; false if it lacks a function. Each build calls its own exported functions
 * (RTLD_DEEPBIND), not the other's or the one this program links; AddressSanitizer refuses that flag, so
 * a sanitizer build goes without it (its figures mean nothing anyway). */
#if defined(__SANITIZE_ADDRESS__)
#define BUILD_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#else
#define BUILD_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#endif
static bool
build_load(struct build *b, const char *path)
{
    if (!(b->handle = dlopen(path, BUILD_DLOPEN_FLAGS))) {
        fprintf(stderr, "bench: %s\n", dlerror());
        return false;
    }
#define BUILD_SYM(field, name) (*(void **)&b->l.field = dlsym(b->handle, name)) != NULL
    bool ok = BUILD_SYM(context_create, "spvcond_context_create") &&
              BUILD_SYM(context_destroy, "spvcond_context_destroy") && BUILD_SYM(parse, "spvcond_module_parse") &&
              BUILD_SYM(destroy, "spvcond_module_destroy") && BUILD_SYM(annotate, "spvcond_annotate") &&
              BUILD_SYM(device_find, "spvcond_builtin_device_find") &&
              BUILD_SYM(spec_values, "spvcond_device_spec_values") && BUILD_SYM(specialize, "spvcond_specialize") &&
              BUILD_SYM(validate, "spvcond_validate") && BUILD_SYM(emit, "spvcond_module_emit") &&
              BUILD_SYM(free, "spvcond_free");
#undef BUILD_SYM
    if (!ok || b->l.context_create(NULL, NULL, NULL, &b->ctx) != SPVCOND_OK) {
        fprintf(stderr, "bench: %s is no build of this library\n", path);
        return false;
    }
    return true;
}

/* One call of stage s through build b, in its context; ms, or a negative value if it failed. */
static double
build_stage(const struct build *b, enum stage s, const uint32_t *words, size_t count)
{
    double t0 = now();
    int rc = run_stage(&b->l, b->ctx, s, words, count);
    double ms = (now() - t0) * 1e3;
    return rc == 0 ? ms : -1;
}

static int
builds_main(const char *path_a, const char *path_b, const char *stage, int rounds, const char *path, bool cold)
{
    int s = stage_named(stage, OUR_STAGES);
    if (s != PARSE && s != ANNOTATE && s != SPECIALIZE_A && s != SPECIALIZE_B) {
        fprintf(stderr, "bench: --builds takes parse, annotate, %s or %s\n", stage_names[SPECIALIZE_A],
                stage_names[SPECIALIZE_B]);
        return 2;
    }
    struct build b[2] = {{0}, {0}};
    size_t size;
    uint32_t *words = read_file(path, &size), *annotated = NULL;
    double *t = calloc(3 * (size_t)(rounds > 0 ? rounds : 1), sizeof(double));
    int rc = 2;
    if (!words || !t || rounds < 1 || !build_load(&b[0], path_a) || !build_load(&b[1], path_b))
        goto out;
    size_t count = size / 4;
    if ((s == SPECIALIZE_A || s == SPECIALIZE_B) && /* the annotated module, by A */
        !annotated_words(&b[0].l, b[0].ctx, path, words, count, &annotated, &count))
        goto out;
    const uint32_t *input = annotated ? annotated : words;
    double *ms[2] = {t, t + rounds}, *ratio = t + 2 * rounds;
    rc = 1;
    if (build_stage(&b[0], (enum stage)s, input, count) < 0 || build_stage(&b[1], (enum stage)s, input, count) < 0)
        goto out; /* the warm-up */
    for (int r = 0; r < rounds; r++) {
        int first = r & 1; /* A B, then B A */
        if (cold)
            evict_caches();
        ms[first][r] = build_stage(&b[first], (enum stage)s, input, count);
        if (cold)
            evict_caches();
        ms[!first][r] = build_stage(&b[!first], (enum stage)s, input, count);
        if (ms[0][r] < 0 || ms[1][r] < 0)
            goto out;
        ratio[r] = ms[1][r] / ms[0][r];
    }
    printf("%s: A %.3f ms, B %.3f ms, B/A %.3f (medians of %d rounds%s)\n", stage, median_of(ms[0], rounds),
           median_of(ms[1], rounds), median_of(ratio, rounds), rounds, cold ? ", caches emptied before each call" : "");
    rc = 0;
out:
    if (annotated)
        b[0].l.free(b[0].ctx, annotated);
    for (int k = 1; k >= 0; k--) {
        if (b[k].ctx)
            b[k].l.context_destroy(b[k].ctx);
        if (b[k].handle)
            dlclose(b[k].handle);
    }
    free(t);
    free(words);
    return rc;
}

int
main(int argc, char **argv)
{
    if ((argc == 5 || (argc == 6 && (!strcmp(argv[5], "fresh") || !strcmp(argv[5], "cold")))) &&
        !strcmp(argv[1], "--child"))
        return child_main(argv[2], atoi(argv[3]), argv[4], argc == 6 && !strcmp(argv[5], "fresh"),
                          argc == 6 && !strcmp(argv[5], "cold"));
    if ((argc == 7 || (argc == 8 && !strcmp(argv[7], "cold"))) && !strcmp(argv[1], "--builds"))
        return builds_main(argv[2], argv[3], argv[4], atoi(argv[5]), argv[6], argc == 8);
    if (argc == 4 && !strcmp(argv[1], "--floor"))
        return floor_main(atoi(argv[2]), argv[3]);
    if (argc >= 5 && argc <= 7 && !strcmp(argv[1], "--interleaved")) {
        bool verbose = false, holes = false;
        for (int k = 5; k < argc; k++) {
            verbose |= !strcmp(argv[k], "verbose");
            holes |= !strcmp(argv[k], "holes");
        }
        return interleaved_main(argv[2], atoi(argv[3]), argv[4], verbose, holes);
    }
    int runs = 5, inner = 3, compare = 1;
    double opt_max_mb = 30;
    const char *csv_path = "bench-results.csv", *cli_path = NULL;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--runs") && first + 1 < argc)
            runs = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--inner") && first + 1 < argc)
            inner = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--csv") && first + 1 < argc)
            csv_path = argv[++first];
        else if (!strcmp(argv[first], "--cli") && first + 1 < argc)
            cli_path = argv[++first];
        else if (!strcmp(argv[first], "--opt-max-mb") && first + 1 < argc)
            opt_max_mb = atof(argv[++first]);
        else if (!strcmp(argv[first], "--no-reference"))
            compare = 0;
        else if (!strcmp(argv[first], "--fresh-context"))
            fresh_contexts = true;
        else if (!strcmp(argv[first], "--cold"))
            cold_caches = true;
        else
            break; /* an unknown option: the usage below */
    }
    if (first >= argc || argv[first][0] == '-' || runs < 1 || runs > MAX_ROUNDS || inner < 1) {
        fprintf(stderr,
                "usage: %s [--runs N (1..%d)] [--inner N] [--csv FILE] [--cli SPVCOND] [--no-reference] "
                "[--opt-max-mb MB] [--fresh-context | --cold] MODULE.spv...\n"
                "       %s --interleaved STAGE RUNS MODULE.spv [verbose] [holes]\n"
                "       %s --floor RUNS MODULE.spv\n"
                "       %s --builds A.so B.so STAGE ROUNDS MODULE.spv [cold]\n",
                argv[0], MAX_ROUNDS, argv[0], argv[0], argv[0]);
        return 2;
    }
    /* The CLI: given, or the one built beside this program (BUILD/bench/bench, BUILD/cli/spvcond). */
    char cli_default[4096];
    if (!cli_path) {
        const char *slash = strrchr(argv[0], '/');
        snprintf(cli_default, sizeof(cli_default), "%.*s../cli/spvcond", slash ? (int)(slash - argv[0] + 1) : 0,
                 argv[0]);
        cli_path = cli_default;
    }
    if (compare && access(cli_path, X_OK) != 0) {
        fprintf(stderr, "bench: no spvcond at %s (--cli)\n", cli_path);
        return 2;
    }
    FILE *csv = fopen(csv_path, "w");
    if (!csv)
        return 3;
    fprintf(csv, "module,bytes,instructions,stage,median_ms,mb_per_s,minstr_per_s,peak_rss_kb,reference_ms,ratio,"
                 "reference,constant_rss_kb,rss_beyond_constant_per_input,fastest_round_ms,kind,cp_sync_ratio\n");
    /* Work files beside the CSV, on the disk the results go to (/tmp may be a tmpfs, where a sync is free). */
    char tmpdir[4096];
    const char *slash = strrchr(csv_path, '/');
    snprintf(tmpdir, sizeof(tmpdir), "%.*sspvcond-bench-XXXXXX", slash ? (int)(slash - csv_path + 1) : 0, csv_path);
    if (!mkdtemp(tmpdir))
        return 3;
    char annotated_path[4200], minimal_path[4200], output_path[4200];
    snprintf(annotated_path, sizeof(annotated_path), "%s/annotated.spv", tmpdir);
    snprintf(minimal_path, sizeof(minimal_path), "%s/minimal.spv", tmpdir);
    snprintf(output_path, sizeof(output_path), "%s/output.spv", tmpdir);
    int status = 0;
    /* Each stage's RSS on the minimal module (the annotated one for specialize and validate). */
    long base_kb[STAGES] = {0};
    size_t minimal_count = sizeof(minimal_module) / sizeof(minimal_module[0]), unused;
    if (write_file(minimal_path, minimal_module, minimal_count) != 0 ||
        prepare("minimal module", minimal_module, minimal_count, annotated_path, &unused) != 0)
        return 3;
    int stages = compare && SPVCOND_BENCH_REFERENCE ? STAGES : OUR_STAGES;
    for (int s = 0; s < stages; s++) {
        bool annotated = s >= SPECIALIZE_A && s < OUR_STAGES;
        struct measure me = run_child(argv[0], (enum stage)s, 1, annotated ? annotated_path : minimal_path);
        if (!me.ok) {
            fprintf(stderr, "bench: stage %s fails on the minimal module\n", stage_names[s]);
            return 3;
        }
        base_kb[s] = me.rss_kb;
    }
    remove(minimal_path);
    remove(annotated_path);
    printf("| module | MB | stage or command | median ms | MB/s | Minstr/s | peak RSS MB | (RSS - constant) / input "
           "| reference ms | reference / this | this / (cp + sync) |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
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
        x->compared = compare && (double)x->size / 1e6 <= opt_max_mb;
        for (int st = 0; st < STAGES; st++)
            x->worst[st] = (struct measure){0, 0, 1};
        for (int c = 0; c < COMMANDS; c++)
            x->command_ok[c] = true;
    }
    for (int r = 0; r < runs; r++) {
        for (int f = 0; f < count; f++) {
            struct input *x = &in[f];
            if (!x->usable)
                continue;
            /* Each of our stages, then its reference (the original module: SPIRV-Tools cannot load ours). */
            for (int st = 0; st < (x->compared ? stages : OUR_STAGES); st++) {
                bool annotated = st >= SPECIALIZE_A && st < OUR_STAGES;
                struct measure me = run_child(argv[0], (enum stage)st, inner, annotated ? x->annotated : x->path);
                x->stage_ms[st][r] = me.median_ms;
                if (me.rss_kb > x->worst[st].rss_kb)
                    x->worst[st].rss_kb = me.rss_kb;
                x->worst[st].ok = x->worst[st].ok && me.ok;
            }
            for (int st = 0; st < OUR_STAGES; st++) {
                double ref = stage_reference[st] < STAGES ? x->stage_ms[stage_reference[st]][r] : 0;
                x->stage_ratio[st][r] = ref > 0 && x->stage_ms[st][r] > 0 ? ref / x->stage_ms[st][r] : 0;
            }
            if (!x->compared)
                continue;
            struct paths p = {cli_path, x->path, x->annotated, output_path};
            for (int c = 0; c < COMMANDS; c++) {
                x->command_ms[c][r] = command_ms((enum command)c, &p);
                x->command_ok[c] = x->command_ok[c] && x->command_ms[c][r] > 0;
            }
            for (int c = 0; c < COMMANDS; c++) {
                double ms = x->command_ms[c][r];
                double ref = command_reference[c] < COMMANDS ? x->command_ms[command_reference[c]][r] : 0;
                x->command_ratio[c][r] = ref > 0 && ms > 0 ? ref / ms : 0;
                x->floor_ratio[c][r] = x->command_ms[CP_SYNC][r] > 0 ? ms / x->command_ms[CP_SYNC][r] : 0;
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
    remove(output_path);
    if (rmdir(tmpdir) != 0)
        return 1;
    return status;
}
