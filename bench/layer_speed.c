/* SPDX-License-Identifier: MIT */
/* The layer against the driver alone, on a driver that compiles OpenCL C (docs/performance.md, "NVIDIA"):
 * the same kernels built from their OpenCL C source by the driver and from their SPIR-V through the layer
 * (OPENCL_LAYERS), in one process, alternated round by round.
 *
 *   layer-speed --platform NAME [--rounds R] [--options "BUILD OPTIONS"] [--binary FILE] SOURCE.cl MODULE.spv
 *               [KERNEL...]
 *
 * With --binary, the second build is the driver's from FILE (clCreateProgramWithBinary; on NVIDIA, PTX) rather
 * than the module's through the layer: PTX from another back end against the driver's own compiler (docs/
 * opencl-layer.md, "Another LLVM's back end").
 * Prints the median time from clCreateProgramWith{Source,IL} to a built program, then for each kernel
 * named (the kernels below, whose arguments this program knows) the median event-timed run of each build,
 * their ratio, and each build's largest error against a reference computed on the host in double (long
 * double for the double kernels; for the escape counts of z2, the driver's own build). Exit status 1 when
 * a build fails or a result is off its bound. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opencl_bench.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;
static const unsigned char *binary; /* --binary: the second build's program */
static size_t binary_size;

