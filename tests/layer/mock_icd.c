/* SPDX-License-Identifier: MIT */
/* A mock OpenCL driver (an ICD the loader loads with OCL_ICD_VENDORS=/path/to/it) with two devices whose
 * facts differ, for what the real runtimes here cannot show the layer: a driver that reads SPIR-V itself,
 * and devices of one context that need different modules. Device 1 has fp64, device 2 not; both are GPUs
 * of OpenCL 3.0, full profile. It compiles nothing: it records what it is given and answers for it.
 *
 *   SPVCOND_MOCK_IL=1     the devices read SPIR-V (CL_DEVICE_IL_VERSION, clCreateProgramWithIL); otherwise
 *                         they take it as rusticl does, as a program binary behind a 12-byte header, and the
 *                         platform is named "rusticl" so that the layer gives it that form
 *   SPVCOND_MOCK_NVIDIA=1 the platform is NVIDIA's ("NVIDIA CUDA"): no IL, no fp16 reported, both devices with
 *                         fp64 and cl_nv_device_attribute_query, compute capability 9.0 (device 1) and 5.2
 *                         (device 2); binaries are PTX, whose .entry names are the kernels
 *   SPVCOND_MOCK_IMAGES=1 the devices report image support
 *   SPVCOND_MOCK_OUT=P    each module received is written to P.il.spv (IL) or P.N.spv (device N's binary;
 *                         P.N.ptx for NVIDIA's PTX)
 *
 * A kernel exists where the module given for a device has an entry point of its name; clCreateKernel
 * makes one when any device has it (the layer, not the driver, decides which kernels an application sees).
 * Objects are counted as real drivers count them: a kernel holds its program, a program its context, and
 * each is freed with its last reference (its memory filled first, so that a use after that shows).
 * Only what the layer and tests/layer/host.c --create-only call is here. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl_icd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEVICES 2
#define NAMES 1024

static struct _cl_icd_dispatch dispatch;

struct _cl_platform_id {
    struct _cl_icd_dispatch *dispatch;
};
struct _cl_device_id {
    struct _cl_icd_dispatch *dispatch;
    int index;
};
struct _cl_context {
    struct _cl_icd_dispatch *dispatch;
    cl_uint count;
    cl_device_id devices[DEVICES];
    cl_uint references;
};
struct _cl_command_queue {
    struct _cl_icd_dispatch *dispatch;
};
struct _cl_program {
    struct _cl_icd_dispatch *dispatch;
    cl_context context;
    char names[DEVICES][NAMES]; /* each device's kernels, ';'-separated */
    cl_build_status status[DEVICES];
    cl_uint references;
};
struct _cl_kernel {
    struct _cl_icd_dispatch *dispatch;
    cl_program program; /* held, as real drivers' kernels hold their program */
    cl_uint references;
};

static struct _cl_platform_id platform = {&dispatch};
static struct _cl_device_id devices[DEVICES] = {{&dispatch, 0}, {&dispatch, 1}};

static int
reads_il(void)
{
    const char *il = getenv("SPVCOND_MOCK_IL");
    return il && strcmp(il, "1") == 0;
}

static int
nvidia(void)
{
    const char *nv = getenv("SPVCOND_MOCK_NVIDIA");
    return nv && strcmp(nv, "1") == 0 && !reads_il();
}

static cl_int
answer(const void *data, size_t size, size_t value_size, void *value, size_t *size_ret)
{
    if (value && value_size < size)
        return CL_INVALID_VALUE;
    if (value)
        memcpy(value, data, size);
    if (size_ret)
        *size_ret = size;
    return CL_SUCCESS;
}

#define ANSWER(v) answer(&(v), sizeof(v), value_size, value, size_ret)
#define ANSWER_TEXT(s) answer((s), strlen(s) + 1, value_size, value, size_ret)

