/* The producer's shared state, split over annotate*.c: annotate_roots.c finds roots and their
 * requirement sets, annotate_conditions.c builds the condition trees, annotate.c guards everything. */
#ifndef SPVCOND_ANNOTATE_H
#define SPVCOND_ANNOTATE_H

#include "bitset.h"
#include "capabilities.h"
#include "edit.h"
#include "index.h"
#include "index_table.h"
#include "infer.h"
#include "operands.h"

#define DEFAULT_SPEC_ID_BASE 0x10000u
#define RESERVED_SPEC_ID 0xFF747469u /* ITT annotations (dpcpp.md 4) */

enum leaf_kind { LEAF_ASPECT, LEAF_WORK_GROUP_SIZE, LEAF_SUB_GROUP_SIZE };

struct leaf {
    uint8_t kind;
    uint32_t v[3];
    uint32_t id, spec_id;
};

/* A requirement set: the leaves one root needs, And-ed. */
struct reqset {
    uint64_t *leaves; /* bitset over leaves */
    uint32_t id;      /* condition node; 0 for the empty set (always true) */
    uint32_t first;   /* its lowest leaf, a cheap first test of "subset of"; UINT32_MAX when empty */
};

struct or_node {
    uint64_t *sets; /* bitset over requirement sets, absorbed */
    uint32_t id;
};

struct annotate {
    struct spvcond_module *m;
    const spvcond_annotate_options *o;
    struct spvcond_callgraph g;
    struct spvcond_inference inf;
    spvcond_annotate_stats stats;

    size_t function_cursor;       /* inst_cond: the function of the last instruction asked about */
    uint8_t *is_root;             /* per function */
    uint32_t *root_set;           /* per function: requirement set index + 1 */
    spvcond_aspects *declared;    /* per function, with has_declared */
    uint8_t *has_declared;
    uint32_t (*wg)[3];            /* per function: required work-group size */
    uint32_t *sg;                 /* per function: required sub-group size */

    struct leaf *leaves;
    size_t leaf_count, leaf_cap, leaf_words;
    struct reqset *sets;
    size_t set_count, set_cap, set_words;
    struct spvcond_index_table set_table; /* set hash -> index + 1 */
    uint64_t *set_hashes;
    size_t set_hash_cap;
    struct spvcond_index_table or_table;  /* Or key hash -> index + 1 */
    uint64_t *or_hashes;
    size_t or_hash_cap;
    uint32_t empty_set;           /* index of the empty requirement set */
    struct or_node *ors;
    size_t or_count, or_cap;

    uint64_t *reach;              /* per function: set_words words */
    uint64_t *global_cond;        /* per module-level item (EXTINST_IMPORT..GLOBAL): set_words words */
    uint32_t *var_set;            /* per module-level item: requirement set + 1 of exported variables */
    size_t global_begin, global_end;
    struct spvcond_declared_caps caps; /* the distinct capabilities declared */
    uint32_t *cap_slot;           /* per distinct capability: 1 + its row of cap_cond once a user is seen */
    uint64_t *cap_cond;           /* per capability with a user: set_words words */
    size_t cap_rows, cap_cond_cap;
    uint64_t *scratch;
    uint32_t bool_type;
    uint32_t next_spec_id;
    uint32_t *defer;              /* words of new constants, emitted in order */
    char label[2][32];
    size_t defer_len, defer_cap;
};

/* Items that may be guarded: OpExtInstImport and the types/constants/variables section. The sections
 * between them (memory model .. annotations) only use items. */
static inline bool
spvcond_annotate_is_global_item(const struct annotate *a, size_t i)
{
    const struct spvcond_module *m = a->m;
    return (i >= m->section[SPVCOND_SECTION_EXTINST_IMPORT] && i < m->section[SPVCOND_SECTION_EXTINST_IMPORT + 1]) ||
           (i >= m->section[SPVCOND_SECTION_GLOBAL] && i < m->section[SPVCOND_SECTION_FUNCTION]);
}

/* Which requirement sets reach function f (set_words words). */
static inline uint64_t *
spvcond_annotate_reach_of(struct annotate *a, size_t f)
{
    return a->reach + f * a->set_words;
}

/* annotate_roots.c: stated requirements, roots, leaves and requirement sets. */
spvcond_result spvcond_annotate_roots(struct annotate *a);
/* annotate_conditions.c */
spvcond_result spvcond_annotate_reach(struct annotate *a);
spvcond_result spvcond_annotate_push(struct annotate *a, const uint32_t *w, uint32_t n);
spvcond_result spvcond_annotate_emit_leaves(struct annotate *a);
spvcond_result spvcond_annotate_condition(struct annotate *a, const uint64_t *reach, uint32_t *out);
spvcond_result spvcond_annotate_decorate(struct annotate *a, uint32_t target, uint32_t cond);

#endif
