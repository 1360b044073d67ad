/* SPDX-License-Identifier: MIT */
/* Requirement tables: per kernel, what it requires and which SpecId stands for it. Built from an
 * annotated module's named spec constants, or read from and written to DPC++'s property-file text
 * ("[SYCL/kernel reqs]", spec/props.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/base64.h"
#include "devices/props_text.h"
#include "analysis/condition_leaves.h"
#include "devices/devices.h"
#include "analysis/evaluate.h"
#include "ir/index.h"
#include "support/index_table.h"
#include "ir/records.h"
#include "support/sized.h"

struct kernel_entry {
    char *name;
    spvcond_kernel_requirement *reqs;
    size_t count, cap;
};

struct spvcond_requirements {
    spvcond_context *ctx;
    struct kernel_entry *kernels;
    size_t count, cap;
    char *virtual_sets; /* "uses-virtual-functions-set", or NULL */
};

#define SET_NAME "SYCL/kernel reqs"
#define VF_SET_NAME "SYCL/virtual functions"
#define VF_USES "uses-virtual-functions-set"

void
spvcond_requirements_destroy(spvcond_requirements *r)
{
    if (!r)
        return;
    for (size_t k = 0; k < r->count; k++) {
        spvcond_dealloc(r->ctx, r->kernels[k].name);
        spvcond_dealloc(r->ctx, r->kernels[k].reqs);
    }
    spvcond_dealloc(r->ctx, r->kernels);
    spvcond_dealloc(r->ctx, r->virtual_sets);
    spvcond_dealloc(r->ctx, r);
}

const char *
spvcond_requirements_virtual_sets(const spvcond_requirements *r)
{
    return r ? r->virtual_sets : NULL;
}

static spvcond_result
set_virtual_sets(spvcond_requirements *r, const char *text, size_t len)
{
    spvcond_dealloc(r->ctx, r->virtual_sets);
    if (!(r->virtual_sets = spvcond_alloc(r->ctx, len + 1)))
        return spvcond_oom(r->ctx);
    memcpy(r->virtual_sets, text, len);
    r->virtual_sets[len] = 0;
    return SPVCOND_OK;
}

/* spvcond_records_each: annotate's record of the virtual-function sets used. */
static spvcond_result
virtual_sets_record(void *user, size_t inst, const char *text)
{
    size_t len = strlen(SPVCOND_VIRTUAL_SETS_RECORD);
    if (strncmp(text, SPVCOND_VIRTUAL_SETS_RECORD, len) != 0)
        return SPVCOND_OK;
    return set_virtual_sets(user, text + len, strlen(text + len));
}

static spvcond_result
add_kernel(spvcond_requirements *r, const char *name, size_t len)
{
    spvcond_result res = spvcond_grow(r->ctx, (void **)&r->kernels, &r->cap, r->count + 1, sizeof(*r->kernels));
    if (res != SPVCOND_OK)
        return res;
    struct kernel_entry *k = &r->kernels[r->count];
    memset(k, 0, sizeof(*k));
    if (!(k->name = spvcond_alloc(r->ctx, len + 1)))
        return spvcond_oom(r->ctx);
    memcpy(k->name, name, len);
    k->name[len] = 0;
    r->count++;
    return SPVCOND_OK;
}

static spvcond_result
add_requirement(spvcond_requirements *r, const spvcond_kernel_requirement *q)
{
    struct kernel_entry *k = &r->kernels[r->count - 1];
    spvcond_result res = spvcond_grow(r->ctx, (void **)&k->reqs, &k->cap, k->count + 1, sizeof(*k->reqs));
    if (res == SPVCOND_OK)
        k->reqs[k->count++] = *q;
    return res;
}

static spvcond_requirements *
new_table(spvcond_context *ctx)
{
    spvcond_requirements *r = spvcond_alloc_array(ctx, 1, sizeof(*r));
    if (r)
        r->ctx = ctx;
    return r;
}

static spvcond_kernel_requirement
from_internal(const struct spvcond_requirement *q, uint32_t spec_id)
{
    spvcond_kernel_requirement k = {(spvcond_requirement_type)q->kind, 1, {q->v[0], q->v[1], q->v[2]}, spec_id};
    if (q->kind == SPVCOND_REQ_WORK_GROUP_SIZE)
        k.dims = 3;
    return k;
}

