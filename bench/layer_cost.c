/* SPDX-License-Identifier: MIT */
/* What the OpenCL layer costs an application, per route (docs/performance.md, "The layer's cost"): the time
 * from clCreateProgramWithIL to a built program through the layer (OPENCL_LAYERS), with its cache cold
 * (emptied before each build) and warm (the entry the cold build stored), against the driver alone taking
 * the same program in the form it reads (rusticl: its program binary; pocl: LLVM bitcode; NVIDIA: PTX),
 * each through clCreateProgramWithBinary, which the layer leaves to the driver. The three builds of a
 * module are alternated within each round, their order rotating from round to round. The layer's own share
 * is the layer's time from creation to a built program less the driver alone's (the layer owns its
 * programs: clCreateProgramWithIL keeps the IL, and clBuildProgram specializes, makes the driver's program
 * and builds it, so no one call holds the layer's part alone); for the cold build, its stages as
 * SPVCOND_LAYER_DEBUG reports them: specialization, validation, translation (bitcode or PTX; for rusticl,
 * the module copied behind its binary's header).
 * Columns: the medians, the warm share over the driver alone (the steadier figure: two builds' times each
 * vary by more than the share), the warm total's difference from the driver alone's, the cache hit's own
 * time (SPVCOND_LAYER_DEBUG's: the entry opened, read and checked; a part of the warm share that no driver's
 * time blurs), and the specialization over the translation.
 *
 *   layer-cost --platform NAME [--rounds R] MODULE.spv...
 *
 * Set OPENCL_LAYERS to the layer, and the drivers' own caches off for a like-for-like (POCL_KERNEL_CACHE=0,
 * CUDA_CACHE_DISABLE=1, MESA_SHADER_CACHE_DISABLE=true): tools/run-layer-bench.sh does. The driver form is
 * what the layer handed the driver in a first build (SPVCOND_LAYER_DUMP). Prints a Markdown table; exit
 * status 1 when a build fails. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "opencl_bench.h"

#define MAX_ROUNDS 64

static cl_context context;
static cl_device_id device;

/* One build: create (from IL, or from a binary) then build; the times of both, false when either fails. */
static bool
build(const void *data, size_t size, bool binary, double *create_ms, double *build_ms)
{
    cl_int err, status;
    double t0 = now_ms();
    cl_program p = binary ? clCreateProgramWithBinary(context, 1, &device, &size, (const unsigned char **)&data,
                                                      &status, &err)
                          : clCreateProgramWithIL(context, data, size, &err);
    double t1 = now_ms();
    if (!p) {
        printf("not created (OpenCL error %d)\n", err);
        return false;
    }
    err = clBuildProgram(p, 1, &device, "", NULL, NULL);
    double t2 = now_ms();
    clReleaseProgram(p);
    if (err != CL_SUCCESS) {
        printf("build failed (OpenCL error %d)\n", err);
        return false;
    }
    *create_ms = t1 - t0;
    *build_ms = t2 - t1;
    return true;
}

static void
empty_folder(const char *path)
{
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.' || strncmp(e->d_name, ".tmp-", 5) == 0)
            unlinkat(dirfd(d), e->d_name, 0);
    if (d)
        closedir(d);
}

/* The file of the dump folder whose name ends with `suffix`, malloc'd path; NULL when none. */
static char *
dumped(const char *folder, const char *suffix)
{
    DIR *d = opendir(folder);
    char *found = NULL;
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        size_t n = strlen(e->d_name), s = strlen(suffix);
        if (n > s && strcmp(e->d_name + n - s, suffix) == 0 && asprintf(&found, "%s/%s", folder, e->d_name) < 0)
            found = NULL;
    }
    if (d)
        closedir(d);
    return found;
}

/* The debug line's milliseconds ("...: <what> in <ms> ms"), 0 when absent. */
static double
stage_ms(const char *log, const char *what)
{
    const char *p = strstr(log, what);
    double ms = 0;
    if (p && (p = strstr(p, " in ")))
        sscanf(p + 4, "%lf", &ms);
    return ms;
}