/* A built program from source (il NULL) or IL (or the --binary); NULL with the log printed when it fails. */
static cl_program
build(const char *source, const void *il, size_t il_size, const char *options)
{
    cl_int err, status;
    cl_program p = il && binary ? clCreateProgramWithBinary(context, 1, &device, &binary_size, &binary, &status, &err)
                   : il         ? clCreateProgramWithIL(context, il, il_size, &err)
                                : clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (!p) {
        printf("%s: not created (OpenCL error %d)\n", il ? "IL" : "source", err);
        return NULL;
    }
    err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
        printf("%s: build failed (OpenCL error %d)\n%s\n", il ? "IL" : "source", err, log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* ---- the kernels this program knows: arguments, and the reference ---- */

enum { TRIAD_N = 1 << 24, MATH_N = 1 << 20, MATH_STEPS = 32, MUL_COUNT = 1 << 20, Z2_N = 2048 };

struct job {
    const char *name;
    size_t dims, global[2];
    cl_mem in, in2, out;
    size_t out_bytes;
    void *host_out;
    double bound;   /* the largest relative error allowed (mandelbrot: the fraction of points that differ) */
    int kind;
};

static float *fin, *fin2;
static double *din;

static cl_mem
buffer(size_t bytes, const void *data)
{
    cl_int err;
    return clCreateBuffer(context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void *)data, &err);
}

static int
setup(const char *name, struct job *j)
{
    memset(j, 0, sizeof(*j));
    j->name = name;
    j->dims = 1;
    if (strcmp(name, "triad") == 0) {
        fin = malloc(TRIAD_N * sizeof(float));
        fin2 = malloc(TRIAD_N * sizeof(float));
        for (int i = 0; i < TRIAD_N; i++) {
            fin[i] = (float)(i % 1000) * 0.001f;
            fin2[i] = (float)(i % 777) * 0.01f;
        }
        j->in = buffer(TRIAD_N * sizeof(float), fin);
        j->in2 = buffer(TRIAD_N * sizeof(float), fin2);
        j->out_bytes = TRIAD_N * sizeof(float);
        j->global[0] = TRIAD_N;
        j->bound = 1e-6;
        j->kind = 0;
    } else if (strcmp(name, "math_float") == 0) {
        fin = malloc(MATH_N * sizeof(float));
        for (int i = 0; i < MATH_N; i++)
            fin[i] = 0.5f + (float)(i % 4096) / 409.6f;
        j->in = buffer(MATH_N * sizeof(float), fin);
        j->out_bytes = MATH_N * sizeof(float);
        j->global[0] = MATH_N;
        j->bound = 1e-5; /* 32 steps of four functions, each within OpenCL's few ulp */
        j->kind = 1;
    } else if (strcmp(name, "math_double") == 0) {
        din = malloc(MATH_N * sizeof(double));
        for (int i = 0; i < MATH_N; i++)
            din[i] = 0.5 + (double)(i % 4096) / 409.6;
        j->in = buffer(MATH_N * sizeof(double), din);
        j->out_bytes = MATH_N * sizeof(double);
        j->global[0] = MATH_N;
        j->bound = 1e-13;
        j->kind = 2;
    } else if (strcmp(name, "mul4x4") == 0) {
        fin = malloc((size_t)MUL_COUNT * 16 * sizeof(float));
        for (size_t i = 0; i < (size_t)MUL_COUNT * 16; i++)
            fin[i] = (float)(i % 97) * 0.125f;
        j->in = buffer((size_t)MUL_COUNT * 16 * sizeof(float), fin);
        j->out_bytes = (size_t)MUL_COUNT * 16 * sizeof(float);
        j->global[0] = MUL_COUNT;
        j->bound = 1e-6;
        j->kind = 3;
    } else if (strcmp(name, "z2") == 0) {
        j->out_bytes = (size_t)Z2_N * Z2_N * sizeof(cl_uint);
        j->dims = 2;
        j->global[0] = j->global[1] = Z2_N;
        j->bound = 1e-3;
        j->kind = 4;
    } else {
        return 0;
    }
    j->out = buffer(j->out_bytes, NULL);
    j->host_out = malloc(j->out_bytes);
    return j->out != NULL;
}

/* What setup() made for a kernel, released once it has run. */
static void
release(struct job *j)
{
    cl_mem made[] = {j->in, j->in2, j->out};
    for (size_t k = 0; k < sizeof(made) / sizeof(made[0]); k++)
        if (made[k])
            clReleaseMemObject(made[k]);
    free(j->host_out);
    free(fin);
    free(fin2);
    free(din);
    fin = fin2 = NULL;
    din = NULL;
}

static const float MUL_A[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

static int
set_args(cl_kernel k, const struct job *j)
{
    cl_int e = CL_SUCCESS;
    switch (j->kind) {
    case 0: {
        float s = 3.0f;
        e |= clSetKernelArg(k, 0, sizeof(cl_mem), &j->out);
        e |= clSetKernelArg(k, 1, sizeof(cl_mem), &j->in);
        e |= clSetKernelArg(k, 2, sizeof(cl_mem), &j->in2);
        e |= clSetKernelArg(k, 3, sizeof(s), &s);
        break;
    }
    case 1:
    case 2:
        e |= clSetKernelArg(k, 0, sizeof(cl_mem), &j->out);
        e |= clSetKernelArg(k, 1, sizeof(cl_mem), &j->in);
        break;
    case 3: {
        cl_float16 a;
        cl_uint count = MUL_COUNT;
        memcpy(&a, MUL_A, sizeof(a));
        e |= clSetKernelArg(k, 0, sizeof(cl_mem), &j->in);
        e |= clSetKernelArg(k, 1, sizeof(cl_mem), &j->out);
        e |= clSetKernelArg(k, 2, sizeof(a), &a);
        e |= clSetKernelArg(k, 3, sizeof(count), &count);
        break;
    }
    case 4: {
        float x = -2.0f, y = -1.5f, xs = 3.0f / Z2_N, ys = 3.0f / Z2_N;
        cl_uint n = Z2_N;
        e |= clSetKernelArg(k, 0, sizeof(x), &x);
        e |= clSetKernelArg(k, 1, sizeof(y), &y);
        e |= clSetKernelArg(k, 2, sizeof(xs), &xs);
        e |= clSetKernelArg(k, 3, sizeof(ys), &ys);
        e |= clSetKernelArg(k, 4, sizeof(n), &n);
        e |= clSetKernelArg(k, 5, sizeof(cl_mem), &j->out);
        break;
    }
    }
    return e == CL_SUCCESS;
}

/* The largest relative error of the kernel's output against the host (for z2: the fraction of points
 * whose count differs from the host's float computation). */
static double
error_of(const struct job *j)
{
    double worst = 0;
    switch (j->kind) {
    case 0:
        for (int i = 0; i < TRIAD_N; i++) {
            double want = (double)fin[i] + 3.0 * (double)fin2[i], got = ((float *)j->host_out)[i];
            worst = fmax(worst, fabs(got - want) / fmax(fabs(want), 1e-30));
        }
        break;
    case 1:
    case 2:
        for (int i = 0; i < MATH_N; i += 7) {
            long double x = j->kind == 1 ? fin[i] : din[i], acc = 0;
            for (int s = 0; s < MATH_STEPS; s++) {
                acc += sinl(x) + expl(x * 0.01L) + sqrtl(x) + logl(x + 1);
                x += 0.5L;
            }
            double got = j->kind == 1 ? ((float *)j->host_out)[i] : ((double *)j->host_out)[i];
            worst = fmax(worst, (double)(fabsl(got - acc) / fabsl(acc)));
        }
        break;
    case 3:
        for (int ix = 0; ix < MUL_COUNT; ix += 13)
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++) {
                    double want = 0;
                    for (int k = 0; k < 4; k++)
                        want += (double)MUL_A[4 * r + k] * fin[(size_t)ix * 16 + 4 * k + c];
                    double got = ((float *)j->host_out)[(size_t)ix * 16 + 4 * r + c];
                    worst = fmax(worst, fabs(got - want) / fmax(fabs(want), 1e-30));
                }
        break;
    case 4: {
        size_t differ = 0, total = 0;
        for (int i = 0; i < Z2_N; i += 3)
            for (int jj = 0; jj < Z2_N; jj += 3, total++) {
                float cx = -2.0f + i * (3.0f / Z2_N), cy = -1.5f + jj * (3.0f / Z2_N), a = 0, b = 0, a2 = 0, b2 = 0;
                cl_uint k = 0;
                while (k < Z2_N && a2 + b2 < 4) {
                    a = a2 - b2 + cx;
                    b = 2 * a * b + cy;
                    a2 = a * a;
                    b2 = b * b;
                    k++;
                }
                differ += ((cl_uint *)j->host_out)[(size_t)i * Z2_N + jj] != k;
            }
        worst = (double)differ / (double)total;
        break;
    }
    }
    return worst;
}

/* One timed run (ms, from the event); negative when it fails. */
static double
run(cl_kernel k, const struct job *j)
{
    cl_event e;
    if (clEnqueueNDRangeKernel(queue, k, (cl_uint)j->dims, NULL, j->global, NULL, 0, NULL, &e) != CL_SUCCESS)
        return -1;
    clWaitForEvents(1, &e);
    cl_ulong start = 0, end = 0;
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof(start), &start, NULL);
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL);
    clReleaseEvent(e);
    return (double)(end - start) / 1e6;
}

