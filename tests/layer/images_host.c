/* SPDX-License-Identifier: MIT */
/* layer-images: runs the image kernels of tests/data/images/ on one OpenCL platform and checks each result
 * by value, the same checks for programs from SPIR-V (through the layer) and from OpenCL C (the driver's own
 * compiler), so the two can be set side by side on any driver:
 *   layer-images --platform NAME (--il | --source) FILE...
 * Each file is a program of its own; a kernel is taken from the first program that has it.
 * Prints a line per kernel ("KERNEL: ok", or what was wrong); exit status 0 when all are right, 1 when one is
 * not or cannot run, 2 on bad usage or when the platform has no device with images. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 4
#define H 3

enum { MAX_PROGRAMS = 8 };

struct run {
    cl_context context;
    cl_command_queue queue;
    cl_device_id device;
    cl_program programs[MAX_PROGRAMS];
    int program_count;
    int failed;
};

static unsigned char *
read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *data = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1)) != NULL &&
        fread(data, 1, (size_t)n, f) == (size_t)n) {
        data[n] = 0;
        *size = (size_t)n;
    } else {
        free(data);
        data = NULL;
    }
    fclose(f);
    return data;
}

static cl_program
program(struct run *r, const char *path, bool il)
{
    size_t size = 0;
    unsigned char *text = read_all(path, &size);
    if (!text) {
        printf("%s: cannot be read\n", path);
        return NULL;
    }
    cl_int err;
    const char *source = (const char *)text;
    cl_program p = il ? clCreateProgramWithIL(r->context, text, size, &err)
                      : clCreateProgramWithSource(r->context, 1, &source, &size, &err);
    free(text);
    if (!p) {
        printf("%s: program not created (OpenCL error %d)\n", path, err);
        return NULL;
    }
    err = clBuildProgram(p, 1, &r->device, il ? "" : "-cl-std=CL1.2", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, r->device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
        printf("%s: not built (OpenCL error %d): %.600s\n", path, err, log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

static cl_mem
image(struct run *r, cl_mem_object_type type, cl_channel_order order, cl_channel_type data, size_t w, size_t h,
      size_t d, const void *texels, cl_mem buffer)
{
    cl_image_format format = {order, data};
    cl_image_desc desc = {.image_type = type, .image_width = w, .image_height = h, .buffer = buffer};
    if (type == CL_MEM_OBJECT_IMAGE3D)
        desc.image_depth = d;
    else
        desc.image_array_size = d;
    cl_int err;
    cl_mem m = clCreateImage(r->context, (texels ? CL_MEM_COPY_HOST_PTR : 0) | CL_MEM_READ_WRITE, &format, &desc,
                             buffer ? NULL : (void *)texels, &err);
    if (!m)
        printf("image %ux%ux%u (order 0x%x, type 0x%x): not created (OpenCL error %d)\n", (unsigned)w, (unsigned)h,
               (unsigned)d, order, data, err);
    return m;
}

static cl_mem
buffer(struct run *r, size_t size, const void *data)
{
    cl_int err;
    return clCreateBuffer(r->context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)data, &err);
}

/* Runs `name` over `global` with the arguments (cl_mem or sampler handles, all pointer-sized); false with a
 * line said when it cannot. */
