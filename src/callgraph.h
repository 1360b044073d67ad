/* The static call graph: functions by id, callees per function. */
#ifndef SPVCOND_CALLGRAPH_H
#define SPVCOND_CALLGRAPH_H

#include "module.h"

struct spvcond_callgraph {
    uint32_t *function_of_id; /* per id: function index + 1 for OpFunction ids; the same with
                                 SPVCOND_CALLGRAPH_POINTER for a function-pointer constant; else 0 */
    uint32_t *callee_start;   /* function_count + 1 entries into callees */
    uint32_t *callees;        /* function indices, duplicates removed per caller */
};

spvcond_result spvcond_callgraph_build(const struct spvcond_module *m, struct spvcond_callgraph *g);
void spvcond_callgraph_release(const struct spvcond_module *m, struct spvcond_callgraph *g);

#define SPVCOND_CALLGRAPH_POINTER 0x80000000u

/* Function index of an OpFunction id, or SIZE_MAX. */
static inline size_t
spvcond_callgraph_function(const struct spvcond_callgraph *g, const struct spvcond_module *m, uint32_t id)
{
    if (id >= m->bound || !g->function_of_id[id] || (g->function_of_id[id] & SPVCOND_CALLGRAPH_POINTER))
        return SIZE_MAX;
    return g->function_of_id[id] - 1;
}

#endif
