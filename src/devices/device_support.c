/* SPDX-License-Identifier: MIT */
/* Requirement constants against a device: their values, and the kernel_not_supported check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/aspects.h"
#include "analysis/condition_leaves.h"
#include "devices/devices.h"
#include "analysis/evaluate.h"
#include "ir/index.h"
#include "registry/registry.h"
#include "support/sized.h"

/* How a reason names the device constants a variant needs and the device lacks. */
#define NOT_FOR "Not for the device: "

static bool
parse_uint_list(const char *s, uint32_t *out, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        char *end;
        if (*s < '0' || *s > '9')
            return false;
        unsigned long v = strtoul(s, &end, 10);
        if (v > UINT32_MAX || (k + 1 < n ? *end != '.' : *end != 0))
            return false;
        out[k] = (uint32_t)v;
        s = end + 1;
    }
    return true;
}

int
spvcond_requirement_parse(const char *name, struct spvcond_requirement *q)
{
    memset(q, 0, sizeof(*q));
    if (strncmp(name, "spvcond.", 8) != 0)
        return 0;
    name += 8;
    if (strncmp(name, "aspect.", 7) == 0) {
        q->kind = SPVCOND_REQ_ASPECT;
        if (spvcond_aspect_by_name(name + 7, &q->v[0]))
            return 1;
        return parse_uint_list(name + 7, q->v, 1) ? 1 : -1;
    }
    if (strncmp(name, "reqd_work_group_size.", 21) == 0) {
        q->kind = SPVCOND_REQ_WORK_GROUP_SIZE;
        return parse_uint_list(name + 21, q->v, 3) ? 1 : -1;
    }
    if (strncmp(name, "reqd_sub_group_size.", 20) == 0) {
        q->kind = SPVCOND_REQ_SUB_GROUP_SIZE;
        return parse_uint_list(name + 20, q->v, 1) ? 1 : -1;
    }
    if (strncmp(name, "capability.", 11) == 0) {
        q->kind = SPVCOND_REQ_CAPABILITY;
        if (spvcond_capability_value(name + 11, &q->v[0]))
            return 1;
        return parse_uint_list(name + 11, q->v, 1) ? 1 : -1;
    }
    return -1;
}

static bool
listed(const uint32_t *list, size_t n, uint32_t v)
{
    for (size_t k = 0; k < n; k++)
        if (list[k] == v)
            return true;
    return false;
}

bool
spvcond_device_supports(const spvcond_device_info *d, const struct spvcond_requirement *q)
{
    switch (q->kind) {
    case SPVCOND_REQ_ASPECT:
        return listed(d->aspects, d->aspect_count, q->v[0]) || d->may_support_other_aspects;
    case SPVCOND_REQ_SUB_GROUP_SIZE:
        if (d->sub_group_size_count == 0)
            return d->may_support_other_aspects;
        return listed(d->sub_group_sizes, d->sub_group_size_count, q->v[0]);
    case SPVCOND_REQ_WORK_GROUP_SIZE: {
        uint64_t total = (uint64_t)q->v[0] * q->v[1] * q->v[2];
        return d->max_work_group_size == 0 || total <= d->max_work_group_size;
    }
    case SPVCOND_REQ_CAPABILITY:
        /* A device that lists no capabilities says nothing of them: as of aspects it does not list. */
        if (!d->has_capabilities)
            return d->may_support_other_aspects;
        return listed(d->capabilities, d->capability_count, q->v[0]);
    }
    return false;
}

void
spvcond_requirement_message(const struct spvcond_requirement *q, char *buf, size_t size)
{
    const char *name;
    switch (q->kind) {
    case SPVCOND_REQ_ASPECT:
        name = spvcond_aspect_name(q->v[0]);
        if (name)
            snprintf(buf, size, "Required aspect %s is not supported on the device", name);
        else
            snprintf(buf, size, "Required aspect %u is not supported on the device", q->v[0]);
        return;
    case SPVCOND_REQ_SUB_GROUP_SIZE:
        snprintf(buf, size, "Sub-group size %u is not supported on the device", q->v[0]);
        return;
    case SPVCOND_REQ_WORK_GROUP_SIZE:
        snprintf(buf, size, "Required work-group size %ux%ux%u is not supported on the device", q->v[0], q->v[1],
                 q->v[2]);
        return;
    case SPVCOND_REQ_CAPABILITY:
        name = spvcond_capability_name(q->v[0]);
        if (name)
            snprintf(buf, size, "Required capability %s is not supported on the device", name);
        else
            snprintf(buf, size, "Required capability %u is not supported on the device", q->v[0]);
        return;
    }
}

