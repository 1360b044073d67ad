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

#ifndef CL_LAYER_PROPERTIES_LIST_END /* OpenCL headers before 2025 */
typedef cl_properties cl_layer_properties;
#define CL_LAYER_PROPERTIES_LIST_END ((cl_layer_properties)0)
CL_API_ENTRY cl_int CL_API_CALL clInitLayerWithProperties(cl_uint num_entries,
                                                          const struct _cl_icd_dispatch *target_dispatch,
                                                          cl_uint *num_entries_ret,
                                                          const struct _cl_icd_dispatch **layer_dispatch_ret,
                                                          const cl_layer_properties *properties);
CL_API_ENTRY cl_int CL_API_CALL clDeinitLayer(void);
#endif

struct _cl_icd_dispatch layer_next;
struct _cl_icd_dispatch layer_own;

/* The SPIR-V versions a device that lacks the IL path takes through the layer (the translator's and
 * Mesa's readers both take these). */
static const char il_versions[] = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4";
#define IL_VERSION_COUNT 5

cl_int
layer_answer(const void *data, size_t size, size_t value_size, void *value, size_t *size_ret)
{
    if (value && value_size < size)
        return CL_INVALID_VALUE;
    if (value && size)
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
    cl_int err = layer_answer(more, strlen(more) + 1, value_size, value, size_ret);
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
        err = layer_answer(list, n * sizeof(*list), value_size, value, size_ret);
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
        return layer_answer(il_versions, sizeof(il_versions), value_size, value, size_ret);
    if (param == CL_DEVICE_ILS_WITH_VERSION) {
        cl_name_version ils[IL_VERSION_COUNT];
        memset(ils, 0, sizeof(ils));
        for (cl_uint k = 0; k < IL_VERSION_COUNT; k++) {
            ils[k].version = CL_MAKE_VERSION(1, k, 0);
            strcpy(ils[k].name, "SPIR-V");
        }
        return layer_answer(ils, sizeof(ils), value_size, value, size_ret);
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

/* cl_khr_il_program's clCreateProgramWithILKHR, which applications find by name, as the loader's untyped
 * pointer (ISO C has no conversion of a function pointer to void *). */
static void *
entry_address(void)
{
    cl_program(CL_API_CALL * entry)(cl_context, const void *, size_t, cl_int *) = layer_create_program_with_il;
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

/* ---- the loader's interface ---- */

CL_API_ENTRY cl_int CL_API_CALL
clGetLayerInfo(cl_layer_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    if (param_name == CL_LAYER_API_VERSION) {
        cl_layer_api_version version = CL_LAYER_API_VERSION_100;
        return layer_answer(&version, sizeof(version), param_value_size, param_value, param_value_size_ret);
    }
    if (param_name == CL_LAYER_NAME) {
        static const char name[] = "spvcond: SPIR-V with SPV_INTEL_function_variants for every device";
        return layer_answer(name, sizeof(name), param_value_size, param_value, param_value_size_ret);
    }
    return CL_INVALID_VALUE;
}

/* The layer between the loader and `target_dispatch` (what lies below): its own table, whose entries it
 * overrides where it has work and leaves as they were everywhere else. */
static cl_int
init_layer(cl_uint num_entries, const struct _cl_icd_dispatch *target_dispatch, cl_uint *num_entries_ret,
           const struct _cl_icd_dispatch **layer_dispatch_ret)
{
    size_t entries = sizeof(layer_own) / sizeof(void *);
    layer_debug("loaded by the ICD loader (%u entries below, %zu known here)", num_entries, entries);
    if (!target_dispatch || !num_entries_ret || !layer_dispatch_ret)
        return CL_INVALID_VALUE;
    /* An older loader's table is shorter: what it lacks stays NULL below and above. */
    memset(&layer_next, 0, sizeof(layer_next));
    memcpy(&layer_next, target_dispatch, (num_entries < entries ? num_entries : entries) * sizeof(void *));
    if (!layer_next.clGetDeviceInfo || !layer_next.clGetPlatformInfo || !layer_next.clGetContextInfo ||
        !layer_next.clRetainContext || !layer_next.clReleaseContext || !layer_next.clCreateProgramWithBinary ||
        !layer_next.clBuildProgram || !layer_next.clGetProgramBuildInfo || !layer_next.clGetProgramInfo ||
        !layer_next.clCreateKernel || !layer_next.clReleaseProgram || !layer_next.clRetainKernel ||
        !layer_next.clReleaseKernel || !layer_next.clGetKernelInfo) {
        layer_debug("not active: the loader's table lacks an entry the layer needs");
        return CL_INVALID_VALUE;
    }
    layer_own = layer_next;
    layer_own.clGetExtensionFunctionAddressForPlatform = get_extension_function_address_for_platform;
    layer_own.clGetExtensionFunctionAddress = get_extension_function_address;
    layer_own.clGetDeviceInfo = get_device_info;
    if (layer_next.clGetDeviceIDs)
        layer_own.clGetPlatformInfo = get_platform_info;
    if (layer_next.clCreateProgramWithIL)
        layer_own.clCreateProgramWithIL = layer_create_program_with_il;
    /* every entry that takes a program or gives one: the layer's programs are its own objects */
    layer_own.clRetainProgram = layer_retain_program;
    layer_own.clReleaseProgram = layer_release_program;
    layer_own.clSetProgramReleaseCallback = layer_set_program_release_callback;
    layer_own.clSetProgramSpecializationConstant = layer_set_program_specialization_constant;
    layer_own.clGetProgramInfo = layer_get_program_info;
    layer_own.clGetProgramBuildInfo = layer_get_program_build_info;
    layer_own.clBuildProgram = layer_build_program;
    if (layer_next.clCompileProgram)
        layer_own.clCompileProgram = layer_compile_program;
    if (layer_next.clLinkProgram)
        layer_own.clLinkProgram = layer_link_program;
    layer_own.clCreateKernel = layer_create_kernel;
    layer_own.clCreateKernelsInProgram = layer_create_kernels_in_program;
    /* and every one that counts a kernel's references, each of which holds its program */
    if (layer_next.clCloneKernel)
        layer_own.clCloneKernel = layer_clone_kernel;
    layer_own.clRetainKernel = layer_retain_kernel;
    layer_own.clReleaseKernel = layer_release_kernel;
    layer_own.clGetKernelInfo = layer_get_kernel_info;
    *layer_dispatch_ret = &layer_own;
    *num_entries_ret = (cl_uint)entries;
    return CL_SUCCESS;
}

/* The loaders before 2026 (ocl-icd 2.3, the Khronos loader with OCL_ICD_FORCE_LEGACY_TERMINATION). */
CL_API_ENTRY cl_int CL_API_CALL
clInitLayer(cl_uint num_entries, const struct _cl_icd_dispatch *target_dispatch, cl_uint *num_entries_ret,
            const struct _cl_icd_dispatch **layer_dispatch_ret)
{
    return init_layer(num_entries, target_dispatch, num_entries_ret, layer_dispatch_ret);
}

/* The Khronos loader since 2026-01, which then calls clDeinitLayer at its end instead of leaving layers to
 * atexit. No property is defined yet: the list, if any, is read to its end and its entries ignored. */
CL_API_ENTRY cl_int CL_API_CALL
clInitLayerWithProperties(cl_uint num_entries, const struct _cl_icd_dispatch *target_dispatch,
                          cl_uint *num_entries_ret, const struct _cl_icd_dispatch **layer_dispatch_ret,
                          const cl_layer_properties *properties)
{
    for (const cl_layer_properties *p = properties; p && *p != CL_LAYER_PROPERTIES_LIST_END; p += 2)
        layer_debug("layer property %llu ignored", (unsigned long long)*p);
    return init_layer(num_entries, target_dispatch, num_entries_ret, layer_dispatch_ret);
}

/* The loader is done with the layer: nothing is called through it any more. Programs the application still
 * holds keep their records (freeing them could pull objects from under a later call of the application's
 * atexit handlers, which the loader would refuse anyway). */
CL_API_ENTRY cl_int CL_API_CALL
clDeinitLayer(void)
{
    layer_debug("deinitialised by the ICD loader");
    return CL_SUCCESS;
}
