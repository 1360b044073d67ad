/* SPDX-License-Identifier: MIT */
/* Device configuration files in DPC++'s YAML schema (spec/devices.md), read with libyaml when the
 * library is built with it. The structures and lookups below need libc alone. */
#include <stdlib.h>
#include <string.h>

#include "registry/architectures.h"
#include "registry/aspects.h"
#include "devices/devices.h"
#include "support/sized.h"
#include "support/index_table.h"

#include "devices/vulkan_config.h"
#include "devices/yaml_util.h"
#include "support/context.h"

struct entry {
    char *name;
    uint32_t *aspects;
    size_t aspect_count;
    uint32_t *sub_group_sizes;
    size_t sub_group_size_count;
    bool may_support_other_aspects;
    uint64_t max_work_group_size;
    bool has_architecture;
    struct spvcond_architecture architecture;
    bool has_target;
    uint32_t target;
    spvcond_device_info *vulkan; /* a `vulkan:` description (vulkan_config.c): the device, less the above */
};

struct spvcond_device_config {
    spvcond_context *ctx;
    struct entry *entries;
    size_t count, cap;
    uint64_t *hashes;  /* of the names, for the index */
    size_t hash_cap;
    struct spvcond_index_table table; /* name -> entry + 1 (a scan per name was quadratic in devices) */
};

static void
free_entry(spvcond_context *ctx, struct entry *e)
{
    spvcond_dealloc(ctx, e->name);
    spvcond_dealloc(ctx, e->aspects);
    spvcond_dealloc(ctx, e->sub_group_sizes);
    spvcond_dealloc(ctx, e->vulkan);
    memset(e, 0, sizeof(*e));
}

void
spvcond_device_config_destroy(spvcond_device_config *c)
{
    if (!c)
        return;
    for (size_t k = 0; k < c->count; k++)
        free_entry(c->ctx, &c->entries[k]);
    spvcond_dealloc(c->ctx, c->entries);
    spvcond_dealloc(c->ctx, c->hashes);
    spvcond_table_release(c->ctx, &c->table);
    spvcond_dealloc(c->ctx, c);
}

size_t
spvcond_device_config_count(const spvcond_device_config *c)
{
    return c ? c->count : 0;
}

bool
spvcond_device_config_get(const spvcond_device_config *c, size_t index, spvcond_device_info *out)
{
    if (!c || !out || index >= c->count)
        return false;
    const struct entry *e = &c->entries[index];
    spvcond_device_info full = {.size = sizeof(full), .name = e->name, .aspects = e->aspects, .aspect_count = e->aspect_count,
                                 .may_support_other_aspects = e->may_support_other_aspects,
                                 .sub_group_sizes = e->sub_group_sizes, .sub_group_size_count = e->sub_group_size_count,
                                 .max_work_group_size = e->max_work_group_size, .has_architecture = e->has_architecture,
                                 .category = e->architecture.category, .family = e->architecture.family,
                                 .architecture = e->architecture.architecture, .has_target = e->has_target,
                                 .target = e->target};
    if (e->vulkan) {
        /* What the Vulkan description says, and what the entry's own keys add (an architecture, a target). */
        spvcond_device_info v = *e->vulkan;
        v.name = e->name;
        v.has_architecture = e->has_architecture;
        v.category = e->architecture.category;
        v.family = e->architecture.family;
        v.architecture = e->architecture.architecture;
        v.has_target = e->has_target;
        v.target = e->target;
        full = v;
    }
    return SPVCOND_SIZED_OUT(out, &full, spvcond_device_info);
}

static size_t
entry_named(const spvcond_device_config *c, const char *name)
{
    uint64_t hash = spvcond_hash_string(name);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = spvcond_table_next(&c->table, hash, &cursor)) != 0;)
        if (c->hashes[e - 1] == hash && strcmp(c->entries[e - 1].name, name) == 0)
            return e - 1;
    return SIZE_MAX;
}

