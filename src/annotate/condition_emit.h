/* SPDX-License-Identifier: MIT */
/* The condition emitter: the store's leaves, sets and conditions as the module's spec constants (one
 * OpSpecConstantTrue with a name and a SpecId per requirement, And per set, Or per distinct group of
 * sets, the extension's device constants and negations for guards), and ConditionalINTEL decorations.
 * Constants are collected in order and appended once, at the end of the constants (spvcond_emit_flush). */
#ifndef SPVCOND_ANNOTATE_CONDITION_EMIT_H
#define SPVCOND_ANNOTATE_CONDITION_EMIT_H

#include "annotate/condition_store.h"

/* SpecId of ITT annotations (dpcpp.md 4): never given to a requirement. */
#define SPVCOND_RESERVED_SPEC_ID 0xFF747469u

struct node_key {
    uint32_t opcode, x, y, id; /* id 0: an empty slot */
};

struct condition_emitter {
    struct spvcond_module *m;
    struct condition_store *store;
    spvcond_annotate_stats *stats; /* spec_constants, requirements, decorations */
    uint32_t bool_type;            /* the type of every constant made */
    uint32_t next_spec_id;         /* the next SpecId to try for a requirement */
    bool share_nodes;              /* guards: conditions of different shapes that meet in one node share
                                      it, and a set's node is made when a condition first needs it */
    bool splitting;                /* requirement leaves no condition uses get no constant */
    uint32_t *defer;               /* words of new constants, emitted in order */
    size_t defer_len, defer_cap;
    struct node_key *nodes;        /* share_nodes: the operation nodes made (open addressing) */
    size_t node_count, node_cap;
    uint32_t *stack;               /* handles waiting for their children's nodes */
    size_t stack_cap;
    uint32_t *decorations;         /* ConditionalINTEL decorations not yet appended, in order */
    size_t decorations_len, decorations_cap;
};

void spvcond_emit_init(struct condition_emitter *e, struct spvcond_module *m, struct condition_store *store,
                       spvcond_annotate_stats *stats, uint32_t first_spec_id);
void spvcond_emit_release(struct condition_emitter *e);
/* Words of a new constant or type, emitted in order with the constants. */
spvcond_result spvcond_emit_push(struct condition_emitter *e, const uint32_t *w, uint32_t n);
/* The leaves' constants and names (in the debug-name section), then, once the caller has placed what
 * stands between names and decorations, their SpecIds and (without share_nodes) every set's node. */
spvcond_result spvcond_emit_leaf_constants(struct condition_emitter *e);
spvcond_result spvcond_emit_leaf_decorations(struct condition_emitter *e);
/* The node of condition `cond`, made with its children if new: 0 when always true. */
spvcond_result spvcond_emit_condition(struct condition_emitter *e, uint32_t cond, uint32_t *out);
/* ConditionalINTEL `cond` (a node) on `target`: collected, and appended to the decorations with those
 * collected since the last spvcond_emit_decorations_flush (one insertion, not one a decoration). */
spvcond_result spvcond_emit_decorate(struct condition_emitter *e, uint32_t target, uint32_t cond);
spvcond_result spvcond_emit_decorations_flush(struct condition_emitter *e);
/* What is collected: the decorations, then the constants, at the end of the module's constants. */
spvcond_result spvcond_emit_flush(struct condition_emitter *e);

#endif
