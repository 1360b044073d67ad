/* Which capabilities an instruction needs: the grammar's lists for its opcode and enumerant operands,
 * plus the rules the grammar cannot express (type widths, vector sizes, images, 64-bit atomics). */
#ifndef SPVCOND_CAPABILITIES_H
#define SPVCOND_CAPABILITIES_H

#include "module.h"

/* Called once per requirement: the instruction needs one of caps[0..count). */
typedef spvcond_result (*spvcond_capability_fn)(void *user, size_t inst, const uint32_t *caps, size_t count);

spvcond_result spvcond_instruction_capabilities(const struct spvcond_module *m, size_t inst, spvcond_capability_fn fn,
                                                void *user);

bool spvcond_is_atomic_opcode(uint32_t opcode);

#endif
