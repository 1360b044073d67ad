/* SPDX-License-Identifier: MIT */
/* A plain OpenCL host program, as an application would be written: it knows nothing of spvcond and calls
 * only the OpenCL API. It loads a SPIR-V module from IL, builds it, prints the build log and the kernels
 * the program has, and runs the kernels it is asked for on a[i] = i, printing their first results.
 *
 *   layer-host --platform NAME [--khr] [--compile-link] [--check-il] MODULE.spv KERNEL[:double]...
 *
 * --khr creates the program with cl_khr_il_program's clCreateProgramWithILKHR, found by name;
 * --compile-link uses clCompileProgram + clLinkProgram instead of clBuildProgram; --check-il first asks
 * the device for an IL version, as a careful application does, and stops when it has none. A kernel
 * with ":double" gets a buffer of doubles. Exit status: 0 when the program was built and every kernel
 * asked for ran, 1 when something was refused, 2 on bad usage. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static cl_device_id
find_device(const char *wanted, cl_platform_id *platform)
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
            return device;
        }
    }
    return NULL;
}

/* Run `name` on a[i] = i; print a[0..3]. */
static int
run(cl_context context, cl_command_queue queue, cl_program program, const char *spec)
{
    char name[256];
    snprintf(name, sizeof(name), "%s", spec);
    char *colon = strchr(name, ':');
    int is_double = colon && strcmp(colon + 1, "double") == 0;
    if (colon)
        *colon = 0;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    if (!kernel) {
        printf("kernel %s: not created (OpenCL error %d)\n", name, err);
        return 1;
    }
    double host[N];
    float *f = (float *)host;
    for (int i = 0; i < N; i++) {
        if (is_double)
            host[i] = i;
        else
            f[i] = (float)i;
    }
    size_t bytes = N * (is_double ? sizeof(double) : sizeof(float)), global = N, local[3] = {0, 0, 0};
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
    clGetKernelWorkGroupInfo(kernel, NULL, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(local), local, NULL);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 0, sizeof(buffer), &buffer);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, local[0] ? local : NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    if (err != CL_SUCCESS) {
        printf("kernel %s: run failed (OpenCL error %d)\n", name, err);
        return 1;
    }
    printf("kernel %s: results", name);
    for (int i = 0; i < 4; i++)
        printf(" %g", is_double ? host[i] : f[i]);
    printf("\n");
    return 0;
}

int
main(int argc, char **argv)
{
    const char *platform_name = NULL, *path = NULL;
    int khr = 0, compile_link = 0, check_il = 0, first_kernel = argc;
    for (int i = 1; i < argc && first_kernel == argc; i++) {
        if (!strcmp(argv[i], "--platform") && i + 1 < argc)
            platform_name = argv[++i];
        else if (!strcmp(argv[i], "--khr"))
            khr = 1;
        else if (!strcmp(argv[i], "--compile-link"))
            compile_link = 1;
        else if (!strcmp(argv[i], "--check-il"))
            check_il = 1;
        else if (!path)
            path = argv[i];
        else
            first_kernel = i;
    }
    if (!platform_name || !path) {
        fprintf(stderr, "usage: %s --platform NAME [--khr] [--compile-link] [--check-il] MODULE.spv KERNEL[:double]...\n",
                argv[0]);
        return 2;
    }
    cl_platform_id platform;
    cl_device_id device = find_device(platform_name, &platform);
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
    size_t size;
    void *il = read_file(path, &size);
    if (!il) {
        fprintf(stderr, "cannot read %s\n", path);
        return 2;
    }
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    cl_program program;
    if (khr) {
        typedef cl_program(CL_API_CALL * create_fn)(cl_context, const void *, size_t, cl_int *);
        create_fn create = (create_fn)clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR");
        program = create ? create(context, il, size, &err) : NULL;
        if (!create)
            err = CL_INVALID_OPERATION;
    } else {
        program = clCreateProgramWithIL(context, il, size, &err);
    }
    free(il);
    if (!program) {
        printf("program: not created (OpenCL error %d)\n", err);
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
        return 1;
    }
    cl_program built = program;
    if (compile_link) {
        err = clCompileProgram(program, 1, &device, "", 0, NULL, NULL, NULL, NULL);
        if (err == CL_SUCCESS)
            built = clLinkProgram(context, 1, &device, "", 1, &program, NULL, NULL, &err);
    } else {
        err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    }
    char log[16384] = "";
    clGetProgramBuildInfo(built ? built : program, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
    printf("build log:\n%s%s", log, log[0] && log[strlen(log) - 1] != '\n' ? "\n" : "");
    int failures = 0;
    if (err != CL_SUCCESS || !built) {
        printf("program: not built (OpenCL error %d)\n", err);
        failures = 1;
    } else {
        char names[4096] = "";
        clGetProgramInfo(built, CL_PROGRAM_KERNEL_NAMES, sizeof(names) - 1, names, NULL);
        cl_uint count = 0;
        clCreateKernelsInProgram(built, 0, NULL, &count);
        printf("program: built; kernels: %s (%u)\n", names, count);
        for (int i = first_kernel; i < argc; i++)
            failures += run(context, queue, built, argv[i]);
    }
    if (built && built != program)
        clReleaseProgram(built);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return failures ? 1 : 0;
}
