/* SPDX-License-Identifier: MIT */
/* spvcond as an OpenCL layer (cl_loader_layers; docs/opencl-layer.md): loaded by the ICD loader from
 * OPENCL_LAYERS, it sits between an unmodified application and every driver. It takes what the application
 * creates from SPIR-V (clCreateProgramWithIL, clCreateProgramWithILKHR), specializes the module for each
 * device and gives the driver the form it takes; it answers for what it adds (the IL path of a device that
 * lacks one, the lines of the build log, the kernels each device keeps); everything else goes straight
 * through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl_layer.h>

#include "layer.h"

struct _cl_icd_dispatch layer_next;
static struct _cl_icd_dispatch layer_dispatch;

/* The SPIR-V versions a device that lacks the IL path takes through the layer (the translator's and
 * Mesa's readers both take these). */
static const char il_versions[] = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4";
#define IL_VERSION_COUNT 5

/* A query's answer: the usual rules of clGet*Info. */
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

/* ---- devices: the IL path the layer gives ---- */

/* Whether the layer gives the device the IL path (it has none, and the layer has a route). */
static bool
layer_gives_il(cl_device_id device)
{
    enum layer_route route = layer_device_route(device);
    return route == LAYER_ROUTE_SPIRV_BINARY || route == LAYER_ROUTE_BITCODE || route == LAYER_ROUTE_PTX;
}

/* An extension string with cl_khr_il_program added. */
static cl_int
extensions_with_il(char *ext, size_t value_size, void *value, size_t *size_ret)
{
    size_t n = strlen(ext);
    char *more = realloc(ext, n + sizeof(" cl_khr_il_program"));
    if (!more) {
        free(ext);
        return CL_OUT_OF_HOST_MEMORY;
    }
    if (!layer_has_word(more, "cl_khr_il_program"))
        strcpy(more + n, n && more[n - 1] != ' ' ? " cl_khr_il_program" : "cl_khr_il_program");
    cl_int err = answer(more, strlen(more) + 1, value_size, value, size_ret);
    free(more);
    return err;
}

/* A device's or a platform's CL_*_EXTENSIONS_WITH_VERSION with cl_khr_il_program added. */
static cl_int
extensions_with_version(cl_device_id device, cl_platform_id platform, size_t value_size, void *value,
                        size_t *size_ret)
{
    size_t size = 0;
    cl_int err = device ? layer_next.clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size)
                        : layer_next.clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &size);
    if (err != CL_SUCCESS)
        return err;
    size_t n = size / sizeof(cl_name_version);
    cl_name_version *list = calloc(n + 1, sizeof(*list));
    if (!list)
        return CL_OUT_OF_HOST_MEMORY;
    err = device ? layer_next.clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, n * sizeof(*list), list, NULL)
                 : layer_next.clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, n * sizeof(*list), list,
                                                NULL);
    bool listed = false;
    for (size_t k = 0; k < n; k++)
        listed |= strcmp(list[k].name, "cl_khr_il_program") == 0;
    if (!listed) {
        list[n].version = CL_MAKE_VERSION(1, 0, 0);
        strcpy(list[n++].name, "cl_khr_il_program");
    }
    if (err == CL_SUCCESS)
        err = answer(list, n * sizeof(*list), value_size, value, size_ret);
    free(list);
    return err;
}

static cl_int CL_API_CALL
get_device_info(cl_device_id device, cl_device_info param, size_t value_size, void *value, size_t *size_ret)
{
    switch (param) {
    case CL_DEVICE_IL_VERSION:
    case CL_DEVICE_ILS_WITH_VERSION:
    case CL_DEVICE_EXTENSIONS:
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        break;
    default:
        return layer_next.clGetDeviceInfo(device, param, value_size, value, size_ret);
    }
    if (!layer_gives_il(device))
        return layer_next.clGetDeviceInfo(device, param, value_size, value, size_ret);
    if (param == CL_DEVICE_IL_VERSION)
        return answer(il_versions, sizeof(il_versions), value_size, value, size_ret);
    if (param == CL_DEVICE_ILS_WITH_VERSION) {
        cl_name_version ils[IL_VERSION_COUNT];
        memset(ils, 0, sizeof(ils));
        for (cl_uint k = 0; k < IL_VERSION_COUNT; k++) {
            ils[k].version = CL_MAKE_VERSION(1, k, 0);
            strcpy(ils[k].name, "SPIR-V");
        }
        return answer(ils, sizeof(ils), value_size, value, size_ret);
    }
    if (param == CL_DEVICE_EXTENSIONS) {
        char *ext = layer_device_string(device, CL_DEVICE_EXTENSIONS);
        return ext ? extensions_with_il(ext, value_size, value, size_ret)
                   : layer_next.clGetDeviceInfo(device, param, value_size, value, size_ret);
    }
    return extensions_with_version(device, NULL, value_size, value, size_ret);
}