/* Every OpName of the id is asked: a front end's guard constant keeps its own name before annotate's
 * (spec/guards.md). */
int
spvcond_requirement_of(const struct spvcond_module *m, uint32_t id, struct spvcond_requirement *q)
{
    uint32_t b, e;
    spvcond_refs_range(&m->names, id, &b, &e);
    for (uint32_t k = b; k < e; k++) {
        size_t i = m->names.inst[k];
        if (spvcond_inst_opcode(m, i) != SPVCOND_OP_NAME)
            continue;
        int got = spvcond_requirement_parse(spvcond_inst_string(m, i, 2), q);
        if (got)
            return got;
    }
    return 0;
}

static spvcond_result device_spec_values(struct spvcond_module *m, const spvcond_device_info *d,
                                         spvcond_spec_value **values, size_t *count);

spvcond_result
spvcond_device_spec_values(const spvcond_module *module, const spvcond_device_info *d,
                           spvcond_spec_value **values, size_t *count)
{
    spvcond_module *m = (spvcond_module *)module; /* reads only (its indexes are caches) */
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!d || !values || !count)
        return spvcond_invalid(m->ctx, "spvcond_device_spec_values", "`device`, `values` and `count` must not be NULL");
    spvcond_device_info device;
    spvcond_result r = SPVCOND_SIZED_IN(m->ctx, d, &device, spvcond_device_info);
    return r == SPVCOND_OK ? device_spec_values(m, &device, values, count) : r;
}

/* The values for a device (a struct of this library). */
static spvcond_result
device_spec_values(struct spvcond_module *m, const spvcond_device_info *d, spvcond_spec_value **values, size_t *count)
{
    *values = NULL;
    *count = 0;
    spvcond_spec_value *v = spvcond_alloc_array(m->ctx, m->spec_id_count + 1, sizeof(*v));
    if (!v)
        return spvcond_oom(m->ctx);
    size_t n = 0;
    for (size_t k = 0; k < m->spec_id_count; k++) {
        uint32_t id = m->spec_ids[k].id;
        struct spvcond_requirement q;
        int got = spvcond_requirement_of(m, id, &q);
        if (got < 0) {
            spvcond_dealloc(m->ctx, v);
            return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, spvcond_def(m, id), id,
                                     "spec constant %%%u has a spvcond.* name this version does not understand", id);
        }
        uint32_t op = spvcond_def_opcode(m, id);
        if (got == 0 || (op != SPVCOND_OP_SPEC_CONSTANT_TRUE && op != SPVCOND_OP_SPEC_CONSTANT_FALSE))
            continue;
        v[n++] = (spvcond_spec_value){m->spec_ids[k].spec_id, spvcond_device_supports(d, &q), false};
    }
    *values = v;
    *count = n;
    return SPVCOND_OK;
}

static void device_facts(const spvcond_device_info *d, spvcond_fnvar_device *out);

void
spvcond_device_info_facts(const spvcond_device_info *d, spvcond_unspecified unspecified, spvcond_fnvar_device *out)
{
    spvcond_device_info device;
    spvcond_fnvar_device facts = {.size = sizeof(facts), .unspecified = unspecified};
    if (d && SPVCOND_SIZED_IN(NULL, d, &device, spvcond_device_info) == SPVCOND_OK)
        device_facts(&device, &facts);
    SPVCOND_SIZED_OUT(out, &facts, spvcond_fnvar_device);
}

/* The facts of a device (a struct of this library) for the extension's constants. */
static void
device_facts(const spvcond_device_info *d, spvcond_fnvar_device *out)
{
    out->has_target = d->has_target;
    out->target = d->target;
    out->has_features = d->has_features;
    out->features = d->features;
    out->feature_count = d->feature_count;
    out->has_architecture = d->has_architecture;
    out->has_family = d->has_family;
    out->has_category = d->has_category;
    out->category = d->category;
    out->family = d->family;
    out->architecture = d->architecture;
    out->has_capabilities = d->has_capabilities;
    out->capabilities = d->capabilities;
    out->capability_count = d->capability_count;
}

