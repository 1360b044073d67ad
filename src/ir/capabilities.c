/* SPDX-License-Identifier: MIT */
#include "ir/capabilities.h"

#include "support/index_table.h"
#include "ir/operands.h"

#include <stdlib.h>


struct walk {
    spvcond_capability_fn fn;
    void *user;
    size_t inst;
};

static spvcond_result
operand_caps(void *user, const uint32_t *words, const struct spvcond_operand *op)
{
    struct walk *k = user;
    if (op->operand_class != SPVCOND_OC_VALUE_ENUM && op->operand_class != SPVCOND_OC_BIT_ENUM)
        return SPVCOND_OK;
    uint32_t v = words[op->word];
    if (op->operand_class == SPVCOND_OC_VALUE_ENUM) {
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(op->kind, v);
        if (e && e->cap_count)
            return k->fn(k->user, k->inst, spvcond_grammar_capabilities + e->first_cap, e->cap_count);
        return SPVCOND_OK;
    }
    for (uint32_t bit = 0; bit < 32; bit++) {
        if (!(v & (1u << bit)))
            continue;
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(op->kind, 1u << bit);
        if (e && e->cap_count) {
            spvcond_result r = k->fn(k->user, k->inst, spvcond_grammar_capabilities + e->first_cap, e->cap_count);
            if (r != SPVCOND_OK)
                return r;
        }
    }
    return SPVCOND_OK;
}

static spvcond_result
one(struct walk *k, uint32_t cap)
{
    return k->fn(k->user, k->inst, &cap, 1);
}

/* Width of the integer a pointer points to, or of the integer itself. */
static uint32_t
int_width_through_pointer(const struct spvcond_module *m, uint32_t type)
{
    size_t d = spvcond_def(m, type);
    if (d != SIZE_MAX && spvcond_inst_opcode(m, d) == SPVCOND_OP_TYPE_POINTER)
        type = spvcond_inst_words(m, d)[3];
    return spvcond_def_opcode(m, type) == SPVCOND_OP_TYPE_INT ? spvcond_scalar_width(m, type) : 0;
}

/* Whether an operand of instruction w may be an enumerant that needs a capability and only the general
 * walker can find it. OpSpecConstantOp hides its operation behind a selector. */
static bool
needs_walker(const struct spvcond_module *m, const uint32_t *w, const struct spvcond_grammar_instruction *gi,
             bool fits)
{
    uint32_t op = spvcond_opcode_of(w[0]);
    if (!gi || op == SPVCOND_OP_SPEC_CONSTANT_OP)
        return true;
    if (op == SPVCOND_OP_EXT_INST) {
        struct spvcond_fast f = spvcond_fast_shape(m, w, gi);
        return f.kind == SPVCOND_FAST_NONE || (f.kind == SPVCOND_FAST_EXT && f.gi->has_enum_operands);
    }
    return !fits && (gi->has_enum_operands || gi->tail == SPVCOND_TAIL_OPTIONAL_MASK || gi->tail == SPVCOND_TAIL_ENUM);
}

static spvcond_result
enumerant_caps(struct walk *k, const struct spvcond_grammar_enumerant *e)
{
    return e && e->cap_count ? k->fn(k->user, k->inst, spvcond_grammar_capabilities + e->first_cap, e->cap_count)
                             : SPVCOND_OK;
}

/* A fitting simple layout: the capabilities of the enumerants among its fixed one-word operands
 * (OpVariable's and OpTypePointer's storage class, OpFunction's control), read in place. */
static spvcond_result
fixed_enum_caps(struct walk *k, const uint32_t *w, const struct spvcond_grammar_instruction *gi)
{
    spvcond_result r = SPVCOND_OK;
    for (uint32_t bits = gi->enum_mask; bits && r == SPVCOND_OK; bits &= bits - 1) {
        uint32_t n = (uint32_t)__builtin_ctz(bits), v = w[1 + n];
        uint16_t kind = spvcond_grammar_operands[gi->first_operand + n].kind;
        if (spvcond_grammar_kinds[kind].operand_class == SPVCOND_OC_VALUE_ENUM) {
            r = enumerant_caps(k, spvcond_grammar_enumerant(kind, v));
            continue;
        }
        for (; v && r == SPVCOND_OK; v &= v - 1)
            r = enumerant_caps(k, spvcond_grammar_enumerant(kind, v & -v));
    }
    return r;
}