bool
spvcond_device_config_find(const spvcond_device_config *c, const char *name, spvcond_device_info *out)
{
    size_t k = c && name ? entry_named(c, name) : SIZE_MAX;
    return k != SIZE_MAX && spvcond_device_config_get(c, k, out);
}

#ifndef SPVCOND_HAVE_YAML

spvcond_result
spvcond_device_config_parse(spvcond_context *ctx, const char *text, size_t size, const char *source,
                            spvcond_device_config **out)
{
    (void)text;
    (void)size;
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out)
        return spvcond_invalid(ctx, "spvcond_device_config_parse", "`out` is NULL");
    *out = NULL;
    return spvcond_report(ctx, SPVCOND_ERROR_UNSUPPORTED, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                          "%s: this libspvcond was built without libyaml, so it cannot read device configurations",
                          source ? source : "device configuration");
}

#else

static spvcond_result
read_entry(struct spvcond_yaml *r, const char *name, yaml_node_t *n, struct entry *e)
{
    memset(e, 0, sizeof(*e));
    if (n->type != YAML_MAPPING_NODE)
        return spvcond_yaml_fail(r, n, "a device must be a mapping", name);
    size_t len = strlen(name);
    e->name = spvcond_alloc(r->ctx, len + 1);
    if (!e->name)
        return spvcond_oom(r->ctx);
    memcpy(e->name, name, len + 1);
    spvcond_result res = SPVCOND_OK;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top && res == SPVCOND_OK; p++) {
        yaml_node_t *k = spvcond_yaml_node(r, p->key);
        yaml_node_t *v = spvcond_yaml_node(r, p->value);
        const char *key = spvcond_yaml_scalar(k);
        if (!key)
            return spvcond_yaml_fail(r, k, "keys must be scalars", NULL);
        if (strcmp(key, "aspects") == 0) {
            spvcond_dealloc(r->ctx, e->aspects); /* a repeated key: the last one counts */
            e->aspects = NULL;
            e->aspect_count = 0;
            res = spvcond_yaml_u32_list(r, v, true, SPVCOND_ASPECT_MAX, "aspects", &e->aspects, &e->aspect_count);
        } else if (strcmp(key, "sub-group-sizes") == 0) {
            spvcond_dealloc(r->ctx, e->sub_group_sizes);
            e->sub_group_sizes = NULL;
            e->sub_group_size_count = 0;
            res = spvcond_yaml_u32_list(r, v, false, UINT32_MAX, "not a sub-group size", &e->sub_group_sizes,
                                        &e->sub_group_size_count);
        } else if (strcmp(key, "may_support_other_aspects") == 0) {
            const char *s = spvcond_yaml_scalar(v);
            if (s && (strcmp(s, "true") == 0 || strcmp(s, "1") == 0))
                e->may_support_other_aspects = true;
            else if (s && (strcmp(s, "false") == 0 || strcmp(s, "0") == 0))
                e->may_support_other_aspects = false;
            else
                res = spvcond_yaml_fail(r, v, "may_support_other_aspects must be true or false", s);
        } else if (strcmp(key, "max-work-group-size") == 0) {
            if (!spvcond_yaml_u64(spvcond_yaml_scalar(v), &e->max_work_group_size))
                res = spvcond_yaml_fail(r, v, "max-work-group-size must be a number", spvcond_yaml_scalar(v));
        } else if (strcmp(key, "architecture") == 0) { /* ours: the device registry's, by name */
            const char *s = spvcond_yaml_scalar(v);
            struct spvcond_architecture *a = &e->architecture;
            e->has_architecture = s && spvcond_registry_architecture_path(s, &a->category, &a->family, &a->architecture);
            if (!e->has_architecture)
                res = spvcond_yaml_fail(r, v, "unknown architecture (intel_gpu_pvc, gpu/nvidia/sm80, cpu/amd/zen4, ...)",
                                        s);
        } else if (strcmp(key, "vulkan") == 0) { /* ours: a Vulkan device, as vulkan_config.c reads it */
            spvcond_dealloc(r->ctx, e->vulkan);
            res = spvcond_vulkan_config_read(r, v, name, &e->vulkan);
        } else if (strcmp(key, "target") == 0) { /* ours: the device registry's target, by name or number */
            const char *s = spvcond_yaml_scalar(v);
            e->has_target = s && spvcond_registry_target(s, &e->target);
            if (!e->has_target)
                res = spvcond_yaml_fail(r, v, "unknown target (x86_64, nvptx64, amdgcn, a number, ...)", s);
        }
        /* Other keys (aot-toolchain, aot-toolchain-*) are DPC++'s and mean nothing here. */
    }
    return res;
}

