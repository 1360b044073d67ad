/* SPDX-License-Identifier: MIT */
/* OpenCL's program semantics through the layer, as an application sees them (tests/layer_programs.py). A
 * plain OpenCL host program: it knows nothing of spvcond. Each check prints "ok: WHAT" or "FAIL: WHAT (why)";
 * the exit status is the number of failures (2 on bad usage).
 *
 *   layer-programs --platform NAME stale MODULE.spv KERNEL
 *       a program from IL built and a kernel made, the program released before the kernel (as garbage-collected
 *       bindings do), then 200 programs from OpenCL C source: none may be refused its kernel
 *   layer-programs --platform NAME spec SPEC.spv
 *       tests/data/layer/spec_constants.spvasm: the defaults, then every constant set, then the refusals
 *   layer-programs --platform NAME queries MODULE.spv KERNEL
 *       CL_PROGRAM_IL, reference counts, build status and binary type through build, compile and link, the
 *       kernel's program, clCloneKernel, a rebuild with kernels attached, the release callback
 *   layer-programs --platform NAME link LIBRARY.spv USER.spv KERNEL
 *       two modules compiled, then linked (also through a library made with -create-library); the kernel
 *       runs on a[i] = i and prints a[0..3]
 *   --create-only: make kernels but run nothing (a driver that compiles nothing) */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, create_only;
static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static void
check(int ok, const char *what, long detail)
{
    if (ok)
        printf("ok: %s\n", what);
    else
        printf("FAIL: %s (%ld)\n", what, detail);
    failures += !ok;
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

static int
open_platform(const char *wanted)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    clGetPlatformIDs(16, platforms, &count);
    for (cl_uint k = 0; k < count && k < 16; k++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[k], CL_PLATFORM_NAME, sizeof(name) - 1, name, NULL);
        if ((strstr(name, wanted) || (!strcmp(wanted, "pocl") && strstr(name, "Portable Computing Language"))) &&
            clGetDeviceIDs(platforms[k], CL_DEVICE_TYPE_ALL, 1, &device, NULL) == CL_SUCCESS) {
            cl_int err;
            context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
            queue = context ? clCreateCommandQueueWithProperties(context, device, NULL, &err) : NULL;
            return queue != NULL;
        }
    }
    return 0;
}

static cl_program
from_il(const char *path)
{
    size_t size;
    void *il = read_file(path, &size);
    cl_int err = CL_INVALID_VALUE;
    cl_program p = il ? clCreateProgramWithIL(context, il, size, &err) : NULL;
    free(il);
    if (!p)
        printf("FAIL: %s: not created (%d)\n", path, err);
    return p;
}

/* Runs `kernel` over n items of a buffer of n uints (or floats) filled with `init`; the results in out. */
static cl_int
run(cl_kernel kernel, void *data, size_t bytes, size_t n)
{
    cl_int err;
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, data, &err);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 0, sizeof(buffer), &buffer);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, bytes, data, 0, NULL, NULL);
    if (buffer)
        clReleaseMemObject(buffer);
    return err;
}

/* ---- stale: a program released before its kernel ---- */

static const char source[] = "kernel void twice(global float *a) { a[get_global_id(0)] *= 2.0f; }\n";

static void
stale(const char *path, const char *name)
{
    int refused = 0, rounds = 200;
    for (int r = 0; r < 4; r++) {
        cl_program p = from_il(path);
        cl_int err = p ? clBuildProgram(p, 1, &device, "", NULL, NULL) : CL_INVALID_PROGRAM;
        cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, name, &err) : NULL;
        if (!k) {
            check(0, "the program from IL builds and has its kernel", err);
            return;
        }
        clReleaseProgram(p); /* the kernel still holds it */
        cl_program held = NULL;
        clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(held), &held, NULL);
        check(held == p, "the kernel's CL_KERNEL_PROGRAM is the program the application released", 0);
        clReleaseKernel(k); /* now the program goes */
        for (int i = 0; i < rounds / 4; i++) {
            const char *text = source;
            cl_program s = clCreateProgramWithSource(context, 1, &text, NULL, &err);
            err = s ? clBuildProgram(s, 1, &device, "", NULL, NULL) : err;
            cl_kernel t = err == CL_SUCCESS ? clCreateKernel(s, "twice", &err) : NULL;
            refused += t == NULL;
            if (t)
                clReleaseKernel(t);
            if (s)
                clReleaseProgram(s);
        }
    }
    printf("stale: %d of %d programs from OpenCL C refused their kernel\n", refused, rounds);
    check(refused == 0, "no program from OpenCL C is refused its kernel after a program from IL went", refused);
}

