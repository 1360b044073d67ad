/* SPDX-License-Identifier: MIT */
/* Which requirement sets reach each function: the Or of its roots' sets, down the call graph's
 * components callers first; a guarded call reaches its callee under the guard too. */
#include "annotate/state.h"

spvcond_result
spvcond_annotate_reach(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct spvcond_inference *inf = &a->inf;
    a->reach = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    if (!a->reach)
        return spvcond_oom(m->ctx);
    spvcond_result r = SPVCOND_OK;
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++)
        if (a->root_set[f])
            r = spvcond_cond_of_set(&a->store, a->root_set[f] - 1, &a->reach[f]);
    /* Components callers-first: the reverse of the order they were found in. */
    for (size_t c = inf->scc_count; c-- > 0 && r == SPVCOND_OK;) {
        uint32_t acc = 0;
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1] && r == SPVCOND_OK; k++)
            r = spvcond_cond_union(&a->store, acc, a->reach[inf->scc_members[k]], &acc);
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1] && r == SPVCOND_OK; k++) {
            uint32_t f = inf->scc_members[k];
            a->reach[f] = acc;
            for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1] && r == SPVCOND_OK; e++) {
                if (inf->scc_of[a->g.callees[e]] == c)
                    continue;
                uint32_t via = acc; /* a guarded call reaches its callee under the guard too */
                if (a->edge_guard && a->edge_guard[e])
                    r = spvcond_cond_and(&a->store, acc, a->edge_guard[e], &via);
                if (r == SPVCOND_OK)
                    r = spvcond_cond_union(&a->store, a->reach[a->g.callees[e]], via, &a->reach[a->g.callees[e]]);
            }
        }
    }
    /* Functions no root reaches are left alone: unconditional. */
    for (size_t f = 0; f < m->function_count; f++)
        if (!a->reach[f])
            a->reach[f] = spvcond_cond_always(&a->store);
    return r;
}