/* Whether the layer gives every device of the platform the IL path (the platform's extensions are those
 * all its devices have). */
static bool
layer_gives_platform_il(cl_platform_id platform)
{
    cl_uint n = 0;
    if (layer_next.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS || n == 0)
        return false;
    cl_device_id *ids = calloc(n, sizeof(*ids));
    bool all = ids && layer_next.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, ids, NULL) == CL_SUCCESS;
    for (cl_uint k = 0; all && k < n; k++)
        all = layer_gives_il(ids[k]);
    free(ids);
    return all;
}

static cl_int CL_API_CALL
get_platform_info(cl_platform_id platform, cl_platform_info param, size_t value_size, void *value, size_t *size_ret)
{
    if ((param != CL_PLATFORM_EXTENSIONS && param != CL_PLATFORM_EXTENSIONS_WITH_VERSION) ||
        !layer_gives_platform_il(platform))
        return layer_next.clGetPlatformInfo(platform, param, value_size, value, size_ret);
    if (param == CL_PLATFORM_EXTENSIONS_WITH_VERSION)
        return extensions_with_version(NULL, platform, value_size, value, size_ret);
    char *ext = layer_platform_string(platform, CL_PLATFORM_EXTENSIONS);
    return ext ? extensions_with_il(ext, value_size, value, size_ret)
               : layer_next.clGetPlatformInfo(platform, param, value_size, value, size_ret);
}

/* ---- programs ---- */

/* clCreateProgramWithIL, and cl_khr_il_program's clCreateProgramWithILKHR, which applications find by name. */
static cl_program CL_API_CALL
create_program_with_il(cl_context context, const void *il, size_t length, cl_int *errcode_ret)
{
    return layer_create_program_with_il(context, il, length, errcode_ret);
}

/* The KHR entry as the loader's untyped pointer (ISO C has no conversion of a function pointer to void *). */
static void *
entry_address(void)
{
    cl_program(CL_API_CALL * entry)(cl_context, const void *, size_t, cl_int *) = create_program_with_il;
    void *address;
    memcpy(&address, &entry, sizeof(address));
    return address;
}

static void *CL_API_CALL
get_extension_function_address_for_platform(cl_platform_id platform, const char *name)
{
    if (name && strcmp(name, "clCreateProgramWithILKHR") == 0)
        return entry_address();
    return layer_next.clGetExtensionFunctionAddressForPlatform(platform, name);
}

static void *CL_API_CALL
get_extension_function_address(const char *name)
{
    if (name && strcmp(name, "clCreateProgramWithILKHR") == 0)
        return entry_address();
    return layer_next.clGetExtensionFunctionAddress(name);
}

/* A program the layer gave the driver as binaries already holds each device's compiled module: compiling
 * it is done (header programs have nothing left to give), and clLinkProgram or clBuildProgram links it. */
static cl_int CL_API_CALL
compile_program(cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
                cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
                void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    if (!layer_program_compiled(program))
        return layer_next.clCompileProgram(program, num_devices, device_list, options, num_input_headers,
                                           input_headers, header_include_names, pfn_notify, user_data);
    if ((num_devices == 0) != (device_list == NULL) || (num_input_headers == 0) != (input_headers == NULL) ||
        (!pfn_notify && user_data))
        return CL_INVALID_VALUE;
    if (pfn_notify)
        pfn_notify(program, user_data);
    return CL_SUCCESS;
}

/* Linking one program the layer gave the driver as binaries: the program made again and built (drivers that
 * take LLVM bitcode link no binary program); anything else goes to the driver. */