static bool
launch(struct run *r, const char *name, unsigned dims, const size_t *global, unsigned count, const void *args)
{
    cl_int err = CL_INVALID_KERNEL_NAME;
    cl_kernel k = NULL;
    for (int p = 0; p < r->program_count && !k; p++)
        k = clCreateKernel(r->programs[p], name, &err);
    if (!k) {
        printf("%s: not created (OpenCL error %d)\n", name, err);
        return false;
    }
    for (unsigned i = 0; i < count && err == CL_SUCCESS; i++)
        err = clSetKernelArg(k, i, sizeof(cl_mem), (const cl_mem *)args + i);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(r->queue, k, dims, NULL, global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(r->queue);
    clReleaseKernel(k);
    if (err != CL_SUCCESS)
        printf("%s: not run (OpenCL error %d)\n", name, err);
    return err == CL_SUCCESS;
}

static bool
read_buffer(struct run *r, cl_mem m, size_t size, void *out)
{
    return clEnqueueReadBuffer(r->queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL) == CL_SUCCESS;
}

static bool
read_image(struct run *r, cl_mem m, size_t w, size_t h, size_t d, void *out)
{
    size_t origin[3] = {0, 0, 0}, region[3] = {w, h, d};
    return clEnqueueReadImage(r->queue, m, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL) == CL_SUCCESS;
}

/* Compares n floats (or integers, when `tolerance` < 0) and says the first difference. */
static void
verdict(struct run *r, const char *what, const void *got, const void *want, size_t n, double tolerance)
{
    for (size_t i = 0; i < n; i++) {
        double g = tolerance < 0 ? ((const int *)got)[i] : ((const float *)got)[i];
        double e = tolerance < 0 ? ((const int *)want)[i] : ((const float *)want)[i];
        if (fabs(g - e) > (tolerance < 0 ? 0 : tolerance)) {
            printf("%s: wrong at %zu (texel %zu, component %zu): %g, expected %g\n", what, i, i / 4, i % 4, g, e);
            r->failed++;
            return;
        }
    }
    printf("%s: ok\n", what);
}

static void
reads_2d(struct run *r)
{
    float texels[W * H * 4], out[W * H * 4];
    unsigned uints[W * H * 4], uout[W * H * 4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float *t = texels + 4 * (y * W + x);
            unsigned *u = uints + 4 * (y * W + x);
            t[0] = (float)x, t[1] = (float)y, t[2] = (float)(x * y), t[3] = 1.0f;
            u[0] = (unsigned)x, u[1] = (unsigned)y, u[2] = (unsigned)(x + y), u[3] = 7;
        }
    size_t global[2] = {W, H};
    cl_mem img = image(r, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, W, H, 0, texels, NULL);
    cl_mem uimg = image(r, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNSIGNED_INT32, W, H, 0, uints, NULL);
    cl_mem out_buffer = buffer(r, sizeof(out), NULL);
    const char *names[] = {"read_nearest", "read_linear"};
    for (int k = 0; k < 2; k++) {
        cl_mem args[] = {img, out_buffer};
        if (img && launch(r, names[k], 2, global, 2, args) && read_buffer(r, out_buffer, sizeof(out), out))
            verdict(r, names[k], out, texels, W * H * 4, k == 0 ? 0 : 1e-2);
        else
            r->failed++;
    }
    cl_mem args[] = {uimg, out_buffer};
    if (uimg && launch(r, "read_without_sampler", 2, global, 2, args) && read_buffer(r, out_buffer, sizeof(uout), uout))
        verdict(r, "read_without_sampler", uout, uints, W * H * 4, -1);
    else
        r->failed++;
    clReleaseMemObject(img);
    clReleaseMemObject(uimg);
    clReleaseMemObject(out_buffer);
}

static void
writes(struct run *r)
{
    float want[W * H * 4], got[W * H * 4];
    float bytes_want[W * H * 4], bytes_got[W * H * 4];
    unsigned char bgra[W * H * 4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float v[4] = {x / 8.0f, y / 8.0f, (x + y) / 16.0f, 1.0f}, *t = want + 4 * (y * W + x);
            float *b = bytes_want + 4 * (y * W + x);
            memcpy(t, v, sizeof(v));
            b[0] = roundf(v[2] * 255), b[1] = roundf(v[1] * 255), b[2] = roundf(v[0] * 255), b[3] = 255;
        }
    size_t global[2] = {W, H};
    cl_mem rgba = image(r, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, W, H, 0, NULL, NULL);
    cl_mem bgra_img = image(r, CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8, W, H, 0, NULL, NULL);
    if (rgba && launch(r, "write_float", 2, global, 1, &rgba) && read_image(r, rgba, W, H, 1, got))
        verdict(r, "write_float (CL_RGBA, CL_FLOAT)", got, want, W * H * 4, 0);
    else
        r->failed++;
    if (bgra_img && launch(r, "write_float", 2, global, 1, &bgra_img) && read_image(r, bgra_img, W, H, 1, bgra)) {
        for (size_t i = 0; i < sizeof(bgra); i++)
            bytes_got[i] = bgra[i];
        verdict(r, "write_float (CL_BGRA, CL_UNORM_INT8: bytes in memory)", bytes_got, bytes_want, W * H * 4, 1);
    } else {
        r->failed++;
    }
    int layers_want[2 * 2 * 2 * 4], layers_got[2 * 2 * 2 * 4];
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++) {
                int *t = layers_want + 4 * ((z * 2 + y) * 2 + x);
                t[0] = x, t[1] = y, t[2] = z, t[3] = -1;
            }
    size_t global3[3] = {2, 2, 2};
    cl_mem layers = image(r, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_SIGNED_INT32, 2, 2, 2, NULL, NULL);
    if (layers && launch(r, "write_layers", 3, global3, 1, &layers) && read_image(r, layers, 2, 2, 2, layers_got))
        verdict(r, "write_layers", layers_got, layers_want, 2 * 2 * 2 * 4, -1);
    else
        r->failed++;
    clReleaseMemObject(rgba);
    clReleaseMemObject(bgra_img);
    clReleaseMemObject(layers);
}

