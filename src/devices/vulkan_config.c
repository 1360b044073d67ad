/* SPDX-License-Identifier: MIT */
/* A Vulkan device in a device configuration file (spec/devices.md, "Vulkan devices"): a `vulkan:` mapping
 * that says what vulkaninfo would of the device and what the application enables, read into a
 * spvcond_vulkan_device and described by spvcond_vulkan_device_info(). */
#include <stdlib.h>
#include <string.h>

#include "devices/vulkan_config.h"

enum { MAX_NAMES = 1024 };

/* A sequence of scalars: pointers into the document, which lives while the description is made. */
static spvcond_result
names(struct spvcond_yaml *y, yaml_node_t *n, const char *what, const char ***out, size_t *count)
{
    if (!n || n->type != YAML_SEQUENCE_NODE)
        return spvcond_yaml_fail(y, n, what, "expected a list of names");
    size_t len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (len > MAX_NAMES)
        return spvcond_yaml_fail(y, n, what, "more than 1024 names");
    const char **v = spvcond_alloc_array(y->ctx, len + 1, sizeof(*v));
    if (!v)
        return spvcond_oom(y->ctx);
    for (size_t k = 0; k < len; k++) {
        yaml_node_t *item = spvcond_yaml_node(y, n->data.sequence.items.start[k]);
        if (!(v[k] = spvcond_yaml_scalar(item))) {
            spvcond_dealloc(y->ctx, (void *)v);
            return spvcond_yaml_fail(y, item, what, "(not a scalar)");
        }
    }
    spvcond_dealloc(y->ctx, (void *)*out); /* a repeated key: the last one counts */
    *out = v;
    *count = len;
    return SPVCOND_OK;
}

/* "1.2" or "1.2.0": VK_MAKE_API_VERSION(0, major, minor, patch). */
static bool
api_version(const char *s, uint32_t *out)
{
    char *end;
    unsigned long major = s ? strtoul(s, &end, 10) : 0;
    if (!s || end == s || *end != '.' || major > 127)
        return false;
    s = end + 1;
    unsigned long minor = strtoul(s, &end, 10);
    if (end == s || minor > 1023)
        return false;
    unsigned long patch = 0;
    if (*end == '.') {
        s = end + 1;
        patch = strtoul(s, &end, 10);
        if (end == s || patch > 4095)
            return false;
    }
    *out = (uint32_t)(major << 22 | minor << 12 | patch);
    return *end == 0;
}

/* VkPhysicalDeviceType by vulkaninfo's words. */
static bool
device_type(const char *s, uint32_t *out)
{
    static const char *const types[] = {"other", "integrated-gpu", "discrete-gpu", "virtual-gpu", "cpu"};
    for (uint32_t k = 0; s && k < 5; k++)
        if (strcmp(s, types[k]) == 0) {
            *out = k;
            return true;
        }
    return false;
}

/* VkSubgroupFeatureFlagBits by name, in their bit order. */
static spvcond_result
subgroup_operations(struct spvcond_yaml *y, yaml_node_t *n, uint32_t *out)
{
    static const char *const ops[] = {"basic", "vote", "arithmetic", "ballot", "shuffle", "shuffle-relative",
                                      "clustered", "quad"};
    if (!n || n->type != YAML_SEQUENCE_NODE)
        return spvcond_yaml_fail(y, n, "subgroup-operations", "expected a list");
    *out = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *item = spvcond_yaml_node(y, *it);
        const char *s = spvcond_yaml_scalar(item);
        uint32_t k = 0;
        while (k < 8 && !(s && strcmp(s, ops[k]) == 0))
            k++;
        if (k == 8)
            return spvcond_yaml_fail(y, item, "unknown subgroup operation (basic, vote, arithmetic, ballot, shuffle, "
                                              "shuffle-relative, clustered, quad)", s ? s : "(not a scalar)");
        *out |= 1u << k;
    }
    return SPVCOND_OK;
}

