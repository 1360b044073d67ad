/* SPDX-License-Identifier: MIT */
#include "versions.h"

#include <stdio.h>
#include <string.h>

#include "edit.h"
#include "operands.h"

/* The extensions a module declares: OpExtension, and OpConditionalExtensionINTEL (SPIRV-Tools registers
 * those alike, whatever the condition). */
struct versions {
    const struct spvcond_module *m;
    uint16_t version;
    const char **extensions;
    size_t extension_count;
    spvcond_version_fn fn;
    void *user;
    size_t inst;
    uint32_t operand; /* 1-based, for the messages */
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
    const char *opname = spvcond_grammar_opcode_name(spvcond_inst_opcode(v->m, v->inst));
    const char *kind_name = spvcond_grammar_kinds[kind].name;
    if (e->last_version < v->version)
        return report(v, "operand %u of %s: %s %s requires SPIR-V version %u.%u or earlier", v->operand, opname,
                      kind_name, e->name, MAJOR(e->last_version), MINOR(e->last_version));
    if (!reserved && !e->ext_count)
        return report(v, "operand %u of %s: %s %s requires SPIR-V version %u.%u or later", v->operand, opname,
                      kind_name, e->name, MAJOR(e->version), MINOR(e->version));
    /* No extension listed and reserved: enabled by its capabilities alone (SPIRV-Tools: an empty set is
     * always met). */
    if (!e->ext_count || declared(v, e->first_ext, e->ext_count))
        return SPVCOND_OK;
    char exts[256];
    extension_list(exts, sizeof(exts), e->first_ext, e->ext_count);
    return report(v, "operand %u of %s: %s %s requires one of these extensions: %s", v->operand, opname, kind_name,
                  e->name, exts);
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
    uint32_t value = words[op->word];
    if (op->operand_class == SPVCOND_OC_VALUE_ENUM) {
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(op->kind, value);
        return e ? check_enumerant(v, e, op->kind) : SPVCOND_OK;
    }
    spvcond_result r = SPVCOND_OK;
    for (; value && r == SPVCOND_OK; value &= value - 1) {
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(op->kind, value & -value);
        r = e ? check_enumerant(v, e, op->kind) : SPVCOND_OK;
    }
    return r;
}

/* Whether an instruction may have enumerant operands at all. */
static bool
may_have_enum_operands(const struct spvcond_grammar_instruction *gi, uint32_t opcode)
{
    return gi->has_enum_operands || gi->tail == SPVCOND_TAIL_OPTIONAL_MASK || gi->tail == SPVCOND_TAIL_ENUM ||
           opcode == SPVCOND_OP_EXT_INST || opcode == SPVCOND_OP_SPEC_CONSTANT_OP;
}

/* A value enumerant or mask bit that every version 1.0 and later allows without anything declared. */
static bool
always_allowed(const struct spvcond_grammar_enumerant *e)
{
    return e->version == 0x0100u && e->last_version == SPVCOND_VERSION_NONE;
}

/* Kinds none of whose enumerants has a version rule: their operands need no look-up (computed per call:
 * a few hundred kinds, against a walk of the module). */
static void
plain_kinds(uint8_t *plain)
{
    for (unsigned k = 0; k < SPVCOND_GRAMMAR_KIND_COUNT; k++) {
        const struct spvcond_grammar_kind *kind = &spvcond_grammar_kinds[k];
        plain[k] = 1;
        for (uint16_t n = 0; n < kind->enumerant_count && plain[k]; n++)
            plain[k] = always_allowed(&spvcond_grammar_enumerants[kind->first_enumerant + n]);
    }
}

spvcond_result
spvcond_check_versions(const struct spvcond_module *m, spvcond_version_fn fn, void *user)
{
    struct versions v = {m, spvcond_version_of(m->version), NULL, 0, fn, user, 0, 0};
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
    uint8_t plain[SPVCOND_GRAMMAR_KIND_COUNT];
    plain_kinds(plain);
    for (size_t i = 0; i < m->inst_count && r == SPVCOND_OK; i++) {
        uint32_t op = spvcond_inst_opcode(m, i);
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(op);
        if (!gi || spvcond_edit_is_deleted(m, i)) /* the grammar cannot see into it (the reader has said so),
                                                    or a pass removed it */
            continue;
        v.inst = i;
        if ((gi->version > 0x0100u || gi->last_version != SPVCOND_VERSION_NONE) &&
            (r = check_instruction(&v, op, gi)) != SPVCOND_OK)
            break;
        if (!may_have_enum_operands(gi, op))
            continue;
        /* The operand walk only where some operand is of a kind with version rules. */
        bool walk = op == SPVCOND_OP_EXT_INST || op == SPVCOND_OP_SPEC_CONSTANT_OP;
        for (uint16_t k = 0; k < gi->operand_count && !walk; k++) {
            const struct spvcond_grammar_operand *o = &spvcond_grammar_operands[gi->first_operand + k];
            walk = o->quantifier == SPVCOND_Q_ONE && !plain[o->kind];
        }
        v.operand = 0;
        if (walk)
            r = spvcond_walk_operands(m, i, operand_versions, &v);
    }
    spvcond_dealloc(m->ctx, v.extensions);
    return r;
}
