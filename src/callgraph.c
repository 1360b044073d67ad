/* Call edges from OpFunctionCall (and function-pointer constants used inside a function body). */
#include "callgraph.h"

#include <string.h>

#include "operands.h"

#define OP_FUNCTION_CALL 57u
#define OP_CONSTANT_FUNCTION_POINTER_INTEL 5600u

/* Function-pointer constants (SPV_INTEL_function_pointers) used by a function make their target a
 * callee: the pointer may be called. */
struct pointer_walk {
    const struct spvcond_module *m;
    struct spvcond_callgraph *g;
    uint32_t *seen_by;
    size_t caller, *n, cap;
};

static spvcond_result
note_pointer(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct pointer_walk *p = user;
    (void)inst;
    (void)word;
    size_t d = spvcond_def(p->m, id);
    if (d == SIZE_MAX || spvcond_inst_opcode(p->m, d) != OP_CONSTANT_FUNCTION_POINTER_INTEL)
        return SPVCOND_OK;
    size_t callee = spvcond_callgraph_function(p->g, p->m, spvcond_inst_words(p->m, d)[3]);
    if (callee != SIZE_MAX && p->seen_by[callee] != p->caller + 1 && *p->n < p->cap) {
        p->seen_by[callee] = (uint32_t)p->caller + 1;
        p->g->callees[(*p->n)++] = (uint32_t)callee;
    }
    return SPVCOND_OK;
}

spvcond_result
spvcond_callgraph_build(const struct spvcond_module *m, struct spvcond_callgraph *g)
{
    memset(g, 0, sizeof(*g));
    g->function_of_id = spvcond_alloc_array(m->ctx, m->bound, sizeof(uint32_t));
    g->callee_start = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    /* Room for every call, plus one pointer edge per id operand (bounded by the words) if pointers are used. */
    size_t pointers = 0;
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++)
        pointers += spvcond_inst_opcode(m, i) == OP_CONSTANT_FUNCTION_POINTER_INTEL;
    size_t cap = m->call_count + (pointers ? m->word_count : 0) + 1;
    g->callees = spvcond_alloc_array(m->ctx, cap, sizeof(uint32_t));
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
            if (pointers) {
                struct pointer_walk p = {m, g, seen_by, f, &n, cap};
                spvcond_result r = spvcond_walk_ids(m, i, note_pointer, &p);
                if (r != SPVCOND_OK) {
                    spvcond_dealloc(m->ctx, seen_by);
                    spvcond_callgraph_release(m, g);
                    return r;
                }
            }
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
            if (seen_by[callee] != f + 1 && n < cap) {
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