spvcond_result
spvcond_device_config_parse(spvcond_context *ctx, const char *text, size_t size, const char *source,
                            spvcond_device_config **out)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out || (!text && size))
        return spvcond_invalid(ctx, "spvcond_device_config_parse", "`out` is NULL, or `text` is NULL with a size");
    *out = NULL;
    struct spvcond_yaml r;
    memset(&r, 0, sizeof(r));
    r.ctx = ctx;
    r.source = source ? source : "device configuration";
    spvcond_result lr = spvcond_yaml_load(&r, text, size);
    if (lr != SPVCOND_OK)
        return lr;
    spvcond_device_config *c = spvcond_alloc_array(ctx, 1, sizeof(*c));
    spvcond_result res = c ? SPVCOND_OK : spvcond_oom(ctx);
    if (c)
        c->ctx = ctx;
    yaml_node_t *root = spvcond_yaml_root(&r);
    if (res == SPVCOND_OK && root && root->type != YAML_MAPPING_NODE)
        res = spvcond_yaml_fail(&r, root, "the top level must map device names to their descriptions", NULL);
    for (yaml_node_pair_t *p = root && res == SPVCOND_OK ? root->data.mapping.pairs.start : NULL;
         p && p < root->data.mapping.pairs.top && res == SPVCOND_OK; p++) {
        yaml_node_t *k = spvcond_yaml_node(&r, p->key);
        const char *name = spvcond_yaml_scalar(k);
        if (!name) {
            res = spvcond_yaml_fail(&r, k, "device names must be scalars", NULL);
            break;
        }
        struct entry e;
        res = read_entry(&r, name, spvcond_yaml_node(&r, p->value), &e);
        if (res != SPVCOND_OK) {
            free_entry(ctx, &e);
            break;
        }
        /* A repeated name: DPC++ warns and the last one wins. */
        size_t slot = entry_named(c, name);
        if (slot != SIZE_MAX) {
            spvcond_report(ctx, SPVCOND_OK, SPVCOND_SEVERITY_WARNING, SPVCOND_NOWHERE,
                           "%s:%zu: device %s is described twice; the last description wins", r.source,
                           k->start_mark.line + 1, name);
            free_entry(ctx, &c->entries[slot]);
            c->entries[slot] = e;
            continue;
        }
        if ((res = spvcond_grow(ctx, (void **)&c->entries, &c->cap, c->count + 1, sizeof(*c->entries))) != SPVCOND_OK ||
            (res = spvcond_grow(ctx, (void **)&c->hashes, &c->hash_cap, c->count + 1, sizeof(uint64_t))) != SPVCOND_OK) {
            free_entry(ctx, &e);
            break;
        }
        c->entries[c->count] = e;
        c->hashes[c->count] = spvcond_hash_string(e.name);
        if ((res = spvcond_table_insert(ctx, &c->table, c->hashes, (uint32_t)c->count)) != SPVCOND_OK) {
            free_entry(ctx, &c->entries[c->count]);
            break;
        }
        c->count++;
    }
    spvcond_yaml_unload(&r);
    if (res != SPVCOND_OK) {
        spvcond_device_config_destroy(c);
        return res;
    }
    *out = c;
    return SPVCOND_OK;
}

#endif