/* A build through the layer with its debug output captured (*log, malloc'd; NULL when it cannot be read). */
static bool
debug_build(const void *il, size_t size, double *create, double *built, char **log)
{
    char path[] = "/tmp/layer-cost-debug-XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    fflush(stderr);
    dup2(fd, 2);
    setenv("SPVCOND_LAYER_DEBUG", "1", 1);
    bool ok = build(il, size, false, create, built);
    unsetenv("SPVCOND_LAYER_DEBUG");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    size_t n;
    *log = read_file(path, &n);
    unlink(path);
    return ok;
}

/* A cold build through the layer: the stages' times. */
static bool
cold_build(const void *il, size_t size, const char *cache, double *create, double *built, double stages[3])
{
    empty_folder(cache);
    char *log;
    bool ok = debug_build(il, size, create, built, &log);
    stages[0] = log ? stage_ms(log, "module specialized") : 0;
    stages[1] = log ? stage_ms(log, "the module validated") : 0;
    stages[2] = log ? stage_ms(log, " made in") : 0;
    if (log && !strstr(log, "cache stored")) {
        printf("the layer stored nothing in its cache:\n%s\n", log);
        ok = false;
    }
    free(log);
    return ok;
}

/* A warm build through the layer: the time its cache hit took (reading and checking the entry). */
static bool
warm_build(const void *il, size_t size, double *create, double *built, double *hit)
{
    char *log;
    bool ok = debug_build(il, size, create, built, &log);
    *hit = log ? stage_ms(log, "cache hit") : 0;
    if (log && !strstr(log, "cache hit")) {
        printf("the layer found nothing in its cache:\n%s\n", log);
        ok = false;
    }
    free(log);
    return ok;
}

static const char *
route_of(const char *form_path)
{
    return strstr(form_path, ".ptx") ? "PTX" : strstr(form_path, ".bc") ? "LLVM bitcode" : "rusticl binary";
}

/* Every measurement of one module: driver alone, layer cold, layer warm; create and build times. */
struct series {
    double driver[MAX_ROUNDS], driver_create[MAX_ROUNDS];
    double cold[MAX_ROUNDS], cold_create[MAX_ROUNDS], warm[MAX_ROUNDS], warm_create[MAX_ROUNDS];
    double stage[3][MAX_ROUNDS], hit[MAX_ROUNDS];
};