static cl_int CL_API_CALL
get_platform_info(cl_platform_id p, cl_platform_info param, size_t value_size, void *value, size_t *size_ret)
{
    (void)p;
    switch (param) {
    case CL_PLATFORM_NAME:
        return ANSWER_TEXT(reads_il() ? "spvcond mock" : nvidia() ? "NVIDIA CUDA" : "rusticl");
    case CL_PLATFORM_VENDOR:
        return ANSWER_TEXT("libspvcond tests");
    case CL_PLATFORM_VERSION:
        return ANSWER_TEXT("OpenCL 3.0 mock");
    case CL_PLATFORM_PROFILE:
        return ANSWER_TEXT("FULL_PROFILE");
    case CL_PLATFORM_EXTENSIONS:
        return ANSWER_TEXT("cl_khr_icd");
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        return ANSWER_TEXT("MOCK");
    default:
        return CL_INVALID_VALUE;
    }
}

static cl_int CL_API_CALL
get_device_ids(cl_platform_id p, cl_device_type type, cl_uint n, cl_device_id *out, cl_uint *count)
{
    (void)p;
    if (!(type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT)))
        return CL_DEVICE_NOT_FOUND;
    for (cl_uint k = 0; out && k < n && k < DEVICES; k++)
        out[k] = &devices[k];
    if (count)
        *count = DEVICES;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL
get_device_info(cl_device_id d, cl_device_info param, size_t value_size, void *value, size_t *size_ret)
{
    int fp64 = d->index == 0 || nvidia();
    cl_uint cc_major = d->index == 0 ? 9 : 5, cc_minor = d->index == 0 ? 0 : 2;
    cl_device_type type = CL_DEVICE_TYPE_GPU;
    cl_device_fp_config fp = fp64 ? CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM : 0;
    size_t max_wg = 256;
    cl_bool no = CL_FALSE, yes = CL_TRUE;
    cl_command_queue_properties queue = 0;
    cl_platform_id p = &platform;
    switch (param) {
    case CL_DEVICE_NAME:
        if (nvidia())
            return ANSWER_TEXT(d->index == 0 ? "mock NVIDIA sm_90" : "mock NVIDIA sm_52");
        return ANSWER_TEXT(fp64 ? "mock fp64" : "mock fp32");
    case CL_DEVICE_VERSION:
        return ANSWER_TEXT("OpenCL 3.0 mock");
    case CL_DEVICE_PROFILE:
        return ANSWER_TEXT("FULL_PROFILE");
    case CL_DEVICE_EXTENSIONS:
        if (nvidia())
            return ANSWER_TEXT("cl_khr_global_int32_base_atomics cl_khr_fp64 cl_khr_int64_base_atomics "
                               "cl_khr_int64_extended_atomics cl_khr_byte_addressable_store "
                               "cl_nv_device_attribute_query cl_nv_compiler_options");
        if (getenv("SPVCOND_MOCK_FP16")) { /* a fact the layer's cache must see change (tests/layer_cache.py) */
            return ANSWER_TEXT(reads_il() ? (fp64 ? "cl_khr_il_program cl_khr_fp64 cl_khr_fp16" : "cl_khr_il_program cl_khr_fp16")
                                          : (fp64 ? "cl_khr_fp64 cl_khr_fp16" : "cl_khr_fp16"));
        }
        return ANSWER_TEXT(reads_il() ? (fp64 ? "cl_khr_il_program cl_khr_fp64" : "cl_khr_il_program")
                                      : (fp64 ? "cl_khr_fp64" : ""));
    case CL_DEVICE_IL_VERSION:
        return reads_il() ? ANSWER_TEXT("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2") : CL_INVALID_VALUE;
    case CL_DEVICE_TYPE:
        return ANSWER(type);
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        return ANSWER(fp);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
        return ANSWER(max_wg);
    case CL_DEVICE_IMAGE_SUPPORT:
        return getenv("SPVCOND_MOCK_IMAGES") ? ANSWER(yes) : ANSWER(no);
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
        return ANSWER(no);
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
        return ANSWER(yes);
    case CL_DEVICE_QUEUE_PROPERTIES:
        return ANSWER(queue);
    case CL_DEVICE_PLATFORM:
        return ANSWER(p);
    case 0x4000: /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */
        return nvidia() ? ANSWER(cc_major) : CL_INVALID_VALUE;
    case 0x4001: /* CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV */
        return nvidia() ? ANSWER(cc_minor) : CL_INVALID_VALUE;
    default:
        return CL_INVALID_VALUE;
    }
}

