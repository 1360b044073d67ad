/* SPDX-License-Identifier: MIT */
#include "analysis/versions.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir/edit.h"
#include "ir/operands.h"

/* The walk's state. The extensions a module declares are those of OpExtension and of
 * OpConditionalExtensionINTEL (SPIRV-Tools registers them alike, whatever the condition). */
struct versions {
    const struct spvcond_module *m;
    uint16_t version;
    const char **extensions;
    size_t extension_count;
    spvcond_version_fn fn;
    void *user;
    size_t inst;
    uint32_t operand; /* 1-based, for the messages */
    uint8_t plain[SPVCOND_GRAMMAR_KIND_COUNT]; /* kinds without a version rule (plain_kinds) */
    uint64_t low_allowed[SPVCOND_GRAMMAR_KIND_COUNT]; /* per value enum, bit k: value k has no version rule
                                                         (the common values, decided without a look-up) */
};

/* Whether the module declares one of the grammar's extensions [first, first + count). */
static bool
declared(const struct versions *v, uint16_t first, uint16_t count)
{
    for (uint16_t k = 0; k < count; k++)
        for (size_t d = 0; d < v->extension_count; d++)
            if (strcmp(spvcond_grammar_extensions[first + k], v->extensions[d]) == 0)
                return true;
    return false;
}

