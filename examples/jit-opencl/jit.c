/* SPDX-License-Identifier: MIT */
/* A JIT client: specialize an annotated module for an OpenCL device, hand it to the runtime, and run
 * the kernels the device supports; explain the others in DPC++'s kernel_not_supported words.
 *
 *   jit-opencl [--platform NAME] [--raw] [--no-run] [--print [--shared]] [--no-fold] MODULE.spv
 *
 * rusticl takes SPIR-V through clCreateProgramWithBinary behind a 12-byte header; pocl takes LLVM
 * bitcode, so for pocl the specialized SPIR-V goes through `llvm-spirv-15 -r` first (cl_khr_spir); any other
 * device gets it through clCreateProgramWithIL, which NVIDIA's driver takes with the spvcond layer loaded
 * (OPENCL_LAYERS: the layer makes PTX of it; docs/opencl-layer.md).
 * --raw skips specialization, to show what the runtime makes of an annotated module as it is.
 * Kernels the program knows (the demonstration module's) are run on known data and checked; others
 * are only created, or with --print run on a[i] = i (one float buffer) and their first results printed,
 * which is how the guarded-code test sees which path a device took; --shared runs them in module order on
 * one buffer, each on what the ones before it left (a constructor kernel, then the kernels that call
 * through the objects it built: the virtual-functions test); --no-fold keeps guard branches, as a
 * consumer that does not fold them would. Exit status: 0 when every supported
 * kernel was created (and checked), else 1. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <math.h>
#include <spvcond/spvcond.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 256

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

/* A string the device reports, malloc'd ("" when it does not say). */
static char *
device_string(cl_device_id dev, cl_device_info param)
{
    size_t size = 0;
    clGetDeviceInfo(dev, param, 0, NULL, &size);
    char *s = calloc(size + 1, 1);
    if (s && size)
        clGetDeviceInfo(dev, param, size, s, NULL);
    return s;
}

/* What a device reports, for the library's mapping (spvcond_opencl_device_info; spec/devices.md, "OpenCL
 * devices"). The strings are released with release_facts(). */
static void
query_device(cl_device_id dev, spvcond_opencl_device *f)
{
    *f = SPVCOND_SIZED(spvcond_opencl_device);
    f->name = device_string(dev, CL_DEVICE_NAME);
    f->version = device_string(dev, CL_DEVICE_VERSION);
    f->profile = device_string(dev, CL_DEVICE_PROFILE);
    f->extensions = device_string(dev, CL_DEVICE_EXTENSIONS);
    cl_device_type type = 0;
    cl_device_fp_config fp = 0;
    cl_bool flag = CL_FALSE;
    size_t max_wg = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
    f->type = type;
    if (clGetDeviceInfo(dev, CL_DEVICE_HALF_FP_CONFIG, sizeof(fp), &fp, NULL) == CL_SUCCESS)
        f->half_fp_config = fp;
    fp = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp), &fp, NULL) == CL_SUCCESS)
        f->double_fp_config = fp;
    f->image_support = clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof(flag), &flag, NULL) == CL_SUCCESS && flag;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max_wg), &max_wg, NULL);
    f->max_work_group_size = max_wg;
    /* NVIDIA's compute capability (cl_nv_device_attribute_query): the hardware's fp16, its architecture. */
    cl_uint cc = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof(cc), &cc, NULL) == CL_SUCCESS) {
        f->compute_capability_major = cc;
        if (clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof(cc), &cc, NULL) == CL_SUCCESS)
            f->compute_capability_minor = cc;
    }
}

static void
release_facts(spvcond_opencl_device *f)
{
    free((void *)f->name);
    free((void *)f->version);
    free((void *)f->profile);
    free((void *)f->extensions);
}

/* The demonstration module's kernels: expected a[i] after running on a[i] = i. */
static int
expected(const char *kernel, int i, double *out, int *is_double)
{
    *is_double = 0;
    if (!strcmp(kernel, "scale_float") || !strcmp(kernel, "scale_half"))
        *out = 2.0 * i;
    else if (!strcmp(kernel, "scale_double") && (*is_double = 1))
        *out = 2.0 * i;
    else if (!strcmp(kernel, "mix_double"))
        *out = 2.0 * i + 2.0;
    else if (!strcmp(kernel, "add_one"))
        *out = i + 1.0;
    else
        return 0;
    return 1;
}

