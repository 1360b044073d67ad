/* SPDX-License-Identifier: MIT */
/* The operand walker: the one mechanism every pass uses to find ids and literals in an instruction. */
#ifndef SPVCOND_OPERANDS_H
#define SPVCOND_OPERANDS_H

#include "ir/module.h"

/* Operand classes the walker reports beyond the grammar's. */
#define SPVCOND_OC_UNKNOWN 0xffu /* words the grammar cannot see into (newer SPIR-V, unknown set) */

struct spvcond_operand {
    uint32_t word;  /* index of the first word within the instruction */
    uint32_t count; /* words it takes */
    uint16_t kind;  /* spvcond_grammar_kinds index; meaningless for SPVCOND_OC_UNKNOWN */
    uint8_t operand_class; /* enum spvcond_operand_class, or SPVCOND_OC_UNKNOWN */
    uint8_t quantifier;    /* the grammar operand's (enum spvcond_quantifier); an enumerant's
                              parameters have their enumerant's */
};

/* Return SPVCOND_OK to continue; anything else stops the walk and is returned. */
typedef spvcond_result (*spvcond_operand_fn)(void *user, const uint32_t *words, const struct spvcond_operand *op);

/* Walk the operands of instruction `i` in order. Pairs are reported as their two halves. Fails with
 * SPVCOND_ERROR_INVALID_BINARY (reported) when operands overrun the instruction or a string has no NUL.
 * OpExtInst needs its set's OpExtInstImport, OpSwitch its selector's type: both are read from the index,
 * so during parsing they must already have been seen. */
spvcond_result spvcond_walk_operands(const struct spvcond_module *m, size_t i, spvcond_operand_fn fn, void *user);

/* The same, restricted to id uses (SPVCOND_OC_ID and SPVCOND_OC_RESULT_TYPE), in word order. */
typedef spvcond_result (*spvcond_id_fn)(void *user, size_t inst, uint32_t word, uint32_t id);
spvcond_result spvcond_walk_ids(const struct spvcond_module *m, size_t i, spvcond_id_fn fn, void *user);

/* The same by decoding the instruction again: for those whose id uses the reader could not record. */
spvcond_result spvcond_walk_ids_decoded(const struct spvcond_module *m, size_t i, spvcond_id_fn fn, void *user);

/* spvcond_walk_ids, inlined for hot loops so that a static `fn` is inlined too. The reader kept where
 * each instruction's id uses are (spvcond_module.id_words); only instructions with ids past word 31
 * or opaque words are decoded again. */
static inline __attribute__((always_inline)) spvcond_result
spvcond_for_each_id(const struct spvcond_module *m, size_t i, spvcond_id_fn fn, void *user)
{
    uint32_t ids = m->id_words[i];
    if (ids & 1u)
        return spvcond_walk_ids_decoded(m, i, fn, user);
    const uint32_t *w = spvcond_inst_words(m, i);
    spvcond_result r = SPVCOND_OK;
    for (; ids && r == SPVCOND_OK; ids &= ids - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(ids);
        r = fn(user, i, k, w[k]);
    }
    return r;
}

/* The OpExtInstImport defining `id`, or NULL. */
const struct spvcond_import *spvcond_import_of(const struct spvcond_module *m, uint32_t id);

/* The fast path shared by the reader and spvcond_walk_ids: where an instruction's ids sit when the
 * generated layouts describe it (most instructions, OpExtInst of a known set included). */
enum spvcond_fast_kind {
    SPVCOND_FAST_NONE,    /* use the general walker */
    SPVCOND_FAST_CORE,    /* per gi */
    SPVCOND_FAST_EXT,     /* result type, result, set; then per gi from word 5 */
    SPVCOND_FAST_EXT_IDS, /* result type, result, set; then ids only (a non-semantic set) */
};

struct spvcond_fast {
    enum spvcond_fast_kind kind;
    const struct spvcond_grammar_instruction *gi;
};

/* `core` is spvcond_grammar_instruction(opcode of w), which callers usually have at hand. */
static inline struct spvcond_fast
spvcond_fast_shape(const struct spvcond_module *m, const uint32_t *w,
                   const struct spvcond_grammar_instruction *core)
{
    uint32_t wc = spvcond_word_count_of(w[0]);
    struct spvcond_fast f = {SPVCOND_FAST_NONE, NULL};
    if (spvcond_opcode_of(w[0]) != SPVCOND_OP_EXT_INST) {
        if (spvcond_grammar_fits_fast(core, w, wc))
            f = (struct spvcond_fast){SPVCOND_FAST_CORE, core};
        return f;
    }
    if (wc < 5)
        return f;
    const struct spvcond_import *imp = spvcond_import_of(m, w[3]);
    if (!imp)
        return f;
    if (imp->non_semantic)
        return (struct spvcond_fast){SPVCOND_FAST_EXT_IDS, NULL};
    const struct spvcond_grammar_instruction *gi = imp->set ? spvcond_grammar_extinst(imp->set, w[4]) : NULL;
    if (spvcond_grammar_fits_fast(gi, w + 4, wc - 4))
        f = (struct spvcond_fast){SPVCOND_FAST_EXT, gi};
    return f;
}