/* "SPV_A SPV_B" */
static void
extension_list(char *buf, size_t n, uint16_t first, uint16_t count)
{
    size_t o = 0;
    buf[0] = 0;
    for (uint16_t k = 0; k < count && o < n; k++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s", k ? " " : "", spvcond_grammar_extensions[first + k]);
}

static spvcond_result
report(struct versions *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static spvcond_result
report(struct versions *v, const char *fmt, ...)
{
    char message[SPVCOND_DIAG_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    return v->fn(v->user, v->inst, message);
}

#define MAJOR(x) ((unsigned)(x) >> 8)
#define MINOR(x) ((unsigned)(x) & 0xFFu)

/* SPIRV-Tools' VersionCheck (validate_instruction.cpp): an instruction's last version, then, unless a
 * capability enables it (OpTerminateInvocation excepted), its first version or an enabling extension. */
static spvcond_result
check_instruction(struct versions *v, uint32_t opcode, const struct spvcond_grammar_instruction *gi)
{
    char exts[256];
    const char *name = gi->name;
    if (gi->last_version < v->version)
        return report(v, "%s requires SPIR-V version %u.%u or earlier", name, MAJOR(gi->last_version),
                      MINOR(gi->last_version));
    if (gi->cap_count && opcode != SPVCOND_OP_TERMINATE_INVOCATION)
        return SPVCOND_OK;
    if (!gi->ext_count) {
        if (gi->version == SPVCOND_VERSION_NONE)
            return report(v, "%s is reserved for future use", name);
        if (v->version < gi->version)
            return report(v, "%s requires SPIR-V version %u.%u at minimum", name, MAJOR(gi->version),
                          MINOR(gi->version));
        return SPVCOND_OK;
    }
    if (declared(v, gi->first_ext, gi->ext_count))
        return SPVCOND_OK;
    extension_list(exts, sizeof(exts), gi->first_ext, gi->ext_count);
    if (gi->version == SPVCOND_VERSION_NONE)
        return report(v, "%s requires one of the following extensions: %s", name, exts);
    if (v->version < gi->version)
        return report(v, "%s requires SPIR-V version %u.%u at minimum or one of the following extensions: %s", name,
                      MAJOR(gi->version), MINOR(gi->version), exts);
    return SPVCOND_OK;
}

/* SPIRV-Tools' OperandVersionExtensionCheck: an enumerant's versions, else an enabling extension. */
static spvcond_result
check_enumerant(struct versions *v, const struct spvcond_grammar_enumerant *e, uint16_t kind)
{
    bool reserved = e->version == SPVCOND_VERSION_NONE;
    if (!reserved && e->version <= v->version && v->version <= e->last_version)
        return SPVCOND_OK;
    /* Reserved and no extension listed: its capabilities alone enable it (SPIRV-Tools: an empty set of
     * extensions is always met). ConditionalINTEL is one. */
    if (reserved && e->last_version >= v->version && (!e->ext_count || declared(v, e->first_ext, e->ext_count)))
        return SPVCOND_OK;
    const char *opname = spvcond_grammar_opcode_name(spvcond_inst_opcode(v->m, v->inst));
    const char *kind_name = spvcond_grammar_kinds[kind].name;
    if (e->last_version < v->version)
        return report(v, "operand %u of %s: %s %s requires SPIR-V version %u.%u or earlier", v->operand, opname,
                      kind_name, e->name, MAJOR(e->last_version), MINOR(e->last_version));
    if (!e->ext_count)
        return report(v, "operand %u of %s: %s %s requires SPIR-V version %u.%u or later", v->operand, opname,
                      kind_name, e->name, MAJOR(e->version), MINOR(e->version));
    if (declared(v, e->first_ext, e->ext_count))
        return SPVCOND_OK;
    char exts[256];
    extension_list(exts, sizeof(exts), e->first_ext, e->ext_count);
    return report(v, "operand %u of %s: %s %s requires one of these extensions: %s", v->operand, opname, kind_name,
                  e->name, exts);
}

/* An enumerant operand's value (a value enum's, or each set bit of a mask) against its versions. */
static inline spvcond_result
check_value(struct versions *v, uint16_t kind, uint32_t value)
{
    if (v->plain[kind] || (value < 64 && (v->low_allowed[kind] >> value & 1)))
        return SPVCOND_OK;
    if (spvcond_grammar_kinds[kind].operand_class == SPVCOND_OC_VALUE_ENUM) {
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(kind, value);
        return e ? check_enumerant(v, e, kind) : SPVCOND_OK;
    }
    spvcond_result r = SPVCOND_OK;
    for (; value && r == SPVCOND_OK; value &= value - 1) {
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(kind, value & -value);
        r = e ? check_enumerant(v, e, kind) : SPVCOND_OK;
    }
    return r;
}

static spvcond_result
operand_versions(void *user, const uint32_t *words, const struct spvcond_operand *op)
{
    struct versions *v = user;
    v->operand++;
    /* SPIRV-Tools checks the enumerants of operands that must be there; an optional one (a memory-access
     * or image-operands mask, OpTypeFloat's encoding) it leaves to its capability rules. */
    if ((op->operand_class != SPVCOND_OC_VALUE_ENUM && op->operand_class != SPVCOND_OC_BIT_ENUM) ||
        op->quantifier != SPVCOND_Q_ONE)
        return SPVCOND_OK;
    return check_value(v, op->kind, words[op->word]);
}

/* Kinds none of whose enumerants has a version rule (their operands need no look-up), and a value
 * enum's values below 64 that have none. */
static void
plain_kinds(struct versions *v)
{
    for (unsigned k = 0; k < SPVCOND_GRAMMAR_KIND_COUNT; k++) {
        const struct spvcond_grammar_kind *kind = &spvcond_grammar_kinds[k];
        bool value_enum = kind->operand_class == SPVCOND_OC_VALUE_ENUM;
        v->plain[k] = 1;
        v->low_allowed[k] = 0;
        for (uint16_t n = 0; n < kind->enumerant_count; n++) {
            const struct spvcond_grammar_enumerant *e = &spvcond_grammar_enumerants[kind->first_enumerant + n];
            bool allowed = e->version == 0x0100u && e->last_version == SPVCOND_VERSION_NONE;
            v->plain[k] &= allowed;
            if (value_enum && allowed && e->value < 64)
                v->low_allowed[k] |= UINT64_C(1) << e->value;
        }
    }
}

/* What an opcode needs checked, worked out when the walk first meets it (enum opcode_state). */
enum opcode_state { UNSEEN = 0, NOTHING = 1, INSTRUCTION = 2, OPERANDS = 4 };

static uint8_t
opcode_state(const struct versions *v, uint32_t opcode, const struct spvcond_grammar_instruction *gi)
{
    uint8_t st = NOTHING;
    if (gi->version > 0x0100u || gi->last_version != SPVCOND_VERSION_NONE)
        st |= INSTRUCTION;
    if (opcode == SPVCOND_OP_SPEC_CONSTANT_OP) /* its operation's operands */
        return st | OPERANDS;
    if (opcode == SPVCOND_OP_EXT_INST) /* extended instructions have no versions */
        return st;
    for (uint16_t k = 0; k < gi->operand_count; k++) {
        const struct spvcond_grammar_operand *o = &spvcond_grammar_operands[gi->first_operand + k];
        if (o->quantifier == SPVCOND_Q_ONE && !v->plain[o->kind])
            return st | OPERANDS; /* a decoration's or mode's parameters: with their enumerant */
    }
    return st;
}

/* The operands of instruction i: in place where its fast layout fits (the enumerants among its fixed
 * operands, a trailing decoration or mode and its one-word parameters, a linkage decoration's type),
 * through the operand walker otherwise. */
static spvcond_result
check_operands(struct versions *v, size_t i, const struct spvcond_grammar_instruction *gi)
{
    const struct spvcond_module *m = v->m;
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t wc = spvcond_word_count_of(w[0]);
    spvcond_result r = SPVCOND_OK;
    v->operand = 0;
    if (w[0] >> 16 >= 5 && spvcond_opcode_of(w[0]) == SPVCOND_OP_DECORATE && w[2] == SPVCOND_DECORATION_LINKAGE_ATTRIBUTES) {
        /* The reader checked the operands: the name, then the linkage type in the last word. */
        v->operand = 2;
        if ((r = check_value(v, SPVCOND_KIND_Decoration, w[2])) == SPVCOND_OK) {
            v->operand = 4;
            r = check_value(v, SPVCOND_KIND_LinkageType, w[wc - 1]);
        }
        return r;
    }
    if (spvcond_inst_opcode(m, i) == SPVCOND_OP_SPEC_CONSTANT_OP || !spvcond_grammar_fits_fast(gi, w, wc))
        return spvcond_walk_operands(m, i, operand_versions, v);
    for (uint32_t bits = gi->enum_mask; bits && r == SPVCOND_OK; bits &= bits - 1) {
        uint32_t n = (uint32_t)__builtin_ctz(bits);
        v->operand = n + 1;
        r = check_value(v, spvcond_grammar_operands[gi->first_operand + n].kind, w[1 + n]);
    }
    if (r != SPVCOND_OK || gi->tail != SPVCOND_TAIL_ENUM)
        return r;
    uint16_t kind = (uint16_t)gi->mask_allowed;
    v->operand = gi->fixed + 1u;
    if ((r = check_value(v, kind, w[1u + gi->fixed])) != SPVCOND_OK)
        return r;
    const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(kind, w[1u + gi->fixed]);
    for (uint16_t p = 0; e && p < e->param_count && r == SPVCOND_OK; p++) {
        uint16_t pk = spvcond_grammar_operands[e->first_param + p].kind;
        uint8_t cls = spvcond_grammar_kinds[pk].operand_class;
        v->operand = gi->fixed + 2u + p;
        if (cls == SPVCOND_OC_VALUE_ENUM || cls == SPVCOND_OC_BIT_ENUM)
            r = check_value(v, pk, w[2u + gi->fixed + p]);
    }
    return r;
}

spvcond_result
spvcond_check_versions(const struct spvcond_module *m, spvcond_version_fn fn, void *user)
{
    struct versions v = {m, spvcond_version_of(m->version), NULL, 0, fn, user, 0, 0, {0}, {0}};
    size_t cap = 0;
    spvcond_result r = SPVCOND_OK;
    for (size_t i = m->section[SPVCOND_SECTION_EXTENSION]; i < m->section[SPVCOND_SECTION_EXTENSION + 1]; i++) {
        uint32_t op = spvcond_inst_opcode(m, i);
        if (op != SPVCOND_OP_EXTENSION && op != SPVCOND_OP_CONDITIONAL_EXTENSION_INTEL)
            continue;
        if ((r = spvcond_grow(m->ctx, (void **)&v.extensions, &cap, v.extension_count + 1, sizeof(*v.extensions))) !=
            SPVCOND_OK)
            break;
        v.extensions[v.extension_count++] = spvcond_inst_string(m, i, op == SPVCOND_OP_EXTENSION ? 1 : 2);
    }
    plain_kinds(&v);
    uint8_t *state = r == SPVCOND_OK ? spvcond_alloc_array(m->ctx, SPVCOND_GRAMMAR_MAX_OPCODE + 1, 1) : NULL;
    if (r == SPVCOND_OK && !state)
        r = spvcond_oom(m->ctx);
    for (size_t i = 0; i < m->inst_count && r == SPVCOND_OK; i++) {
        uint32_t op = spvcond_inst_opcode(m, i);
        if (op > SPVCOND_GRAMMAR_MAX_OPCODE || state[op] == NOTHING)
            continue;
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(op);
        if (!gi) /* the grammar cannot see into it: the reader has said so */
            continue;
        if (state[op] == UNSEEN)
            state[op] = opcode_state(&v, op, gi);
        if (state[op] == NOTHING || spvcond_edit_is_deleted(m, i)) /* or a pass removed it */
            continue;
        v.inst = i;
        if ((state[op] & INSTRUCTION) && (r = check_instruction(&v, op, gi)) != SPVCOND_OK)
            break;
        if (state[op] & OPERANDS)
            r = check_operands(&v, i, gi);
    }
    spvcond_dealloc(m->ctx, state);
    spvcond_dealloc(m->ctx, v.extensions);
    return r;
}
