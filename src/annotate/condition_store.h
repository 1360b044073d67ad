/* SPDX-License-Identifier: MIT */
/* The condition store: leaves, requirement sets and conditions, each interned, so that equal ones share
 * one index or handle. Conditions are values: every function, item and capability of the producer holds
 * one handle, and each user or caller costs one union of bounded size, so annotating stays linear in the
 * module however many distinct requirement sets it has.
 *
 * The store's arrays belong to condition_store.c: the rest of annotate reads them through the accessors
 * below and writes only the ids of the nodes emitted for them (condition_emit.c). */
#ifndef SPVCOND_ANNOTATE_CONDITION_STORE_H
#define SPVCOND_ANNOTATE_CONDITION_STORE_H

#include "ir/module.h"
#include "analysis/infer.h"
#include "registry/aspects.h"
#include "support/index_table.h"

/* Leaves of conditions. The first four are requirements (LEAF_CAPABILITY: a shader module's optional
 * capability v[0], the module's declared capability v[1] of spvcond_declared_caps); the others come from guards (spec/guards.md):
 * an architecture test a marker asked for, a boolean constant of the module (the extension's device
 * constants), and the negation of another leaf (v[0]: its index). LEAF_ROOT (splitting): "keep root
 * v[0]" (a function index), one SpecId'd constant per root, in place of the root's requirements; the
 * kinds up to it get a SpecId. */
/* A LEAF_CAPABILITY's v[1] for a capability the module does not declare (a guard's alone). */
#define SPVCOND_NO_DECLARED_CAP 64u

enum leaf_kind {
    LEAF_ASPECT, LEAF_WORK_GROUP_SIZE, LEAF_SUB_GROUP_SIZE, LEAF_CAPABILITY, LEAF_ROOT, LEAF_ARCHITECTURE,
    LEAF_CONSTANT, LEAF_NOT
};

struct leaf {
    uint8_t kind;
    bool existing;  /* the module defines its constant (id, spec_id): nothing to emit but a name */
    bool needed;    /* splitting: a condition uses this requirement leaf (a virtual function's set) */
    uint32_t v[4];  /* aspect; sizes; capability, declared index; category, family, comparison opcode, architecture; constant id; leaf */
    uint32_t id, spec_id;
};

/* A requirement set: the leaves one root needs, And-ed; set 0 is the empty set (always true). */
struct reqset {
    uint32_t first, count; /* its leaves: set_leaves[first .. first + count), ascending */
    uint64_t signature;    /* bit (leaf % 64) of each leaf: a quick "cannot be a subset" */
    uint32_t id;           /* condition node; 0 for the empty set */
    uint32_t cond;         /* the condition of this set alone (spvcond_cond_of_set) + 1; 0 until asked:
                              a library's thousands of roots and items ask for a few sets' */
};

/* A condition, named by a handle (its index; 0 is "no user seen"): the Or of a list of requirement
 * sets, ascending and none implied by another, or, once that list would pass COND_LIST_MAX sets, the
 * Or of two other conditions. Guards add the And of two conditions (when distributing them would pass
 * the list's size) and the negation of one. */
enum cond_kind { COND_LIST, COND_OR, COND_AND, COND_NOT };

struct cond {
    uint32_t x, y; /* a list: its offset in cond_sets and its length; Or, And: the two handles; Not: x */
    uint32_t id;   /* its node once emitted, else 0 */
    uint8_t kind;
};

#define COND_LIST_MAX 16
/* Steps of subset tests spent dropping implied sets from Or lists; past it, lists are merged as they
 * are (still correct, only less compact), so adversarial shapes stay linear. */
#define COND_ABSORB_BUDGET (UINT64_C(1) << 27)

/* A union already made: x Or y is out (x == 0: an empty entry, as no union_new has an operand 0). Every
 * caller of a function, and every function naming an item, unions the same few conditions again:
 * 112,000 unions of 2,800 distinct pairs annotating the 100 MB synthetic module, each a merge of lists
 * and a hash probe. */
#define UNION_MEMO_BITS 12u
/* It starts at 2^UNION_MEMO_FIRST_BITS entries (a page: a small module's annotate clears no 48 KB it never
 * fills, twelve page faults of a tool's run) and grows by 4 each time it has made as many unions as it
 * has entries. */
#define UNION_MEMO_FIRST_BITS 8u
struct union_memo {
    uint32_t x, y, out;
};

struct condition_store {
    spvcond_context *ctx;
    const struct spvcond_module *m; /* constants' capabilities and SpecIds */
    const uint32_t *aspect_constant; /* with guard spec constants stated: per aspect, the module's
                                        constant that means it (an aspect leaf is that constant), or NULL */
    struct leaf *leaves;
    size_t leaf_count, leaf_cap;
    uint32_t capability_constant[64]; /* per declared capability (a LEAF_CAPABILITY's v[1]): the module's
                                         guard constant that means it (spvcond_has_<capability>), or 0 */
    uint32_t aspect_leaf[SPVCOND_ASPECT_MAX]; /* each aspect's leaf + 1, 0 until made: every root needing
                                                 the aspect asks for it, a library's thousands */
    struct spvcond_index_table leaf_table; /* leaf hash -> index + 1 */
    uint64_t *leaf_hashes;
    size_t leaf_hash_cap;
    struct reqset *sets;
    size_t set_count, set_cap;
    uint32_t *set_leaves; /* the sets' leaf lists */
    size_t set_leaves_len, set_leaves_cap;
    struct spvcond_index_table set_table; /* set hash -> index + 1 */
    uint64_t *set_hashes;
    size_t set_hash_cap;
    struct cond *conds; /* by handle; conds[0] is "no user seen" */
    size_t cond_count, cond_cap;
    uint32_t *cond_sets; /* the lists' set indices */
    size_t cond_sets_len, cond_sets_cap;
    struct spvcond_index_table cond_table; /* cond hash -> handle + 1 */
    uint64_t *cond_hashes;
    size_t cond_hash_cap;
    uint32_t always; /* the handle of the list {empty set} */
    uint64_t absorb_budget;
    struct union_memo *union_memo; /* 2^union_memo_bits recent unions (made at the first) */
    uint32_t union_memo_bits, union_memo_made; /* its size, and the unions made since it was */
};

