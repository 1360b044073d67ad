/* SPDX-License-Identifier: MIT */
/* Built-in Vulkan devices (spec/devices.md, "Vulkan devices"): the least a conformant device of each core
 * version has, as the Vulkan specification's "Feature Requirements" and "Required Limits" state it, for a
 * producer that builds one module for whatever device comes. Each is a spvcond_vulkan_device, to give to
 * spvcond_vulkan_device_info() as a queried device would be. */
#include <string.h>

#include "spvcond/spvcond.h"
#include "support/sized.h"

#define VK_VERSION(minor) ((1u << 22) | ((uint32_t)(minor) << 12))
#define VK_SHADER_STAGE_COMPUTE_BIT 0x20u
#define VK_SUBGROUP_FEATURE_BASIC_BIT 0x1u

/* Vulkan 1.3 makes these features required (beside others no compute shader's capability depends on). */
static const char *const required_1_3[] = {"bufferDeviceAddress", "vulkanMemoryModel", "vulkanMemoryModelDeviceScope",
                                           "shaderIntegerDotProduct", "subgroupSizeControl", "computeFullSubgroups"};

static const struct vulkan_profile {
    const char *name;
    uint32_t minor;
    const char *const *features;
    size_t feature_count;
} profiles[] = {
    {"vulkan1.0", 0, NULL, 0},
    {"vulkan1.1", 1, NULL, 0},
    {"vulkan1.2", 2, NULL, 0},
    {"vulkan1.3", 3, required_1_3, sizeof(required_1_3) / sizeof(required_1_3[0])},
};

const char *
spvcond_vulkan_profile_name(size_t index)
{
    return index < sizeof(profiles) / sizeof(profiles[0]) ? profiles[index].name : NULL;
}

bool
spvcond_vulkan_profile(const char *name, spvcond_vulkan_device *out)
{
    for (size_t k = 0; name && out && k < sizeof(profiles) / sizeof(profiles[0]); k++) {
        const struct vulkan_profile *p = &profiles[k];
        if (strcmp(p->name, name) != 0)
            continue;
        spvcond_vulkan_device d = SPVCOND_SIZED(spvcond_vulkan_device);
        d.name = p->name;
        d.api_version = VK_VERSION(p->minor);
        d.features = p->features;
        d.feature_count = p->feature_count;
        /* From 1.1 every device has subgroups in the compute stage with the basic operations. */
        d.subgroup_stages = p->minor >= 1 ? VK_SHADER_STAGE_COMPUTE_BIT : 0;
        d.subgroup_operations = p->minor >= 1 ? VK_SUBGROUP_FEATURE_BASIC_BIT : 0;
        d.max_compute_work_group_invocations = 128; /* the required limit */
        return SPVCOND_SIZED_OUT(out, &d, spvcond_vulkan_device);
    }
    return false;
}
