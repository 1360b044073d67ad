/* SPDX-License-Identifier: MIT */
/* The control-flow graph of one function: its blocks, their edges, and (on request) the dominator tree.
 * Annotate reads branch guards from it (spec/guards.md); specialize finds the blocks a folded branch
 * leaves unreachable. */
#ifndef SPVCOND_CFG_H
#define SPVCOND_CFG_H

#include "ir/module.h"

#define SPVCOND_CFG_NONE UINT32_MAX

struct spvcond_cfg {
    const struct spvcond_module *m;
    size_t block_count;
    uint32_t *label;      /* per block: instruction index of its OpLabel */
    uint32_t *terminator; /* per block: instruction index of its last instruction */
    uint32_t *succ_start; /* block_count + 1 entries into succ; an edge per target word (duplicates kept) */
    uint32_t *succ;
    uint32_t *pred_start; /* the same, reversed */
    uint32_t *pred;
    uint32_t *rpo;        /* blocks reachable from the entry, in reverse postorder */
    size_t reachable;
    uint32_t *rpo_index;  /* per block: position in rpo, SPVCOND_CFG_NONE when unreachable */
    uint32_t *idom;       /* per block, after spvcond_cfg_dominators: immediate dominator (the entry: itself) */
    uint32_t *pre, *post; /* dominator-tree interval numbers, for spvcond_cfg_dominates */
    uint32_t *block_of_id; /* per id of the module (label ids are looked up), block + 1; borrowed scratch */
};

/* Builds the graph of function f. `block_of_id` is caller-owned scratch of m->bound entries, all zero;
 * it is left zero again by spvcond_cfg_release. Fails with SPVCOND_ERROR_INVALID_ID when a branch names
 * something that is not a block of f. */
spvcond_result spvcond_cfg_build(const struct spvcond_module *m, const struct spvcond_function *f,
                                 uint32_t *block_of_id, struct spvcond_cfg *g);
/* The immediate dominators of the reachable blocks (Cooper, Harvey and Kennedy's iteration) and the
 * tree's interval numbers. */
spvcond_result spvcond_cfg_dominators(struct spvcond_cfg *g);
void spvcond_cfg_release(struct spvcond_cfg *g);

/* Whether block a dominates block b (both reachable). */
static inline bool
spvcond_cfg_dominates(const struct spvcond_cfg *g, uint32_t a, uint32_t b)
{
    return g->pre[a] <= g->pre[b] && g->post[b] <= g->post[a];
}

/* Block index of label id `id`, or SPVCOND_CFG_NONE. */
static inline uint32_t
spvcond_cfg_block(const struct spvcond_cfg *g, uint32_t id)
{
    return id < g->m->bound && g->block_of_id[id] ? g->block_of_id[id] - 1 : SPVCOND_CFG_NONE;
}

#endif
