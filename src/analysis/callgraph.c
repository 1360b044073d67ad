/* SPDX-License-Identifier: MIT */
/* Call edges (callgraph.h): the tables, and what the walk over bodies reports. */
#include "analysis/callgraph.h"

#include <string.h>


spvcond_result
spvcond_callgraph_begin(const struct spvcond_module *m, struct spvcond_callgraph *g,
                        struct spvcond_callgraph_builder *b)
{
    memset(g, 0, sizeof(*g));
    *b = (struct spvcond_callgraph_builder){m, g, NULL, 0, 0, 0};
    g->function_of_id = spvcond_alloc_array(m->ctx, m->bound, sizeof(uint32_t));
    g->callee_start = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    b->seen_by = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    if (!g->function_of_id || !g->callee_start || !b->seen_by)
        return spvcond_oom(m->ctx);
    for (size_t f = 0; f < m->function_count; f++)
        g->function_of_id[m->functions[f].id] = (uint32_t)f + 1;
    /* A function-pointer constant stands for its function (the reader made sure it names one). */
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_opcode_of(w[0]) == SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL &&
            spvcond_word_count_of(w[0]) >= 4 && spvcond_callgraph_function(g, m, w[3]) != SIZE_MAX) {
            g->function_of_id[w[2]] = SPVCOND_CALLGRAPH_POINTER | g->function_of_id[w[3]];
            g->has_pointers = true;
        }
    }
    return SPVCOND_OK;
}

spvcond_result
spvcond_callgraph_add_edge(struct spvcond_callgraph_builder *b, size_t callee)
{
    if (b->seen_by[callee] == b->caller + 1)
        return SPVCOND_OK;
    spvcond_result r = spvcond_grow(b->m->ctx, (void **)&b->g->callees, &b->cap, b->n + 1, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    b->seen_by[callee] = (uint32_t)b->caller + 1;
    b->g->callees[b->n++] = (uint32_t)callee;
    return SPVCOND_OK;
}

spvcond_result
spvcond_callgraph_call(struct spvcond_callgraph_builder *b, size_t i)
{
    const struct spvcond_module *m = b->m;
    uint32_t callee_id = spvcond_inst_words(m, i)[3];
    size_t callee = spvcond_callgraph_function(b->g, m, callee_id);
    if (callee == SIZE_MAX)
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, callee_id,
                                 "OpFunctionCall calls %%%u, which is not an OpFunction (it is %s)", callee_id,
                                 spvcond_grammar_opcode_name(spvcond_def_opcode(m, callee_id)));
    return spvcond_callgraph_add_edge(b, callee);
}

spvcond_result
spvcond_callgraph_finish(struct spvcond_callgraph_builder *b, spvcond_result r)
{
    const struct spvcond_module *m = b->m;
    spvcond_dealloc(m->ctx, b->seen_by);
    b->seen_by = NULL;
    if (r != SPVCOND_OK) {
        spvcond_callgraph_release(m, b->g);
        return r;
    }
    b->g->callee_start[m->function_count] = (uint32_t)b->n;
    return SPVCOND_OK;
}

void
spvcond_callgraph_release(const struct spvcond_module *m, struct spvcond_callgraph *g)
{
    spvcond_dealloc(m->ctx, g->function_of_id);
    spvcond_dealloc(m->ctx, g->callee_start);
    spvcond_dealloc(m->ctx, g->callees);
    memset(g, 0, sizeof(*g));
}
