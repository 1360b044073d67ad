/* SPDX-License-Identifier: MIT */
/* The checker's shared state, which every part of validate works on: validate.c walks the module,
 * validate_proof.c proves that every use is guarded at least as strongly as its definition,
 * validate_devices.c goes over every device, validate_report.c reports. */
#ifndef SPVCOND_VALIDATE_CHECK_H
#define SPVCOND_VALIDATE_CHECK_H

#include "ir/index.h"
#include "support/index_table.h"

#define MAX_ENUMERATED_LEAVES 16
/* Node visits that proofs may spend in all (about a second); past it validation stops with
 * SPVCOND_ERROR_LIMIT rather than grow quadratic on adversarial condition trees. */
#define PROOF_BUDGET (UINT64_C(1) << 28)
#define PROOF_CACHE 4096

struct guard {        /* a conjunction of up to two condition ids (own decoration, enclosing function) */
    uint32_t a, b;
};

/* A distinct (user guard, definition guard) pair no quick proof settled, and a use that shows it. */
struct pair {
    struct guard user, def;
    size_t inst;
    uint32_t id;
    uint8_t state;    /* validate_proof.c's progress */
    bool failed;      /* after spvcond_validate_prove: some assignment keeps the use and removes the id */
};

struct proof {        /* a remembered quick proof */
    struct guard user, def;
    uint8_t valid, holds;
};

/* A use no proof settled: instruction `inst` uses `id` under `user`, which does not imply `def`. */
typedef spvcond_result (*spvcond_dangling_fn)(void *user, size_t inst, uint32_t id, struct guard user_guard,
                                              struct guard def_guard);

struct check {
    struct spvcond_module *m;
    spvcond_dangling_fn dangling; /* set: failed uses go to it, every one, instead of being reported */
    void *dangling_user;
    const struct spvcond_function *last_function; /* function_holding's memory */
    spvcond_result first;
    size_t violations;
    uint32_t *decorated;   /* per id: its ConditionalINTEL condition, 0 if none */
    uint8_t *cond_ok;      /* per id: 1 checked good, 2 checked bad */
    uint32_t *node;        /* per id: index + 1 among condition-tree nodes */
    uint32_t *nodes;       /* condition-tree nodes in definition order */
    size_t node_count;
    uint32_t *leaves;      /* node indices that are enumerated leaves */
    size_t leaf_count;
    bool enumerable;       /* every tree is boolean over boolean leaves */
    struct pair *pairs;
    size_t pair_count, pair_cap;
    uint64_t *pair_hashes;
    size_t pair_hash_cap;
    struct spvcond_index_table pair_table;
    uint32_t *mark, *eval, *stack; /* scratch for structural proofs, per id; stack holds 2 per id */
    uint32_t *closure;     /* per id: the stamp of the condition whose Or-closure last held it */
    uint32_t *visit;       /* per id: the stamp of the Or split that last visited it */
    uint32_t *cases;       /* the cases of an Or in a user's guard */
    size_t case_cap;
    uint32_t stamp;
    uint64_t budget;       /* node visits left for proofs */
    struct proof *proofs;  /* direct-mapped cache of quick proofs */
    bool quiet;            /* count violations, report nothing (spvcond_variant_coverage) */
    spvcond_coverage_fn coverage; /* set: each group's coverage goes to it */
    void *coverage_user;
};

/* The value of a logical OpSpecConstantOp node (words w) from its operands' values (per node index, as
 * c->node numbers them): LogicalOr/And/Not/Equal/NotEqual and Select, on booleans. */
static inline uint8_t
spvcond_validate_logical(const struct check *c, const uint32_t *w, const uint8_t *value)
{
    uint8_t x = value[c->node[w[4]] - 1];
    uint8_t y = spvcond_word_count_of(w[0]) > 5 ? value[c->node[w[5]] - 1] : 0;
    uint8_t z = spvcond_word_count_of(w[0]) > 6 ? value[c->node[w[6]] - 1] : 0;
    switch (w[3]) {
    case SPVCOND_OP_LOGICAL_OR: return x | y;
    case SPVCOND_OP_LOGICAL_AND: return x & y;
    case SPVCOND_OP_LOGICAL_NOT: return !x;
    case SPVCOND_OP_LOGICAL_EQUAL: return x == y;
    case SPVCOND_OP_LOGICAL_NOT_EQUAL: return x != y;
    default: return x ? y : z; /* Select */
    }
}

/* validate_report.c: report a violation at instruction `inst` (id: the one it concerns, or 0); the first
 * one's code is the result of validation. */
void spvcond_validate_violation(struct check *c, size_t inst, uint32_t id, spvcond_result code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The function holding instruction inst: most questions are about the function last asked about
 * (an instruction and the local ids it uses), so that one is tried before a binary search. */
static inline const struct spvcond_function *
spvcond_validate_function_holding(struct check *c, size_t inst)
{
    const struct spvcond_module *m = c->m;
    if (inst < m->section[SPVCOND_SECTION_FUNCTION])
        return NULL;
    const struct spvcond_function *f = c->last_function;
    if (f && f->begin <= inst && inst <= f->end)
        return f;
    f = spvcond_function_of_inst(m, inst);
    if (f)
        c->last_function = f;
    return f;
}

/* What instruction `inst`, which defines `id` (or 0), survives under: its own ConditionalINTEL and its
 * function's. Inline: every use of every instruction asks. */
static inline __attribute__((always_inline)) struct guard
spvcond_validate_guard_of(struct check *c, size_t inst, uint32_t id)
{
    struct guard g = {id ? c->decorated[id] : 0, 0};
    /* An OpFunction, which its function is: no look-up of the function holding it (a binary search per
     * call, which also lost the memory of the function being read). */
    if (spvcond_is_function_id(c->m, id))
        return g;
    const struct spvcond_function *f = spvcond_validate_function_holding(c, inst);
    if (f && f->id != id)
        g.b = c->decorated[f->id];
    if (!g.a) {
        g.a = g.b;
        g.b = 0;
    }
    return g;
}
/* validate_devices.c: over every device the module's constants tell apart, at most one entry point per
 * name and execution model survives and every surviving OpConditionalCopyObjectINTEL has exactly one true
 * condition; a copy with none on some device is a warning naming the device (spec/validate.md). */
spvcond_result spvcond_validate_devices(struct check *c);

/* Prove the pair now if a few steps do, else keep it for spvcond_validate_prove (once per pair). */
spvcond_result spvcond_validate_note_pair(struct check *c, struct guard user, struct guard def, size_t inst,
                                          uint32_t id);
/* Settle every kept pair: structurally, grouped by definition guard, then by enumerating the leaves. */
spvcond_result spvcond_validate_prove(struct check *c);
void spvcond_validate_release_proofs(struct check *c);
/* Whether the pair (user, def) was kept and refuted by spvcond_validate_prove. */
bool spvcond_validate_pair_failed(const struct check *c, struct guard user, struct guard def);

#endif
