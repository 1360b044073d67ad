/* SPDX-License-Identifier: MIT */
#include "analysis/condition_leaves.h"

#include <stdlib.h>

#include "support/index_table.h"


/* Distinct conditions sharing one large subtree could make the walks quadratic in the module size;
 * this many node visits (seconds of work) is far beyond any real module's trees. */
#define LEAF_WALK_BUDGET (UINT64_C(1) << 28)

spvcond_result
spvcond_leaf_walk_init(const struct spvcond_module *m, struct spvcond_leaf_walk *w)
{
    *w = (struct spvcond_leaf_walk){m, NULL, 0, NULL, 0, NULL, 0, 0, LEAF_WALK_BUDGET};
    if (!(w->stamp = spvcond_alloc_array(m->ctx, m->bound + 1, sizeof(uint32_t))))
        return spvcond_oom(m->ctx);
    return SPVCOND_OK;
}

static spvcond_result
push(struct spvcond_leaf_walk *w, size_t *depth, uint32_t id)
{
    if (id >= w->m->bound || w->stamp[id] == w->walk)
        return SPVCOND_OK;
    w->stamp[id] = w->walk;
    spvcond_result r = spvcond_grow(w->m->ctx, (void **)&w->stack, &w->stack_cap, *depth + 1, sizeof(uint32_t));
    if (r == SPVCOND_OK)
        w->stack[(*depth)++] = id;
    return r;
}

spvcond_result
spvcond_condition_leaves(struct spvcond_leaf_walk *w, uint32_t root)
{
    const struct spvcond_module *m = w->m;
    w->leaf_count = 0;
    if (++w->walk == 0) { /* stamps wrapped: start them over */
        for (size_t i = 0; i <= m->bound; i++)
            w->stamp[i] = 0;
        w->walk = 1;
    }
    size_t depth = 0;
    spvcond_result r = push(w, &depth, root);
    while (r == SPVCOND_OK && depth > 0) {
        if (w->budget-- == 0)
            return spvcond_report(m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                  "condition trees too large to list their requirements (more than %llu nodes "
                                  "visited)", (unsigned long long)LEAF_WALK_BUDGET);
        uint32_t id = w->stack[--depth];
        size_t d = spvcond_def(m, id);
        if (d == SIZE_MAX || d < m->section[SPVCOND_SECTION_GLOBAL] || d >= m->section[SPVCOND_SECTION_FUNCTION])
            continue;
        const uint32_t *words = spvcond_inst_words(m, d);
        uint32_t op = spvcond_opcode_of(words[0]);
        if (op == SPVCOND_OP_SPEC_CONSTANT_TRUE || op == SPVCOND_OP_SPEC_CONSTANT_FALSE ||
            (op >= SPVCOND_OP_SPEC_CONSTANT_TARGET_INTEL && op <= SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL)) {
            r = spvcond_grow(m->ctx, (void **)&w->leaves, &w->leaf_cap, w->leaf_count + 1, sizeof(uint32_t));
            if (r == SPVCOND_OK)
                w->leaves[w->leaf_count++] = (uint32_t)d;
        } else if (op == SPVCOND_OP_SPEC_CONSTANT_OP) {
            for (uint32_t k = 4; k < spvcond_word_count_of(words[0]) && r == SPVCOND_OK; k++)
                r = push(w, &depth, words[k]);
        }
    }
    if (r == SPVCOND_OK && w->leaf_count > 1)
        qsort(w->leaves, w->leaf_count, sizeof(uint32_t), spvcond_compare_u32);
    return r;
}

void
spvcond_leaf_walk_release(struct spvcond_leaf_walk *w)
{
    if (!w->m)
        return;
    spvcond_dealloc(w->m->ctx, w->stamp);
    spvcond_dealloc(w->m->ctx, w->stack);
    spvcond_dealloc(w->m->ctx, w->leaves);
    w->stamp = w->stack = w->leaves = NULL;
}
