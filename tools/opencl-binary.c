/* SPDX-License-Identifier: MIT */
/* What a driver makes of OpenCL C: builds SOURCE.cl on the first device of the platform named and writes the
 * program's binary (on NVIDIA's driver, its PTX) to OUT, the build log to standard error. A tool for learning
 * a driver's conventions (tools/nvidia-run.sh, part "probe"); it calls the OpenCL API only.
 *
 *   opencl-binary --platform NAME [--options OPTIONS] [--run KERNEL] SOURCE.cl OUT
 *
 * --run: the kernel is also run once, on 4 work-items, its one argument a buffer of 64 floats holding 0, 1, 2...
 * (what it prints, the driver prints: to set beside the layer's printf, part "probe").
 *
 * Exit status: 0 when built and written, 1 when the build or a call failed, 2 on bad usage. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)) != NULL)
            text[fread(text, 1, (size_t)n, f)] = '\0';
    }
    fclose(f);
    return text;
}

static cl_device_id
find_device(const char *wanted)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS)
        return NULL;
    for (cl_uint k = 0; k < count && k < 16; k++) {
        char name[256] = "";
        cl_device_id device;
        clGetPlatformInfo(platforms[k], CL_PLATFORM_NAME, sizeof(name) - 1, name, NULL);
        if (strstr(name, wanted) && clGetDeviceIDs(platforms[k], CL_DEVICE_TYPE_ALL, 1, &device, NULL) == CL_SUCCESS)
            return device;
    }
    return NULL;
}

/* Runs `name` of `program` once (see --run); 0 when it ran. */
static int
run_kernel(cl_context context, cl_device_id device, cl_program program, const char *name)
{
    float data[64];
    for (int i = 0; i < 64; i++)
        data[i] = (float)i;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(data), data, &err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    size_t global = 4;
    err = !kernel || !buffer || !queue ? CL_OUT_OF_RESOURCES : clSetKernelArg(kernel, 0, sizeof(buffer), &buffer);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    if (err != CL_SUCCESS)
        fprintf(stderr, "opencl-binary: %s not run: %d\n", name, err);
    if (queue)
        clReleaseCommandQueue(queue);
    if (buffer)
        clReleaseMemObject(buffer);
    if (kernel)
        clReleaseKernel(kernel);
    return err != CL_SUCCESS;
}

static int
build_and_write(cl_device_id device, const char *source, const char *options, const char *run, const char *out)
{
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (!context)
        return fprintf(stderr, "opencl-binary: clCreateContext: %d\n", err), 1;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    int status = 1;
    if (program) {
        err = clBuildProgram(program, 1, &device, options, NULL, NULL);
        size_t log_size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
        char *log = malloc(log_size + 1);
        if (log && clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL) == CL_SUCCESS)
            log[log_size] = '\0', fputs(log, stderr);
        free(log);
        size_t size = 0;
        if (err == CL_SUCCESS && clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL) == CL_SUCCESS) {
            unsigned char *binary = malloc(size ? size : 1);
            FILE *f = binary ? fopen(out, "wb") : NULL;
            if (f && clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binary), &binary, NULL) == CL_SUCCESS &&
                fwrite(binary, 1, size, f) == size)
                status = 0;
            if (f)
                fclose(f);
            free(binary);
        }
        if (status)
            fprintf(stderr, "opencl-binary: build or binary: %d\n", err);
        else if (run)
            status = run_kernel(context, device, program, run);
        clReleaseProgram(program);
    }
    clReleaseContext(context);
    return status;
}

int
main(int argc, char **argv)
{
    const char *platform = NULL, *options = "", *run = NULL;
    int a = 1;
    for (; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
        if (!strcmp(argv[a], "--platform"))
            platform = argv[a + 1];
        else if (!strcmp(argv[a], "--options"))
            options = argv[a + 1];
        else if (!strcmp(argv[a], "--run"))
            run = argv[a + 1];
        else
            break;
    }
    if (!platform || argc - a != 2)
        return fprintf(stderr, "usage: opencl-binary --platform NAME [--options OPTIONS] [--run KERNEL] SOURCE.cl OUT\n"),
               2;
    char *source = read_text(argv[a]);
    cl_device_id device = find_device(platform);
    int status = !source || !device ? (fprintf(stderr, "opencl-binary: no source or no device\n"), 1)
                                    : build_and_write(device, source, options, run, argv[a + 1]);
    free(source);
    return status;
}