/* ---- spec: specialization constants ---- */

static void
spec_run(const char *path, const char *what, const uint32_t expected[7], int set)
{
    cl_program p = from_il(path);
    if (!p)
        return;
    if (set) {
        uint32_t u32 = 42;
        cl_uchar b = 1, u8 = 200, t = 0;
        float f = -2.25f;
        uint64_t u64 = 0x100000007ull;
        cl_ushort u16 = 65535;
        cl_int e[7] = {clSetProgramSpecializationConstant(p, 1, sizeof(u32), &u32),
                       clSetProgramSpecializationConstant(p, 2, sizeof(b), &b),
                       clSetProgramSpecializationConstant(p, 3, sizeof(f), &f),
                       clSetProgramSpecializationConstant(p, 4, sizeof(u8), &u8),
                       clSetProgramSpecializationConstant(p, 5, sizeof(u64), &u64),
                       clSetProgramSpecializationConstant(p, 6, sizeof(u16), &u16),
                       clSetProgramSpecializationConstant(p, 7, sizeof(t), &t)};
        int all = 1;
        for (int k = 0; k < 7; k++)
            all &= e[k] == CL_SUCCESS;
        check(all, "clSetProgramSpecializationConstant takes each of the module's constants at its size", 0);
        uint32_t wrong = 1;
        cl_int err = clSetProgramSpecializationConstant(p, 99, sizeof(wrong), &wrong);
        check(err == CL_INVALID_SPEC_ID, "a SpecId the module lacks: CL_INVALID_SPEC_ID", err);
        err = clSetProgramSpecializationConstant(p, 1, 8, &u64);
        check(err == CL_INVALID_VALUE, "a size other than the constant's: CL_INVALID_VALUE", err);
        err = clSetProgramSpecializationConstant(p, 1, 4, NULL);
        check(err == CL_INVALID_VALUE, "no value: CL_INVALID_VALUE", err);
    }
    cl_int err = clBuildProgram(p, 1, &device, "", NULL, NULL);
    cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "spec", &err) : NULL;
    uint32_t out[7] = {0};
    if (k && !create_only)
        err = run(k, out, sizeof(out), 1);
    if (create_only) {
        check(k != NULL, what, err);
    } else {
        int same = k && err == CL_SUCCESS && memcmp(out, expected, sizeof(out)) == 0;
        printf("%s: %u %u %08x %u %u %u %u\n", what, out[0], out[1], out[2], out[3], out[4], out[5], out[6]);
        check(same, what, err);
    }
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(p);
}

static void
spec(const char *path)
{
    static const uint32_t defaults[7] = {7, 0, 0x3fc00000u /* 1.5f */, 3, 5, 9, 1};
    static const uint32_t set[7] = {42, 1, 0xc0100000u /* -2.25f */, 200, 7, 65535, 0};
    spec_run(path, "the defaults without a constant set", defaults, 0);
    spec_run(path, "every constant as set", set, 1);
    /* after a build, the constants can still be set; a rebuild takes them */
    cl_program p = from_il(path);
    if (p) {
        uint32_t value = 5;
        cl_int err = clBuildProgram(p, 1, &device, "", NULL, NULL);
        if (err == CL_SUCCESS)
            err = clSetProgramSpecializationConstant(p, 1, sizeof(value), &value);
        if (err == CL_SUCCESS)
            err = clBuildProgram(p, 1, &device, "", NULL, NULL);
        cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "spec", &err) : NULL;
        uint32_t out[7] = {0};
        if (k && !create_only)
            err = run(k, out, sizeof(out), 1);
        check(k && err == CL_SUCCESS && (create_only || out[0] == 5), "a constant set after a build, built again",
              err);
        if (k)
            clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

/* ---- queries ---- */

static void CL_CALLBACK
released(cl_program program, void *user)
{
    (void)program;
    ++*(int *)user;
}

static cl_program_binary_type
binary_type(cl_program p)
{
    cl_program_binary_type type = 0xdead;
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof(type), &type, NULL);
    return type;
}

static cl_build_status
build_status(cl_program p)
{
    cl_build_status status = 0xdead;
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status, NULL);
    return status;
}