spvcond_result
spvcond_requirements_from_module(const spvcond_module *module, spvcond_requirements **out)
{
    spvcond_module *m = (spvcond_module *)module; /* reads only (its indexes are caches) */
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out)
        return spvcond_invalid(m->ctx, "spvcond_requirements_from_module", "`out` is NULL");
    *out = NULL;
    spvcond_requirements *r = new_table(m->ctx);
    struct spvcond_leaf_walk walk = {0};
    /* Kernels often share a condition: each tree is walked once (memo: per id, 1 + its row of rows). */
    uint32_t *memo = spvcond_alloc_array(m->ctx, m->bound + 1, sizeof(uint32_t));
    struct { uint32_t first, count; } *rows = NULL;
    uint32_t *pool = NULL;
    size_t row_count = 0, row_cap = 0, pool_len = 0, pool_cap = 0;
    spvcond_result res = r && memo ? spvcond_leaf_walk_init(m, &walk) : spvcond_oom(m->ctx);
    for (size_t e = 0; e < m->entry_point_count && res == SPVCOND_OK; e++) {
        size_t i = m->entry_points[e];
        bool conditional = spvcond_inst_opcode(m, i) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL;
        const char *name = spvcond_inst_string(m, i, conditional ? 4 : 3);
        if ((res = add_kernel(r, name, strlen(name))) != SPVCOND_OK || !conditional)
            continue;
        /* The requirement leaves under the kernel's condition, in definition order. */
        uint32_t cond = spvcond_inst_words(m, i)[1];
        if (cond < m->bound && !memo[cond]) {
            if ((res = spvcond_condition_leaves(&walk, cond)) != SPVCOND_OK ||
                (res = spvcond_grow(m->ctx, (void **)&rows, &row_cap, row_count + 1, sizeof(*rows))) != SPVCOND_OK ||
                (res = spvcond_grow(m->ctx, (void **)&pool, &pool_cap, pool_len + walk.leaf_count + 1,
                                    sizeof(uint32_t))) != SPVCOND_OK)
                break;
            rows[row_count].first = (uint32_t)pool_len;
            rows[row_count].count = (uint32_t)walk.leaf_count;
            for (size_t k = 0; k < walk.leaf_count; k++)
                pool[pool_len++] = walk.leaves[k];
            memo[cond] = (uint32_t)++row_count;
        }
        for (uint32_t k = 0; cond < m->bound && k < rows[memo[cond] - 1].count && res == SPVCOND_OK; k++) {
            const uint32_t *w = spvcond_inst_words(m, pool[rows[memo[cond] - 1].first + k]);
            uint32_t spec_id;
            struct spvcond_requirement q;
            uint32_t op = spvcond_opcode_of(w[0]);
            if ((op != SPVCOND_OP_SPEC_CONSTANT_TRUE && op != SPVCOND_OP_SPEC_CONSTANT_FALSE) ||
                !spvcond_spec_id_of(m, w[2], &spec_id) ||
                spvcond_requirement_of(m, w[2], &q) != 1)
                continue;
            spvcond_kernel_requirement kq = from_internal(&q, spec_id);
            res = add_requirement(r, &kq);
        }
    }
    /* The virtual-function sets annotate recorded (spec/virtual-functions.md). */
    if (res == SPVCOND_OK)
        res = spvcond_records_each(m, virtual_sets_record, r);
    spvcond_leaf_walk_release(&walk);
    spvcond_dealloc(m->ctx, memo);
    spvcond_dealloc(m->ctx, rows);
    spvcond_dealloc(m->ctx, pool);
    if (res != SPVCOND_OK) {
        spvcond_requirements_destroy(r);
        return res;
    }
    *out = r;
    return SPVCOND_OK;
}

/* Store a little-endian word; returns the next position. */
static uint8_t *
put32(uint8_t *o, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        *o++ = (uint8_t)(v >> (8 * i));
    return o;
}

spvcond_result
spvcond_requirements_kernel_bytes(const spvcond_requirements *r, size_t kernel, uint8_t **out, size_t *size)
{
    if (!r)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out || !size || kernel >= r->count)
        return spvcond_invalid(r->ctx, "spvcond_requirements_kernel_bytes",
                               "`bytes` and `size` must not be NULL, and `kernel` must be below the kernel count");
    const struct kernel_entry *e = &r->kernels[kernel];
    /* uint32 words: count, then (type, params..., spec id) per requirement. */
    size_t words = 1;
    for (size_t q = 0; q < e->count; q++)
        words += 2 + (e->reqs[q].type == SPVCOND_REQUIREMENT_WORK_GROUP_SIZE ? 1 + e->reqs[q].dims : 1);
    size_t bytes = 8 + words * 4;
    uint8_t *raw = spvcond_alloc_array(r->ctx, bytes, 1);
    if (!raw)
        return spvcond_oom(r->ctx);
    uint64_t bits = (uint64_t)words * 32;
    for (int i = 0; i < 8; i++)
        raw[i] = (uint8_t)(bits >> (8 * i));
    uint8_t *o = raw + 8;
    o = put32(o, (uint32_t)e->count);
    for (size_t q = 0; q < e->count; q++) {
        const spvcond_kernel_requirement *kq = &e->reqs[q];
        o = put32(o, (uint32_t)kq->type);
        if (kq->type == SPVCOND_REQUIREMENT_WORK_GROUP_SIZE) {
            o = put32(o, kq->dims);
            for (uint32_t d = 0; d < kq->dims; d++)
                o = put32(o, kq->values[d]);
        } else {
            o = put32(o, kq->values[0]);
        }
        o = put32(o, kq->spec_id);
    }
    *out = raw;
    *size = bytes;
    return SPVCOND_OK;
}