static void
other_shapes(struct run *r)
{
    float line[8 * 4], buffered[8 * 4], want[8 * 4], out[4 * 3 * 4], want3[4 * 3 * 4];
    for (int x = 0; x < 8; x++) {
        float a[4] = {(float)x, 0, 0, 1}, b[4] = {0, (float)x, 0, 1};
        memcpy(line + 4 * x, a, sizeof(a));
        memcpy(buffered + 4 * x, b, sizeof(b));
        float e[4] = {(float)x, 100.0f * x, 0, 101};
        memcpy(want + 4 * x, e, sizeof(e));
    }
    size_t global = 8;
    cl_mem img = image(r, CL_MEM_OBJECT_IMAGE1D, CL_RGBA, CL_FLOAT, 8, 0, 0, line, NULL);
    cl_mem storage = buffer(r, sizeof(buffered), buffered);
    cl_mem buf = storage ? image(r, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_RGBA, CL_FLOAT, 8, 0, 0, NULL, storage) : NULL;
    cl_mem out_buffer = buffer(r, sizeof(out), NULL);
    cl_mem args[] = {img, buf, out_buffer};
    if (img && buf && launch(r, "one_dimension", 1, &global, 3, args) &&
        read_buffer(r, out_buffer, sizeof(float) * 8 * 4, out))
        verdict(r, "one_dimension", out, want, 8 * 4, 0);
    else
        r->failed++;
    /* A 2D array of two layers and a 3D image of two slices, texel (x, y, layer or slice, 1 or 2). */
    float arr_texels[2 * 4 * 4], vol_texels[2 * 2 * 4 * 4];
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++) {
                float a[4] = {(float)x, (float)y, (float)z, 1}, v[4] = {(float)x, (float)y, (float)z, 2};
                if (y == 0)
                    memcpy(arr_texels + 4 * (z * 4 + x), a, sizeof(a));
                memcpy(vol_texels + 4 * ((z * 2 + y) * 4 + x), v, sizeof(v));
            }
    for (int x = 0; x < 4; x++) {
        float a[4] = {(float)x, 0, 1, 1}, v[4] = {(float)x, 0, 1, 2};
        memcpy(want3 + 12 * x, a, sizeof(a));
        memcpy(want3 + 12 * x + 4, a, sizeof(a));
        memcpy(want3 + 12 * x + 8, v, sizeof(v));
    }
    cl_mem arr = image(r, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_FLOAT, 4, 1, 2, arr_texels, NULL);
    cl_mem vol = image(r, CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_FLOAT, 4, 2, 2, vol_texels, NULL);
    cl_mem args3[] = {arr, vol, out_buffer};
    global = 4;
    if (arr && vol && launch(r, "array_and_volume", 1, &global, 3, args3) && read_buffer(r, out_buffer, sizeof(out), out))
        verdict(r, "array_and_volume", out, want3, 4 * 3 * 4, 0);
    else
        r->failed++;
    /* The queries, of the same images and a write-only CL_BGRA one. */
    cl_mem written = image(r, CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8, W, H, 0, NULL, NULL);
    int answers[9], expected[9] = {4, 2, 2, CL_FLOAT, CL_RGBA, 2, W * 100 + H, CL_BGRA, 422};
    cl_mem args4[] = {vol, arr, written, out_buffer};
    global = 1;
    if (vol && arr && written && launch(r, "queries", 1, &global, 4, args4) &&
        read_buffer(r, out_buffer, sizeof(answers), answers))
        verdict(r, "queries", answers, expected, 9, -1);
    else
        r->failed++;
    clReleaseMemObject(img);
    clReleaseMemObject(buf);
    clReleaseMemObject(storage);
    clReleaseMemObject(arr);
    clReleaseMemObject(vol);
    clReleaseMemObject(written);
    clReleaseMemObject(out_buffer);
}