static cl_context CL_API_CALL
create_context(const cl_context_properties *properties, cl_uint n, const cl_device_id *list,
               void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user, cl_int *err)
{
    (void)properties, (void)notify, (void)user;
    cl_context c = calloc(1, sizeof(*c));
    if (!c || n == 0 || n > DEVICES) {
        free(c);
        *err = CL_INVALID_VALUE;
        return NULL;
    }
    c->dispatch = &dispatch;
    c->count = n;
    memcpy(c->devices, list, n * sizeof(*list));
    c->references = 1;
    *err = CL_SUCCESS;
    return c;
}

static cl_int CL_API_CALL
get_context_info(cl_context c, cl_context_info param, size_t value_size, void *value, size_t *size_ret)
{
    if (param == CL_CONTEXT_NUM_DEVICES)
        return ANSWER(c->count);
    if (param == CL_CONTEXT_DEVICES)
        return answer(c->devices, c->count * sizeof(cl_device_id), value_size, value, size_ret);
    if (param == CL_CONTEXT_REFERENCE_COUNT)
        return ANSWER(c->references);
    return CL_INVALID_VALUE;
}

static cl_int CL_API_CALL
retain_context(cl_context c)
{
    c->references++;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL
release_context(cl_context c)
{
    if (--c->references == 0)
        free(c);
    return CL_SUCCESS;
}

static cl_command_queue CL_API_CALL
create_queue(cl_context c, cl_device_id d, const cl_queue_properties *properties, cl_int *err)
{
    (void)c, (void)d, (void)properties;
    cl_command_queue q = calloc(1, sizeof(*q));
    if (q)
        q->dispatch = &dispatch;
    *err = q ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    return q;
}

static cl_int CL_API_CALL
release_queue(cl_command_queue q)
{
    free(q);
    return CL_SUCCESS;
}

/* The entry points' names of a SPIR-V module, ';'-separated; 0 if it is not one. */
static int
entry_points(const uint32_t *w, size_t count, char *names)
{
    names[0] = 0;
    if (count < 5 || w[0] != 0x07230203)
        return 0;
    for (size_t k = 5; k < count;) {
        uint32_t n = w[k] >> 16, op = w[k] & 0xffff;
        if (n == 0 || k + n > count)
            return 0;
        if (op == 15 /* OpEntryPoint */ && n > 3) {
            const char *name = (const char *)&w[k + 3];
            if (memchr(name, 0, (n - 3) * 4) && strlen(names) + strlen(name) + 2 < NAMES)
                strcat(strcat(names, names[0] ? ";" : ""), name);
        }
        k += n;
    }
    return 1;
}

/* The .entry names of PTX text, ';'-separated; 0 if it is not NUL-terminated text with a .target. */
static int
ptx_entries(const char *ptx, size_t size, char *names)
{
    names[0] = 0;
    if (size == 0 || ptx[size - 1] != 0 || !strstr(ptx, "\n.target sm_"))
        return 0;
    for (const char *e = strstr(ptx, ".entry "); e; e = strstr(e + 1, ".entry ")) {
        size_t n = strcspn(e + 7, "( \n");
        if (strlen(names) + n + 2 < NAMES)
            strncat(strcat(names, names[0] ? ";" : ""), e + 7, n);
    }
    return 1;
}

static void
record(const void *module, size_t size, const char *what)
{
    const char *prefix = getenv("SPVCOND_MOCK_OUT");
    char path[4096];
    if (!prefix || snprintf(path, sizeof(path), "%s.%s.%s", prefix, what, nvidia() ? "ptx" : "spv") >=
                       (int)sizeof(path))
        return;
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(module, 1, size, f);
        fclose(f);
    }
}

static cl_int CL_API_CALL release_program(cl_program p);

static cl_program
new_program(cl_context c)
{
    cl_program p = calloc(1, sizeof(*p));
    if (p) {
        p->dispatch = &dispatch;
        p->context = c;
        p->references = 1;
        c->references++;
    }
    return p;
}

