/* SPDX-License-Identifier: MIT */
/* The static call graph: functions by id, callees per function. */
#ifndef SPVCOND_CALLGRAPH_H
#define SPVCOND_CALLGRAPH_H

#include "ir/module.h"

struct spvcond_callgraph {
    uint32_t *function_of_id; /* per id: function index + 1 for OpFunction ids; the same with
                                 SPVCOND_CALLGRAPH_POINTER for a function-pointer constant; else 0 */
    uint32_t *callee_start;   /* function_count + 1 entries into callees */
    uint32_t *callees;        /* function indices, duplicates removed per caller */
    bool has_pointers;        /* some function-pointer constant names a function */
};

#define SPVCOND_CALLGRAPH_POINTER 0x80000000u

/* The graph is built by a walk over the functions' bodies that does more (infer.c reads every id of
 * every function for its own reasons: one pass over the code instead of two). The walk calls
 * spvcond_callgraph_caller for each function in order, then spvcond_callgraph_call for each
 * OpFunctionCall of its blocks and spvcond_callgraph_use for every other id they use (a call's
 * arguments included): besides calls, any use of a function inside a body makes it a callee. A
 * function-pointer constant may be called, OpEnqueueKernel and the kernel queries name the function they
 * run, and anything else that names one (invalid, but possible in hostile input: found by fuzzing, an
 * OpLoad of a function) must keep it alive just the same. */
struct spvcond_callgraph_builder {
    const struct spvcond_module *m;
    struct spvcond_callgraph *g;
    uint32_t *seen_by; /* per function: the last caller + 1 that listed it, so each edge is listed once */
    size_t caller, n, cap;
};

/* Fills g->function_of_id (functions and function-pointer constants). */
spvcond_result spvcond_callgraph_begin(const struct spvcond_module *m, struct spvcond_callgraph *g,
                                       struct spvcond_callgraph_builder *b);
spvcond_result spvcond_callgraph_add_edge(struct spvcond_callgraph_builder *b, size_t callee);
/* OpFunctionCall `i` calls its word 3, which must be a function. */
spvcond_result spvcond_callgraph_call(struct spvcond_callgraph_builder *b, size_t i);
/* Frees the builder; on failure (r) releases the graph too. Returns r. */
spvcond_result spvcond_callgraph_finish(struct spvcond_callgraph_builder *b, spvcond_result r);
void spvcond_callgraph_release(const struct spvcond_module *m, struct spvcond_callgraph *g);

/* The edges of function f follow. */
static inline void
spvcond_callgraph_caller(struct spvcond_callgraph_builder *b, size_t f)
{
    b->g->callee_start[f] = (uint32_t)b->n;
    b->caller = f;
}

/* `id` (in range: the reader checked) is used in the current function's blocks. */
static inline spvcond_result
spvcond_callgraph_use(struct spvcond_callgraph_builder *b, uint32_t id)
{
    uint32_t callee = b->g->function_of_id[id] & ~SPVCOND_CALLGRAPH_POINTER;
    return callee ? spvcond_callgraph_add_edge(b, callee - 1) : SPVCOND_OK;
}

/* Function index of an OpFunction id, or SIZE_MAX. */
static inline size_t
spvcond_callgraph_function(const struct spvcond_callgraph *g, const struct spvcond_module *m, uint32_t id)
{
    if (id >= m->bound || !g->function_of_id[id] || (g->function_of_id[id] & SPVCOND_CALLGRAPH_POINTER))
        return SIZE_MAX;
    return g->function_of_id[id] - 1;
}

#endif