static cl_program CL_API_CALL
link_program(cl_context context, cl_uint num_devices, const cl_device_id *device_list, const char *options,
             cl_uint num_input_programs, const cl_program *input_programs,
             void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data, cl_int *errcode_ret)
{
    if (num_input_programs == 1 && input_programs && layer_program_compiled(input_programs[0]) &&
        (num_devices == 0) == (device_list == NULL) && (pfn_notify || !user_data))
        return layer_link_program(context, num_devices, device_list, options, input_programs[0], pfn_notify,
                                  user_data, errcode_ret);
    return layer_next.clLinkProgram(context, num_devices, device_list, options, num_input_programs, input_programs,
                                    pfn_notify, user_data, errcode_ret);
}

static cl_int CL_API_CALL
get_program_build_info(cl_program program, cl_device_id device, cl_program_build_info param, size_t value_size,
                       void *value, size_t *size_ret)
{
    char *ours = param == CL_PROGRAM_BUILD_LOG ? layer_program_log(program, device) : NULL;
    if (!ours)
        return layer_next.clGetProgramBuildInfo(program, device, param, value_size, value, size_ret);
    size_t size = 0;
    cl_int err = layer_next.clGetProgramBuildInfo(program, device, param, 0, NULL, &size);
    char *theirs = err == CL_SUCCESS ? calloc(size + 1, 1) : NULL;
    if (theirs)
        err = layer_next.clGetProgramBuildInfo(program, device, param, size, theirs, NULL);
    else if (err == CL_SUCCESS)
        err = CL_OUT_OF_HOST_MEMORY;
    char *log = err == CL_SUCCESS ? malloc(strlen(ours) + strlen(theirs) + 1) : NULL;
    if (log) {
        strcpy(log, ours);
        strcat(log, theirs);
        err = answer(log, strlen(log) + 1, value_size, value, size_ret);
    } else if (err == CL_SUCCESS) {
        err = CL_OUT_OF_HOST_MEMORY;
    }
    free(log);
    free(theirs);
    free(ours);
    return err;
}

static cl_kernel CL_API_CALL
create_kernel(cl_program program, const char *name, cl_int *errcode_ret)
{
    if (layer_program_lacks(program, name)) {
        if (errcode_ret)
            *errcode_ret = CL_INVALID_KERNEL_NAME;
        return NULL;
    }
    return layer_next.clCreateKernel(program, name, errcode_ret);
}

static cl_int CL_API_CALL
create_kernels_in_program(cl_program program, cl_uint num_kernels, cl_kernel *kernels, cl_uint *num_kernels_ret)
{
    size_t count;
    char *names = layer_program_kernels(program, &count);
    if (!names)
        return layer_next.clCreateKernelsInProgram(program, num_kernels, kernels, num_kernels_ret);
    cl_int err = CL_SUCCESS;
    if (kernels && num_kernels < count)
        err = CL_INVALID_VALUE;
    size_t made = 0;
    for (const char *k = names; kernels && err == CL_SUCCESS && *k; k += strlen(k) + 1, made++)
        kernels[made] = layer_next.clCreateKernel(program, k, &err);
    if (err != CL_SUCCESS)
        while (kernels && made > 0)
            layer_next.clReleaseKernel(kernels[--made]);
    else if (num_kernels_ret)
        *num_kernels_ret = (cl_uint)count;
    free(names);
    return err;
}

static cl_int CL_API_CALL
get_program_info(cl_program program, cl_program_info param, size_t value_size, void *value, size_t *size_ret)
{
    size_t count;
    char *names = param == CL_PROGRAM_NUM_KERNELS || param == CL_PROGRAM_KERNEL_NAMES
                      ? layer_program_kernels(program, &count) : NULL;
    if (!names)
        return layer_next.clGetProgramInfo(program, param, value_size, value, size_ret);
    cl_int err;
    if (param == CL_PROGRAM_NUM_KERNELS) {
        size_t n = count;
        err = answer(&n, sizeof(n), value_size, value, size_ret);
    } else { /* "a;b;c" */
        size_t length = 0;
        for (char *k = names; *k; k += strlen(k) + 1)
            length += strlen(k) + 1;
        for (char *k = names; *k;) {
            size_t n = strlen(k);
            if (k[n + 1])
                k[n] = ';';
            k += n + 1;
        }
        err = answer(names, length ? length : 1, value_size, value, size_ret);
    }
    free(names);
    return err;
}

/* A global work offset on a kernel made as PTX: libclc's nvptx64 get_global_id does not add it, so the
 * kernel would run on the wrong items. Refused rather than run wrong (only a non-zero offset costs a look). */
