/* SPDX-License-Identifier: MIT */
/* Requirements files: per function, aspects it uses or declares and required sizes (spec/requirements.md). */
#include <stdio.h>
#include <string.h>

#include "registry/aspects.h"
#include "devices/yaml_util.h"
#include "support/context.h"

struct spvcond_requirements_file {
    spvcond_context *ctx;
    spvcond_function_requirements *entries;
    size_t count, cap;
    spvcond_guard_spec_id *guards; /* the `spec-constants` mapping */
    size_t guard_count, guard_cap;
};

void
spvcond_requirements_file_destroy(spvcond_requirements_file *f)
{
    if (!f)
        return;
    for (size_t k = 0; k < f->count; k++) {
        spvcond_function_requirements *e = &f->entries[k];
        spvcond_dealloc(f->ctx, (void *)e->function);
        spvcond_dealloc(f->ctx, (void *)e->uses);
        spvcond_dealloc(f->ctx, (void *)e->declared);
        spvcond_dealloc(f->ctx, (void *)e->origin);
        spvcond_dealloc(f->ctx, (void *)e->indirectly_callable);
        for (size_t c = 0; c < e->calls_indirectly_count; c++)
            spvcond_dealloc(f->ctx, (void *)e->calls_indirectly[c]);
        spvcond_dealloc(f->ctx, (void *)e->calls_indirectly);
    }
    for (size_t k = 0; k < f->guard_count; k++)
        spvcond_dealloc(f->ctx, (void *)f->guards[k].origin);
    spvcond_dealloc(f->ctx, f->entries);
    spvcond_dealloc(f->ctx, f->guards);
    spvcond_dealloc(f->ctx, f);
}

const spvcond_guard_spec_id *
spvcond_requirements_file_guard_spec_ids(const spvcond_requirements_file *f, size_t *count)
{
    if (count)
        *count = f ? f->guard_count : 0;
    return f ? f->guards : NULL;
}

const spvcond_function_requirements *
spvcond_requirements_file_entries(const spvcond_requirements_file *f, size_t *count)
{
    if (count)
        *count = f ? f->count : 0;
    return f ? f->entries : NULL;
}

#ifndef SPVCOND_HAVE_YAML

spvcond_result
spvcond_requirements_file_parse(spvcond_context *ctx, const char *text, size_t size, const char *source,
                                spvcond_requirements_file **out)
{
    (void)text;
    (void)size;
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out)
        return spvcond_invalid(ctx, "spvcond_requirements_file_parse", "`out` is NULL");
    *out = NULL;
    return spvcond_report(ctx, SPVCOND_ERROR_UNSUPPORTED, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                          "%s: this libspvcond was built without libyaml, so it cannot read requirements files",
                          source ? source : "requirements file");
}

#else

static char *
copy_string(spvcond_context *ctx, const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = spvcond_alloc(ctx, n);
    if (c)
        memcpy(c, s, n);
    return c;
}

/* A virtual-function set's name: a scalar ("" is the default set) without ',' (DPC++ lists sets
 * comma-separated). */
static spvcond_result
read_set_name(struct spvcond_yaml *y, yaml_node_t *n, const char **out)
{
    const char *name = spvcond_yaml_scalar(n);
    if (!name)
        return spvcond_yaml_fail(y, n, "a virtual-function set is named by a string", NULL);
    if (strpbrk(name, ",\r\n"))
        return spvcond_yaml_fail(y, n, "a virtual-function set's name cannot hold ',' or a line end", name);
    return (*out = copy_string(y->ctx, name)) ? SPVCOND_OK : spvcond_oom(y->ctx);
}

/* `calls_indirectly: SET` or `[SET, ...]`. */
static spvcond_result
read_set_list(struct spvcond_yaml *y, yaml_node_t *n, spvcond_function_requirements *e)
{
    yaml_node_item_t *first = NULL, *top = NULL;
    if (n->type == YAML_SEQUENCE_NODE) {
        first = n->data.sequence.items.start;
        top = n->data.sequence.items.top;
    }
    size_t count = first ? (size_t)(top - first) : 1;
    const char **list = spvcond_alloc_array(y->ctx, count + 1, sizeof(*list));
    if (!list)
        return spvcond_oom(y->ctx);
    e->calls_indirectly = list;
    spvcond_result r = SPVCOND_OK;
    for (size_t k = 0; k < count && r == SPVCOND_OK; k++) {
        yaml_node_t *item = first ? spvcond_yaml_node(y, first[k]) : n;
        if ((r = read_set_name(y, item, &list[k])) == SPVCOND_OK)
            e->calls_indirectly_count = k + 1;
    }
    return r;
}