static bool
measure(const char *module, int rounds, const char *tmp)
{
    size_t il_size, form_size;
    void *il = read_file(module, &il_size);
    if (!il) {
        printf("| %s | cannot be read |\n", module);
        return false;
    }
    char dump[4200], cache[4200];
    snprintf(dump, sizeof(dump), "%s/dump", tmp);
    snprintf(cache, sizeof(cache), "%s/cache", tmp);
    mkdir(dump, 0700);
    empty_folder(dump);
    setenv("SPVCOND_LAYER_CACHE_DIR", cache, 1);
    setenv("SPVCOND_LAYER_DUMP", dump, 1);
    double c, b;
    bool ok = build(il, il_size, false, &c, &b); /* a first build: the driver form, and every library loaded */
    unsetenv("SPVCOND_LAYER_DUMP");
    char *form_path = NULL;
    const char *suffixes[] = {".ptx", ".bc", ".rusticl.bin"};
    for (int k = 0; k < 3 && !form_path; k++)
        form_path = dumped(dump, suffixes[k]);
    void *form = form_path ? read_file(form_path, &form_size) : NULL;
    if (!ok || !form) {
        printf("| %s | the layer gave the driver no binary form (the device reads SPIR-V itself?) |\n", module);
        free(il);
        free(form_path);
        return false;
    }
    if (strstr(form_path, ".ptx"))
        form_size++; /* the NUL the layer hands over with PTX */
    struct series *s = calloc(1, sizeof(*s));
    for (int r = 0; ok && r < rounds; r++) {
        for (int k = 0; ok && k < 3; k++) {
            switch ((k + r) % 3) {
            case 0:
                ok = build(form, form_size, true, &s->driver_create[r], &s->driver[r]);
                s->driver[r] += s->driver_create[r];
                break;
            case 1: {
                double stages[3];
                ok = cold_build(il, il_size, cache, &s->cold_create[r], &s->cold[r], stages);
                s->cold[r] += s->cold_create[r];
                for (int j = 0; j < 3; j++)
                    s->stage[j][r] = stages[j];
                break;
            }
            default: /* the entry a cold build stored (in round 0 just before; later, in the round before) */
                ok = warm_build(il, il_size, &s->warm_create[r], &s->warm[r], &s->hit[r]);
                s->warm[r] += s->warm_create[r];
                break;
            }
        }
    }
    if (ok) {
        double driver = median(s->driver, rounds), cold = median(s->cold, rounds), warm = median(s->warm, rounds);
        double spec = median(s->stage[0], rounds), val = median(s->stage[1], rounds),
               made = median(s->stage[2], rounds);
        const char *name = strrchr(module, '/') ? strrchr(module, '/') + 1 : module;
        double cold_share = cold - driver, warm_share = warm - driver;
        bool translated = !strstr(form_path, ".rusticl.bin"); /* rusticl's binary is the module copied */
        char ratio[32] = "(no translation)";
        if (translated && made > 0)
            snprintf(ratio, sizeof(ratio), "%.2f%%", 100 * spec / made);
        printf("| %s | %.2f | %s | %.1f | %.1f | %.1f (%.2f / %.1f / %.1f) | %.1f | %.2f | %.2f%% | %+.1f%% | %.2f | %s |\n",
               name, il_size / 1e6, route_of(form_path), driver, cold, cold_share, spec, val, made, warm, warm_share,
               100 * warm_share / driver, 100 * (warm - driver) / driver, median(s->hit, rounds), ratio);
    }
    fflush(stdout);
    free(s);
    free(il);
    free(form);
    free(form_path);
    return ok;
}

int
main(int argc, char **argv)
{
    const char *platform_name = NULL;
    int rounds = 9, first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "--platform") == 0 && first + 1 < argc)
            platform_name = argv[++first];
        else if (strcmp(argv[first], "--rounds") == 0 && first + 1 < argc)
            rounds = atoi(argv[++first]);
        else
            break;
    }
    if (!platform_name || first >= argc || rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: layer-cost --platform NAME [--rounds 1-%d] MODULE.spv...\n", MAX_ROUNDS);
        return 2;
    }
    cl_platform_id platforms[16];
    cl_uint n = 0;
    clGetPlatformIDs(16, platforms, &n);
    cl_platform_id platform = NULL;
    for (cl_uint k = 0; k < n && !platform; k++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[k], CL_PLATFORM_NAME, sizeof(name), name, NULL);
        if (strstr(name, platform_name))
            platform = platforms[k];
    }
    cl_int err = CL_INVALID_PLATFORM;
    if (!platform || clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS ||
        !(context = clCreateContext(NULL, 1, &device, NULL, NULL, &err))) {
        fprintf(stderr, "layer-cost: no device of a platform named like %s (%d)\n", platform_name, err);
        return 1;
    }
    char device_name[256] = "", driver[128] = "", tmp[] = "/tmp/layer-cost-XXXXXX";
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(device_name), device_name, NULL);
    clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof(driver), driver, NULL);
    if (!mkdtemp(tmp))
        return 1;
    printf("%s (driver %s), medians of %d rounds, ms from clCreateProgramWith* to a built program\n\n", device_name,
           driver, rounds);
    printf("| module | MB | route | driver alone | layer, cold | its share (specialize / validate / translate) "
           "| layer, warm | its share | share / driver | warm - driver | cache hit | specialize / translate |\n");
    printf("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    int failed = 0;
    for (int k = first; k < argc; k++)
        failed += !measure(argv[k], rounds, tmp);
    char command[4300];
    snprintf(command, sizeof(command), "rm -rf '%s'", tmp);
    if (system(command) != 0)
        fprintf(stderr, "layer-cost: %s is left behind\n", tmp);
    clReleaseContext(context);
    return failed ? 1 : 0;
}