/* Run a known kernel over N elements and compare. */
static int
run_and_check(cl_context ctx, cl_command_queue q, cl_kernel k, const char *name)
{
    double want;
    int is_double;
    if (!expected(name, 0, &want, &is_double))
        return 0;
    size_t elem = is_double ? sizeof(double) : sizeof(float);
    char host[N * sizeof(double)];
    for (int i = 0; i < N; i++) {
        if (is_double)
            ((double *)host)[i] = i;
        else
            ((float *)host)[i] = (float)i;
    }
    cl_int err;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * elem, host, &err);
    if (err != CL_SUCCESS)
        return -1;
    size_t global = N, local = 64;
    err = clSetKernelArg(k, 0, sizeof(buf), &buf);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, N * elem, host, 0, NULL, NULL);
    clReleaseMemObject(buf);
    if (err != CL_SUCCESS) {
        printf("  %s: run failed (OpenCL error %d)\n", name, err);
        return -1;
    }
    for (int i = 0; i < N; i++) {
        double got = is_double ? ((double *)host)[i] : ((float *)host)[i];
        expected(name, i, &want, &is_double);
        if (fabs(got - want) > 1e-6) {
            printf("  %s: wrong result at %d: %g, expected %g\n", name, i, got, want);
            return -1;
        }
    }
    return 1;
}

/* A buffer of N floats, a[i] = i. */
static cl_mem
new_buffer(cl_context ctx, cl_int *err)
{
    float host[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i;
    return clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(host), host, err);
}

/* Run a kernel of one float buffer on a[i] = i (or on `shared`, as the kernels before it left it) and
 * print a[0..3]: 2, or -1 when it cannot run. */
static int
run_and_print(cl_context ctx, cl_command_queue q, cl_kernel k, const char *name, cl_mem shared)
{
    float host[N];
    cl_int err = CL_SUCCESS;
    cl_mem buf = shared ? shared : new_buffer(ctx, &err);
    if (err != CL_SUCCESS)
        return -1;
    size_t global = N, reqd[3] = {0, 0, 0};
    /* A kernel with a required work-group size runs with it (pocl insists; one device: NULL). */
    clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(reqd), reqd, NULL);
    err = clSetKernelArg(k, 0, sizeof(buf), &buf);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, reqd[0] ? reqd : NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(host), host, 0, NULL, NULL);
    if (!shared)
        clReleaseMemObject(buf);
    if (err != CL_SUCCESS) {
        printf("  %s: run failed (OpenCL error %d)\n", name, err);
        return -1;
    }
    printf("  %s: results %g %g %g %g\n", name, host[0], host[1], host[2], host[3]);
    return 2;
}

/* How the device takes SPIR-V: its own IL path (or the one the spvcond layer gives NVIDIA's driver, which
 * then makes PTX), rusticl's binary, or pocl's LLVM bitcode. */
enum route { ROUTE_IL, ROUTE_RUSTICL, ROUTE_POCL };

static const char *
route_name(enum route r)
{
    return r == ROUTE_IL ? "SPIR-V through clCreateProgramWithIL" : r == ROUTE_POCL ? "LLVM bitcode" : "SPIR-V";
}