static void
queries(const char *path, const char *name)
{
    size_t size;
    void *il = read_file(path, &size);
    cl_program p = from_il(path);
    if (!p || !il)
        return;
    size_t got = 0;
    cl_int err = clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &got);
    void *back = malloc(size);
    if (err == CL_SUCCESS && got == size)
        err = clGetProgramInfo(p, CL_PROGRAM_IL, size, back, NULL);
    check(err == CL_SUCCESS && got == size && memcmp(back, il, size) == 0,
          "CL_PROGRAM_IL gives the IL the program was created with", (long)got);
    free(back);
    cl_uint refs = 0;
    clRetainProgram(p);
    clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs), &refs, NULL);
    check(refs == 2, "CL_PROGRAM_REFERENCE_COUNT counts the application's references", refs);
    clReleaseProgram(p);
    cl_context c = NULL;
    cl_uint n = 0;
    cl_device_id d = NULL;
    clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof(c), &c, NULL);
    clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof(n), &n, NULL);
    clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof(d), &d, NULL);
    check(c == context && n == 1 && d == device, "CL_PROGRAM_CONTEXT, _NUM_DEVICES and _DEVICES", n);
    check(build_status(p) == CL_BUILD_NONE && binary_type(p) == CL_PROGRAM_BINARY_TYPE_NONE,
          "before a build: CL_BUILD_NONE, CL_PROGRAM_BINARY_TYPE_NONE", build_status(p));
    size_t kernels = 0;
    err = clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(kernels), &kernels, NULL);
    check(err == CL_INVALID_PROGRAM_EXECUTABLE, "CL_PROGRAM_NUM_KERNELS before a build: CL_INVALID_PROGRAM_EXECUTABLE",
          err);
    cl_kernel k = clCreateKernel(p, name, &err);
    check(!k && err == CL_INVALID_PROGRAM_EXECUTABLE, "clCreateKernel before a build: CL_INVALID_PROGRAM_EXECUTABLE",
          err);
    int callbacks = 0;
    err = clSetProgramReleaseCallback(p, released, &callbacks);
    check(err == CL_SUCCESS, "clSetProgramReleaseCallback is taken", err);
    err = clCompileProgram(p, 1, &device, "-DX=1", 0, NULL, NULL, NULL, NULL);
    check(err == CL_SUCCESS && build_status(p) == CL_BUILD_SUCCESS &&
              binary_type(p) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
          "clCompileProgram: a compiled object", err);
    char options[64] = "";
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_OPTIONS, sizeof(options), options, NULL);
    check(strcmp(options, "-DX=1") == 0, "CL_PROGRAM_BUILD_OPTIONS are the compile's", 0);
    cl_program library = clLinkProgram(context, 1, &device, "-create-library", 1, &p, NULL, NULL, &err);
    check(library && err == CL_SUCCESS && binary_type(library) == CL_PROGRAM_BINARY_TYPE_LIBRARY,
          "clLinkProgram -create-library: a library", err);
    cl_program linked = library ? clLinkProgram(context, 1, &device, "", 1, &library, NULL, NULL, &err) : NULL;
    check(linked && err == CL_SUCCESS && binary_type(linked) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
          "clLinkProgram of the library: an executable", err);
    got = 1;
    if (linked)
        clGetProgramInfo(linked, CL_PROGRAM_IL, 0, NULL, &got);
    check(got == 0, "a linked program has no CL_PROGRAM_IL", (long)got);
    cl_kernel lk = linked ? clCreateKernel(linked, name, &err) : NULL;
    check(lk != NULL, "the linked program has the kernel", err);
    if (lk)
        clReleaseKernel(lk);
    if (linked)
        clReleaseProgram(linked);
    if (library)
        clReleaseProgram(library);
    err = clBuildProgram(p, 1, &device, "-cl-fast-relaxed-math", NULL, NULL);
    check(err == CL_SUCCESS && build_status(p) == CL_BUILD_SUCCESS &&
              binary_type(p) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
          "clBuildProgram: an executable", err);
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_OPTIONS, sizeof(options), options, NULL);
    check(strcmp(options, "-cl-fast-relaxed-math") == 0, "CL_PROGRAM_BUILD_OPTIONS are the build's", 0);
    k = clCreateKernel(p, name, &err);
    check(k != NULL, "clCreateKernel after the build", err);
    cl_program of = NULL;
    if (k)
        clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(of), &of, NULL);
    check(of == p, "CL_KERNEL_PROGRAM is the application's program", 0);
    cl_kernel clone = k ? clCloneKernel(k, &err) : NULL;
    of = NULL;
    if (clone)
        clGetKernelInfo(clone, CL_KERNEL_PROGRAM, sizeof(of), &of, NULL);
    check(clone && of == p, "clCloneKernel: a kernel of the same program", err);
    err = clBuildProgram(p, 1, &device, "", NULL, NULL);
    check(err == CL_INVALID_OPERATION, "a build with kernels attached: CL_INVALID_OPERATION", err);
    cl_kernel many[8];
    cl_uint made = 0;
    err = clCreateKernelsInProgram(p, 8, many, &made);
    check(err == CL_SUCCESS && made >= 1, "clCreateKernelsInProgram", err);
    clReleaseProgram(p); /* the kernels hold it */
    check(callbacks == 0, "the program lives while its kernels do", callbacks);
    for (cl_uint j = 0; j < made; j++)
        clReleaseKernel(many[j]);
    if (clone)
        clReleaseKernel(clone);
    check(callbacks == 0, "... and while the last kernel does", callbacks);
    if (k)
        clReleaseKernel(k);
    check(callbacks == 1, "the release callback runs when the last kernel goes", callbacks);
    free(il);
}