/* Spec values and evaluated conditions for one device: computed once, whatever number of kernels is
 * then asked about. */
struct support {
    spvcond_module *m;
    struct spvcond_values v;
    struct spvcond_leaf_walk walk;
    /* Each entry point's verdict and reasons, recorded (support_of); kernels often share a condition,
     * whose record is then made once (per id: 1 + offset in reasons). */
    uint32_t *memo;
    char *reasons;
    size_t reasons_len, reasons_cap;
};

static spvcond_result
support_begin(spvcond_module *m, const spvcond_device_info *d, struct support *s)
{
    *s = (struct support){m, {NULL, NULL, SIZE_MAX, NULL}, {0}, NULL, NULL, 0, 0};
    spvcond_spec_value *values;
    size_t count;
    spvcond_result r = device_spec_values(m, d, &values, &count);
    if (r != SPVCOND_OK)
        return r;
    spvcond_fnvar_device facts = {.size = sizeof(facts), .unspecified = SPVCOND_UNSPECIFIED_UNKNOWN};
    device_facts(d, &facts);
    r = spvcond_evaluate(m, values, count, &facts, &s->v);
    spvcond_dealloc(m->ctx, values);
    if (r == SPVCOND_OK)
        r = spvcond_leaf_walk_init(m, &s->walk);
    return r;
}

static void
support_end(struct support *s)
{
    spvcond_dealloc(s->m->ctx, s->memo);
    spvcond_dealloc(s->m->ctx, s->reasons);
    spvcond_leaf_walk_release(&s->walk);
    spvcond_values_release(s->m, &s->v);
}

/* Append one string (with its NUL) to the record. */
static spvcond_result
record(struct support *s, const char *text)
{
    size_t len = strlen(text) + 1;
    spvcond_result r = spvcond_grow(s->m->ctx, (void **)&s->reasons, &s->reasons_cap, s->reasons_len + len, 1);
    if (r == SPVCOND_OK) {
        memcpy(s->reasons + s->reasons_len, text, len);
        s->reasons_len += len;
    }
    return r;
}

/* Record the verdict for entry point instruction `entry` at the end of s->reasons: "y" or "n", then why
 * not, every false leaf under its condition in definition order: "R" and a requirement in DPC++'s words,
 * or "D" and a device constant the device lacks; then an empty string. */
static spvcond_result
support_of(struct support *s, size_t entry)
{
    spvcond_module *m = s->m;
    bool value = true;
    uint32_t cond = spvcond_inst_words(m, entry)[1];
    spvcond_result r = SPVCOND_OK;
    if (spvcond_inst_opcode(m, entry) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL)
        r = spvcond_condition_value(m, &s->v, entry, cond, &value);
    if (r == SPVCOND_OK)
        r = record(s, value ? "y" : "n");
    if (r == SPVCOND_OK && !value)
        r = spvcond_condition_leaves(&s->walk, cond);
    for (size_t k = 0; r == SPVCOND_OK && !value && k < s->walk.leaf_count; k++) {
        const uint32_t *w = spvcond_inst_words(m, s->walk.leaves[k]);
        struct spvcond_requirement q;
        uint32_t op = spvcond_opcode_of(w[0]);
        char msg[256];
        msg[0] = 'D';
        if (s->v.value[w[2]])
            continue;
        if (op >= SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL && op <= SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL) {
            spvcond_device_constant_text(w, msg + 1, sizeof(msg) - 1);
            r = record(s, msg);
        } else if ((op == SPVCOND_OP_SPEC_CONSTANT_TRUE || op == SPVCOND_OP_SPEC_CONSTANT_FALSE) &&
                   spvcond_requirement_of(m, w[2], &q) == 1) {
            msg[0] = 'R';
            spvcond_requirement_message(&q, msg + 1, sizeof(msg) - 1);
            r = record(s, msg);
        }
    }
    return r == SPVCOND_OK ? record(s, "") : r;
}