/* The program object for the runtime's route. */
static cl_program
load_program(cl_context ctx, cl_device_id dev, enum route route, const uint32_t *words, size_t count, cl_int *err)
{
    if (route == ROUTE_IL)
        return clCreateProgramWithIL(ctx, words, count * 4, err);
    if (route == ROUTE_RUSTICL) {
        size_t size = 12 + count * 4;
        unsigned char *bin = malloc(size);
        uint32_t header[3] = {1, (uint32_t)(count * 4), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT};
        memcpy(bin, header, 12);
        memcpy(bin + 12, words, count * 4);
        const unsigned char *bins[1] = {bin};
        cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &size, bins, NULL, err);
        free(bin);
        return p;
    }
    /* pocl: SPIR-V -> LLVM bitcode with the translator, then the cl_khr_spir binary route. */
    char spv[] = "/tmp/jit-opencl-XXXXXX", cmd[256];
    int fd = mkstemp(spv);
    if (fd < 0 || write(fd, words, count * 4) != (ssize_t)(count * 4)) {
        *err = CL_INVALID_BINARY;
        return NULL;
    }
    close(fd);
    snprintf(cmd, sizeof(cmd), "llvm-spirv-15 -r %s -o %s.bc 2>&1", spv, spv);
    FILE *p = popen(cmd, "r");
    char msg[512] = "";
    size_t got = p ? fread(msg, 1, sizeof(msg) - 1, p) : 0;
    msg[got] = 0;
    int rc = p ? pclose(p) : -1;
    unlink(spv);
    if (rc != 0) {
        printf("  llvm-spirv-15 -r refused the module: %s", msg);
        *err = CL_INVALID_BINARY;
        return NULL;
    }
    char bc_path[64];
    snprintf(bc_path, sizeof(bc_path), "%s.bc", spv);
    size_t size;
    unsigned char *bc = read_file(bc_path, &size);
    unlink(bc_path);
    const unsigned char *bins[1] = {bc};
    cl_program prog = clCreateProgramWithBinary(ctx, 1, &dev, &size, bins, NULL, err);
    free(bc);
    return prog;
}

