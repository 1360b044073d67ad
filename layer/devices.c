/* SPDX-License-Identifier: MIT */
/* The devices below the layer: what each reports, and how each takes SPIR-V. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"

bool
layer_has_word(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; p && *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == len && memcmp(p, word, len) == 0)
            return true;
        p += n;
    }
    return false;
}

/* A string query of a device (platform NULL) or a platform, malloc'd; NULL when refused. */
static char *
query_string(cl_device_id device, cl_platform_id platform, cl_uint param)
{
    size_t size = 0;
    cl_int err = device ? layer_next.clGetDeviceInfo(device, param, 0, NULL, &size)
                        : layer_next.clGetPlatformInfo(platform, param, 0, NULL, &size);
    char *s = err == CL_SUCCESS && size ? calloc(size + 1, 1) : NULL;
    if (s && (device ? layer_next.clGetDeviceInfo(device, param, size, s, NULL)
                     : layer_next.clGetPlatformInfo(platform, param, size, s, NULL)) != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    return s;
}

char *
layer_device_string(cl_device_id device, cl_device_info param)
{
    return device ? query_string(device, NULL, param) : NULL;
}

char *
layer_platform_string(cl_platform_id platform, cl_platform_info param)
{
    return query_string(NULL, platform, param);
}

static char *
platform_name(cl_device_id device)
{
    cl_platform_id platform = NULL;
    if (layer_next.clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(platform), &platform, NULL) != CL_SUCCESS)
        return NULL;
    return layer_platform_string(platform, CL_PLATFORM_NAME);
}

/* Whether the device is NVIDIA's: its platform, or the extension only NVIDIA's driver reports. */
static bool
is_nvidia(const char *extensions, const char *platform)
{
    return (platform && strcmp(platform, "NVIDIA CUDA") == 0) ||
           layer_has_word(extensions, "cl_nv_device_attribute_query");
}

/* IL first (the driver reads SPIR-V: nothing to convert), then the binary forms the drivers are known to
 * take. `why`, when not NULL, says why a device of a known driver has no route. */
static enum layer_route
route_of(const char *il_version, const char *extensions, const char *platform, char *why, size_t why_size)
{
    if (il_version && strstr(il_version, "SPIR-V"))
        return LAYER_ROUTE_IL;
    if (platform && strcmp(platform, "rusticl") == 0)
        return LAYER_ROUTE_SPIRV_BINARY;
    if (is_nvidia(extensions, platform)) {
        char msg[512] = "";
        if (layer_can_lower_ptx(msg, sizeof(msg)))
            return LAYER_ROUTE_PTX;
        if (why)
            snprintf(why, why_size, "NVIDIA's driver reads no SPIR-V, and the layer cannot make PTX: %s", msg);
        return LAYER_ROUTE_NONE;
    }
    if (layer_has_word(extensions, "cl_khr_spir") && layer_can_translate())
        return LAYER_ROUTE_BITCODE;
    return LAYER_ROUTE_NONE;
}

enum layer_route
layer_device_route(cl_device_id device)
{
    char *il = layer_device_string(device, CL_DEVICE_IL_VERSION);
    char *ext = layer_device_string(device, CL_DEVICE_EXTENSIONS);
    char *platform = platform_name(device);
    enum layer_route route = route_of(il, ext, platform, NULL, 0);
    free(il);
    free(ext);
    free(platform);
    return route;
}

const char *
layer_route_name(enum layer_route route)
{
    switch (route) {
    case LAYER_ROUTE_IL:
        return "SPIR-V through clCreateProgramWithIL";
    case LAYER_ROUTE_SPIRV_BINARY:
        return "SPIR-V as a program binary";
    case LAYER_ROUTE_BITCODE:
        return "LLVM bitcode from the SPIR-V/LLVM translator";
    case LAYER_ROUTE_PTX:
        return "PTX from LLVM's NVPTX back end";
    default:
        return "none";
    }
}

/* A scalar query; false when the driver refuses it. */
static bool
query(cl_device_id device, cl_device_info param, void *value, size_t size)
{
    memset(value, 0, size);
    return layer_next.clGetDeviceInfo(device, param, size, value, NULL) == CL_SUCCESS;
}

