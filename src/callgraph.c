/* Call edges: OpFunctionCall, and any other use of a function (or a function-pointer constant) in a body. */
#include "callgraph.h"

#include <string.h>

#include "operands.h"

#define OP_FUNCTION_CALL 57u
#define OP_CONSTANT_FUNCTION_POINTER_INTEL 5600u

/* Besides calls, any other use of a function inside a body makes it a callee: a function-pointer
 * constant (SPV_INTEL_function_pointers) may be called, OpEnqueueKernel and the kernel queries name
 * the function they run, and anything else that names one (invalid, but possible in hostile input:
 * found by fuzzing, an OpLoad of a function) must keep it alive just the same. */
struct edge_walk {
    const struct spvcond_module *m;
    struct spvcond_callgraph *g;
    uint32_t *seen_by;
    size_t caller, n, cap;
};

/* One edge per (caller, callee): seen_by remembers the last caller that listed it. */
static spvcond_result
add_edge(struct edge_walk *e, size_t callee)
{
    if (e->seen_by[callee] == e->caller + 1)
        return SPVCOND_OK;
    spvcond_result r = spvcond_grow(e->m->ctx, (void **)&e->g->callees, &e->cap, e->n + 1, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    e->seen_by[callee] = (uint32_t)e->caller + 1;
    e->g->callees[e->n++] = (uint32_t)callee;
    return SPVCOND_OK;
}

static spvcond_result
note_function_use(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct edge_walk *e = user;
    (void)inst;
    (void)word;
    uint32_t callee = e->g->function_of_id[id] & ~SPVCOND_CALLGRAPH_POINTER; /* ids are in range once read */
    return callee ? add_edge(e, callee - 1) : SPVCOND_OK;
}

static spvcond_result
function_edges(struct edge_walk *e, const struct spvcond_function *fn)
{
    const struct spvcond_module *m = e->m;
    spvcond_result r = SPVCOND_OK;
    for (size_t i = fn->first_block; i < fn->end && r == SPVCOND_OK; i++) {
        if (spvcond_inst_opcode(m, i) != OP_FUNCTION_CALL) {
            r = spvcond_for_each_id(m, i, note_function_use, e);
            continue;
        }
        uint32_t callee_id = spvcond_inst_words(m, i)[3];
        size_t callee = spvcond_callgraph_function(e->g, m, callee_id);
        if (callee == SIZE_MAX)
            return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, i, callee_id,
                                     "OpFunctionCall calls %%%u, which is not an OpFunction (it is %s)", callee_id,
                                     spvcond_grammar_opcode_name(spvcond_def_opcode(m, callee_id)));
        r = add_edge(e, callee);
        /* Arguments may name functions too. */
        for (uint32_t k = 4; k < spvcond_inst_word_count(m, i) && r == SPVCOND_OK; k++)
            r = note_function_use(e, i, k, spvcond_inst_words(m, i)[k]);
    }
    return r;
}

spvcond_result
spvcond_callgraph_build(const struct spvcond_module *m, struct spvcond_callgraph *g)
{
    memset(g, 0, sizeof(*g));
    g->function_of_id = spvcond_alloc_array(m->ctx, m->bound, sizeof(uint32_t));
    g->callee_start = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    struct edge_walk e = {m, g, spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t)), 0, 0, 0};
    spvcond_result r = SPVCOND_OK;
    if (!g->function_of_id || !g->callee_start || !e.seen_by)
        r = spvcond_oom(m->ctx);
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++)
        g->function_of_id[m->functions[f].id] = (uint32_t)f + 1;
    /* A function-pointer constant stands for its function (the reader made sure it names one). */
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION] && r == SPVCOND_OK; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if ((w[0] & 0xffffu) == OP_CONSTANT_FUNCTION_POINTER_INTEL && (w[0] >> 16) >= 4 &&
            spvcond_callgraph_function(g, m, w[3]) != SIZE_MAX)
            g->function_of_id[w[2]] = SPVCOND_CALLGRAPH_POINTER | g->function_of_id[w[3]];
    }
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++) {
        g->callee_start[f] = (uint32_t)e.n;
        e.caller = f;
        r = function_edges(&e, &m->functions[f]);
    }
    spvcond_dealloc(m->ctx, e.seen_by);
    if (r != SPVCOND_OK) {
        spvcond_callgraph_release(m, g);
        return r;
    }
    g->callee_start[m->function_count] = (uint32_t)e.n;
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
