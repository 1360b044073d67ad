/* SPDX-License-Identifier: MIT */
/* Decoding operands from the grammar tables, including the cases the grammar leaves to context:
 * enumerant parameters, OpExtInst per set, OpSpecConstantOp's embedded opcode, OpSwitch literals. */
#include "ir/operands.h"

#include <string.h>

struct walk {
    const struct spvcond_module *m;
    size_t inst;
    const uint32_t *w;
    uint32_t wc;
    uint32_t pos;
    spvcond_operand_fn fn;
    void *user;
    uint8_t quantifier; /* of the grammar operand being walked */
};

static spvcond_result
overrun(struct walk *k, const char *what)
{
    return spvcond_fail_inst(k->m, SPVCOND_ERROR_INVALID_BINARY, k->inst, 0,
                             "operand %s runs past the end of the instruction (word count %u)", what, k->wc);
}

static spvcond_result
emit(struct walk *k, uint32_t count, uint16_t kind, uint8_t cls)
{
    if (count == 0 || k->pos + count > k->wc || k->pos + count < k->pos)
        return overrun(k, kind < SPVCOND_GRAMMAR_KIND_COUNT && cls != SPVCOND_OC_UNKNOWN
                              ? spvcond_grammar_kinds[kind].name : "words");
    struct spvcond_operand op = {k->pos, count, kind, cls, k->quantifier};
    k->pos += count;
    return k->fn(k->user, k->w, &op);
}

/* Report everything left as opaque words. */
static spvcond_result
emit_rest_unknown(struct walk *k)
{
    if (k->pos >= k->wc)
        return SPVCOND_OK;
    return emit(k, k->wc - k->pos, 0, SPVCOND_OC_UNKNOWN);
}

static spvcond_result
string_length(struct walk *k, uint32_t *out)
{
    for (uint32_t p = k->pos; p < k->wc; p++) {
        uint32_t v = k->w[p];
        /* Strings are little-endian byte streams inside words; the words are host order here, which is
         * little-endian on every target we build for, so any zero byte ends the string. */
        if (spvcond_word_has_nul(v)) {
            *out = p - k->pos + 1;
            return SPVCOND_OK;
        }
    }
    return spvcond_fail_inst(k->m, SPVCOND_ERROR_INVALID_BINARY, k->inst, 0,
                             "literal string at word %u is not NUL-terminated within the instruction", k->pos);
}

static spvcond_result walk_operand_list(struct walk *k, uint16_t first, uint16_t count, bool skip_result);

static spvcond_result
walk_one(struct walk *k, uint16_t kind)
{
    const struct spvcond_grammar_kind *gk = &spvcond_grammar_kinds[kind];
    spvcond_result r;
    uint32_t n = 0;
    switch (gk->operand_class) {
    case SPVCOND_OC_LITERAL_STRING:
        if (k->pos >= k->wc)
            return overrun(k, gk->name);
        if ((r = string_length(k, &n)) != SPVCOND_OK)
            return r;
        return emit(k, n, kind, SPVCOND_OC_LITERAL_STRING);
    case SPVCOND_OC_CONTEXT_NUMBER:
        /* Only OpConstant/OpSpecConstant use it, as their last operand: the number fills the rest. */
        return emit(k, k->wc > k->pos ? k->wc - k->pos : 0, kind, SPVCOND_OC_CONTEXT_NUMBER);
    case SPVCOND_OC_PAIR_LIT_ID:
        if ((r = emit(k, 1, SPVCOND_KIND_LiteralInteger, SPVCOND_OC_LITERAL_INT)) != SPVCOND_OK)
            return r;
        return emit(k, 1, SPVCOND_KIND_IdRef, SPVCOND_OC_ID);
    case SPVCOND_OC_PAIR_ID_LIT:
        if ((r = emit(k, 1, SPVCOND_KIND_IdRef, SPVCOND_OC_ID)) != SPVCOND_OK)
            return r;
        return emit(k, 1, SPVCOND_KIND_LiteralInteger, SPVCOND_OC_LITERAL_INT);
    case SPVCOND_OC_PAIR_ID_ID:
        if ((r = emit(k, 1, SPVCOND_KIND_IdRef, SPVCOND_OC_ID)) != SPVCOND_OK)
            return r;
        return emit(k, 1, SPVCOND_KIND_IdRef, SPVCOND_OC_ID);
    case SPVCOND_OC_VALUE_ENUM: {
        if (k->pos >= k->wc)
            return overrun(k, gk->name);
        uint32_t value = k->w[k->pos];
        if ((r = emit(k, 1, kind, SPVCOND_OC_VALUE_ENUM)) != SPVCOND_OK)
            return r;
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(kind, value);
        if (!e) /* a newer enumerant: its parameters, if any, are unknown */
            return emit_rest_unknown(k);
        return walk_operand_list(k, e->first_param, e->param_count, false);
    }
    case SPVCOND_OC_BIT_ENUM: {
        if (k->pos >= k->wc)
            return overrun(k, gk->name);
        uint32_t mask = k->w[k->pos];
        if ((r = emit(k, 1, kind, SPVCOND_OC_BIT_ENUM)) != SPVCOND_OK)
            return r;
        for (uint32_t bit = 0; bit < 32; bit++) {
            if (!(mask & (1u << bit)))
                continue;
            const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(kind, 1u << bit);
            if (!e)
                return emit_rest_unknown(k);
            if ((r = walk_operand_list(k, e->first_param, e->param_count, false)) != SPVCOND_OK)
                return r;
        }
        return SPVCOND_OK;
    }
    default:
        return emit(k, 1, kind, gk->operand_class);
    }
}