static void
sampler_argument(struct run *r)
{
    int texels[W * H * 4], out[W * H * 4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int *t = texels + 4 * (y * W + x);
            t[0] = x, t[1] = -y, t[2] = x * y, t[3] = -7;
        }
    cl_int err;
    const cl_sampler_properties unnormalized_nearest[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                                          CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE,
                                                          CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
    cl_sampler s = clCreateSamplerWithProperties(r->context, unnormalized_nearest, &err);
    cl_mem img = image(r, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_SIGNED_INT32, W, H, 0, texels, NULL);
    cl_mem out_buffer = buffer(r, sizeof(out), NULL);
    const void *args[] = {img, s, out_buffer};
    size_t global[2] = {W, H};
    if (s && img && launch(r, "read_sampler_argument", 2, global, 3, args) &&
        read_buffer(r, out_buffer, sizeof(out), out))
        verdict(r, "read_sampler_argument", out, texels, W * H * 4, -1);
    else
        r->failed++;
    clReleaseSampler(s);
    clReleaseMemObject(img);
    clReleaseMemObject(out_buffer);
}

static bool
open_device(struct run *r, const char *platform_name)
{
    cl_platform_id platforms[16];
    cl_uint n = 0;
    clGetPlatformIDs(16, platforms, &n);
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof(name) - 1, name, NULL);
        cl_bool images = CL_FALSE;
        if (!strstr(name, platform_name) ||
            clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &r->device, NULL) != CL_SUCCESS ||
            clGetDeviceInfo(r->device, CL_DEVICE_IMAGE_SUPPORT, sizeof(images), &images, NULL) != CL_SUCCESS || !images)
            continue;
        cl_int err;
        r->context = clCreateContext(NULL, 1, &r->device, NULL, NULL, &err);
        r->queue = r->context ? clCreateCommandQueueWithProperties(r->context, r->device, NULL, &err) : NULL;
        char device[256] = "";
        clGetDeviceInfo(r->device, CL_DEVICE_NAME, sizeof(device) - 1, device, NULL);
        printf("device: %s (%s)\n", device, name);
        return r->queue != NULL;
    }
    return false;
}

int
main(int argc, char **argv)
{
    if (argc < 5 || strcmp(argv[1], "--platform") != 0 ||
        (strcmp(argv[3], "--il") != 0 && strcmp(argv[3], "--source") != 0) || argc - 4 > MAX_PROGRAMS) {
        fprintf(stderr, "usage: %s --platform NAME (--il | --source) FILE...\n", argv[0]);
        return 2;
    }
    struct run r = {0};
    if (!open_device(&r, argv[2])) {
        printf("no device with images on a platform named like '%s'\n", argv[2]);
        return 2;
    }
    bool il = strcmp(argv[3], "--il") == 0;
    for (int k = 4; k < argc; k++) {
        cl_program p = program(&r, argv[k], il);
        if (p)
            r.programs[r.program_count++] = p;
        else
            r.failed++;
    }
    reads_2d(&r);
    writes(&r);
    other_shapes(&r);
    sampler_argument(&r);
    for (int p = 0; p < r.program_count; p++)
        clReleaseProgram(r.programs[p]);
    clReleaseCommandQueue(r.queue);
    clReleaseContext(r.context);
    printf("%s\n", r.failed ? "images: some wrong" : "images: all right");
    return r.failed ? 1 : 0;
}