static spvcond_result
read_function(struct spvcond_yaml *y, const char *name, yaml_node_t *key, yaml_node_t *n,
              spvcond_function_requirements *e)
{
    char origin[512];
    snprintf(origin, sizeof(origin), "%s:%zu", y->source, key->start_mark.line + 1);
    if (!(e->function = copy_string(y->ctx, name)) || !(e->origin = copy_string(y->ctx, origin)))
        return spvcond_oom(y->ctx);
    if (n->type != YAML_MAPPING_NODE)
        return spvcond_yaml_fail(y, n, "a function's requirements must be a mapping", name);
    spvcond_result r = SPVCOND_OK;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top && r == SPVCOND_OK; p++) {
        yaml_node_t *k = spvcond_yaml_node(y, p->key);
        yaml_node_t *v = spvcond_yaml_node(y, p->value);
        const char *what = spvcond_yaml_scalar(k);
        uint32_t *list = NULL;
        size_t count = 0;
        if (!what) {
            r = spvcond_yaml_fail(y, k, "keys must be scalars", NULL);
        } else if (strcmp(what, "uses") == 0 || strcmp(what, "declared") == 0) {
            bool uses = what[0] == 'u';
            if ((uses ? e->uses : e->declared) != NULL)
                return spvcond_yaml_fail(y, k, "repeated key", what);
            r = spvcond_yaml_u32_list(y, v, true, SPVCOND_ASPECT_MAX, what, &list, &count);
            if (r == SPVCOND_OK && uses) {
                e->uses = list;
                e->use_count = count;
            } else if (r == SPVCOND_OK) {
                e->declared = list;
                e->declared_count = count;
                e->has_declared = true;
            }
        } else if (strcmp(what, "reqd_work_group_size") == 0) {
            r = spvcond_yaml_u32_list(y, v, false, UINT32_MAX, "reqd_work_group_size", &list, &count);
            if (r != SPVCOND_OK)
                list = NULL; /* freed by the reader */
            if (r == SPVCOND_OK && (count < 1 || count > 3 || !list[0]))
                r = spvcond_yaml_fail(y, v, "reqd_work_group_size must be 1 to 3 positive sizes", NULL);
            for (size_t d = 0; r == SPVCOND_OK && d < 3; d++)
                e->reqd_work_group_size[d] = d < count ? list[d] : 1;
            spvcond_dealloc(y->ctx, list);
        } else if (strcmp(what, "reqd_sub_group_size") == 0) {
            uint64_t size;
            if (!spvcond_yaml_u64(spvcond_yaml_scalar(v), &size) || size == 0 || size > UINT32_MAX)
                r = spvcond_yaml_fail(y, v, "reqd_sub_group_size must be a positive number", spvcond_yaml_scalar(v));
            else
                e->reqd_sub_group_size = (uint32_t)size;
        } else if (strcmp(what, "indirectly_callable") == 0) {
            if (e->indirectly_callable)
                return spvcond_yaml_fail(y, k, "repeated key", what);
            r = read_set_name(y, v, &e->indirectly_callable);
        } else if (strcmp(what, "calls_indirectly") == 0) {
            if (e->calls_indirectly)
                return spvcond_yaml_fail(y, k, "repeated key", what);
            r = read_set_list(y, v, e);
        } else {
            r = spvcond_yaml_fail(y, k,
                                  "unknown key (uses, declared, reqd_work_group_size, reqd_sub_group_size, "
                                  "indirectly_callable, calls_indirectly)",
                                  what);
        }
    }
    return r;
}

/* `spec-constants: {SpecId: aspect, ...}`: the module's boolean spec constants that mean aspects
 * (spec/guards.md). The key cannot name a function: OpenCL C and C++ names have no '-'. */
