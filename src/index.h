/* Building and querying the per-id tables (decorations, names, execution modes, SpecIds). */
#ifndef SPVCOND_INDEX_H
#define SPVCOND_INDEX_H

#include "module.h"

struct spvcond_index_builder;

spvcond_result spvcond_index_builder_create(struct spvcond_module *m, struct spvcond_index_builder **out);
/* Called for every instruction, in order, after its operands were checked. */
spvcond_result spvcond_index_note(struct spvcond_index_builder *b, size_t inst, uint32_t opcode);
spvcond_result spvcond_index_builder_finish(struct spvcond_index_builder *b);
void spvcond_index_builder_destroy(struct spvcond_index_builder *b);
void spvcond_index_release(struct spvcond_module *m);

void spvcond_edits_release(struct spvcond_module *m);

const char *spvcond_section_name(int section);

#endif
