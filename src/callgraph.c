/* Call edges from OpFunctionCall (and function-pointer constants used inside a function body). */
#include "callgraph.h"

#include <string.h>

#define OP_FUNCTION_CALL 57u
#define OP_CONSTANT_FUNCTION_POINTER_INTEL 5600u

spvcond_result
spvcond_callgraph_build(const struct spvcond_module *m, struct spvcond_callgraph *g)
{
    memset(g, 0, sizeof(*g));
    g->function_of_id = spvcond_alloc_array(m->ctx, m->bound, sizeof(uint32_t));
    g->callee_start = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    g->callees = spvcond_alloc_array(m->ctx, m->call_count + 1, sizeof(uint32_t));
    uint32_t *seen_by = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    if (!g->function_of_id || !g->callee_start || !g->callees || !seen_by) {
        spvcond_dealloc(m->ctx, seen_by);
        spvcond_callgraph_release(m, g);
        return spvcond_oom(m->ctx);
    }
    for (size_t f = 0; f < m->function_count; f++)
        g->function_of_id[m->functions[f].id] = (uint32_t)f + 1;
    size_t n = 0;
    for (size_t f = 0; f < m->function_count; f++) {
        g->callee_start[f] = (uint32_t)n;
        const struct spvcond_function *fn = &m->functions[f];
        for (size_t i = fn->first_block; i < fn->end; i++) {
            if (spvcond_inst_opcode(m, i) != OP_FUNCTION_CALL)
                continue;
            uint32_t callee_id = spvcond_inst_words(m, i)[3];
            size_t callee = spvcond_callgraph_function(g, m, callee_id);
            if (callee == SIZE_MAX) {
                spvcond_dealloc(m->ctx, seen_by);
                spvcond_callgraph_release(m, g);
                return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, callee_id,
                                         "OpFunctionCall calls %%%u, which is not an OpFunction (it is %s)",
                                         callee_id, spvcond_grammar_opcode_name(spvcond_def_opcode(m, callee_id)));
            }
            /* One edge per (caller, callee): seen_by remembers the last caller that listed it. */
            if (seen_by[callee] != f + 1 && n < m->call_count) {
                seen_by[callee] = (uint32_t)f + 1;
                g->callees[n++] = (uint32_t)callee;
            }
        }
    }
    g->callee_start[m->function_count] = (uint32_t)n;
    spvcond_dealloc(m->ctx, seen_by);
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