/* OpDecorate %target LinkageAttributes "name" LinkageType, exactly: on every function of a library, and
 * its string keeps it from the fast layouts. Its one id is the target (word 1). */
static inline bool
spvcond_is_linkage_decoration(const uint32_t *w)
{
    uint32_t wc = spvcond_word_count_of(w[0]);
    if (spvcond_opcode_of(w[0]) != SPVCOND_OP_DECORATE || wc < 5 || w[2] != SPVCOND_DECORATION_LINKAGE_ATTRIBUTES)
        return false;
    return spvcond_string_ends_at(w, 3, wc, wc - 2);
}

/* Calls fn(user, word, class) for each id word of a fast instruction, classes as the walker's. */
typedef spvcond_result (*spvcond_fast_fn)(void *user, uint32_t word, uint8_t operand_class);

/* The id uses among fast-layout operands o[1..n-1] (see spvcond_grammar_fits_fast), reported as words
 * `base + k`, leaving out the words whose bit k - 1 is in `skip`: the fixed part from its id mask, the
 * tail by its kind, without testing word by word. */
static inline __attribute__((always_inline)) spvcond_result
spvcond_fast_ids(const struct spvcond_grammar_instruction *gi, const uint32_t *o, uint32_t n, uint32_t base,
                 uint32_t skip, spvcond_fast_fn fn, void *user)
{
    spvcond_result r = SPVCOND_OK;
    for (uint32_t mask = gi->id_mask & ~skip; mask && r == SPVCOND_OK; mask &= mask - 1)
        r = fn(user, base + 1u + (uint32_t)__builtin_ctz(mask), SPVCOND_OC_ID);
    uint32_t tail = 1u + gi->fixed, k = n, step = 1;
    switch (gi->tail) {
    case SPVCOND_TAIL_IDS: case SPVCOND_TAIL_OPTIONAL_ID: k = tail; break;
    case SPVCOND_TAIL_ID_LITERAL_PAIRS: k = tail, step = 2; break;
    case SPVCOND_TAIL_LITERAL_ID_PAIRS: k = tail + 1, step = 2; break;
    case SPVCOND_TAIL_ENUM: {
        const struct spvcond_grammar_enumerant *e =
            n > tail ? spvcond_grammar_enumerant((unsigned)gi->mask_allowed, o[tail]) : NULL;
        for (uint32_t ids = e ? e->id_params : 0; ids && r == SPVCOND_OK; ids &= ids - 1) {
            uint32_t w = tail + 1u + (uint32_t)__builtin_ctz(ids);
            if (w < n)
                r = fn(user, base + w, SPVCOND_OC_ID);
        }
        return r;
    }
    default: break;
    }
    for (; k < n && r == SPVCOND_OK; k += step)
        r = fn(user, base + k, SPVCOND_OC_ID);
    return r;
}

static inline __attribute__((always_inline)) spvcond_result
spvcond_fast_for_each(struct spvcond_fast f, const uint32_t *w, spvcond_fast_fn fn, void *user)
{
    uint32_t wc = spvcond_word_count_of(w[0]);
    spvcond_result r = SPVCOND_OK;
    if (f.kind == SPVCOND_FAST_CORE) {
        const struct spvcond_grammar_instruction *gi = f.gi;
        uint32_t skip = 0;
        if (gi->has_type && wc > 1) {
            skip |= 1u;
            r = fn(user, 1, SPVCOND_OC_RESULT_TYPE);
        }
        if (gi->result_word && gi->result_word < wc && r == SPVCOND_OK) {
            skip |= 1u << (gi->result_word - 1);
            r = fn(user, gi->result_word, SPVCOND_OC_RESULT_ID);
        }
        return r == SPVCOND_OK ? spvcond_fast_ids(gi, w, wc, 0, skip, fn, user) : r;
    }
    if ((r = fn(user, 1, SPVCOND_OC_RESULT_TYPE)) != SPVCOND_OK || (r = fn(user, 2, SPVCOND_OC_RESULT_ID)) != SPVCOND_OK ||
        (r = fn(user, 3, SPVCOND_OC_ID)) != SPVCOND_OK)
        return r;
    if (f.kind == SPVCOND_FAST_EXT)
        return spvcond_fast_ids(f.gi, w + 4, wc - 4, 4, 0, fn, user);
    for (uint32_t k = 5; k < wc && r == SPVCOND_OK; k++)
        r = fn(user, k, SPVCOND_OC_ID);
    return r;
}

#endif