/* An operand that may repeat or be absent. */
static spvcond_result
walk_quantified(struct walk *k, const struct spvcond_grammar_operand *op)
{
    spvcond_result r;
    k->quantifier = op->quantifier;
    switch (op->quantifier) {
    case SPVCOND_Q_OPTIONAL:
        return k->pos < k->wc ? walk_one(k, op->kind) : SPVCOND_OK;
    case SPVCOND_Q_ANY:
        while (k->pos < k->wc)
            if ((r = walk_one(k, op->kind)) != SPVCOND_OK)
                return r;
        return SPVCOND_OK;
    default:
        return walk_one(k, op->kind);
    }
}

static spvcond_result
walk_operand_list(struct walk *k, uint16_t first, uint16_t count, bool skip_result)
{
    for (uint16_t n = 0; n < count; n++) {
        const struct spvcond_grammar_operand *op = &spvcond_grammar_operands[first + n];
        uint8_t cls = spvcond_grammar_kinds[op->kind].operand_class;
        if (skip_result && (cls == SPVCOND_OC_RESULT_TYPE || cls == SPVCOND_OC_RESULT_ID))
            continue;
        spvcond_result r = walk_quantified(k, op);
        if (r != SPVCOND_OK)
            return r;
    }
    return SPVCOND_OK;
}

static spvcond_result
walk_ext_inst(struct walk *k)
{
    /* IdResultType, IdResult, set, number, then the set's own operands. */
    spvcond_result r;
    for (int n = 0; n < 2; n++)
        if ((r = walk_one(k, n == 0 ? SPVCOND_KIND_IdResultType : SPVCOND_KIND_IdResult)) != SPVCOND_OK)
            return r;
    if (k->pos + 2 > k->wc)
        return overrun(k, "Set/Instruction");
    uint32_t set_id = k->w[k->pos];
    uint32_t number = k->w[k->pos + 1];
    if ((r = emit(k, 1, SPVCOND_KIND_IdRef, SPVCOND_OC_ID)) != SPVCOND_OK)
        return r;
    if ((r = emit(k, 1, SPVCOND_KIND_LiteralExtInstInteger, SPVCOND_OC_EXTINST_NUMBER)) != SPVCOND_OK)
        return r;
    const struct spvcond_import *imp = spvcond_import_of(k->m, set_id);
    if (!imp)
        return emit_rest_unknown(k); /* the reader reports the bad set id itself */
    if (imp->non_semantic) {
        /* Every operand of a non-semantic instruction is an id (SPV_KHR_non_semantic_info). */
        while (k->pos < k->wc)
            if ((r = emit(k, 1, SPVCOND_KIND_IdRef, SPVCOND_OC_ID)) != SPVCOND_OK)
                return r;
        return SPVCOND_OK;
    }
    if (!imp->set)
        return emit_rest_unknown(k);
    const struct spvcond_grammar_instruction *gi = spvcond_grammar_extinst(imp->set, number);
    if (!gi)
        return emit_rest_unknown(k);
    return walk_operand_list(k, gi->first_operand, gi->operand_count, false);
}

static spvcond_result
walk_spec_constant_op(struct walk *k)
{
    spvcond_result r;
    for (int n = 0; n < 2; n++)
        if ((r = walk_one(k, n == 0 ? SPVCOND_KIND_IdResultType : SPVCOND_KIND_IdResult)) != SPVCOND_OK)
            return r;
    if (k->pos >= k->wc)
        return overrun(k, "Opcode");
    uint32_t opcode = k->w[k->pos];
    if ((r = emit(k, 1, SPVCOND_KIND_LiteralSpecConstantOpInteger, SPVCOND_OC_SPECOP_NUMBER)) != SPVCOND_OK)
        return r;
    const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(opcode);
    if (!gi)
        return emit_rest_unknown(k);
    return walk_operand_list(k, gi->first_operand, gi->operand_count, true);
}