static cl_int CL_API_CALL
enqueue_nd_range_kernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim, const size_t *offset,
                        const size_t *global, const size_t *local, cl_uint num_events, const cl_event *wait_list,
                        cl_event *event)
{
    bool shifted = false;
    for (cl_uint d = 0; offset && d < work_dim && d < 3; d++)
        shifted |= offset[d] != 0;
    cl_program program = NULL;
    if (shifted &&
        layer_next.clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof(program), &program, NULL) == CL_SUCCESS &&
        layer_program_ptx(program)) {
        fprintf(stderr, "spvcond layer: clEnqueueNDRangeKernel: a kernel the layer made as PTX for NVIDIA's driver "
                        "cannot take a global work offset (libclc's get_global_id does not add it)\n");
        return CL_INVALID_GLOBAL_OFFSET;
    }
    return layer_next.clEnqueueNDRangeKernel(queue, kernel, work_dim, offset, global, local, num_events, wait_list,
                                             event);
}

static cl_int CL_API_CALL
release_program(cl_program program)
{
    layer_program_release(program);
    return layer_next.clReleaseProgram(program);
}

/* ---- the loader's interface ---- */

CL_API_ENTRY cl_int CL_API_CALL
clGetLayerInfo(cl_layer_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    if (param_name == CL_LAYER_API_VERSION) {
        cl_layer_api_version version = CL_LAYER_API_VERSION_100;
        return answer(&version, sizeof(version), param_value_size, param_value, param_value_size_ret);
    }
    if (param_name == CL_LAYER_NAME) {
        static const char name[] = "spvcond: SPIR-V with SPV_INTEL_function_variants for every device";
        return answer(name, sizeof(name), param_value_size, param_value, param_value_size_ret);
    }
    return CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clInitLayer(cl_uint num_entries, const struct _cl_icd_dispatch *target_dispatch, cl_uint *num_entries_ret,
            const struct _cl_icd_dispatch **layer_dispatch_ret)
{
    size_t entries = sizeof(layer_dispatch) / sizeof(void *);
    layer_debug("loaded by the ICD loader (%u entries below, %zu known here)", num_entries, entries);
    if (!target_dispatch || !num_entries_ret || !layer_dispatch_ret)
        return CL_INVALID_VALUE;
    /* An older loader's table is shorter: what it lacks stays NULL below and above. */
    memset(&layer_next, 0, sizeof(layer_next));
    memcpy(&layer_next, target_dispatch, (num_entries < entries ? num_entries : entries) * sizeof(void *));
    if (!layer_next.clGetDeviceInfo || !layer_next.clGetPlatformInfo || !layer_next.clGetContextInfo ||
        !layer_next.clCreateProgramWithBinary || !layer_next.clGetProgramBuildInfo ||
        !layer_next.clGetProgramInfo || !layer_next.clCreateKernel || !layer_next.clReleaseProgram ||
        !layer_next.clReleaseKernel) {
        layer_debug("not active: the loader's table lacks an entry the layer needs");
        return CL_INVALID_VALUE;
    }
    layer_dispatch = layer_next;
    if (layer_next.clCreateProgramWithIL)
        layer_dispatch.clCreateProgramWithIL = create_program_with_il;
    layer_dispatch.clGetExtensionFunctionAddressForPlatform = get_extension_function_address_for_platform;
    layer_dispatch.clGetExtensionFunctionAddress = get_extension_function_address;
    layer_dispatch.clGetDeviceInfo = get_device_info;
    if (layer_next.clGetDeviceIDs)
        layer_dispatch.clGetPlatformInfo = get_platform_info;
    if (layer_next.clCompileProgram && layer_next.clLinkProgram && layer_next.clBuildProgram) {
        layer_dispatch.clCompileProgram = compile_program;
        layer_dispatch.clLinkProgram = link_program;
    }
    layer_dispatch.clGetProgramBuildInfo = get_program_build_info;
    layer_dispatch.clGetProgramInfo = get_program_info;
    layer_dispatch.clCreateKernel = create_kernel;
    layer_dispatch.clCreateKernelsInProgram = create_kernels_in_program;
    layer_dispatch.clReleaseProgram = release_program;
    if (layer_next.clEnqueueNDRangeKernel && layer_next.clGetKernelInfo)
        layer_dispatch.clEnqueueNDRangeKernel = enqueue_nd_range_kernel;
    *layer_dispatch_ret = &layer_dispatch;
    *num_entries_ret = (cl_uint)entries;
    return CL_SUCCESS;
}
