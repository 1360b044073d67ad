/* SPDX-License-Identifier: MIT */
#include "ir/records.h"

#include <string.h>

#include "ir/edit.h"

spvcond_result
spvcond_record_append(struct spvcond_module *m, const char *text)
{
    size_t len = strlen(text);
    uint32_t cap = (uint32_t)(len / 4 + 2);
    uint32_t *w = spvcond_alloc_array(m->ctx, cap + 2, sizeof(uint32_t));
    if (!w)
        return spvcond_oom(m->ctx);
    spvcond_result r = SPVCOND_OK;
    uint32_t n;
    if (m->version >= SPVCOND_VERSION_1_1) {
        n = 1 + spvcond_encode_string(text, w + 1, cap);
        w[0] = spvcond_first_word(n, SPVCOND_OP_MODULE_PROCESSED);
    } else if ((r = spvcond_edit_new_id(m, &w[1])) == SPVCOND_OK) {
        n = 2 + spvcond_encode_string(text, w + 2, cap);
        w[0] = spvcond_first_word(n, SPVCOND_OP_STRING);
    }
    if (r == SPVCOND_OK)
        r = spvcond_edit_append_to_section(m, spvcond_record_section(m), w, n);
    spvcond_dealloc(m->ctx, w);
    return r;
}

const char *
spvcond_record_text(const struct spvcond_module *m, size_t i)
{
    /* Either may also be an instruction our grammar cannot see into (found by fuzzing): the opcode
     * decides, and the reader checked that a known instruction's string ends inside it. */
    uint32_t op = spvcond_inst_opcode(m, i);
    if (op == SPVCOND_OP_MODULE_PROCESSED)
        return spvcond_inst_string(m, i, 1);
    if (op != SPVCOND_OP_STRING)
        return NULL;
    const char *text = spvcond_inst_string(m, i, 2);
    return strncmp(text, SPVCOND_ANNOTATE_RECORD, strlen(SPVCOND_ANNOTATE_RECORD)) == 0 ? text : NULL;
}

spvcond_result
spvcond_records_each(const struct spvcond_module *m, spvcond_record_fn fn, void *user)
{
    static const int sections[] = {SPVCOND_SECTION_DEBUG_SOURCE, SPVCOND_SECTION_DEBUG_PROCESSED};
    for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++)
        for (size_t i = m->section[sections[s]]; i < m->section[sections[s] + 1]; i++) {
            const char *text = spvcond_record_text(m, i);
            spvcond_result r = text ? fn(user, i, text) : SPVCOND_OK;
            if (r != SPVCOND_OK)
                return r;
        }
    return SPVCOND_OK;
}
