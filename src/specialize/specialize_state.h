/* SPDX-License-Identifier: MIT */
/* The consumer's shared state, which every part of specialize works on: specialize.c strips and
 * resolves, specialize_fold.c folds branches on frozen conditions, specialize_removal.c removes
 * instructions and says why a use of a removed id is refused. */
#ifndef SPVCOND_SPECIALIZE_STATE_H
#define SPVCOND_SPECIALIZE_STATE_H

#include "ir/edit.h"
#include "analysis/evaluate.h"

/* Declared capabilities are noted in a bit set over the values below this (every capability the
 * grammar defines); a larger value is never noted as declared. */
#define CAPABILITY_SET_BITS 65536u

/* spec.watch: what the use walk does at a use of an id. */
enum { WATCH_REMOVED = 1, WATCH_COUNTED = 2 };

struct removal {
    uint32_t id, reason; /* reason: instruction + 1 */
};

struct spec {
    struct spvcond_module *m;
    struct spvcond_values v;
    uint8_t *removed;      /* per id, but a local of a function removed whole: spvcond_spec_removed */
    uint8_t *watch;        /* per id, for the use walk: WATCH_REMOVED, WATCH_COUNTED (check_and_count_uses) */
    struct removal *reasons; /* ids removed on their own, with the instruction that decided it (a few:
                                a table of the bound was zeroed on every call for the error path) */
    size_t reason_count, reason_cap;
    uint8_t *cond_tree;    /* per id: reachable from a condition */
    uint8_t *frozen;       /* per id: replaced by a plain constant */
    uint32_t *uses;        /* per id whose count is read (WATCH_COUNTED): uses by surviving instructions */
    uint8_t *has_condition;/* per id: carries a ConditionalINTEL already */
    uint32_t *fn_reason;   /* per function: the decoration that removed it + 1, 0 if kept (its ids' reason) */
    size_t functions_removed; /* those with a fn_reason */
    uint32_t *entry_functions; /* the functions of surviving entry points, sorted */
    size_t entry_function_count;
    uint32_t *frozen_bools; /* pairs: a frozen boolean constant, its uses outside the code */
    size_t frozen_bool_count, frozen_bool_cap;
    uint8_t cap_declared[CAPABILITY_SET_BITS / 8];
    spvcond_specialize_stats stats;
    uint32_t flags;
    bool first_true_wins;  /* --unspecified any: a copy takes its first true operand, as the translator does */
};

/* Delete instruction i (once; counted). */
static inline spvcond_result
spvcond_spec_delete(struct spec *s, size_t i)
{
    if (spvcond_edit_is_deleted(s->m, i))
        return SPVCOND_OK;
    s->stats.instructions_removed++;
    return spvcond_edit_delete(s->m, i);
}

/* Whether `id` (below the bound) is removed: marked in s->removed, or defined in a function removed whole,
 * whose ids are not marked one by one (remove_function): its definition is deleted, and nothing but a
 * removal deletes code. A kept function's code cannot name another function's ids (the reader refuses it), so
 * the walk over it asks s->removed alone; between functions stands only debug information, which may
 * (strip_debug_info asks here). */
static inline bool
spvcond_spec_removed(const struct spec *s, uint32_t id)
{
    if (s->removed[id])
        return true;
    if (!s->functions_removed)
        return false;
    const struct spvcond_module *m = s->m;
    size_t d = spvcond_def(m, id);
    return d != SIZE_MAX && d >= m->section[SPVCOND_SECTION_FUNCTION] && spvcond_edit_is_deleted(m, d);
}

/* specialize_removal.c: remove instruction i and the id it defines (if any); `reason` (instruction + 1,
 * or 0) is what decided it. */
spvcond_result spvcond_spec_remove_defining(struct spec *s, size_t i, uint32_t reason);
/* The error for instruction inst's use of removed id, with the reason it was removed. */
spvcond_result spvcond_spec_use_of_removed(struct spec *s, size_t inst, uint32_t id);
/* specialize_fold.c: OpBranchConditional on a frozen condition becomes OpBranch, and the blocks no longer
 * reachable go, their OpPhi operands with them (spec/guards.md). Runs after uses were counted (only
 * when code uses a frozen boolean, which counting tells for free) and keeps the counts of condition
 * constants right, so that those only folded branches used are dropped after it. */
spvcond_result spvcond_spec_fold_branches(struct spec *s);

#endif
