/* SPDX-License-Identifier: MIT */
/* The text readers: device configurations, requirements files, property sets and device images' property
 * files (the aspect filter, spec/split.md). The first byte picks. Every input is also an OpenCL device's
 * report (spvcond_opencl_device_info): its version, profile and extensions. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A Vulkan device whose lines of `text` (at most 64) are its enabled features, then, from an empty line, its
 * extensions; `flags` its type, version and subgroup facts. */
static void
vulkan_device(spvcond_context *ctx, uint8_t flags, const char *text, size_t n)
{
    char *copy = malloc(n + 1);
    const char *names[64];
    size_t count = 0, features = SIZE_MAX;
    if (!copy)
        return;
    memcpy(copy, text, n);
    copy[n] = 0;
    for (char *line = copy, *next; line && count < 64; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (!*line && features == SIZE_MAX)
            features = count;
        else
            names[count++] = line;
    }
    if (features == SIZE_MAX)
        features = count;
    spvcond_vulkan_device vd = SPVCOND_SIZED(spvcond_vulkan_device);
    vd.name = copy;
    vd.api_version = (1u << 22) | ((uint32_t)(flags & 3) << 12);
    vd.device_type = flags >> 5;
    vd.features = names;
    vd.feature_count = features;
    vd.extensions = names + features;
    vd.extension_count = count - features;
    vd.subgroup_size = flags & 4 ? 32 : 0;
    vd.subgroup_stages = flags & 8 ? 0x20 : 0;
    vd.subgroup_operations = flags;
    vd.min_subgroup_size = flags & 16 ? (uint32_t)n % 64 : 0;
    vd.max_subgroup_size = (uint32_t)n;
    spvcond_device_info *device;
    if (spvcond_vulkan_device_info(ctx, &vd, &device) == SPVCOND_OK) {
        FUZZ_ASSERT(device->aspect_count <= 8 && device->capability_count <= 64 && device->sub_group_size_count <= 8,
                    "a Vulkan device's description");
        for (size_t k = 1; k < device->capability_count; k++)
            FUZZ_ASSERT(device->capabilities[k - 1] < device->capabilities[k], "capabilities ascending, each once");
        spvcond_free(ctx, device);
    }
    free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    spvcond_context *ctx;
    if (spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 0;
    const char *text = (const char *)data + 1;
    size_t n = size - 1;
    /* The device registry's lookups take any string: a name found has a name back, which finds it again. */
    char name[64], buf[64];
    size_t name_len = n < sizeof(name) - 1 ? n : sizeof(name) - 1;
    memcpy(name, text, name_len);
    name[name_len] = 0;
    uint32_t v, w, rc, rf, ra;
    if (spvcond_registry_target(name, &v) && spvcond_registry_target_name(v, buf, sizeof(buf)))
        FUZZ_ASSERT(spvcond_registry_target(buf, &w) && w == v, "a target's name finds it");
    if (spvcond_registry_feature(data[0] & 7, name, &v) && spvcond_registry_feature_name(data[0] & 7, v, buf, sizeof(buf)))
        FUZZ_ASSERT(spvcond_registry_feature(data[0] & 7, buf, &w) && w == v, "a feature's name finds it");
    if (spvcond_registry_architecture_path(name, &rc, &rf, &ra)) {
        FUZZ_ASSERT(spvcond_registry_describe_architecture(rc, rf, ra, buf, sizeof(buf)) < sizeof(buf), "short");
        uint32_t c2, f2, a2;
        if (spvcond_registry_architecture_name(rc, rf, ra, name, sizeof(name)))
            FUZZ_ASSERT(spvcond_registry_architecture_path(buf, &c2, &f2, &a2) && c2 == rc && f2 == rf && a2 == ra,
                        "an architecture's path finds it");
    }
    /* An OpenCL device's strings, as a driver might report them: the text is its version, then
     * (from the first newline) its extensions; the first byte its type and flags. */
    char *copy = malloc(n + 1);
    if (copy) {
        memcpy(copy, text, n);
        copy[n] = 0;
        char *newline = strchr(copy, '\n');
        if (newline)
            *newline = 0;
        size_t sizes[3] = {data[0], 16, (size_t)-1};
        spvcond_opencl_device od = SPVCOND_SIZED(spvcond_opencl_device);
        od.name = copy;
        od.version = copy;
        od.profile = data[0] & 1 ? "EMBEDDED_PROFILE" : copy;
        od.extensions = newline ? newline + 1 : NULL;
        od.type = data[0] >> 3;
        od.half_fp_config = data[0] & 2;
        od.double_fp_config = data[0] & 4;
        od.image_support = od.generic_address_space = data[0] & 64;
        od.sub_group_sizes = sizes;
        od.sub_group_size_count = data[0] % 4;
        od.compute_capability_major = (data[0] & 128) ? (uint32_t)(n % 13) : 0; /* NVIDIA's, any */
        od.compute_capability_minor = (uint32_t)(n % 10);
        spvcond_device_info *device;
        if (spvcond_opencl_device_info(ctx, &od, &device) == SPVCOND_OK) {
            FUZZ_ASSERT(device->aspect_count <= 16 && device->capability_count <= 24 &&
                            device->sub_group_size_count == od.sub_group_size_count &&
                            strcmp(device->name, copy) == 0,
                        "an OpenCL device's description");
            spvcond_free(ctx, device);
        }
        free(copy);
    }
    vulkan_device(ctx, data[0], text, n);
    spvcond_vulkan_device profile = SPVCOND_SIZED(spvcond_vulkan_device);
    if (spvcond_vulkan_profile(name, &profile)) /* a built-in Vulkan device, by any name */
        FUZZ_ASSERT(profile.api_version >= 1u << 22 && strcmp(profile.name, name) == 0, "a built-in Vulkan device");
    switch (data[0] % 4) {
    case 0: {
        spvcond_device_config *c;
        if (spvcond_device_config_parse(ctx, text, n, "fuzz", &c) == SPVCOND_OK) {
            spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
            for (size_t k = 0; spvcond_device_config_get(c, k, &d); k++) {
                FUZZ_ASSERT(d.name != NULL, "devices have names");
                for (size_t j = 1; d.has_capabilities && j < d.capability_count; j++) /* a `vulkan:` device's */
                    FUZZ_ASSERT(d.capabilities[j - 1] < d.capabilities[j], "capabilities ascending, each once");
            }
            spvcond_device_config_destroy(c);
        }
        break;
    }
    case 1: {
        spvcond_requirements_file *f;
        if (spvcond_requirements_file_parse(ctx, text, n, "fuzz", &f) == SPVCOND_OK)
            spvcond_requirements_file_destroy(f);
        break;
    }
    case 3: {
        spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
        bool supported;
        char reason[64];
        FUZZ_ASSERT(spvcond_builtin_device_find(data[0] & 4 ? "intel_gpu_acm_g10" : "nvidia_gpu_sm_80", &d),
                    "built-in devices");
        spvcond_image_supported(ctx, text, n, "fuzz", &d, &supported, reason, sizeof(reason));
        FUZZ_ASSERT(memchr(reason, 0, sizeof(reason)) != NULL, "the reason is a string");
        break;
    }
    default: {
        spvcond_requirements *r;
        if (spvcond_requirements_parse_props(ctx, text, n, "fuzz", &r) == SPVCOND_OK) {
            char *out;
            size_t len;
            FUZZ_ASSERT(spvcond_requirements_write_props(r, &out, &len) == SPVCOND_OK, "a read table writes");
            spvcond_free(ctx, out);
            spvcond_requirements_destroy(r);
        }
        break;
    }
    }
    spvcond_context_destroy(ctx);
    return 0;
}