static spvcond_result
walk_switch(struct walk *k)
{
    spvcond_result r;
    if (k->wc < 3)
        return overrun(k, "Selector/Default");
    uint32_t selector = k->w[1];
    if ((r = emit(k, 1, SPVCOND_KIND_IdRef, SPVCOND_OC_ID)) != SPVCOND_OK ||
        (r = emit(k, 1, SPVCOND_KIND_IdRef, SPVCOND_OC_ID)) != SPVCOND_OK)
        return r;
    /* Case literals are as wide as the selector's integer type. */
    size_t def = spvcond_def(k->m, selector);
    uint32_t width = 0;
    if (def != SIZE_MAX) {
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(spvcond_inst_opcode(k->m, def));
        if (gi && gi->has_type && spvcond_inst_word_count(k->m, def) > 1)
            width = spvcond_scalar_width(k->m, spvcond_inst_words(k->m, def)[1]);
    }
    if (width == 0)
        return spvcond_fail_inst(k->m, SPVCOND_ERROR_INVALID_ID, k->inst, selector,
                                 "OpSwitch selector %%%u is not a defined integer value", selector);
    uint32_t lw = width > 32 ? 2 : 1;
    while (k->pos < k->wc) {
        if ((r = emit(k, lw, SPVCOND_KIND_LiteralContextDependentNumber, SPVCOND_OC_CONTEXT_NUMBER)) != SPVCOND_OK ||
            (r = emit(k, 1, SPVCOND_KIND_IdRef, SPVCOND_OC_ID)) != SPVCOND_OK)
            return r;
    }
    return SPVCOND_OK;
}

spvcond_result
spvcond_walk_operands(const struct spvcond_module *m, size_t i, spvcond_operand_fn fn, void *user)
{
    struct walk k = {m, i, spvcond_inst_words(m, i), spvcond_inst_word_count(m, i), 1, fn, user, SPVCOND_Q_ONE};
    uint32_t opcode = spvcond_opcode_of(k.w[0]);
    const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(opcode);
    spvcond_result r;
    switch (opcode) {
    case SPVCOND_OP_EXT_INST:
        r = walk_ext_inst(&k);
        break;
    case SPVCOND_OP_SPEC_CONSTANT_OP:
        r = walk_spec_constant_op(&k);
        break;
    case SPVCOND_OP_SWITCH:
        r = walk_switch(&k);
        break;
    default:
        r = gi ? walk_operand_list(&k, gi->first_operand, gi->operand_count, false) : emit_rest_unknown(&k);
        break;
    }
    /* Words past the last operand would be read as operands by no one, yet passes that know an
     * instruction's shape (an OpSpecConstantOp's operands from word 4 on) would take them for ids
     * (found by fuzzing: a 42-word OpSpecConstantOp LogicalOr overran validate's per-id table). */
    if (r == SPVCOND_OK && k.pos < k.wc)
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_BINARY, i, 0,
                                 "%u words left over after the last operand (word count %u)", k.wc - k.pos, k.wc);
    return r;
}

const struct spvcond_import *
spvcond_import_of(const struct spvcond_module *m, uint32_t id)
{
    for (size_t k = 0; k < m->import_count; k++)
        if (m->imports[k].id == id)
            return &m->imports[k];
    return NULL;
}

struct id_walk {
    size_t inst;
    spvcond_id_fn fn;
    void *user;
    const uint32_t *words;
};

static spvcond_result
id_filter(void *user, const uint32_t *words, const struct spvcond_operand *op)
{
    struct id_walk *w = user;
    if (op->operand_class != SPVCOND_OC_ID && op->operand_class != SPVCOND_OC_RESULT_TYPE)
        return SPVCOND_OK;
    return w->fn(w->user, w->inst, op->word, words[op->word]);
}

static spvcond_result
fast_id(void *user, uint32_t word, uint8_t operand_class)
{
    struct id_walk *w = user;
    if (operand_class == SPVCOND_OC_RESULT_ID)
        return SPVCOND_OK;
    return w->fn(w->user, w->inst, word, w->words[word]);
}

spvcond_result
spvcond_walk_ids_decoded(const struct spvcond_module *m, size_t i, spvcond_id_fn fn, void *user)
{
    const uint32_t *words = spvcond_inst_words(m, i);
    struct id_walk w = {i, fn, user, words};
    struct spvcond_fast f = spvcond_fast_shape(m, words, spvcond_grammar_instruction(spvcond_opcode_of(words[0])));
    if (f.kind != SPVCOND_FAST_NONE)
        return spvcond_fast_for_each(f, words, fast_id, &w);
    return spvcond_walk_operands(m, i, id_filter, &w);
}

spvcond_result
spvcond_walk_ids(const struct spvcond_module *m, size_t i, spvcond_id_fn fn, void *user)
{
    return spvcond_for_each_id(m, i, fn, user);
}
