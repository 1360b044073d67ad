/* SPDX-License-Identifier: MIT */
/* Which capabilities an instruction needs: the grammar's lists for its opcode and enumerant operands,
 * plus the rules the grammar cannot express (type widths, vector sizes, images, 64-bit atomics). */
#ifndef SPVCOND_CAPABILITIES_H
#define SPVCOND_CAPABILITIES_H

#include "ir/module.h"

/* Called once per requirement: the instruction needs one of caps[0..count). */
typedef spvcond_result (*spvcond_capability_fn)(void *user, size_t inst, const uint32_t *caps, size_t count);

spvcond_result spvcond_instruction_capabilities(const struct spvcond_module *m, size_t inst, spvcond_capability_fn fn,
                                                void *user);

static inline bool
spvcond_is_atomic_opcode(uint32_t opcode)
{
    return opcode >= SPVCOND_OP_ATOMIC_LOAD && opcode <= SPVCOND_OP_ATOMIC_XOR; /* OpAtomicLoad .. OpAtomicXor */
}

/* The distinct capabilities a module declares (OpCapability, and OpConditionalCapabilityINTEL when
 * `conditional`), sorted: a lookup costs O(log n) however many declarations repeat one (a module may
 * declare Kernel a million times; a scan of the declarations per user would be quadratic). */
struct spvcond_declared_caps {
    uint32_t *values;
    size_t count;
    /* Per core instruction of the grammar (by spvcond_grammar_opcode_index: slot 0 for opcodes it does not
     * know) and per operand kind, the declared capabilities it may need (capabilities.c: bit d for
     * values[d]) with SPVCOND_CAPS_KNOWN set; 0 until computed, as opcodes are met. Indexed by the grammar's
     * 712 slots, not the 6409 opcodes: 6 KB to clear, not 52 (two pages, not thirteen, at a tool's start). */
    uint64_t *opcode_caps, *kind_caps;
};

#define SPVCOND_CAPS_KNOWN (UINT64_C(1) << 63)

spvcond_result spvcond_declared_caps_build(const struct spvcond_module *m, bool conditional,
                                           struct spvcond_declared_caps *out);
/* Index of `cap` in out->values, or SIZE_MAX. */
size_t spvcond_declared_caps_find(const struct spvcond_declared_caps *d, uint32_t cap);
/* The declared capabilities an instruction of `opcode` may need, computed now and kept. */
uint64_t spvcond_declared_caps_of_opcode(struct spvcond_declared_caps *d, uint32_t opcode);

/* What an instruction of `opcode` may need: spvcond_declared_caps_of_opcode, looked up once known;
 * every bit for opcodes past the grammar's. */
static inline uint64_t
spvcond_declared_caps_may(struct spvcond_declared_caps *d, uint32_t opcode)
{
    if (opcode > SPVCOND_GRAMMAR_MAX_OPCODE)
        return ~SPVCOND_CAPS_KNOWN;
    uint64_t may = d->opcode_caps[spvcond_grammar_opcode_index[opcode]];
    return may ? may & ~SPVCOND_CAPS_KNOWN : spvcond_declared_caps_of_opcode(d, opcode);
}

/* The bit saying values[d] is settled in a `done` mask (below); capabilities past the 62nd are never
 * settled there, as they share a bit of the masks of what an opcode may need. */
static inline uint64_t
spvcond_declared_cap_done(size_t d)
{
    return d < 62 ? UINT64_C(1) << d : 0;
}

/* spvcond_instruction_capabilities for a scan that only cares about the declared capabilities it has
 * not settled yet (`done`, a mask of spvcond_declared_cap_done): an instruction whose opcode can need
 * none of the others is passed over after one table lookup (loads and stores always, most
 * instructions once the capabilities they may need are settled). */
static inline spvcond_result
spvcond_declared_caps_users(const struct spvcond_module *m, struct spvcond_declared_caps *d, size_t inst,
                            uint64_t done, spvcond_capability_fn fn, void *user)
{
    if (!(spvcond_declared_caps_may(d, spvcond_inst_opcode(m, inst)) & ~done))
        return SPVCOND_OK;
    return spvcond_instruction_capabilities(m, inst, fn, user);
}

/* The capability instruction i declares, or UINT32_MAX if it declares none of the kinds asked for. */
uint32_t spvcond_declared_cap_of(const struct spvcond_module *m, size_t i, bool conditional);
void spvcond_declared_caps_release(const struct spvcond_module *m, struct spvcond_declared_caps *d);

#endif
