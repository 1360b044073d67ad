/* SPDX-License-Identifier: MIT */
/* A plain OpenCL host program, as an application would be written: it knows nothing of spvcond and calls
 * only the OpenCL API. It loads a SPIR-V module from IL, builds it, prints the build log and the kernels
 * the program has, and runs the kernels it is asked for on a[i] = i, printing their first results.
 *
 *   layer-host --platform NAME [--create-only] [--all-devices] [--khr] [--compile-link] [--check-il] [--threads T]
 *              [--offset N] [--options OPTIONS] {MODULE.spv | --each LIST}
 *              KERNEL[:double|:int]...
 *
 * --create-only creates the kernels asked for without running them (for a driver that compiles nothing);
 * --all-devices puts every device of the platform in the context and builds for them all;
 * --khr creates the program with cl_khr_il_program's clCreateProgramWithILKHR, found by name;
 * --compile-link uses clCompileProgram + clLinkProgram instead of clBuildProgram; --check-il first asks
 * the device for an IL version, as a careful application does, and stops when it has none; --offset runs
 * the kernels with that global work offset (with --create-only, only enqueues them); --options gives the
 * build (or compile) its options. A kernel with ":double" gets a buffer of doubles, one with ":int" a
 * buffer of ints (printed as ints). Exit status: 0 when the program was built and every kernel asked for
 * ran, 1 when something was refused, 2 on bad usage.
 *
 * --each LIST takes, instead of MODULE.spv, a file naming one module a line, and does one application's
 * work for each in turn in this one process (a context each), as a test that tries many modules does
 * without starting an OpenCL platform each time: before each, "== module PATH"; after, "== status S" (S as
 * the exit status above); each gets at most EACH_SECONDS, after which SIGALRM ends the process (a hang). */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 256
#define EACH_SECONDS 120

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

static cl_device_id
find_device(const char *wanted, cl_platform_id *platform, cl_device_id *all, cl_uint *all_count)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    clGetPlatformIDs(16, platforms, &count);
    for (cl_uint k = 0; k < count && k < 16; k++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[k], CL_PLATFORM_NAME, sizeof(name) - 1, name, NULL);
        cl_device_id device;
        if ((strstr(name, wanted) || (!strcmp(wanted, "pocl") && strstr(name, "Portable Computing Language"))) &&
            clGetDeviceIDs(platforms[k], CL_DEVICE_TYPE_ALL, 1, &device, NULL) == CL_SUCCESS) {
            *platform = platforms[k];
            clGetDeviceIDs(platforms[k], CL_DEVICE_TYPE_ALL, 8, all, all_count);
            return device;
        }
    }
    return NULL;
}

/* What a program printed, kept so that threads can compare. */
struct out {
    char text[32768];
    size_t length;
};

static void
say(struct out *o, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(o->text + o->length, sizeof(o->text) - o->length, format, ap);
    va_end(ap);
    if (n > 0)
        o->length += (size_t)n < sizeof(o->text) - o->length ? (size_t)n : sizeof(o->text) - o->length - 1;
}

static int create_only;
static const char *build_options = ""; /* --options: the build's (or compile's) */
static size_t offset; /* --offset: the global work offset of every run */

/* Run `name` on a[i] = i; print a[0..3]. */
static int
run(struct out *o, cl_context context, cl_command_queue queue, cl_program program, const char *spec)
{
    char name[256];
    snprintf(name, sizeof(name), "%s", spec);
    char *colon = strchr(name, ':');
    int is_double = colon && strcmp(colon + 1, "double") == 0;
    int is_int = colon && strcmp(colon + 1, "int") == 0; /* a[i] = i as int, printed as int */
    if (colon)
        *colon = 0;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    if (!kernel) {
        say(o, "kernel %s: not created (OpenCL error %d)\n", name, err);
        return 1;
    }
    if (create_only) {
        say(o, "kernel %s: created\n", name);
        if (offset) { /* the driver runs nothing: only whether the enqueue is taken */
            size_t global = N;
            err = clEnqueueNDRangeKernel(queue, kernel, 1, &offset, &global, NULL, 0, NULL, NULL);
            say(o, "kernel %s: enqueued at offset %zu: %s (OpenCL error %d)\n", name, offset,
                err == CL_SUCCESS ? "taken" : "refused", err);
        }
        clReleaseKernel(kernel);
        return 0;
    }
    double host[N];
    float *f = (float *)host;
    for (int i = 0; i < N; i++) {
        if (is_double)
            host[i] = i;
        else if (is_int)
            ((int *)host)[i] = i;
        else
            f[i] = (float)i;
    }
    size_t bytes = N * (is_double ? sizeof(double) : sizeof(float)), global = N, local[3] = {0, 0, 0};
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
    clGetKernelWorkGroupInfo(kernel, NULL, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(local), local, NULL);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 0, sizeof(buffer), &buffer);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(queue, kernel, 1, offset ? &offset : NULL, &global, local[0] ? local : NULL, 0,
                                     NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    if (err != CL_SUCCESS) {
        say(o, "kernel %s: run failed (OpenCL error %d)\n", name, err);
        return 1;
    }
    say(o, "kernel %s: results", name);
    for (int i = 0; i < 4; i++)
        if (is_int)
            say(o, " %d", ((int *)host)[i]);
        else
            say(o, " %g", is_double ? host[i] : f[i]);
    say(o, "\n");
    return 0;
}