static cl_program CL_API_CALL
create_program_with_il(cl_context c, const void *il, size_t length, cl_int *err)
{
    cl_program p = reads_il() ? new_program(c) : NULL;
    if (!p) {
        *err = reads_il() ? CL_OUT_OF_HOST_MEMORY : CL_INVALID_OPERATION;
        return NULL;
    }
    for (cl_uint k = 0; k < c->count; k++)
        if (length % 4 || !entry_points(il, length / 4, p->names[c->devices[k]->index])) {
            release_program(p);
            *err = CL_INVALID_VALUE;
            return NULL;
        }
    record(il, length, "il");
    *err = CL_SUCCESS;
    return p;
}

static cl_program CL_API_CALL
create_program_with_binary(cl_context c, cl_uint n, const cl_device_id *list, const size_t *lengths,
                           const unsigned char **binaries, cl_int *status, cl_int *err)
{
    cl_program p = new_program(c);
    if (!p) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    for (cl_uint k = 0; k < n && nvidia(); k++) {
        char what[8];
        if (!ptx_entries((const char *)binaries[k], lengths[k], p->names[list[k]->index])) {
            release_program(p);
            *err = CL_INVALID_BINARY;
            return NULL;
        }
        if (status)
            status[k] = CL_SUCCESS;
        snprintf(what, sizeof(what), "%d", list[k]->index);
        record(binaries[k], lengths[k] - 1, what);
    }
    for (cl_uint k = 0; k < n && !nvidia(); k++) {
        uint32_t header[3];
        if (lengths[k] < 12 || (memcpy(header, binaries[k], 12), header[0] != 1) || header[1] != lengths[k] - 12 ||
            !entry_points((const uint32_t *)(binaries[k] + 12), header[1] / 4, p->names[list[k]->index])) {
            release_program(p);
            *err = CL_INVALID_BINARY;
            return NULL;
        }
        if (status)
            status[k] = CL_SUCCESS;
        char what[8];
        snprintf(what, sizeof(what), "%d", list[k]->index);
        record(binaries[k] + 12, header[1], what);
    }
    *err = CL_SUCCESS;
    return p;
}

static cl_int CL_API_CALL
build_program(cl_program p, cl_uint n, const cl_device_id *list, const char *options,
              void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    (void)options;
    for (cl_uint k = 0; k < (list ? n : p->context->count); k++)
        p->status[(list ? list[k] : p->context->devices[k])->index] = CL_BUILD_SUCCESS;
    if (notify)
        notify(p, user);
    return CL_SUCCESS;
}

static cl_int CL_API_CALL
get_program_build_info(cl_program p, cl_device_id d, cl_program_build_info param, size_t value_size, void *value,
                       size_t *size_ret)
{
    if (param == CL_PROGRAM_BUILD_STATUS)
        return ANSWER(p->status[d->index]);
    if (param == CL_PROGRAM_BUILD_LOG)
        return ANSWER_TEXT(p->status[d->index] == CL_BUILD_SUCCESS ? "mock: built\n" : "");
    return CL_INVALID_VALUE;
}

static cl_int CL_API_CALL
get_program_info(cl_program p, cl_program_info param, size_t value_size, void *value, size_t *size_ret)
{
    if (param == CL_PROGRAM_REFERENCE_COUNT)
        return ANSWER(p->references);
    if (param == CL_PROGRAM_KERNEL_NAMES)
        return ANSWER_TEXT(p->names[0]);
    return CL_INVALID_VALUE;
}

static int
has_kernel(const char *names, const char *name)
{
    size_t len = strlen(name);
    for (const char *s = names; *s; s += strcspn(s, ";") + (s[strcspn(s, ";")] == ';'))
        if (strcspn(s, ";") == len && strncmp(s, name, len) == 0)
            return 1;
    return 0;
}

static cl_kernel CL_API_CALL
create_kernel(cl_program p, const char *name, cl_int *err)
{
    int found = 0;
    for (int k = 0; k < DEVICES; k++)
        found |= has_kernel(p->names[k], name);
    cl_kernel kernel = found ? calloc(1, sizeof(*kernel)) : NULL;
    if (kernel) {
        kernel->dispatch = &dispatch;
        kernel->program = p;
        kernel->references = 1;
        p->references++;
    }
    if (err)
        *err = kernel ? CL_SUCCESS : found ? CL_OUT_OF_HOST_MEMORY : CL_INVALID_KERNEL_NAME;
    return kernel;
}

