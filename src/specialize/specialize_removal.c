/* SPDX-License-Identifier: MIT */
/* Removing what specialization strips, with the instruction that decided it, and the error for a use
 * of a removed id that says why it was removed (specialize_state.h). */
#include <stdio.h>

#include "ir/index.h"
#include "specialize/specialize_state.h"

spvcond_result
spvcond_spec_remove_defining(struct spec *s, size_t i, uint32_t reason)
{
    uint32_t id = spvcond_result_id(s->m, i);
    if (id)
        s->removed[id] = 1;
    if (id && reason) {
        spvcond_result r = spvcond_grow(s->m->ctx, (void **)&s->reasons, &s->reason_cap, s->reason_count + 1,
                                        sizeof(*s->reasons));
        if (r != SPVCOND_OK)
            return r;
        s->reasons[s->reason_count++] = (struct removal){id, reason};
    }
    return spvcond_spec_delete(s, i);
}

static spvcond_result
reason_text(struct spec *s, uint32_t id, char *buf, size_t n)
{
    struct spvcond_module *m = s->m;
    uint32_t why = 0;
    for (size_t k = 0; k < s->reason_count; k++) /* the error path only */
        if (s->reasons[k].id == id)
            why = s->reasons[k].reason;
    if (!why) { /* a removed function's own ids take its reason */
        const struct spvcond_function *f = spvcond_function_of_inst(m, spvcond_def(m, id));
        why = f ? s->fn_reason[f - m->functions] : 0;
    }
    if (!why) {
        snprintf(buf, n, "it was removed");
        return SPVCOND_OK;
    }
    const uint32_t *w = spvcond_inst_words(m, why - 1);
    uint32_t op = spvcond_opcode_of(w[0]);
    bool decoration = op == SPVCOND_OP_DECORATE || op == SPVCOND_OP_DECORATE_ID;
    uint32_t cond = decoration ? w[3] : w[1];
    if (decoration && w[1] != id)
        snprintf(buf, n, "it is defined in function %%%u, removed because its ConditionalINTEL condition %%%u is false",
                 w[1], cond);
    else
        snprintf(buf, n, "it carries ConditionalINTEL %%%u, which is false (instruction %u)", cond, why - 1);
    return SPVCOND_OK;
}

__attribute__((noinline, cold)) spvcond_result
spvcond_spec_use_of_removed(struct spec *s, size_t inst, uint32_t id)
{
    struct spvcond_module *m = s->m;
    uint32_t op = spvcond_inst_opcode(m, inst);
    char why[256];
    reason_text(s, id, why, sizeof(why));
    return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, inst, id,
                             "%s would refer to %%%u after specialization, but %s; the input's conditions are "
                             "inconsistent (a use is not guarded by its definition's condition)",
                             spvcond_grammar_opcode_name(op), id, why);
}