/* The text format has no escapes: a name must not be empty, start a set, or hold '=', NUL or a line end. */
static bool
writable_name(const char *s, size_t n)
{
    if (n == 0 || s[0] == '[')
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '=' || s[i] == '\r' || s[i] == '\n' || s[i] == '\0')
            return false;
    return true;
}

/* "[SYCL/virtual functions]" with the sets the kernels use, as DPC++'s post-link tool writes it. */
static spvcond_result
write_virtual_sets(struct props_text *t, const char *sets)
{
    spvcond_result res = spvcond_props_put(t, "[" VF_SET_NAME "]\n" VF_USES "=2|", strlen(VF_SET_NAME) + strlen(VF_USES) + 6);
    if (res == SPVCOND_OK)
        res = spvcond_props_put_bytes(t, (const uint8_t *)sets, strlen(sets));
    return res == SPVCOND_OK ? spvcond_props_put(t, "\n", 1) : res;
}

spvcond_result
spvcond_requirements_write_props(const spvcond_requirements *r, char **text, size_t *size)
{
    if (!r)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!text || !size)
        return spvcond_invalid(r->ctx, "spvcond_requirements_write_props", "`text` and `size` must not be NULL");
    *text = NULL;
    *size = 0;
    struct props_text t = {r->ctx, NULL, 0, 0};
    spvcond_result res = spvcond_props_put(&t, "[" SET_NAME "]\n", strlen(SET_NAME) + 3);
    for (size_t k = 0; k < r->count && res == SPVCOND_OK; k++) {
        const struct kernel_entry *e = &r->kernels[k];
        if (!writable_name(e->name, strlen(e->name))) {
            res = spvcond_report(r->ctx, SPVCOND_ERROR_UNSUPPORTED, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                 "kernel name '%s' cannot be written in a property file", e->name);
            break;
        }
        uint8_t *raw;
        size_t bytes;
        if ((res = spvcond_requirements_kernel_bytes(r, k, &raw, &bytes)) != SPVCOND_OK)
            break;
        char *b64 = spvcond_alloc(r->ctx, spvcond_base64_encoded_size(bytes) + 1);
        if (!b64) {
            spvcond_dealloc(r->ctx, raw);
            res = spvcond_oom(r->ctx);
            break;
        }
        spvcond_base64_encode(raw, bytes, b64);
        if ((res = spvcond_props_put(&t, e->name, strlen(e->name))) == SPVCOND_OK && (res = spvcond_props_put(&t, "=2|", 3)) == SPVCOND_OK &&
            (res = spvcond_props_put(&t, b64, strlen(b64))) == SPVCOND_OK)
            res = spvcond_props_put(&t, "\n", 1);
        spvcond_dealloc(r->ctx, raw);
        spvcond_dealloc(r->ctx, b64);
    }
    if (res == SPVCOND_OK && r->virtual_sets)
        res = write_virtual_sets(&t, r->virtual_sets);
    if (res != SPVCOND_OK) {
        spvcond_dealloc(r->ctx, t.data);
        return res;
    }
    *text = t.data;
    *size = t.len;
    return SPVCOND_OK;
}

static spvcond_result
bad(spvcond_context *ctx, const char *source, size_t line, const char *what)
{
    return spvcond_report(ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE, "%s:%zu: %s",
                          source, line, what);
}

