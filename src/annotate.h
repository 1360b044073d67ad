/* SPDX-License-Identifier: MIT */
/* The producer's shared state, split over annotate*.c: annotate_roots.c finds roots and their
 * requirement sets, annotate_conditions.c builds the condition trees, annotate.c guards everything. */
#ifndef SPVCOND_ANNOTATE_H
#define SPVCOND_ANNOTATE_H

#include "capabilities.h"
#include "edit.h"
#include "index.h"
#include "index_table.h"
#include "infer.h"
#include "operands.h"

#define DEFAULT_SPEC_ID_BASE 0x10000u
#define RESERVED_SPEC_ID 0xFF747469u /* ITT annotations (dpcpp.md 4) */

/* Leaves of conditions. The first three are requirements; the others come from guards (spec/guards.md):
 * an architecture test a marker asked for, a boolean constant of the module (the extension's device
 * constants), and the negation of another leaf (v[0]: its index). */
enum leaf_kind {
    LEAF_ASPECT, LEAF_WORK_GROUP_SIZE, LEAF_SUB_GROUP_SIZE, LEAF_ROOT, LEAF_ARCHITECTURE, LEAF_CONSTANT, LEAF_NOT
};
/* LEAF_ROOT (split.c): "keep root v[0]" (a function index), one SpecId'd constant per root, in place of the
 * root's requirements; the kinds up to it get a SpecId. */

struct leaf {
    uint8_t kind;
    bool existing;  /* the module defines its constant (id, spec_id): nothing to emit but a name */
    bool needed;    /* splitting: a condition uses this requirement leaf (a virtual function's set) */
    uint32_t v[4];  /* aspect; sizes; category, family, comparison opcode, architecture; constant id; leaf */
    uint32_t id, spec_id;
};

/* A requirement set: the leaves one root needs, And-ed; set 0 is the empty set (always true). */
struct reqset {
    uint32_t first, count; /* its leaves: set_leaves[first .. first + count), ascending */
    uint64_t signature;    /* bit (leaf % 64) of each leaf: a quick "cannot be a subset" */
    uint32_t id;           /* condition node; 0 for the empty set */
};

/* A condition, named by a handle (its index; 0 is "no user seen"): the Or of a list of requirement
 * sets, ascending and none implied by another, or, once that list would pass COND_LIST_MAX sets, the
 * Or of two other conditions. Guards add the And of two conditions (when distributing them would pass
 * the list's size) and the negation of one. All kinds are interned, so equal conditions share one
 * handle and one node. */
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
#define UNION_MEMO_SIZE 4096u
struct union_memo {
    uint32_t x, y, out;
};

/* What of SPV_INTEL_function_variants the module declares (a guard's input may), read once. */
struct extension_declared {
    size_t first_capability; /* the first OpCapability of the extension's, SIZE_MAX if none */
    bool spec_conditional, function_variants, extension;
};

struct node_key {
    uint32_t opcode, x, y, id; /* id 0: an empty slot */
};

struct annotate {
    struct spvcond_module *m;
    const spvcond_annotate_options *o;
    struct spvcond_callgraph g;
    struct spvcond_inference inf;
    spvcond_annotate_stats stats;

    uint8_t *is_root;             /* per function */
    uint32_t *root_set;           /* per function: requirement set index + 1 */
    spvcond_aspects *declared;    /* per function, with has_declared */
    uint8_t *has_declared;
    uint32_t (*wg)[3];            /* per function: required work-group size */
    uint32_t *sg;                 /* per function: required sub-group size */

    struct leaf *leaves;
    size_t leaf_count, leaf_cap;
    struct spvcond_index_table leaf_table; /* leaf hash -> index + 1 */
    uint64_t *leaf_hashes;
    size_t leaf_hash_cap;
    struct reqset *sets;
    size_t set_count, set_cap;
    uint32_t *set_leaves;         /* the sets' leaf lists */
    size_t set_leaves_len, set_leaves_cap;
    struct spvcond_index_table set_table; /* set hash -> index + 1 */
    uint64_t *set_hashes;
    size_t set_hash_cap;