/* One application's work: the options, the module, the kernels to run. */
struct work {
    cl_platform_id platform;
    cl_device_id device;      /* the queue's */
    cl_device_id *devices;    /* the context's */
    cl_uint device_count;
    int khr, compile_link;
    const void *il;
    size_t size;
    char **kernels;
    int kernel_count;
    struct out out;
    int failures;
};

/* One application's work: a context, the program from IL, its build, its kernels run. */
static void
do_work(struct work *s)
{
    struct out *o = &s->out;
    cl_int err;
    cl_context context = clCreateContext(NULL, s->device_count, s->devices, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, s->device, NULL, &err);
    cl_program program;
    if (s->khr) {
        typedef cl_program(CL_API_CALL * create_fn)(cl_context, const void *, size_t, cl_int *);
        void *address = clGetExtensionFunctionAddressForPlatform(s->platform, "clCreateProgramWithILKHR");
        create_fn create = NULL;
        memcpy(&create, &address, sizeof(create)); /* ISO C has no cast from void * to a function pointer */
        program = create ? create(context, s->il, s->size, &err) : NULL;
        if (!create)
            err = CL_INVALID_OPERATION;
    } else {
        program = clCreateProgramWithIL(context, s->il, s->size, &err);
    }
    if (!program) {
        say(o, "program: not created (OpenCL error %d)\n", err);
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
        s->failures = 1;
        return;
    }
    cl_program built = program;
    if (s->compile_link) {
        err = clCompileProgram(program, s->device_count, s->devices, build_options, 0, NULL, NULL, NULL, NULL);
        if (err == CL_SUCCESS)
            built = clLinkProgram(context, s->device_count, s->devices, "", 1, &program, NULL, NULL, &err);
    } else {
        err = clBuildProgram(program, s->device_count, s->devices, build_options, NULL, NULL);
    }
    for (cl_uint d = 0; d < s->device_count; d++) {
        char log[16384] = "";
        clGetProgramBuildInfo(built ? built : program, s->devices[d], CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log,
                              NULL);
        say(o, "build log%s:\n%s%s", s->device_count > 1 ? (d ? " (device 2)" : " (device 1)") : "", log,
            log[0] && log[strlen(log) - 1] != '\n' ? "\n" : "");
    }
    if (err != CL_SUCCESS || !built) {
        say(o, "program: not built (OpenCL error %d)\n", err);
        s->failures = 1;
    } else {
        char names[4096] = "";
        clGetProgramInfo(built, CL_PROGRAM_KERNEL_NAMES, sizeof(names) - 1, names, NULL);
        cl_uint count = 0;
        clCreateKernelsInProgram(built, 0, NULL, &count);
        say(o, "program: built; kernels: %s (%u)\n", names, count);
        for (int i = 0; i < s->kernel_count; i++)
            s->failures += run(o, context, queue, built, s->kernels[i]);
    }
    if (built && built != program)
        clReleaseProgram(built);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
}

/* --each: `one`'s work for every module `list` names. The exit status: 0, or 1 when any failed. */
static int
each_module(const char *list, struct work *one)
{
    FILE *f = fopen(list, "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", list);
        return 2;
    }
    char path[4096];
    int failures = 0;
    while (fgets(path, sizeof(path), f)) {
        path[strcspn(path, "\n")] = 0;
        if (!path[0])
            continue;
        printf("== module %s\n", path);
        fflush(stdout); /* what ran last, should the process end here */
        struct work w = *one;
        w.il = read_file(path, &w.size);
        int status = 2;
        if (w.il) {
            alarm(EACH_SECONDS);
            do_work(&w);
            alarm(0);
            fputs(w.out.text, stdout);
            status = w.failures ? 1 : 0;
        }
        printf("== status %d\n", status);
        fflush(stdout);
        free((void *)w.il);
        failures += status != 0;
    }
    fclose(f);
    return failures ? 1 : 0;
}