/* A fitting SPVCOND_TAIL_ENUM instruction: the trailing enumerant's capabilities and those of any
 * enumerant among its one-word parameters. */
static spvcond_result
tail_enum_caps(struct walk *k, const uint32_t *w, const struct spvcond_grammar_instruction *gi)
{
    const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant((unsigned)gi->mask_allowed, w[1u + gi->fixed]);
    spvcond_result r = SPVCOND_OK;
    if (e->cap_count)
        r = k->fn(k->user, k->inst, spvcond_grammar_capabilities + e->first_cap, e->cap_count);
    for (uint16_t p = 0; p < e->param_count && r == SPVCOND_OK; p++) {
        uint16_t kind = spvcond_grammar_operands[e->first_param + p].kind;
        if (spvcond_grammar_kinds[kind].operand_class != SPVCOND_OC_VALUE_ENUM)
            continue;
        const struct spvcond_grammar_enumerant *pe = spvcond_grammar_enumerant(kind, w[2u + gi->fixed + p]);
        if (pe && pe->cap_count)
            r = k->fn(k->user, k->inst, spvcond_grammar_capabilities + pe->first_cap, pe->cap_count);
    }
    return r;
}

static spvcond_result
instruction_capabilities(const struct spvcond_module *m, size_t i, const uint32_t *w,
                         const struct spvcond_grammar_instruction *gi, spvcond_capability_fn fn, void *user)
{
    struct walk k = {fn, user, i};
    uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
    spvcond_result r = SPVCOND_OK;
    if (gi && gi->cap_count)
        r = fn(user, i, spvcond_grammar_capabilities + gi->first_cap, gi->cap_count);
    if (r == SPVCOND_OK && spvcond_is_linkage_decoration(w)) {
        /* The general walker took 6% of annotating libclc. */
        r = enumerant_caps(&k, spvcond_grammar_enumerant(SPVCOND_KIND_Decoration, 41));
        return r == SPVCOND_OK ? enumerant_caps(&k, spvcond_grammar_enumerant(SPVCOND_KIND_LinkageType, w[wc - 1])) : r;
    }
    bool fits = op != SPVCOND_OP_EXT_INST && spvcond_grammar_fits_fast(gi, w, wc);
    if (r == SPVCOND_OK && needs_walker(m, w, gi, fits))
        r = spvcond_walk_operands(m, i, operand_caps, &k);
    else if (r == SPVCOND_OK && fits && (r = fixed_enum_caps(&k, w, gi)) == SPVCOND_OK && gi->tail == SPVCOND_TAIL_ENUM)
        r = tail_enum_caps(&k, w, gi);
    if (r != SPVCOND_OK)
        return r;
    switch (op) {
    case SPVCOND_OP_TYPE_INT:
        if (wc >= 3 && w[2] == 64)
            return one(&k, SPVCOND_CAPABILITY_INT64);
        if (wc >= 3 && w[2] == 16)
            return one(&k, SPVCOND_CAPABILITY_INT16);
        if (wc >= 3 && w[2] == 8)
            return one(&k, SPVCOND_CAPABILITY_INT8);
        return SPVCOND_OK;
    case SPVCOND_OP_TYPE_FLOAT:
        if (wc >= 3 && w[2] == 64)
            return one(&k, SPVCOND_CAPABILITY_FLOAT64);
        if (wc >= 3 && w[2] == 16) {
            static const uint32_t half[2] = {SPVCOND_CAPABILITY_FLOAT16, SPVCOND_CAPABILITY_FLOAT16_BUFFER};
            return fn(user, i, half, 2);
        }
        return SPVCOND_OK;
    case SPVCOND_OP_TYPE_VECTOR:
        return wc >= 4 && (w[3] == 8 || w[3] == 16) ? one(&k, SPVCOND_CAPABILITY_VECTOR16) : SPVCOND_OK;
    case SPVCOND_OP_TYPE_IMAGE: case SPVCOND_OP_TYPE_SAMPLER: case SPVCOND_OP_TYPE_SAMPLED_IMAGE:
        return one(&k, SPVCOND_CAPABILITY_IMAGE_BASIC);
    default:
        break;
    }
    if (spvcond_is_atomic_opcode(op) && wc >= 4) {
        /* OpAtomicStore has no result: its pointer is word 1. Others: the result type. */
        size_t ptr = spvcond_def(m, w[1]);
        uint32_t type = op != SPVCOND_OP_ATOMIC_STORE ? w[1] : ptr != SIZE_MAX && spvcond_inst_word_count(m, ptr) > 1
                                               ? spvcond_inst_words(m, ptr)[1] : 0;
        if (type && int_width_through_pointer(m, type) == 64)
            return one(&k, SPVCOND_CAPABILITY_INT64_ATOMICS);
    }
    return SPVCOND_OK;
}