int
main(int argc, char **argv)
{
    const char *platform_name = "NVIDIA", *options = "", *binary_path = NULL;
    int rounds = 9, a = 1;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        if (strcmp(argv[a], "--platform") == 0 && a + 1 < argc)
            platform_name = argv[++a];
        else if (strcmp(argv[a], "--rounds") == 0 && a + 1 < argc)
            rounds = atoi(argv[++a]);
        else if (strcmp(argv[a], "--options") == 0 && a + 1 < argc)
            options = argv[++a];
        else if (strcmp(argv[a], "--binary") == 0 && a + 1 < argc)
            binary_path = argv[++a];
        else
            break;
    }
    if (argc - a < 2 || rounds < 1 || rounds > 101) {
        fprintf(stderr, "usage: layer-speed --platform NAME [--rounds R] [--options OPTS] [--binary FILE] SOURCE.cl "
                        "MODULE.spv [KERNEL...]\n");
        return 2;
    }
    size_t source_size, il_size;
    char *source = read_file(argv[a], &source_size);
    void *il = read_file(argv[a + 1], &il_size);
    if (!source || !il) {
        fprintf(stderr, "layer-speed: cannot read %s\n", source ? argv[a + 1] : argv[a]);
        return 2;
    }
    if (binary_path && !(binary = read_file(binary_path, &binary_size))) {
        fprintf(stderr, "layer-speed: cannot read %s\n", binary_path);
        return 2;
    }
    binary_size++; /* with read_file's terminating zero: NVIDIA's driver reads PTX as a C string */
    cl_platform_id platforms[16], platform = NULL;
    cl_uint count = 0;
    clGetPlatformIDs(16, platforms, &count);
    for (cl_uint k = 0; k < count && k < 16 && !platform; k++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[k], CL_PLATFORM_NAME, sizeof(name) - 1, name, NULL);
        if (strstr(name, platform_name))
            platform = platforms[k];
    }
    cl_int err;
    if (!platform || clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        printf("no platform %s\n", platform_name);
        return 1;
    }
    char name[256] = "", driver[256] = "";
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name) - 1, name, NULL);
    clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof(driver) - 1, driver, NULL);
    printf("device: %s, driver %s\n", name, driver);
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    queue = clCreateCommandQueueWithProperties(context, device, props, &err);

    /* Build times, alternated. */
    double *from_source = calloc((size_t)rounds, sizeof(double)), *from_il = calloc((size_t)rounds, sizeof(double));
    cl_program by_source = NULL, by_layer = NULL;
    for (int r = 0; r < rounds; r++) {
        for (int which = 0; which < 2; which++) {
            int il_first = r % 2;
            int use_il = which ^ il_first ? 1 : 0;
            double t0 = now_ms();
            cl_program p = build(source, use_il ? il : NULL, il_size, options);
            double t = now_ms() - t0;
            if (!p)
                return 1;
            (use_il ? from_il : from_source)[r] = t;
            cl_program *keep = use_il ? &by_layer : &by_source;
            if (*keep)
                clReleaseProgram(*keep);
            *keep = p;
        }
    }
    double ms_source = median(from_source, rounds), ms_il = median(from_il, rounds);
    printf("build: source %.1f ms, %s %.1f ms (x%.2f), medians of %d\n", ms_source,
           binary ? binary_path : "IL through the layer", ms_il, ms_il / ms_source, rounds);

    int failed = 0;
    for (int k = a + 2; k < argc; k++) {
        struct job j;
        if (!setup(argv[k], &j)) {
            printf("kernel %s: unknown to layer-speed\n", argv[k]);
            release(&j);
            failed = 1;
            continue;
        }
        cl_kernel ks = clCreateKernel(by_source, argv[k], &err), kl = clCreateKernel(by_layer, argv[k], &err);
        if (!ks || !kl || !set_args(ks, &j) || !set_args(kl, &j)) {
            printf("kernel %s: not created (OpenCL error %d)\n", argv[k], err);
            if (ks)
                clReleaseKernel(ks);
            if (kl)
                clReleaseKernel(kl);
            release(&j);
            failed = 1;
            continue;
        }
        double errors[2];
        cl_kernel each[2] = {ks, kl};
        void *source_out = malloc(j.out_bytes);
        for (int w = 0; w < 2; w++) { /* warm, then the results of each */
            run(each[w], &j);
            clEnqueueReadBuffer(queue, j.out, CL_TRUE, 0, j.out_bytes, j.host_out, 0, NULL, NULL);
            errors[w] = error_of(&j);
            if (w == 0 && source_out)
                memcpy(source_out, j.host_out, j.out_bytes);
        }
        if (j.kind == 4 && source_out) {
            /* The escape counts of a float recurrence change where a compiler contracts a * b + c: the
             * reference is the driver's own build, and the layer's is judged by the points that differ. */
            size_t differ = 0;
            for (size_t p = 0; p < j.out_bytes / sizeof(cl_uint); p++)
                differ += ((cl_uint *)source_out)[p] != ((cl_uint *)j.host_out)[p];
            printf("kernel z2: points whose count differs from the host's: source %.2g, layer %.2g\n", errors[0],
                   errors[1]);
            errors[0] = 0;
            errors[1] = (double)differ / (double)(j.out_bytes / sizeof(cl_uint));
        }
        free(source_out);
        double *ts = calloc((size_t)rounds * 2, sizeof(double)), *tl = ts + rounds;
        for (int r = 0; r < rounds * 2; r++) {
            int use_il = (r % 2) ^ ((r / 2) % 2);
            double t = run(each[use_il], &j);
            (use_il ? tl : ts)[r / 2] = t;
        }
        double ms = median(ts, rounds), ml = median(tl, rounds);
        int off = errors[0] > j.bound || errors[1] > j.bound;
        printf("kernel %s: source %.4f ms, layer %.4f ms, layer/source %.2f; error source %.2g, layer %.2g "
               "(bound %.0g)%s\n", argv[k], ms, ml, ml / ms, errors[0], errors[1], j.bound, off ? " OFF" : "");
        failed |= off;
        free(ts);
        clReleaseKernel(ks);
        clReleaseKernel(kl);
        release(&j);
    }
    clReleaseProgram(by_source);
    clReleaseProgram(by_layer);
    return failed;
}