#define GUARD_KEY "spec-constants"

static spvcond_result
read_guards(struct spvcond_yaml *y, yaml_node_t *n, spvcond_requirements_file *f)
{
    if (n->type != YAML_MAPPING_NODE)
        return spvcond_yaml_fail(y, n, GUARD_KEY " must map SpecIds to aspects", NULL);
    spvcond_result r = SPVCOND_OK;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top && r == SPVCOND_OK; p++) {
        yaml_node_t *k = spvcond_yaml_node(y, p->key);
        yaml_node_t *v = spvcond_yaml_node(y, p->value);
        uint64_t spec_id, number;
        uint32_t aspect = 0;
        const char *value = spvcond_yaml_scalar(v);
        if (!spvcond_yaml_u64(spvcond_yaml_scalar(k), &spec_id) || spec_id > UINT32_MAX)
            return spvcond_yaml_fail(y, k, "a SpecId must be a number below 2^32", spvcond_yaml_scalar(k));
        bool named = value && spvcond_aspect_by_name(value, &aspect);
        if (!named && (!value || !spvcond_yaml_u64(value, &number) || number >= SPVCOND_ASPECT_MAX))
            return spvcond_yaml_fail(y, v, "unknown aspect", value);
        if (!named)
            aspect = (uint32_t)number;
        char origin[512];
        snprintf(origin, sizeof(origin), "%s:%zu", y->source, k->start_mark.line + 1);
        if ((r = spvcond_grow(y->ctx, (void **)&f->guards, &f->guard_cap, f->guard_count + 1, sizeof(*f->guards))) !=
            SPVCOND_OK)
            return r;
        f->guards[f->guard_count] = (spvcond_guard_spec_id){(uint32_t)spec_id, aspect, copy_string(y->ctx, origin)};
        if (!f->guards[f->guard_count++].origin)
            return spvcond_oom(y->ctx);
    }
    return r;
}

spvcond_result
spvcond_requirements_file_parse(spvcond_context *ctx, const char *text, size_t size, const char *source,
                                spvcond_requirements_file **out)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out || (!text && size))
        return spvcond_invalid(ctx, "spvcond_requirements_file_parse", "`out` is NULL, or `text` is NULL with a size");
    *out = NULL;
    struct spvcond_yaml y;
    memset(&y, 0, sizeof(y));
    y.ctx = ctx;
    y.source = source ? source : "requirements file";
    spvcond_result r = spvcond_yaml_load(&y, text, size);
    if (r != SPVCOND_OK)
        return r;
    spvcond_requirements_file *f = spvcond_alloc_array(ctx, 1, sizeof(*f));
    if (!f) {
        spvcond_yaml_unload(&y);
        return spvcond_oom(ctx);
    }
    f->ctx = ctx;
    yaml_node_t *root = spvcond_yaml_root(&y);
    if (root && root->type != YAML_MAPPING_NODE)
        r = spvcond_yaml_fail(&y, root, "the top level must map function names to their requirements", NULL);
    for (yaml_node_pair_t *p = root && r == SPVCOND_OK ? root->data.mapping.pairs.start : NULL;
         p && p < root->data.mapping.pairs.top && r == SPVCOND_OK; p++) {
        yaml_node_t *k = spvcond_yaml_node(&y, p->key);
        const char *name = spvcond_yaml_scalar(k);
        if (!name) {
            r = spvcond_yaml_fail(&y, k, "function names must be scalars", NULL);
            break;
        }
        if (strcmp(name, GUARD_KEY) == 0) {
            r = read_guards(&y, spvcond_yaml_node(&y, p->value), f);
            continue;
        }
        if ((r = spvcond_grow(ctx, (void **)&f->entries, &f->cap, f->count + 1, sizeof(*f->entries))) != SPVCOND_OK)
            break;
        f->entries[f->count] = SPVCOND_SIZED(spvcond_function_requirements);
        r = read_function(&y, name, k, spvcond_yaml_node(&y, p->value), &f->entries[f->count++]);
    }
    spvcond_yaml_unload(&y);
    if (r != SPVCOND_OK) {
        spvcond_requirements_file_destroy(f);
        return r;
    }
    *out = f;
    return SPVCOND_OK;
}

#endif