spvcond_result
spvcond_instruction_capabilities(const struct spvcond_module *m, size_t i, spvcond_capability_fn fn, void *user)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t op = spvcond_opcode_of(w[0]);
    const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(op);
    /* Most instructions (arithmetic, calls, branches...) can need none: no capability of their own, no
     * enumerant operand, no type or atomic rule; they leave here, before the full scan is set up. */
    if (gi && !gi->cap_count && !gi->has_enum_operands && gi->tail != SPVCOND_TAIL_OPTIONAL_MASK &&
        gi->tail != SPVCOND_TAIL_ENUM && op != SPVCOND_OP_EXT_INST && op != SPVCOND_OP_SPEC_CONSTANT_OP &&
            (op < SPVCOND_OP_TYPE_INT || op > SPVCOND_OP_TYPE_SAMPLED_IMAGE) && !spvcond_is_atomic_opcode(op))
        return SPVCOND_OK;
    return instruction_capabilities(m, i, w, gi, fn, user);
}

uint32_t
spvcond_declared_cap_of(const struct spvcond_module *m, size_t i, bool conditional)
{
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t op = spvcond_opcode_of(w[0]);
    if (op == SPVCOND_OP_CAPABILITY)
        return w[1];
    return conditional && op == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL ? w[2] : UINT32_MAX;
}

spvcond_result
spvcond_declared_caps_build(const struct spvcond_module *m, bool conditional, struct spvcond_declared_caps *out)
{
    size_t ncap = m->section[SPVCOND_SECTION_CAPABILITY + 1], n = 0;
    out->count = 0;
    out->values = spvcond_alloc_array(m->ctx, ncap + 1, sizeof(uint32_t));
    out->opcode_caps = spvcond_alloc_array(m->ctx, SPVCOND_GRAMMAR_CORE_COUNT + 1 + SPVCOND_GRAMMAR_KIND_COUNT,
                                           sizeof(uint64_t));
    out->kind_caps = out->opcode_caps ? out->opcode_caps + SPVCOND_GRAMMAR_CORE_COUNT + 1 : NULL;
    if (!out->values || !out->opcode_caps) {
        spvcond_declared_caps_release(m, out);
        return spvcond_oom(m->ctx);
    }
    for (size_t i = 0; i < ncap; i++) {
        uint32_t cap = spvcond_declared_cap_of(m, i, conditional);
        if (cap != UINT32_MAX)
            out->values[n++] = cap;
    }
    qsort(out->values, n, sizeof(uint32_t), spvcond_compare_u32);
    for (size_t i = 0; i < n; i++)
        if (out->count == 0 || out->values[out->count - 1] != out->values[i])
            out->values[out->count++] = out->values[i];
    return SPVCOND_OK;
}

size_t
spvcond_declared_caps_find(const struct spvcond_declared_caps *d, uint32_t cap)
{
    size_t lo = 0, hi = d->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->values[mid] == cap)
            return mid;
        if (d->values[mid] < cap)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

