/* The operand walker: the one mechanism every pass uses to find ids and literals in an instruction. */
#ifndef SPVCOND_OPERANDS_H
#define SPVCOND_OPERANDS_H

#include "module.h"

/* Operand classes the walker reports beyond the grammar's. */
#define SPVCOND_OC_UNKNOWN 0xffu /* words the grammar cannot see into (newer SPIR-V, unknown set) */

struct spvcond_operand {
    uint32_t word;  /* index of the first word within the instruction */
    uint32_t count; /* words it takes */
    uint16_t kind;  /* spvcond_grammar_kinds index; meaningless for SPVCOND_OC_UNKNOWN */
    uint8_t operand_class; /* enum spvcond_operand_class, or SPVCOND_OC_UNKNOWN */
};

/* Return SPVCOND_OK to continue; anything else stops the walk and is returned. */
typedef spvcond_result (*spvcond_operand_fn)(void *user, const uint32_t *words, const struct spvcond_operand *op);

/* Walk the operands of instruction `i` in order. Pairs are reported as their two halves. Fails with
 * SPVCOND_ERROR_INVALID_BINARY (reported) when operands overrun the instruction or a string has no NUL.
 * OpExtInst needs its set's OpExtInstImport, OpSwitch its selector's type: both are read from the index,
 * so during parsing they must already have been seen. */
spvcond_result spvcond_walk_operands(const struct spvcond_module *m, size_t i, spvcond_operand_fn fn, void *user);

/* The same, restricted to id uses (SPVCOND_OC_ID and SPVCOND_OC_RESULT_TYPE). */
typedef spvcond_result (*spvcond_id_fn)(void *user, size_t inst, uint32_t word, uint32_t id);
spvcond_result spvcond_walk_ids(const struct spvcond_module *m, size_t i, spvcond_id_fn fn, void *user);

#endif
