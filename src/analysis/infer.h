/* SPDX-License-Identifier: MIT */
/* What each function uses, inferred from its instructions (spec/annotate.md has the table), and the
 * call graph's strongly connected components so recursion is handled without fixpoints. */
#ifndef SPVCOND_INFER_H
#define SPVCOND_INFER_H

#include "analysis/callgraph.h"
#include "ir/capabilities.h"
#include "registry/aspects.h"

/* What a function or a root requires: aspects, and in a shader module the optional capabilities
 * (spec/annotate.md, "Shader modules"). Words 0 and 1 hold aspect numbers 0..127; word 2 the module's
 * declared capabilities, bit d for spvcond_declared_caps values[d] (d < 62: spvcond_declared_cap_done). */
#define SPVCOND_REQUIREMENT_WORDS 3
typedef struct spvcond_aspects {
    uint64_t bits[SPVCOND_REQUIREMENT_WORDS];
} spvcond_aspects;

struct spvcond_inference {
    spvcond_aspects *own;  /* per function */
    spvcond_aspects *used; /* per function: own and everything its callees use */
    uint32_t *scc_of;      /* per function */
    uint32_t *scc_members; /* functions grouped by component, components callees-first */
    uint32_t *scc_start;   /* scc_count + 1 */
    size_t scc_count;
    uint8_t *type_facts;   /* per id: SPVCOND_TYPE_* of types (and of values, through their type) */
    /* The module-level items (OpExtInstImport; types, constants, variables) each function names, each
     * once, in the order first named: function f's are item_list[item_start[f] .. item_start[f + 1]),
     * as instruction indices from the start of the OpExtInstImport section. */
    uint32_t *item_start;  /* function_count + 1 */
    uint32_t *item_list;
    size_t item_count;
    bool items_borrowed;   /* item_start and item_list are the module's (the reader's lists) */
    /* Per function, when spvcond_infer was given the declared capabilities: those its instructions
     * (OpFunction to OpFunctionEnd) need, bit d for values[d] (spvcond_declared_cap_done). */
    uint64_t *cap_need;
};

/* Builds the call graph g and, with `infer`, what each function uses, in one walk over the code; then
 * the components. With `caps` (at most 62 declared, each its own bit), the same walk finds which of
 * them each function's instructions need (out->cap_need). */
spvcond_result spvcond_infer(const struct spvcond_module *m, bool infer, struct spvcond_declared_caps *caps,
                             struct spvcond_callgraph *g, struct spvcond_inference *out);
/* Propagate own[] into used[] (callers get their callees'), after own[] was amended. hidden (NULL: none),
 * per call-graph edge: aspects a callee's uses do not give its caller through that edge (a guard's). */
void spvcond_infer_propagate(const struct spvcond_module *m, const struct spvcond_callgraph *g,
                             struct spvcond_inference *inf, const spvcond_aspects *hidden);
void spvcond_inference_release(const struct spvcond_module *m, struct spvcond_inference *inf);

static inline void
spvcond_aspects_add(spvcond_aspects *a, uint32_t aspect)
{
    a->bits[aspect / 64] |= UINT64_C(1) << (aspect % 64);
}

static inline bool
spvcond_aspects_has(const spvcond_aspects *a, uint32_t aspect)
{
    return (a->bits[aspect / 64] >> (aspect % 64)) & 1;
}

/* The smallest aspect in a at or above `from`, or SPVCOND_ASPECT_MAX: loops over the aspects a holds
 * visit those only (every root asked all 128 of them). */
static inline uint32_t
spvcond_aspects_next(const spvcond_aspects *a, uint32_t from)
{
    for (uint32_t w = from / 64; w < SPVCOND_ASPECT_MAX / 64; w++) {
        uint64_t bits = a->bits[w] & (w == from / 64 ? ~UINT64_C(0) << (from % 64) : ~UINT64_C(0));
        if (bits)
            return w * 64 + (uint32_t)__builtin_ctzll(bits);
    }
    return SPVCOND_ASPECT_MAX;
}

/* Aspects implied by SPVCOND_TYPE_* facts (registry/aspects.h), as the aspect table says. */
spvcond_aspects spvcond_aspects_of_facts(uint8_t facts);

#endif