static void *
work_thread(void *arg)
{
    do_work(arg);
    return NULL;
}

int
main(int argc, char **argv)
{
    const char *platform_name = NULL, *path = NULL;
    int khr = 0, compile_link = 0, check_il = 0, threads = 0, all_devices = 0, each = 0, first_kernel = argc;
    for (int i = 1; i < argc && first_kernel == argc; i++) {
        if (!strcmp(argv[i], "--platform") && i + 1 < argc)
            platform_name = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--create-only"))
            create_only = 1;
        else if (!strcmp(argv[i], "--offset") && i + 1 < argc)
            offset = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--options") && i + 1 < argc)
            build_options = argv[++i];
        else if (!strcmp(argv[i], "--all-devices"))
            all_devices = 1;
        else if (!strcmp(argv[i], "--khr"))
            khr = 1;
        else if (!strcmp(argv[i], "--compile-link"))
            compile_link = 1;
        else if (!strcmp(argv[i], "--check-il"))
            check_il = 1;
        else if (!strcmp(argv[i], "--each"))
            each = 1;
        else if (!path)
            path = argv[i];
        else
            first_kernel = i;
    }
    if (!platform_name || !path || threads < 0 || threads > 64 || (each && threads)) {
        fprintf(stderr, "usage: %s --platform NAME [--create-only] [--all-devices] [--khr] [--compile-link] [--check-il] [--threads T] [--offset N] [--options OPTIONS] {MODULE.spv | --each LIST} "
                "KERNEL[:double|:int]...\n", argv[0]);
        return 2;
    }
    cl_platform_id platform;
    cl_device_id all[8];
    cl_uint all_count = 0;
    cl_device_id device = find_device(platform_name, &platform, all, &all_count);
    if (!device) {
        fprintf(stderr, "no OpenCL platform '%s' with a device\n", platform_name);
        return 2;
    }
    char il_version[256] = "";
    cl_int err = clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof(il_version) - 1, il_version, NULL);
    printf("device IL version: %s\n", err == CL_SUCCESS && il_version[0] ? il_version : "none");
    if (check_il && (err != CL_SUCCESS || !strstr(il_version, "SPIR-V"))) {
        printf("program: the device takes no SPIR-V\n");
        return 1;
    }
    if (!all_devices || all_count == 0 || all_count > 8)
        all_count = 1;
    printf("devices in the context: %u\n", all_count);
    struct work one = {platform, device, all_devices ? all : &device, all_count, khr, compile_link, NULL, 0,
                       argv + first_kernel, argc - first_kernel, {"", 0}, 0};
    if (each)
        return each_module(path, &one);
    void *il = read_file(path, &one.size);
    if (!il) {
        fprintf(stderr, "cannot read %s\n", path);
        return 2;
    }
    one.il = il;
    int failures;
    if (threads == 0) {
        do_work(&one);
        fputs(one.out.text, stdout);
        failures = one.failures;
    } else { /* T applications' work at once in one process: each must print what one alone prints */
        do_work(&one);
        struct work *many = calloc((size_t)threads, sizeof(*many));
        pthread_t *ids = calloc((size_t)threads, sizeof(*ids));
        int started = 0, differ = 0;
        for (; many && ids && started < threads; started++) {
            many[started] = one;
            many[started].out.length = 0;
            many[started].failures = 0;
            if (pthread_create(&ids[started], NULL, work_thread, &many[started]) != 0)
                break;
        }
        failures = one.failures || started < threads;
        for (int t = 0; t < started; t++) {
            pthread_join(ids[t], NULL);
            failures += many[t].failures;
            differ += many[t].out.length != one.out.length || memcmp(many[t].out.text, one.out.text, one.out.length);
        }
        fputs(one.out.text, stdout);
        printf("threads: %d runs at once, %d printed otherwise than one alone, %d failures\n", started, differ,
               failures);
        failures += differ;
        free(many);
        free(ids);
    }
    free(il);
    return failures ? 1 : 0;
}
