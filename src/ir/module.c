/* SPDX-License-Identifier: MIT */
/* The module's queries declared in module.h that are not inline: where an instruction is for a
 * diagnostic, the function holding an instruction, an id's SpecId, a scalar type's width. */
#include <stdarg.h>
#include <string.h>

#include "ir/module.h"

struct spvcond_where
spvcond_where_inst(const struct spvcond_module *m, size_t inst, uint32_t id)
{
    if (inst >= m->inst_count)
        return (struct spvcond_where){SPVCOND_NO_POSITION, SPVCOND_NO_POSITION, 0, id};
    return (struct spvcond_where){m->inst[inst], inst, spvcond_inst_opcode(m, inst), id};
}

spvcond_result
spvcond_fail_inst(const struct spvcond_module *m, spvcond_result code, size_t inst, uint32_t id, const char *fmt,
                  ...)
{
    va_list ap;
    va_start(ap, fmt);
    spvcond_result r = spvcond_vreport(m->ctx, code, SPVCOND_SEVERITY_ERROR, spvcond_where_inst(m, inst, id), fmt,
                                       ap);
    va_end(ap);
    return r;
}

void
spvcond_warn_inst(const struct spvcond_module *m, size_t inst, uint32_t id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    spvcond_vreport(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_WARNING, spvcond_where_inst(m, inst, id), fmt, ap);
    va_end(ap);
}

uint32_t
spvcond_string_words(const struct spvcond_module *m, size_t i, uint32_t word)
{
    return (uint32_t)(strlen(spvcond_inst_string(m, i, word)) / 4 + 1);
}

const struct spvcond_function *
spvcond_function_of_inst(const struct spvcond_module *m, size_t i)
{
    size_t lo = 0, hi = m->function_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct spvcond_function *f = &m->functions[mid];
        if (i < f->begin)
            hi = mid;
        else if (i > f->end)
            lo = mid + 1;
        else
            return f;
    }
    return NULL;
}

const struct spvcond_function *
spvcond_function_by_id(const struct spvcond_module *m, uint32_t id)
{
    size_t d = spvcond_def(m, id);
    if (d == SIZE_MAX || spvcond_inst_opcode(m, d) != SPVCOND_OP_FUNCTION)
        return NULL;
    const struct spvcond_function *f = spvcond_function_of_inst(m, d);
    return f && f->begin == d ? f : NULL;
}

bool
spvcond_spec_id_of(const struct spvcond_module *m, uint32_t id, uint32_t *spec_id)
{
    uint32_t b, e;
    spvcond_refs_range(&m->decorations, id, &b, &e);
    for (uint32_t k = b; k < e; k++) {
        const uint32_t *w = spvcond_inst_words(m, m->decorations.inst[k]);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_DECORATE && w[1] == id && w[2] == SPVCOND_DECORATION_SPEC_ID &&
            spvcond_word_count_of(w[0]) >= 4) {
            *spec_id = w[3];
            return true;
        }
    }
    return false;
}

uint32_t
spvcond_scalar_width(const struct spvcond_module *m, uint32_t type_id)
{
    size_t d = spvcond_def(m, type_id);
    if (d == SIZE_MAX)
        return 0;
    const uint32_t *w = spvcond_inst_words(m, d);
    switch (spvcond_opcode_of(w[0])) {
    case SPVCOND_OP_TYPE_BOOL: return 1;
    case SPVCOND_OP_TYPE_INT: case SPVCOND_OP_TYPE_FLOAT: return spvcond_word_count_of(w[0]) >= 3 ? w[2] : 0;
    default: return 0;
    }
}