static cl_int CL_API_CALL
get_kernel_info(cl_kernel k, cl_kernel_info param, size_t value_size, void *value, size_t *size_ret)
{
    if (param == CL_KERNEL_PROGRAM)
        return ANSWER(k->program);
    return CL_INVALID_VALUE;
}

/* Runs nothing: an enqueue is taken. */
static cl_int CL_API_CALL
enqueue_nd_range_kernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset, const size_t *global,
                        const size_t *local, cl_uint n, const cl_event *wait, cl_event *event)
{
    (void)q, (void)k, (void)dims, (void)offset, (void)global, (void)local, (void)n, (void)wait;
    if (event)
        *event = NULL;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL
retain_kernel(cl_kernel k)
{
    k->references++;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL
release_kernel(cl_kernel k)
{
    if (--k->references == 0) {
        cl_program p = k->program;
        memset(k, 0xA5, sizeof(*k));
        free(k);
        release_program(p);
    }
    return CL_SUCCESS;
}

static cl_kernel CL_API_CALL
clone_kernel(cl_kernel k, cl_int *err)
{
    cl_kernel c = malloc(sizeof(*c));
    if (c) {
        *c = *k;
        c->references = 1;
        c->program->references++;
    }
    if (err)
        *err = c ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    return c;
}

static cl_int CL_API_CALL
create_kernels_in_program(cl_program p, cl_uint n, cl_kernel *kernels, cl_uint *count)
{
    (void)p, (void)n, (void)kernels;
    if (count)
        *count = 0;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL release_context(cl_context c);

static cl_int CL_API_CALL
release_program(cl_program p)
{
    if (--p->references == 0) {
        cl_context c = p->context;
        memset(p, 0xA5, sizeof(*p));
        free(p);
        release_context(c);
    }
    return CL_SUCCESS;
}

static void *CL_API_CALL
extension_address_for_platform(cl_platform_id p, const char *name)
{
    (void)p, (void)name;
    return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *platforms, cl_uint *count)
{
    dispatch.clGetPlatformInfo = get_platform_info;
    dispatch.clGetDeviceIDs = get_device_ids;
    dispatch.clGetDeviceInfo = get_device_info;
    dispatch.clCreateContext = create_context;
    dispatch.clGetContextInfo = get_context_info;
    dispatch.clReleaseContext = release_context;
    dispatch.clCreateCommandQueueWithProperties = create_queue;
    dispatch.clReleaseCommandQueue = release_queue;
    dispatch.clCreateProgramWithIL = create_program_with_il;
    dispatch.clCreateProgramWithBinary = create_program_with_binary;
    dispatch.clBuildProgram = build_program;
    dispatch.clGetProgramBuildInfo = get_program_build_info;
    dispatch.clGetProgramInfo = get_program_info;
    dispatch.clCreateKernel = create_kernel;
    dispatch.clReleaseKernel = release_kernel;
    dispatch.clRetainKernel = retain_kernel;
    dispatch.clCloneKernel = clone_kernel;
    dispatch.clRetainContext = retain_context;
    dispatch.clGetKernelInfo = get_kernel_info;
    dispatch.clEnqueueNDRangeKernel = enqueue_nd_range_kernel;
    dispatch.clCreateKernelsInProgram = create_kernels_in_program;
    dispatch.clReleaseProgram = release_program;
    dispatch.clGetExtensionFunctionAddressForPlatform = extension_address_for_platform;
    if (platforms && n > 0)
        platforms[0] = &platform;
    if (count)
        *count = 1;
    return CL_SUCCESS;
}

/* ocl-icd asks the library itself for the platform's suffix. */
CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id p, cl_platform_info param, size_t value_size, void *value, size_t *size_ret)
{
    return get_platform_info(p, param, value_size, value, size_ret);
}

CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddress(const char *name)
{
    cl_int(CL_API_CALL * entry)(cl_uint, cl_platform_id *, cl_uint *) = clIcdGetPlatformIDsKHR;
    void *address = NULL;
    if (name && strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
        memcpy(&address, &entry, sizeof(address));
    return address;
}