static const char *
entry_name(const spvcond_module *m, size_t i)
{
    return spvcond_inst_string(m, i, spvcond_inst_opcode(m, i) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL ? 4 : 3);
}

/* A kernel name's reasons, each once: the unmet requirements, and the device constants it lacks. */
struct why {
    char reqs[SPVCOND_REASON_MAX], devices[SPVCOND_REASON_MAX];
};

/* Add item to the list in buf (items separated by sep) unless it holds it already. */
static void
add_item(char *buf, size_t size, const char *item, const char *sep)
{
    size_t n = strlen(item), sep_len = strlen(sep);
    for (const char *q = buf; *q;) {
        const char *end = strstr(q, sep);
        size_t qn = end ? (size_t)(end - q) : strlen(q);
        if (qn == n && memcmp(q, item, n) == 0)
            return;
        q += qn + (end ? sep_len : 0);
    }
    size_t len = strlen(buf);
    if (len + (len ? sep_len : 0) + n < size)
        snprintf(buf + len, size - len, "%s%s", len ? sep : "", item);
}

/* The verdict for the entry point at `entry`, its reasons added to w: recorded once per condition. */
static spvcond_result
verdict_of(struct support *s, size_t entry, bool *supported, struct why *w)
{
    spvcond_module *m = s->m;
    uint32_t cond = spvcond_inst_words(m, entry)[1];
    bool conditional = spvcond_inst_opcode(m, entry) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL && cond < m->bound;
    size_t at = s->reasons_len;
    if (conditional && s->memo && s->memo[cond]) {
        at = s->memo[cond] - 1;
    } else {
        spvcond_result r = support_of(s, entry);
        if (r != SPVCOND_OK)
            return r;
        if (conditional && s->memo && at < UINT32_MAX)
            s->memo[cond] = (uint32_t)at + 1;
    }
    *supported = s->reasons[at] == 'y';
    for (const char *p = s->reasons + at + 2; *p; p += strlen(p) + 1) {
        if (p[0] == 'D')
            add_item(w->devices, sizeof(w->devices), p + 1, ", ");
        else
            add_item(w->reqs, sizeof(w->reqs), p + 1, "; ");
    }
    return SPVCOND_OK;
}

/* The verdict for a kernel name over its entry points (several in a multi-target module): supported when
 * one of them is; otherwise their reasons, each requirement and each device constant once. */
static spvcond_result
name_verdict(struct support *s, const size_t *entries, size_t count, bool *supported, char *reason,
             size_t reason_size)
{
    struct why w = {"", ""};
    spvcond_result r = SPVCOND_OK;
    *supported = false;
    for (size_t k = 0; k < count && r == SPVCOND_OK && !*supported; k++)
        r = verdict_of(s, entries[k], supported, &w);
    if (*supported)
        w.reqs[0] = w.devices[0] = 0;
    if (reason_size)
        snprintf(reason, reason_size, "%s%s%s%s", w.reqs, w.reqs[0] && w.devices[0] ? "; " : "",
                 w.devices[0] ? NOT_FOR : "", w.devices);
    return r;
}

spvcond_result
spvcond_kernel_supported(const spvcond_module *module, const spvcond_device_info *d, const char *kernel,
                         bool *supported, char *reason, size_t reason_size)
{
    spvcond_module *m = (spvcond_module *)module; /* reads only (its indexes are caches) */
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!d || !kernel || !supported || (reason_size && !reason))
        return spvcond_invalid(m->ctx, "spvcond_kernel_supported",
                               "`device`, `kernel` and `supported` must not be NULL, nor `reason` with a size");
    if (reason_size)
        reason[0] = 0;
    spvcond_device_info device;
    spvcond_result sized = SPVCOND_SIZED_IN(m->ctx, d, &device, spvcond_device_info);
    if (sized != SPVCOND_OK)
        return sized;
    d = &device;
    size_t *entries = spvcond_alloc_array(m->ctx, m->entry_point_count + 1, sizeof(size_t)), count = 0;
    if (!entries)
        return spvcond_oom(m->ctx);
    for (size_t k = 0; k < m->entry_point_count; k++)
        if (strcmp(entry_name(m, m->entry_points[k]), kernel) == 0)
            entries[count++] = m->entry_points[k];
    spvcond_result r = SPVCOND_OK;
    if (!count)
        r = spvcond_report(m->ctx, SPVCOND_ERROR_NOT_FOUND, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                           "the module has no kernel named '%s'", kernel);
    bool conditional = false;
    for (size_t k = 0; k < count; k++)
        conditional |= spvcond_inst_opcode(m, entries[k]) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT_INTEL;
    *supported = true;
    if (r == SPVCOND_OK && conditional) {
        struct support s;
        r = support_begin(m, d, &s);
        if (r == SPVCOND_OK)
            r = name_verdict(&s, entries, count, supported, reason, reason_size);
        support_end(&s);
    }
    spvcond_dealloc(m->ctx, entries);
    return r;
}

