/* SPDX-License-Identifier: MIT */
/* Recording edits against a parsed module. The index keeps describing the module as it was read;
 * the writer applies the edits when emitting. */
#ifndef SPVCOND_EDIT_H
#define SPVCOND_EDIT_H

#include <string.h>

#include "ir/module.h"

spvcond_result spvcond_edit_delete(struct spvcond_module *m, size_t inst);
/* The end of the run of instructions from i (below stop) whose edit state is `state`: the first in
 * [i, stop) with another, or stop. Eight states at a time: untouched code, and a removed function, are
 * long runs. */
static inline size_t
spvcond_edit_state_run(const uint8_t *states, uint8_t state, size_t i, size_t stop)
{
    const uint64_t eight_of_them = UINT64_C(0x0101010101010101) * state;
    for (uint64_t eight; i + 8 <= stop; i += 8) {
        memcpy(&eight, states + i, 8);
        if (eight != eight_of_them)
            break;
    }
    while (i < stop && states[i] == state)
        i++;
    return i;
}
/* Deletes instructions [begin, end): what spvcond_edit_delete does to each, without a call per
 * instruction (a removed function). *newly: how many were not deleted before. */
spvcond_result spvcond_edit_delete_range(struct spvcond_module *m, size_t begin, size_t end, size_t *newly);
static inline bool
spvcond_edit_is_deleted(const struct spvcond_module *m, size_t inst)
{
    return m->edits.state && m->edits.state[inst] == SPVCOND_EDIT_DELETED;
}
const uint32_t *spvcond_edit_replacement_record(const struct spvcond_module *m, size_t inst);
/* The replacement of instruction `inst` as a (count, words...) record, or NULL if it has none. Inline:
 * passes ask for every instruction, and few have one. */
static inline const uint32_t *
spvcond_edit_replacement(const struct spvcond_module *m, size_t inst)
{
    if (!m->edits.state || m->edits.state[inst] != SPVCOND_EDIT_REPLACED)
        return NULL;
    return spvcond_edit_replacement_record(m, inst);
}
/* Replace instruction `inst` by `count` words (one or more whole instructions). */
spvcond_result spvcond_edit_replace(struct spvcond_module *m, size_t inst, const uint32_t *words, uint32_t count);
/* Insert whole instructions before instruction `before` (m->inst_count: at the end of the module).
 * Insertions at the same place come out in the order they were made. */
spvcond_result spvcond_edit_insert(struct spvcond_module *m, size_t before, const uint32_t *words, uint32_t count);
/* Insert at the end of a layout section. */
/* Insert at the start of a layout section (also when the section is empty: then where it would be). */
spvcond_result spvcond_edit_prepend_to_section(struct spvcond_module *m, int section, const uint32_t *words,
                                               uint32_t count);
spvcond_result spvcond_edit_append_to_section(struct spvcond_module *m, int section, const uint32_t *words,
                                              uint32_t count);
/* A fresh id above the bound. */
spvcond_result spvcond_edit_new_id(struct spvcond_module *m, uint32_t *id);

/* Preconditions of a pass that records edits: none recorded yet (edits are relative to the module as
 * read), and no instruction the grammar cannot see into. `what` names the pass in messages. Makes the
 * per-instruction edit state. */
spvcond_result spvcond_edit_begin_pass(struct spvcond_module *m, const char *what);
/* Drop every recorded edit: a failed pass leaves the module as it was read. */
void spvcond_edit_abandon(struct spvcond_module *m);

/* Encode a literal string into words (NUL-terminated, zero-padded). Returns the words written, or 0
 * if `capacity` is too small. */
uint32_t spvcond_encode_string(const char *s, uint32_t *out, uint32_t capacity);

#endif