/* The i-th little-endian word of a byte array's data. */
static uint32_t
word_at(const uint8_t *data, size_t i)
{
    const uint8_t *b = data + 4 * i;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* One "name=2|<base64>" value of the set. */
static spvcond_result
parse_kernel(spvcond_requirements *r, const char *source, size_t line, const char *s, size_t n)
{
    const char *eq = memchr(s, '=', n);
    if (!eq || (size_t)(s + n - eq) < 3 || eq[1] != '2' || eq[2] != '|')
        return bad(r->ctx, source, line, "expected name=2|<byte array>");
    if (!writable_name(s, (size_t)(eq - s)))
        return bad(r->ctx, source, line, "a kernel name must be non-empty text without NUL bytes or line ends");
    const char *v = eq + 3, *why;
    uint8_t *raw;
    size_t len;
    spvcond_result res = spvcond_props_decode_bytes(r->ctx, v, (size_t)(s + n - v), 4, &raw, &len, &why);
    if (res != SPVCOND_OK)
        return res == SPVCOND_ERROR_OUT_OF_MEMORY ? res : bad(r->ctx, source, line, why);
    size_t words = len / 4, p = 0;
    if ((res = add_kernel(r, s, (size_t)(eq - s))) != SPVCOND_OK)
        goto out;
    if (words < 1) {
        res = bad(r->ctx, source, line, "the requirement list is empty (no entry count)");
        goto out;
    }
    uint32_t count = word_at(raw, p++);
    for (uint32_t e = 0; e < count && res == SPVCOND_OK; e++) {
        if (p + 3 > words) {
            res = bad(r->ctx, source, line, "the requirement list ends inside an entry");
            break;
        }
        spvcond_kernel_requirement q = {(spvcond_requirement_type)word_at(raw, p), 1, {0, 0, 0}, 0};
        p++;
        if (q.type == SPVCOND_REQUIREMENT_WORK_GROUP_SIZE) {
            q.dims = word_at(raw, p++);
            if (q.dims < 1 || q.dims > 3 || p + q.dims + 1 > words) {
                res = bad(r->ctx, source, line, "a work-group size entry has a bad dimension count");
                break;
            }
            for (uint32_t d = 0; d < q.dims; d++)
                q.values[d] = word_at(raw, p++);
            for (uint32_t d = q.dims; d < 3; d++)
                q.values[d] = 1;
        } else if (q.type == SPVCOND_REQUIREMENT_ASPECT || q.type == SPVCOND_REQUIREMENT_SUB_GROUP_SIZE ||
                   q.type == SPVCOND_REQUIREMENT_CAPABILITY) {
            q.values[0] = word_at(raw, p++);
        } else {
            res = bad(r->ctx, source, line,
                      "unknown requirement type (0 aspect, 1 work-group size, 2 sub-group size, 3 capability)");
            break;
        }
        q.spec_id = word_at(raw, p++);
        res = add_requirement(r, &q);
    }
    if (res == SPVCOND_OK && p != words)
        res = bad(r->ctx, source, line, "words left over after the last requirement");
out:
    spvcond_dealloc(r->ctx, raw);
    return res;
}

/* "2|<byte array>" of uses-virtual-functions-set: text without NUL bytes or line ends. */
static spvcond_result
parse_virtual_sets(spvcond_requirements *r, const char *source, size_t line, const char *v, size_t n)
{
    if (n < 2 || v[0] != '2' || v[1] != '|')
        return bad(r->ctx, source, line, VF_USES " must be a byte array (2|...)");
    uint8_t *raw;
    size_t len;
    const char *why;
    spvcond_result res = spvcond_props_decode_bytes(r->ctx, v + 2, n - 2, 1, &raw, &len, &why);
    if (res != SPVCOND_OK)
        return res == SPVCOND_ERROR_OUT_OF_MEMORY ? res : bad(r->ctx, source, line, why);
    if (memchr(raw, 0, len) || memchr(raw, '\n', len) || memchr(raw, '\r', len))
        res = bad(r->ctx, source, line, VF_USES " must be text without NUL bytes or line ends");
    if (res == SPVCOND_OK)
        res = set_virtual_sets(r, (const char *)raw, len);
    spvcond_dealloc(r->ctx, raw);
    return res;
}

spvcond_result
spvcond_requirements_parse_props(spvcond_context *ctx, const char *text, size_t size, const char *source,
                                 spvcond_requirements **out)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out || (!text && size))
        return spvcond_invalid(ctx, "spvcond_requirements_parse_props", "`out` is NULL, or `text` is NULL with a size");
    *out = NULL;
    source = source ? source : "property file";
    spvcond_requirements *r = new_table(ctx);
    if (!r)
        return spvcond_oom(ctx);
    spvcond_result res = SPVCOND_OK;
    bool in_set = false, in_vf = false, seen_set = false;
    size_t line = 0;
    const char *s;
    size_t n;
    for (size_t p = 0; res == SPVCOND_OK && spvcond_props_next_line(text, size, &p, &line, &s, &n);) {
        if (n == 0)
            continue;
        if (s[0] == '[') {
            in_set = n == strlen(SET_NAME) + 2 && memcmp(s + 1, SET_NAME, strlen(SET_NAME)) == 0 && s[n - 1] == ']';
            in_vf = n == strlen(VF_SET_NAME) + 2 && memcmp(s + 1, VF_SET_NAME, strlen(VF_SET_NAME)) == 0 &&
                    s[n - 1] == ']';
            seen_set |= in_set;
            continue;
        }
        if (in_set)
            res = parse_kernel(r, source, line, s, n);
        else if (in_vf && n > strlen(VF_USES) && memcmp(s, VF_USES "=", strlen(VF_USES) + 1) == 0)
            res = parse_virtual_sets(r, source, line, s + strlen(VF_USES) + 1, n - strlen(VF_USES) - 1);
    }
    if (res == SPVCOND_OK && !seen_set)
        res = bad(ctx, source, line, "no [" SET_NAME "] property set");
    if (res != SPVCOND_OK) {
        spvcond_requirements_destroy(r);
        return res;
    }
    *out = r;
    return SPVCOND_OK;
}

