/* SPDX-License-Identifier: MIT */
/* The leaves of one condition tree (OpSpecConstantTrue/False under OpSpecConstantOp nodes), found by
 * walking that tree alone. Callers that ask for many conditions (every kernel of a module) pay for each
 * tree, not for a pass over the module per condition. */
#ifndef SPVCOND_CONDITION_LEAVES_H
#define SPVCOND_CONDITION_LEAVES_H

#include "ir/module.h"

struct spvcond_leaf_walk {
    const struct spvcond_module *m;
    uint32_t *stamp;      /* per id: the walk that last reached it */
    uint32_t walk;
    uint32_t *stack;
    size_t stack_cap;
    uint32_t *leaves;     /* instruction indices of the last walk's leaves, in module order */
    size_t leaf_count, leaf_cap;
    uint64_t budget;      /* nodes all walks may still visit; past it, SPVCOND_ERROR_LIMIT */
};

spvcond_result spvcond_leaf_walk_init(const struct spvcond_module *m, struct spvcond_leaf_walk *w);
/* Fill w->leaves with the OpSpecConstantTrue/False instructions and the function-variants device constants
 * condition `root` reaches. */
spvcond_result spvcond_condition_leaves(struct spvcond_leaf_walk *w, uint32_t root);
void spvcond_leaf_walk_release(struct spvcond_leaf_walk *w);

#endif