void
spvcond_declared_caps_release(const struct spvcond_module *m, struct spvcond_declared_caps *d)
{
    spvcond_dealloc(m->ctx, d->values);
    spvcond_dealloc(m->ctx, d->opcode_caps);
    *d = (struct spvcond_declared_caps){NULL, 0, NULL, NULL};
}

/* Masks of declared capabilities: bit d for values[d]; capabilities past the first 62 share bit 62
 * (a mask only says what may be needed; the scan says what is). Bit 63 (SPVCOND_CAPS_KNOWN) marks a
 * mask as computed. */

static uint64_t
declared_bit(const struct spvcond_declared_caps *d, uint32_t cap)
{
    size_t at = spvcond_declared_caps_find(d, cap);
    return at == SIZE_MAX ? 0 : UINT64_C(1) << (at < 62 ? at : 62);
}

static uint64_t
declared_mask(const struct spvcond_declared_caps *d, uint16_t first, uint16_t count)
{
    uint64_t mask = 0;
    for (uint16_t c = 0; c < count; c++)
        mask |= declared_bit(d, spvcond_grammar_capabilities[first + c]);
    return mask;
}

static uint64_t operands_mask(struct spvcond_declared_caps *d, uint16_t first, uint16_t count);

/* The declared capabilities some enumerant of `kind`, or of its enumerants' parameters, needs. */
static uint64_t
kind_mask(struct spvcond_declared_caps *d, uint16_t kind)
{
    if (d->kind_caps[kind])
        return d->kind_caps[kind] & ~SPVCOND_CAPS_KNOWN;
    const struct spvcond_grammar_kind *k = &spvcond_grammar_kinds[kind];
    if (k->operand_class != SPVCOND_OC_VALUE_ENUM && k->operand_class != SPVCOND_OC_BIT_ENUM) {
        d->kind_caps[kind] = SPVCOND_CAPS_KNOWN; /* needs none */
        return 0;
    }
    d->kind_caps[kind] = ~UINT64_C(0); /* while deciding: a kind reaching itself may need anything */
    uint64_t mask = 0;
    for (uint16_t n = 0; n < k->enumerant_count; n++) {
        const struct spvcond_grammar_enumerant *e = &spvcond_grammar_enumerants[k->first_enumerant + n];
        mask |= declared_mask(d, e->first_cap, e->cap_count) | operands_mask(d, e->first_param, e->param_count);
    }
    d->kind_caps[kind] = mask | SPVCOND_CAPS_KNOWN;
    return mask;
}

static uint64_t
operands_mask(struct spvcond_declared_caps *d, uint16_t first, uint16_t count)
{
    uint64_t mask = 0;
    for (uint16_t n = 0; n < count; n++)
        mask |= kind_mask(d, spvcond_grammar_operands[first + n].kind);
    return mask;
}

/* By the grammar's lists for the opcode and its operands' kinds; the opcodes with rules of their own
 * (types, atomics, extended and spec-constant instructions) and unknown ones may need any. */
uint64_t
spvcond_declared_caps_of_opcode(struct spvcond_declared_caps *d, uint32_t op)
{
    const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(op);
    uint64_t mask = ~SPVCOND_CAPS_KNOWN;
    if (gi && op != SPVCOND_OP_EXT_INST && op != SPVCOND_OP_SPEC_CONSTANT_OP &&
        (op < SPVCOND_OP_TYPE_INT || op > SPVCOND_OP_TYPE_SAMPLED_IMAGE) && !spvcond_is_atomic_opcode(op))
        mask = declared_mask(d, gi->first_cap, gi->cap_count) | operands_mask(d, gi->first_operand, gi->operand_count);
    /* Every opcode the grammar does not know shares slot 0, with the same answer: any. */
    d->opcode_caps[op <= SPVCOND_GRAMMAR_MAX_OPCODE ? spvcond_grammar_opcode_index[op] : 0] = mask | SPVCOND_CAPS_KNOWN;
    return mask;
}