/* An empty store for module m (its context allocates); spvcond_store_conditions_begin before the first
 * condition. */
void spvcond_store_init(struct condition_store *cs, const struct spvcond_module *m);
void spvcond_store_release(struct condition_store *cs);

/* Per aspect, the module's boolean constant a requirements file says means it (0: none): an aspect leaf
 * made after this is that constant, not a new one. The table stays the caller's. */
static inline void
spvcond_store_existing_aspects(struct condition_store *cs, const uint32_t *aspect_constant)
{
    cs->aspect_constant = aspect_constant;
}

/* ---- leaves and sets -------------------------------------------------------------------------- */

/* The index of the leaf (kind, v), made if new. */
spvcond_result spvcond_store_leaf(struct condition_store *cs, uint8_t kind, const uint32_t v[4], size_t *out);
/* The index of the set with exactly these leaves (ascending), made if new. */
spvcond_result spvcond_store_set(struct condition_store *cs, const uint32_t *leaves, uint32_t n, uint32_t *index);

static inline size_t
spvcond_store_leaf_count(const struct condition_store *cs)
{
    return cs->leaf_count;
}

static inline const struct leaf *
spvcond_store_leaf_at(const struct condition_store *cs, size_t k)
{
    return &cs->leaves[k];
}

static inline size_t
spvcond_store_set_count(const struct condition_store *cs)
{
    return cs->set_count;
}

static inline uint32_t
spvcond_store_set_size(const struct condition_store *cs, uint32_t set)
{
    return cs->sets[set].count;
}

/* Leaf j (ascending) of a set. */
static inline uint32_t
spvcond_store_set_leaf(const struct condition_store *cs, uint32_t set, uint32_t j)
{
    return cs->set_leaves[cs->sets[set].first + j];
}

static inline uint32_t
spvcond_store_set_node(const struct condition_store *cs, uint32_t set)
{
    return cs->sets[set].id;
}

/* The emitter's records: the node made for a leaf (with its SpecId), a set, a condition; and splitting's
 * mark that a condition uses a requirement leaf. */
static inline void
spvcond_store_name_leaf(struct condition_store *cs, size_t k, uint32_t id, uint32_t spec_id)
{
    cs->leaves[k].id = id;
    cs->leaves[k].spec_id = spec_id;
}

static inline void
spvcond_store_name_set(struct condition_store *cs, uint32_t set, uint32_t id)
{
    cs->sets[set].id = id;
}

static inline void
spvcond_store_name_cond(struct condition_store *cs, uint32_t cond, uint32_t id)
{
    cs->conds[cond].id = id;
}

static inline void
spvcond_store_need_leaf(struct condition_store *cs, size_t k)
{
    cs->leaves[k].needed = true;
}

/* ---- conditions ------------------------------------------------------------------------------- */

/* Makes "no user seen" (handle 0) and "always" (the list of the empty set 0, which must exist). */
spvcond_result spvcond_cond_init(struct condition_store *cs);

static inline bool
spvcond_cond_started(const struct condition_store *cs)
{
    return cs->cond_count != 0;
}

static inline uint32_t
spvcond_cond_always(const struct condition_store *cs)
{
    return cs->always;
}

static inline const struct cond *
spvcond_cond_at(const struct condition_store *cs, uint32_t cond)
{
    return &cs->conds[cond];
}

/* Set k of list `cond`. */
static inline uint32_t
spvcond_cond_list_set(const struct condition_store *cs, uint32_t cond, uint32_t k)
{
    return cs->cond_sets[cs->conds[cond].x + k];
}

spvcond_result spvcond_cond_of_set(struct condition_store *cs, uint32_t set, uint32_t *out);
spvcond_result spvcond_cond_union_new(struct condition_store *cs, uint32_t x, uint32_t y, uint32_t *out);

/* x Or y into *out. Inline for the answers that are x or y: most calls are a use under the condition
 * its item has already, or under "always". */
static inline spvcond_result
spvcond_cond_union(struct condition_store *cs, uint32_t x, uint32_t y, uint32_t *out)
{
    if (x == y || y == 0 || x == cs->always) {
        *out = x;
        return SPVCOND_OK;
    }
    if (x == 0 || y == cs->always) {
        *out = y;
        return SPVCOND_OK;
    }
    return spvcond_cond_union_new(cs, x, y, out);
}
/* x And y: the list of the sets' pairwise unions while that stays small, else an And node. */
spvcond_result spvcond_cond_and(struct condition_store *cs, uint32_t x, uint32_t y, uint32_t *out);
/* Not x. */
spvcond_result spvcond_cond_not(struct condition_store *cs, uint32_t x, uint32_t *out);
/* The aspects every assignment that makes `cond` true has (an aspect leaf in each set, through
 * And/Or nodes; nothing for a negation). */
void spvcond_cond_implied_aspects(const struct condition_store *cs, uint32_t cond, spvcond_aspects *out);

#endif
