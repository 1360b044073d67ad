/* SPDX-License-Identifier: MIT */
/* Building and querying the per-id tables (decorations, names, execution modes, SpecIds). */
#ifndef SPVCOND_INDEX_H
#define SPVCOND_INDEX_H

#include <string.h>

#include "ir/module.h"

struct spvcond_index_builder;

spvcond_result spvcond_index_builder_create(struct spvcond_module *m, struct spvcond_index_builder **out);
/* Called for every instruction, in order, after its operands were checked. */
spvcond_result spvcond_index_note(struct spvcond_index_builder *b, size_t inst, uint32_t opcode);
/* The same for instructions [from, to) read as one run: each an OpName or OpMemberName (`names`), or
 * each an OpDecorate. */
spvcond_result spvcond_index_note_run(struct spvcond_index_builder *b, size_t from, size_t to, bool names);
spvcond_result spvcond_index_builder_finish(struct spvcond_index_builder *b);
void spvcond_index_builder_destroy(struct spvcond_index_builder *b);
void spvcond_index_release(struct spvcond_module *m);

void spvcond_edits_release(struct spvcond_module *m);

const char *spvcond_section_name(int section);

/* The first OpName of `id`, or NULL. */
const char *spvcond_name_of(const struct spvcond_module *m, uint32_t id);
/* Is w an OpDecorate LinkageAttributes "name" Export (of w[1])? */
static inline bool
spvcond_is_export_decoration(const uint32_t *w)
{
    return spvcond_opcode_of(w[0]) == SPVCOND_OP_DECORATE && spvcond_word_count_of(w[0]) >= 5 &&
           w[2] == SPVCOND_DECORATION_LINKAGE_ATTRIBUTES && w[spvcond_word_count_of(w[0]) - 1] == 0;
}
/* Is instruction i an OpExtInst of a debug-information or non-semantic set? Such instructions follow
 * what they describe: they go when it goes. */
bool spvcond_is_debug_info(const struct spvcond_module *m, size_t i);
/* May an instruction with this opcode carry ConditionalINTEL? Rev 0.13's list (extension.md 2.1) plus
 * OpUndef (spec/extension.md says why) and the function-pointer and inline-assembly instructions. */
bool spvcond_may_carry_condition(uint32_t opcode);

/* The same, with the opcode's grammar row in hand (NULL for an opcode the grammar lacks). */
static inline bool
spvcond_may_carry_condition_row(uint32_t op, const struct spvcond_grammar_instruction *gi)
{
    if (!gi)
        return false;
    return op == SPVCOND_OP_FUNCTION || op == SPVCOND_OP_FUNCTION_CALL || op == SPVCOND_OP_VARIABLE ||
           op == SPVCOND_OP_EXT_INST_IMPORT || op == SPVCOND_OP_EXT_INST || op == SPVCOND_OP_UNDEF ||
           op == SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL || op == SPVCOND_OP_FUNCTION_POINTER_CALL_INTEL ||
           op == SPVCOND_OP_ASM_TARGET_INTEL || op == SPVCOND_OP_ASM_INTEL ||
           gi->class_id == SPVCOND_CLASS_Type_Declaration || gi->class_id == SPVCOND_CLASS_Constant_Creation;
}

/* An entry point (plain or conditional) by what SPIR-V allows one of: execution model and name. */
struct spvcond_entry_key {
    uint32_t model;
    const char *name;
    size_t inst;
};
struct spvcond_entry_key spvcond_entry_key_of(const struct spvcond_module *m, size_t inst);
/* qsort order: model, name, then instruction. */
int spvcond_compare_entry_keys(const void *a, const void *b);
static inline bool
spvcond_same_entry_key(const struct spvcond_entry_key *a, const struct spvcond_entry_key *b)
{
    return a->model == b->model && strcmp(a->name, b->name) == 0;
}

/* The first OpDeviceRegistryVersion at or after instruction `from`, or SIZE_MAX. */
size_t spvcond_registry_version_inst(const struct spvcond_module *m, size_t from);

#endif