size_t
spvcond_requirements_kernel_count(const spvcond_requirements *r)
{
    return r ? r->count : 0;
}

const char *
spvcond_requirements_kernel_name(const spvcond_requirements *r, size_t k)
{
    return r && k < r->count ? r->kernels[k].name : NULL;
}

size_t
spvcond_requirements_count(const spvcond_requirements *r, size_t k)
{
    return r && k < r->count ? r->kernels[k].count : 0;
}

const spvcond_kernel_requirement *
spvcond_requirements_get(const spvcond_requirements *r, size_t k, size_t i)
{
    return r && k < r->count && i < r->kernels[k].count ? &r->kernels[k].reqs[i] : NULL;
}

spvcond_result
spvcond_requirements_device_values(const spvcond_requirements *r, const spvcond_device_info *d,
                                   spvcond_spec_value **values, size_t *count)
{
    if (!r)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!d || !values || !count)
        return spvcond_invalid(r->ctx, "spvcond_requirements_device_values",
                               "`device`, `values` and `count` must not be NULL");
    spvcond_device_info device;
    spvcond_result sized = SPVCOND_SIZED_IN(r->ctx, d, &device, spvcond_device_info);
    if (sized != SPVCOND_OK)
        return sized;
    d = &device;
    size_t total = 0;
    for (size_t k = 0; k < r->count; k++)
        total += r->kernels[k].count;
    spvcond_spec_value *v = spvcond_alloc_array(r->ctx, total + 1, sizeof(*v));
    if (!v)
        return spvcond_oom(r->ctx);
    /* One value per SpecId, from its first requirement: sort (SpecId, position) keys, keep the first of
     * each SpecId, then restore the order they came in (a scan per SpecId was quadratic). */
    uint64_t *keys = spvcond_alloc_array(r->ctx, total + 1, sizeof(uint64_t));
    const spvcond_kernel_requirement **at = spvcond_alloc_array(r->ctx, total + 1, sizeof(*at));
    if (!keys || !at || total > UINT32_MAX) {
        spvcond_dealloc(r->ctx, keys);
        spvcond_dealloc(r->ctx, (void *)at);
        spvcond_dealloc(r->ctx, v);
        return spvcond_oom(r->ctx);
    }
    size_t n = 0;
    for (size_t k = 0; k < r->count; k++)
        for (size_t i = 0; i < r->kernels[k].count; i++, n++) {
            at[n] = &r->kernels[k].reqs[i];
            keys[n] = (uint64_t)at[n]->spec_id << 32 | n;
        }
    qsort(keys, n, sizeof(*keys), spvcond_compare_u64);
    size_t kept = 0;
    for (size_t x = 0; x < n; x++)
        if (x == 0 || keys[x] >> 32 != keys[x - 1] >> 32)
            keys[kept++] = (uint32_t)keys[x];
    qsort(keys, kept, sizeof(*keys), spvcond_compare_u64);
    for (size_t x = 0; x < kept; x++) {
        const spvcond_kernel_requirement *q = at[keys[x]];
        struct spvcond_requirement internal = {(enum spvcond_requirement_kind)q->type,
                                               {q->values[0], q->values[1], q->values[2]}};
        v[x] = (spvcond_spec_value){q->spec_id, spvcond_device_supports(d, &internal), false};
    }
    spvcond_dealloc(r->ctx, keys);
    spvcond_dealloc(r->ctx, (void *)at);
    *values = v;
    *count = kept;
    return SPVCOND_OK;
}