bool
layer_device_query(cl_device_id device, struct layer_device *d)
{
    memset(d, 0, sizeof(*d));
    d->id = device;
    d->name = layer_device_string(device, CL_DEVICE_NAME);
    d->version = layer_device_string(device, CL_DEVICE_VERSION);
    d->profile = layer_device_string(device, CL_DEVICE_PROFILE);
    d->extensions = layer_device_string(device, CL_DEVICE_EXTENSIONS);
    d->platform = platform_name(device);
    char *il = layer_device_string(device, CL_DEVICE_IL_VERSION);
    d->route = route_of(il, d->extensions, d->platform, d->no_route, sizeof(d->no_route));
    free(il);
    layer_debug("device %s (platform %s): route %s%s%s", d->name ? d->name : "?", d->platform ? d->platform : "?",
                layer_route_name(d->route), d->no_route[0] ? ": " : "", d->no_route);

    spvcond_opencl_device *f = &d->facts;
    *f = SPVCOND_SIZED(spvcond_opencl_device);
    f->name = d->name;
    f->version = d->version;
    f->profile = d->profile;
    f->extensions = d->extensions;
    cl_device_type type;
    cl_device_fp_config fp;
    cl_bool flag;
    size_t max_wg;
    cl_command_queue_properties queue;
    bool ok = query(device, CL_DEVICE_TYPE, &type, sizeof(type));
    f->type = type;
    if (query(device, CL_DEVICE_HALF_FP_CONFIG, &fp, sizeof(fp)))
        f->half_fp_config = fp;
    if (query(device, CL_DEVICE_DOUBLE_FP_CONFIG, &fp, sizeof(fp)))
        f->double_fp_config = fp;
    f->image_support = query(device, CL_DEVICE_IMAGE_SUPPORT, &flag, sizeof(flag)) && flag;
    f->compiler_available = query(device, CL_DEVICE_COMPILER_AVAILABLE, &flag, sizeof(flag)) && flag;
    f->linker_available = query(device, CL_DEVICE_LINKER_AVAILABLE, &flag, sizeof(flag)) && flag;
    f->queue_profiling = query(device, CL_DEVICE_QUEUE_PROPERTIES, &queue, sizeof(queue)) &&
                         (queue & CL_QUEUE_PROFILING_ENABLE);
    f->generic_address_space = query(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, &flag, sizeof(flag)) && flag;
    if (query(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, &max_wg, sizeof(max_wg)))
        f->max_work_group_size = max_wg;
    cl_uint bits;
    if (query(device, CL_DEVICE_ADDRESS_BITS, &bits, sizeof(bits)))
        d->address_bits = bits;
    size_t bytes = 0;
    if (layer_has_word(d->extensions, "cl_intel_required_subgroup_size") &&
        layer_next.clGetDeviceInfo(device, 0x4108 /* CL_DEVICE_SUB_GROUP_SIZES_INTEL */, 0, NULL, &bytes) ==
            CL_SUCCESS &&
        bytes >= sizeof(size_t) && bytes <= 64 * sizeof(size_t) && (d->sub_group_sizes = malloc(bytes)) != NULL &&
        layer_next.clGetDeviceInfo(device, 0x4108, bytes, d->sub_group_sizes, NULL) == CL_SUCCESS) {
        f->sub_group_sizes = d->sub_group_sizes;
        f->sub_group_size_count = bytes / sizeof(size_t);
    }
    cl_uint cc;
    if (is_nvidia(d->extensions, d->platform) && query(device, 0x4000 /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */, &cc,
                                                       sizeof(cc))) {
        d->compute_capability_major = cc;
        if (query(device, 0x4001 /* CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV */, &cc, sizeof(cc)))
            d->compute_capability_minor = cc;
        f->compute_capability_major = d->compute_capability_major;
        f->compute_capability_minor = d->compute_capability_minor;
    }
    return ok && d->version && d->extensions;
}

void
layer_device_free(struct layer_device *d)
{
    free(d->name);
    free(d->version);
    free(d->profile);
    free(d->extensions);
    free(d->platform);
    free(d->sub_group_sizes);
    memset(d, 0, sizeof(*d));
}