    struct cond *conds;           /* by handle; conds[0] is "no user seen" */
    size_t cond_count, cond_cap;
    uint32_t *cond_sets;          /* the lists' set indices */
    size_t cond_sets_len, cond_sets_cap;
    struct spvcond_index_table cond_table; /* cond hash -> handle + 1 */
    uint64_t *cond_hashes;
    size_t cond_hash_cap;
    uint32_t always;              /* the handle of the list {empty set} */
    uint64_t absorb_budget;
    struct union_memo *union_memo; /* UNION_MEMO_SIZE recent unions (made at the first) */
    uint32_t *emit_stack;         /* handles waiting for their children's nodes */
    size_t emit_stack_cap;

    uint32_t *reach;              /* per function: the condition of the sets that reach it */
    uint32_t *global_cond;        /* per module-level item (EXTINST_IMPORT..GLOBAL) */
    uint32_t *var_set;            /* per module-level item: requirement set + 1 of exported variables */
    size_t global_begin, global_end;
    struct spvcond_declared_caps caps; /* the distinct capabilities declared */
    uint32_t *cap_cond;           /* per distinct capability: the condition of its users (0: none seen) */
    uint64_t caps_always;         /* those whose condition is "always" (spvcond_declared_cap_done bits) */
    uint32_t bool_type;
    bool added_bool;              /* annotate made bool_type (the record says so: annotate.c) */
    uint32_t next_spec_id;
    struct extension_declared ext_declared;
    struct guards *guards;        /* annotate_guards.c's state; NULL when the module has no guard */
    struct node_key *nodes;       /* with guards: the operation nodes made (open addressing), so that
                                     conditions of different shapes that meet in one node share it */
    size_t node_count, node_cap;
    uint32_t *aspect_constant;    /* with guard spec constants stated: per aspect, the module's constant
                                     that means it (its leaf is that constant), else 0; or NULL */
    uint32_t *edge_guard;         /* with guards, per call-graph edge: the Or of its sites' guards, 0 if
                                     some site is unguarded */
    struct virtuals *virt;        /* annotate_virtual.c's state; NULL when no function pointer or set is
                                     stated */
    const uint32_t *code_cond;    /* per function: the condition its code (items, capabilities) is under:
                                     reach, but for a virtual function's moved body its set's too */
    uint32_t *split_set;          /* split.c: per function, the requirement set + 1 of a root whose own
                                     condition is its LEAF_ROOT; NULL when not splitting */
    uint32_t *defer;              /* words of new constants, emitted in order */
    char label[2][32];
    size_t defer_len, defer_cap;
};

/* annotate_roots.c: stated requirements, roots, leaves and requirement sets. */
spvcond_result spvcond_annotate_roots(struct annotate *a);
/* The index of the leaf (kind, v), made if new. */
spvcond_result spvcond_annotate_leaf(struct annotate *a, uint8_t kind, const uint32_t v[4], size_t *out);
/* The index of the set with exactly these leaves (ascending), made if new. */
spvcond_result spvcond_annotate_set(struct annotate *a, const uint32_t *leaves, uint32_t n, uint32_t *index);
/* A function's name for messages: its OpName, else its id (two buffers: `slot` 0 or 1). */
const char *spvcond_annotate_function_label(struct annotate *a, size_t f, int slot);
/* annotate_union.c: conditions as values. */
spvcond_result spvcond_cond_init(struct annotate *a);
spvcond_result spvcond_cond_of_set(struct annotate *a, uint32_t set, uint32_t *out);
spvcond_result spvcond_cond_union_new(struct annotate *a, uint32_t x, uint32_t y, uint32_t *out);

/* x Or y into *out. Inline for the answers that are x or y: most calls are a use under the condition
 * its item has already, or under "always". */