int
main(int argc, char **argv)
{
    const char *platform_name = "rusticl", *path = NULL;
    int raw = 0, run = 1, print = 0, shared = 0;
    uint32_t flags = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--platform") && i + 1 < argc)
            platform_name = argv[++i];
        else if (!strcmp(argv[i], "--raw"))
            raw = 1;
        else if (!strcmp(argv[i], "--no-run"))
            run = 0;
        else if (!strcmp(argv[i], "--print"))
            print = 1;
        else if (!strcmp(argv[i], "--shared"))
            shared = 1;
        else if (!strcmp(argv[i], "--no-fold"))
            flags |= SPVCOND_SPECIALIZE_NO_FOLD;
        else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: %s [--platform NAME] [--raw] [--no-run] [--print [--shared]] [--no-fold] MODULE.spv\n",
                argv[0]);
        return 2;
    }
    /* The platform and its first device. */
    cl_platform_id platforms[16];
    cl_uint np = 0;
    clGetPlatformIDs(16, platforms, &np);
    cl_platform_id platform = NULL;
    for (cl_uint k = 0; k < np && !platform; k++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[k], CL_PLATFORM_NAME, sizeof(name) - 1, name, NULL);
        if (strcasestr(name, platform_name) ||
            (!strcmp(platform_name, "pocl") && strstr(name, "Portable Computing Language")))
            platform = platforms[k];
    }
    cl_device_id dev;
    if (!platform || clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "error: no OpenCL platform '%s' with a device\n", platform_name);
        return 3;
    }
    char dev_name[256] = "", platform_full[256] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(platform_full) - 1, platform_full, NULL);
    char *il = device_string(dev, CL_DEVICE_IL_VERSION);
    enum route route = strcmp(platform_full, "rusticl") == 0                      ? ROUTE_RUSTICL
                       : strstr(platform_full, "Portable Computing Language") ? ROUTE_POCL
                                                                              : ROUTE_IL;
    if (route == ROUTE_IL && !(il && strstr(il, "SPIR-V"))) {
        fprintf(stderr, "error: %s takes no SPIR-V%s\n", platform_full,
                strstr(platform_full, "NVIDIA") ? ": load the spvcond layer (OPENCL_LAYERS), which makes PTX for it" : "");
        free(il);
        return 3;
    }
    free(il);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(dev_name) - 1, dev_name, NULL);
    /* The library's part: the device, verdicts, values, specialization. */
    size_t size;
    void *bytes = read_file(path, &size);
    spvcond_context *sc;
    spvcond_module *m;
    if (!bytes || spvcond_context_create(NULL, NULL, NULL, &sc) != SPVCOND_OK)
        return 3;
    spvcond_opencl_device facts;
    query_device(dev, &facts);
    spvcond_device_info *device;
    if (spvcond_opencl_device_info(sc, &facts, &device) != SPVCOND_OK)
        return 3;
    release_facts(&facts);
    spvcond_device_info info = *device;
    printf("device: %s (%s route); aspects:", dev_name, route_name(route));
    for (size_t k = 0; k < info.aspect_count; k++)
        printf(" %s", spvcond_aspect_name(info.aspects[k]));
    printf("; max work-group size %llu\n", (unsigned long long)info.max_work_group_size);
    if (spvcond_module_parse_bytes(sc, bytes, size, &m) != SPVCOND_OK) {
        fprintf(stderr, "error: %s: %s\n", path, spvcond_context_first_error(sc)->message);
        return 1;
    }
    spvcond_requirements *reqs;
    spvcond_requirements_from_module(m, &reqs);
    size_t nk = spvcond_requirements_kernel_count(reqs);
    char **supported = calloc(nk + 1, sizeof(char *));
    size_t ns = 0;
    for (size_t k = 0; k < nk; k++) {
        const char *kernel = spvcond_requirements_kernel_name(reqs, k);
        bool ok;
        char reason[512];
        spvcond_kernel_supported(m, &info, kernel, &ok, reason, sizeof(reason));
        if (ok)
            supported[ns++] = strdup(kernel);
        else
            printf("kernel %s: not supported: %s\n", kernel, reason);
    }
    uint32_t *words = (uint32_t *)bytes;
    size_t count = size / 4;
    uint32_t *specialized = NULL;
    if (!raw) {
        spvcond_spec_value *values;
        size_t nv;
        spvcond_device_spec_values(m, &info, &values, &nv);
        spvcond_fnvar_device fnvar = SPVCOND_SIZED(spvcond_fnvar_device);
        spvcond_device_info_facts(&info, SPVCOND_UNSPECIFIED_UNKNOWN, &fnvar);
        spvcond_specialize_options o = {sizeof(spvcond_specialize_options), values, nv, &fnvar, flags};
        if (spvcond_specialize(m, &o, NULL) != SPVCOND_OK ||
            spvcond_module_emit(m, &specialized, &count) != SPVCOND_OK) {
            fprintf(stderr, "error: specialize: %s\n", spvcond_context_first_error(sc)->message);
            return 1;
        }
        words = specialized;
        spvcond_free(sc, values);
    }

    /* The runtime's part. */
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    cl_program prog = load_program(ctx, dev, route, words, count, &err);
    if (prog && err == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (!prog || err != CL_SUCCESS) {
        printf("program: not built (OpenCL error %d)\n", err);
        return 1;
    }
    cl_uint exposed = 0;
    clCreateKernelsInProgram(prog, 0, NULL, &exposed);
    printf("program: built; %u kernels exposed\n", exposed);
    int failures = 0;
    cl_mem one = shared ? new_buffer(ctx, &err) : NULL;
    for (size_t k = 0; k < ns; k++) {
        cl_kernel kern = clCreateKernel(prog, supported[k], &err);
        if (err != CL_SUCCESS) {
            printf("kernel %s: supported but not created (OpenCL error %d)\n", supported[k], err);
            failures++;
            continue;
        }
        int checked = run ? run_and_check(ctx, q, kern, supported[k]) : 0;
        if (!checked && print)
            checked = run_and_print(ctx, q, kern, supported[k], one);
        printf("kernel %s: supported, created%s\n", supported[k],
               checked == 1 ? ", ran, results correct" : checked == 2 ? ", ran" : checked < 0 ? ", WRONG RESULTS" : "");
        failures += checked < 0;
        clReleaseKernel(kern);
    }
    printf("%zu supported kernels, %u exposed, %d failures\n", ns, exposed, failures);
    if (one)
        clReleaseMemObject(one);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    for (size_t k = 0; k < ns; k++)
        free(supported[k]);
    free(supported);
    spvcond_requirements_destroy(reqs);
    spvcond_free(sc, specialized);
    spvcond_free(sc, device);
    spvcond_module_destroy(m);
    spvcond_context_destroy(sc);
    free(bytes);
    return failures || (!raw && exposed != ns) ? 1 : 0;
}