/* ---- link: two modules ---- */

static void
link_run(cl_program linked, const char *name, const char *what)
{
    cl_int err;
    cl_kernel k = linked ? clCreateKernel(linked, name, &err) : NULL;
    float a[64];
    for (int i = 0; i < 64; i++)
        a[i] = (float)i;
    if (k && !create_only)
        err = run(k, a, sizeof(a), 64);
    if (k && !create_only)
        printf("%s: results %g %g %g %g\n", what, a[0], a[1], a[2], a[3]);
    check(k && err == CL_SUCCESS, what, err);
    if (k)
        clReleaseKernel(k);
}

static void
link_two(const char *library_path, const char *user_path, const char *name)
{
    cl_program parts[2] = {from_il(library_path), from_il(user_path)};
    if (!parts[0] || !parts[1])
        return;
    cl_int err = clCompileProgram(parts[0], 0, NULL, "", 0, NULL, NULL, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clCompileProgram(parts[1], 0, NULL, "", 0, NULL, NULL, NULL, NULL);
    check(err == CL_SUCCESS, "both modules compile", err);
    cl_program linked = clLinkProgram(context, 0, NULL, "", 2, parts, NULL, NULL, &err);
    check(linked && err == CL_SUCCESS, "the two compiled objects link", err);
    link_run(linked, name, "the linked program's kernel runs");
    cl_program library = clLinkProgram(context, 0, NULL, "-create-library", 1, &parts[0], NULL, NULL, &err);
    check(library && err == CL_SUCCESS, "a library of the first", err);
    cl_program inputs[2] = {library, parts[1]};
    cl_program from_library = library ? clLinkProgram(context, 0, NULL, "", 2, inputs, NULL, NULL, &err) : NULL;
    check(from_library && err == CL_SUCCESS, "the library and the second object link", err);
    link_run(from_library, name, "the kernel linked with the library runs");
    cl_program alone = clLinkProgram(context, 0, NULL, "", 1, &parts[1], NULL, NULL, &err);
    char log[4096] = "";
    if (alone)
        clGetProgramBuildInfo(alone, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
    check(err == CL_LINK_PROGRAM_FAILURE || err == CL_SUCCESS, "the second alone: linked or refused, no crash", err);
    if (alone)
        clReleaseProgram(alone);
    for (int k = 0; k < 2; k++)
        clReleaseProgram(parts[k]);
    if (linked)
        clReleaseProgram(linked);
    if (from_library)
        clReleaseProgram(from_library);
    if (library)
        clReleaseProgram(library);
}

int
main(int argc, char **argv)
{
    int a = 1;
    const char *platform = NULL;
    for (; a + 1 < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--platform"))
            platform = argv[++a];
        else if (!strcmp(argv[a], "--create-only"))
            create_only = 1;
    }
    if (!platform || a >= argc || !open_platform(platform)) {
        fprintf(stderr, "usage: %s --platform NAME [--create-only] stale|spec|queries|link ARGS (or no such "
                "platform)\n", argv[0]);
        return 2;
    }
    const char *what = argv[a];
    if (!strcmp(what, "stale") && a + 2 < argc)
        stale(argv[a + 1], argv[a + 2]);
    else if (!strcmp(what, "spec") && a + 1 < argc)
        spec(argv[a + 1]);
    else if (!strcmp(what, "queries") && a + 2 < argc)
        queries(argv[a + 1], argv[a + 2]);
    else if (!strcmp(what, "link") && a + 3 < argc)
        link_two(argv[a + 1], argv[a + 2], argv[a + 3]);
    else
        return 2;
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return failures > 100 ? 100 : failures;
}