static spvcond_result
number(struct spvcond_yaml *y, yaml_node_t *v, const char *key, uint64_t limit, uint64_t *out)
{
    const char *s = spvcond_yaml_scalar(v);
    if (!spvcond_yaml_u64(s, out) || *out > limit)
        return spvcond_yaml_fail(y, v, key, s ? "not a number in range" : "(not a scalar)");
    return SPVCOND_OK;
}

spvcond_result
spvcond_vulkan_config_read(struct spvcond_yaml *y, yaml_node_t *n, const char *name, spvcond_device_info **out)
{
    *out = NULL;
    if (!n || n->type != YAML_MAPPING_NODE)
        return spvcond_yaml_fail(y, n, "vulkan: expected a mapping", name);
    spvcond_vulkan_device d = SPVCOND_SIZED(spvcond_vulkan_device);
    d.name = name;
    d.api_version = 1u << 22; /* 1.0 unless said */
    const char **features = NULL, **extensions = NULL;
    spvcond_result r = SPVCOND_OK;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top && r == SPVCOND_OK; p++) {
        yaml_node_t *k = spvcond_yaml_node(y, p->key), *v = spvcond_yaml_node(y, p->value);
        const char *key = spvcond_yaml_scalar(k), *s = spvcond_yaml_scalar(v);
        uint64_t x = 0;
        if (!key) {
            r = spvcond_yaml_fail(y, k, "keys must be scalars", NULL);
        } else if (strcmp(key, "api-version") == 0) {
            if (!api_version(s, &d.api_version))
                r = spvcond_yaml_fail(y, v, "api-version must be MAJOR.MINOR or MAJOR.MINOR.PATCH", s);
        } else if (strcmp(key, "type") == 0) {
            if (!device_type(s, &d.device_type))
                r = spvcond_yaml_fail(y, v, "type must be other, integrated-gpu, discrete-gpu, virtual-gpu or cpu", s);
        } else if (strcmp(key, "features") == 0) {
            r = names(y, v, "features", &features, &d.feature_count);
        } else if (strcmp(key, "extensions") == 0) {
            r = names(y, v, "extensions", &extensions, &d.extension_count);
        } else if (strcmp(key, "subgroup-operations") == 0) {
            /* in the compute stage: the only one a compute shader runs in */
            if ((r = subgroup_operations(y, v, &d.subgroup_operations)) == SPVCOND_OK)
                d.subgroup_stages = 0x20u;
        } else if (strcmp(key, "subgroup-size") == 0) {
            if ((r = number(y, v, key, UINT32_MAX, &x)) == SPVCOND_OK)
                d.subgroup_size = (uint32_t)x;
        } else if (strcmp(key, "min-subgroup-size") == 0) {
            if ((r = number(y, v, key, UINT32_MAX, &x)) == SPVCOND_OK)
                d.min_subgroup_size = (uint32_t)x;
        } else if (strcmp(key, "max-subgroup-size") == 0) {
            if ((r = number(y, v, key, UINT32_MAX, &x)) == SPVCOND_OK)
                d.max_subgroup_size = (uint32_t)x;
        } else if (strcmp(key, "max-compute-work-group-invocations") == 0) {
            r = number(y, v, key, UINT64_MAX, &d.max_compute_work_group_invocations);
        } else {
            r = spvcond_yaml_fail(y, k, "unknown key of vulkan: (api-version, type, features, extensions, "
                                        "subgroup-size, subgroup-operations, min-subgroup-size, max-subgroup-size, "
                                        "max-compute-work-group-invocations)", key);
        }
    }
    d.features = features;
    d.extensions = extensions;
    if (r == SPVCOND_OK)
        r = spvcond_vulkan_device_info(y->ctx, &d, out);
    spvcond_dealloc(y->ctx, (void *)features);
    spvcond_dealloc(y->ctx, (void *)extensions);
    return r;
}
