/* Benchmark: per input, the library's stages and the closest spirv-opt pipelines, timed in the same
 * run. Each stage runs in a child process (so its peak RSS is its own): one warm-up, then the median
 * of --runs. Prints a table and writes CSV.
 *
 *   bench [--runs N] [--csv FILE] [--no-spirv-opt] MODULE.spv...
 *
 * Stages: parse (read + index), emit (parse + emit without edits), annotate (parse + annotate + emit),
 * specialize-<device> (parse of the annotated module + specialize + emit), validate (parse + validate
 * of the annotated module). spirv-opt: `--skip-validation` (load + store) against emit, and
 * `--skip-validation --freeze-spec-const --fold-spec-const-op-composite --eliminate-dead-functions`
 * against specialize (on the original module: bookworm's spirv-opt cannot load the annotated one). */
#include <spvcond/spvcond.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
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

/* One run of a stage; returns 0 on success. */
static int
run_stage(enum stage s, const uint32_t *words, size_t count, const uint32_t *annotated, size_t acount)
{
    spvcond_context *ctx;
    spvcond_module *m;
    if (spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 1;
    const uint32_t *in = s >= SPECIALIZE_A ? annotated : words;
    size_t n = s >= SPECIALIZE_A ? acount : count;
    int rc = spvcond_module_parse(ctx, in, n, SPVCOND_PARSE_BORROW, &m) != SPVCOND_OK;
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
        spvcond_module_destroy(m);
    }
    spvcond_context_destroy(ctx);
    return rc;
}

struct measure {
    double median_ms;
    long rss_kb;
    int ok;
};

/* Warm-up plus `runs` timed runs of fn(arg) in a child; the child writes the median and its peak RSS. */
static struct measure
in_child(int runs, int (*fn)(void *), void *arg)
{
    struct measure res = {0, 0, 0};
    int fd[2];
    if (pipe(fd) != 0)
        return res;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        double *t = calloc((size_t)runs, sizeof(double));
        int ok = fn(arg) == 0;
        for (int k = 0; k < runs && ok; k++) {
            double t0 = now();
            ok = fn(arg) == 0;
            t[k] = (now() - t0) * 1e3;
        }
        qsort(t, (size_t)runs, sizeof(double), compare_double);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        struct measure m = {t[runs / 2], ru.ru_maxrss, ok};
        if (write(fd[1], &m, sizeof(m)) != sizeof(m))
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (read(fd[0], &res, sizeof(res)) != sizeof(res))
        res.ok = 0;
    close(fd[0]);
    waitpid(pid, NULL, 0);
    return res;
}

struct stage_arg {
    enum stage s;
    const uint32_t *words, *annotated;
    size_t count, acount;
};

static int
stage_fn(void *p)
{
    struct stage_arg *a = p;
    return run_stage(a->s, a->words, a->count, a->annotated, a->acount);
}

static int
command_fn(void *p)
{
    int rc = system((const char *)p);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 1;
}

int
main(int argc, char **argv)
{
    int runs = 5, spirv_opt = 1;
    const char *csv_path = "bench-results.csv";
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--runs") && first + 1 < argc)
            runs = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--csv") && first + 1 < argc)
            csv_path = argv[++first];
        else if (!strcmp(argv[first], "--no-spirv-opt"))
            spirv_opt = 0;
    }
    if (first >= argc || runs < 1) {
        fprintf(stderr, "usage: %s [--runs N] [--csv FILE] [--no-spirv-opt] MODULE.spv...\n", argv[0]);
        return 2;
    }
    FILE *csv = fopen(csv_path, "w");
    if (!csv)
        return 3;
    fprintf(csv, "module,bytes,instructions,stage,median_ms,mb_per_s,minstr_per_s,peak_rss_kb,spirv_opt_ms,ratio\n");
    printf("| module | MB | stage | median ms | MB/s | Minstr/s | peak RSS MB | spirv-opt ms | ratio |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    char tmpdir[] = "/tmp/spvcond-bench-XXXXXX";
    if (!mkdtemp(tmpdir))
        return 3;
    for (int f = first; f < argc; f++) {
        size_t size;
        uint32_t *words = read_file(argv[f], &size);
        if (!words) {
            fprintf(stderr, "cannot read %s\n", argv[f]);
            continue;
        }
        /* The annotated module, for the later stages; and the instruction count. */
        spvcond_context *ctx;
        spvcond_module *m;
        spvcond_context_create(NULL, NULL, NULL, &ctx);
        if (spvcond_module_parse(ctx, words, size / 4, 0, &m) != SPVCOND_OK) {
            fprintf(stderr, "%s: %s\n", argv[f], spvcond_context_first_error(ctx)->message);
            continue;
        }
        size_t instructions = spvcond_module_instruction_count(m);
        spvcond_annotate_options o = {0};
        uint32_t *annotated = NULL;
        size_t acount = 0;
        spvcond_annotate(m, &o, NULL);
        spvcond_module_emit(m, &annotated, &acount);
        spvcond_module_destroy(m);
        const char *base = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
        for (int s = 0; s < STAGES; s++) {
            struct stage_arg arg = {(enum stage)s, words, annotated, size / 4, acount};
            struct measure me = in_child(runs, stage_fn, &arg);
            double opt_ms = 0;
            if (spirv_opt && (s == EMIT || s == SPECIALIZE_A)) {
                char cmd[2048];
                snprintf(cmd, sizeof(cmd), s == EMIT ? "spirv-opt --skip-validation '%s' -o %s/o.spv"
                                                     : "spirv-opt --skip-validation --freeze-spec-const "
                                                       "--fold-spec-const-op-composite --eliminate-dead-functions "
                                                       "'%s' -o %s/o.spv",
                         argv[f], tmpdir);
                struct measure om = in_child(runs, command_fn, cmd);
                opt_ms = om.ok ? om.median_ms : 0;
            }
            double mbs = me.median_ms > 0 ? (double)size / 1e6 / (me.median_ms / 1e3) : 0;
            double ips = me.median_ms > 0 ? (double)instructions / 1e6 / (me.median_ms / 1e3) : 0;
            char ratio[32] = "";
            if (opt_ms > 0)
                snprintf(ratio, sizeof(ratio), "%.1fx", opt_ms / me.median_ms);
            printf("| %s | %.2f | %s | %s%.2f | %.0f | %.1f | %.1f | %s%.1f | %s |\n", base, (double)size / 1e6,
                   stage_names[s], me.ok ? "" : "FAILED ", me.median_ms, mbs, ips, me.rss_kb / 1024.0,
                   opt_ms > 0 ? "" : "", opt_ms, ratio);
            fprintf(csv, "%s,%zu,%zu,%s,%.3f,%.1f,%.2f,%ld,%.3f,%s\n", base, size, instructions, stage_names[s],
                    me.median_ms, mbs, ips, me.rss_kb, opt_ms, ratio);
        }
        spvcond_free(ctx, annotated);
        spvcond_context_destroy(ctx);
        free(words);
    }
    fclose(csv);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        return 1;
    return 0;
}