static inline spvcond_result
spvcond_cond_union(struct annotate *a, uint32_t x, uint32_t y, uint32_t *out)
{
    if (x == y || y == 0 || x == a->always) {
        *out = x;
        return SPVCOND_OK;
    }
    if (x == 0 || y == a->always) {
        *out = y;
        return SPVCOND_OK;
    }
    return spvcond_cond_union_new(a, x, y, out);
}
/* x And y: the list of the sets' pairwise unions while that stays small, else an And node. */
spvcond_result spvcond_cond_and(struct annotate *a, uint32_t x, uint32_t y, uint32_t *out);
/* Not x. */
spvcond_result spvcond_cond_not(struct annotate *a, uint32_t x, uint32_t *out);
/* The aspects every assignment that makes `cond` true has (an aspect leaf in each set, through
 * And/Or nodes; nothing for a negation). */
void spvcond_cond_implied_aspects(struct annotate *a, uint32_t cond, spvcond_aspects *out);
void spvcond_cond_release(struct annotate *a);
/* annotate_guards.c (spec/guards.md): markers, guard values, block guards, guarded calls. */
spvcond_result spvcond_guards_begin(struct annotate *a);
spvcond_result spvcond_guards_analyze(struct annotate *a);
/* What a guarded call's guard implies, per call-graph edge: hidden from the caller's used aspects. */
void spvcond_guards_hide(struct annotate *a, spvcond_aspects *hidden);
/* Module-level constants that are leaves stay unconditional. */
void spvcond_guards_pin(struct annotate *a);
/* Whether function f is a marker declaration (which goes). */
bool spvcond_guards_is_marker(const struct annotate *a, size_t f);
/* Whether there are markers to replace or guarded calls to decorate. */
bool spvcond_guards_rewrite_needed(const struct annotate *a);
spvcond_result spvcond_guards_rewrite(struct annotate *a);
void spvcond_guards_release(struct annotate *a);
/* split.c: what annotate made for splitting, taken before its state goes. */
struct spvcond_split_plan;
spvcond_result spvcond_split_take_plan(struct annotate *a, struct spvcond_split_plan *plan);
/* annotate.c: annotate in split mode (every root's condition is its own LEAF_ROOT), handing the plan over. */
spvcond_result spvcond_annotate_for_split(spvcond_module *m, const spvcond_annotate_options *o,
                                          struct spvcond_split_plan *plan);
/* annotate_virtual.c (spec/virtual-functions.md): sets, their requirements, stubs. In order: after the
 * stated requirements; hiding what naming a function requires from propagation; after the roots (kernels
 * get their sets' requirements, members none); before reach (bodies behind their sets' conditions); after
 * reach (code conditions); and the rewrite. */
spvcond_result spvcond_virtual_begin(struct annotate *a);
void spvcond_virtual_hide(const struct annotate *a, spvcond_aspects *hidden);
spvcond_result spvcond_virtual_requirements(struct annotate *a);
/* Whether function f is a virtual function, and what its stub requires (its signature's types). */
bool spvcond_virtual_member(const struct annotate *a, size_t f, spvcond_aspects *signature);
spvcond_result spvcond_virtual_guard_bodies(struct annotate *a);
spvcond_result spvcond_virtual_code_conditions(struct annotate *a);
spvcond_result spvcond_virtual_rewrite(struct annotate *a);
void spvcond_virtual_release(struct annotate *a);
/* annotate_conditions.c */
spvcond_result spvcond_annotate_reach(struct annotate *a);
spvcond_result spvcond_annotate_push(struct annotate *a, const uint32_t *w, uint32_t n);
spvcond_result spvcond_annotate_emit_leaves(struct annotate *a);
/* annotate.c: the OpModuleProcessed record of what annotate added, for specialize's round trip. */
spvcond_result spvcond_annotate_record(struct annotate *a);
/* The node of condition `cond`: 0 when always true. */
spvcond_result spvcond_annotate_condition(struct annotate *a, uint32_t cond, uint32_t *out);
spvcond_result spvcond_annotate_decorate(struct annotate *a, uint32_t target, uint32_t cond);

#endif
