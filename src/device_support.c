/* Requirement constants against a device: their values, and the kernel_not_supported check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aspects.h"
#include "devices.h"
#include "evaluate.h"
#include "index.h"

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
    }
}

int
spvcond_requirement_of(const struct spvcond_module *m, uint32_t id, struct spvcond_requirement *q)
{
    const char *name = spvcond_name_of(m, id);
    return name ? spvcond_requirement_parse(name, q) : 0;
}

spvcond_result
spvcond_device_spec_values(spvcond_module *m, const spvcond_device_info *d, spvcond_spec_value **values,
                           size_t *count)
{
    if (!m || !d || !values || !count)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
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
        if (got == 0 || spvcond_def_opcode(m, id) != 48)
            continue;
        v[n++] = (spvcond_spec_value){m->spec_ids[k].spec_id, spvcond_device_supports(d, &q), false};
    }
    *values = v;
    *count = n;
    return SPVCOND_OK;
}

static void
append(char *buf, size_t size, const char *text)
{
    size_t len = strlen(buf);
    if (len && len + 2 < size) {
        memcpy(buf + len, "; ", 3);
        len += 2;
    }
    snprintf(buf + len, size - len, "%s", text);
}

spvcond_result
spvcond_kernel_supported(spvcond_module *m, const spvcond_device_info *d, const char *kernel, bool *supported,
                         char *reason, size_t reason_size)
{
    if (!m || !d || !kernel || !supported || (reason_size && !reason))
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (reason_size)
        reason[0] = 0;
    size_t entry = SIZE_MAX;
    for (size_t k = 0; k < m->entry_point_count && entry == SIZE_MAX; k++) {
        size_t i = m->entry_points[k];
        bool conditional = spvcond_inst_opcode(m, i) == SPVCOND_OP_CONDITIONAL_ENTRY_POINT;
        if (strcmp(spvcond_inst_string(m, i, conditional ? 4 : 3), kernel) == 0)
            entry = i;
    }
    if (entry == SIZE_MAX)
        return spvcond_report(m->ctx, SPVCOND_ERROR_NOT_FOUND, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "the module has no kernel named '%s'", kernel);
    *supported = true;
    if (spvcond_inst_opcode(m, entry) != SPVCOND_OP_CONDITIONAL_ENTRY_POINT)
        return SPVCOND_OK;

    spvcond_spec_value *values;
    size_t count;
    spvcond_result r = spvcond_device_spec_values(m, d, &values, &count);
    if (r != SPVCOND_OK)
        return r;
    struct spvcond_values v;
    r = spvcond_evaluate(m, values, count, NULL, &v);
    spvcond_dealloc(m->ctx, values);
    if (r != SPVCOND_OK)
        return r;
    uint32_t cond = spvcond_inst_words(m, entry)[1];
    bool value = false;
    r = spvcond_condition_value(m, &v, entry, cond, &value);
    if (r == SPVCOND_OK && !value) {
        *supported = false;
        /* Why: every false requirement leaf under the condition, in definition order. */
        uint8_t *reach = spvcond_alloc_array(m->ctx, m->bound, 1);
        if (!reach) {
            r = spvcond_oom(m->ctx);
        } else {
            reach[cond] = 1;
            spvcond_close_condition_trees(m, reach);
            for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
                const uint32_t *w = spvcond_inst_words(m, i);
                struct spvcond_requirement q;
                if ((w[0] & 0xffffu) != 48 || !reach[w[2]] || v.value[w[2]] || spvcond_requirement_of(m, w[2], &q) != 1)
                    continue;
                char msg[160];
                spvcond_requirement_message(&q, msg, sizeof(msg));
                if (reason_size)
                    append(reason, reason_size, msg);
            }
            spvcond_dealloc(m->ctx, reach);
        }
    }
    spvcond_values_release(m, &v);
    return r;
}