/* Entry points ordered by name, then by position: a name's entry points are neighbours. */
struct named_entry {
    const char *name;
    size_t k; /* in m->entry_points */
};

static int
compare_named(const void *a, const void *b)
{
    const struct named_entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->k > y->k) - (x->k < y->k);
}

spvcond_result
spvcond_kernels_supported(const spvcond_module *module, const spvcond_device_info *d, spvcond_kernel_verdict_fn fn,
                          void *user)
{
    spvcond_module *m = (spvcond_module *)module; /* reads only (its indexes are caches) */
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!d || !fn)
        return spvcond_invalid(m->ctx, "spvcond_kernels_supported", "`device` and `fn` must not be NULL");
    spvcond_device_info device;
    spvcond_result sized = SPVCOND_SIZED_IN(m->ctx, d, &device, spvcond_device_info);
    if (sized != SPVCOND_OK)
        return sized;
    struct support s;
    spvcond_result r = support_begin(m, &device, &s);
    size_t n = m->entry_point_count;
    struct named_entry *sorted = spvcond_alloc_array(m->ctx, n + 1, sizeof(*sorted));
    size_t *first = spvcond_alloc_array(m->ctx, n + 1, sizeof(size_t)); /* per entry point: its name's first, sorted */
    size_t *members = spvcond_alloc_array(m->ctx, n + 1, sizeof(size_t));
    if (r == SPVCOND_OK && (!(s.memo = spvcond_alloc_array(m->ctx, m->bound + 1, sizeof(uint32_t))) || !sorted ||
                            !first || !members))
        r = spvcond_oom(m->ctx);
    if (r == SPVCOND_OK) {
        for (size_t k = 0; k < n; k++)
            sorted[k] = (struct named_entry){entry_name(m, m->entry_points[k]), k};
        if (n > 1)
            qsort(sorted, n, sizeof(*sorted), compare_named);
        for (size_t p = 0; p < n; p++)
            first[sorted[p].k] = p > 0 && strcmp(sorted[p - 1].name, sorted[p].name) == 0 ? first[sorted[p - 1].k] : p;
    }
    for (size_t k = 0; k < n && r == SPVCOND_OK; k++) {
        size_t g = first[k];
        if (sorted[g].k != k) /* the name was told at its first entry point */
            continue;
        size_t count = 0;
        for (size_t p = g; p < n && first[sorted[p].k] == g; p++)
            members[count++] = m->entry_points[sorted[p].k];
        bool supported;
        char reason[SPVCOND_REASON_MAX];
        r = name_verdict(&s, members, count, &supported, reason, sizeof(reason));
        if (r == SPVCOND_OK)
            fn(user, sorted[g].name, supported, reason);
    }
    spvcond_dealloc(m->ctx, members);
    spvcond_dealloc(m->ctx, first);
    spvcond_dealloc(m->ctx, sorted);
    support_end(&s);
    return r;
}

spvcond_device_info *
spvcond_device_block(spvcond_context *ctx, size_t block_size, size_t name_offset, const char *name)
{
    size_t name_size = name ? strlen(name) + 1 : 0;
    unsigned char *b = spvcond_alloc(ctx, block_size + name_size);
    if (!b) {
        spvcond_oom(ctx);
        return NULL;
    }
    memset(b, 0, block_size);
    spvcond_device_info *info = (spvcond_device_info *)b;
    info->size = sizeof(*info);
    if (name_size) {
        memcpy(b + name_offset, name, name_size);
        info->name = (const char *)(b + name_offset);
    }
    return info;
}
