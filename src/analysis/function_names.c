/* SPDX-License-Identifier: MIT */
/* Functions by name (function_names.h). */
#include <stdio.h>
#include <string.h>

#include "analysis/function_names.h"
#include "ir/index.h"

static spvcond_result
add(struct spvcond_module *m, struct spvcond_function_names *n, const char *name, size_t function)
{
    spvcond_result r = spvcond_grow(m->ctx, (void **)&n->name, &n->cap, n->count + 1, sizeof(*n->name));
    if (r == SPVCOND_OK)
        r = spvcond_grow(m->ctx, (void **)&n->function, &n->function_cap, n->count + 1, sizeof(uint32_t));
    if (r == SPVCOND_OK)
        r = spvcond_grow(m->ctx, (void **)&n->hashes, &n->hash_cap, n->count + 1, sizeof(uint64_t));
    if (r != SPVCOND_OK)
        return r;
    n->name[n->count] = name;
    n->function[n->count] = function == SIZE_MAX ? UINT32_MAX : (uint32_t)function;
    n->hashes[n->count] = spvcond_hash_string(name);
    /* Equal names probe in insertion order, so the first one added is found first. */
    if ((r = spvcond_table_insert(m->ctx, &n->table, n->hashes, (uint32_t)n->count)) == SPVCOND_OK)
        n->count++;
    return r;
}

spvcond_result
spvcond_function_names_build(struct spvcond_module *m, const struct spvcond_callgraph *g,
                             struct spvcond_function_names *out)
{
    memset(out, 0, sizeof(*out));
    spvcond_result r = SPVCOND_OK;
    for (size_t k = 0; k < m->entry_point_count && r == SPVCOND_OK; k++) {
        size_t i = m->entry_points[k];
        r = add(m, out, spvcond_inst_string(m, i, 3), spvcond_callgraph_function(g, m, spvcond_inst_words(m, i)[2]));
    }
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++) {
        uint32_t id = m->functions[f].id, b, e;
        spvcond_refs_range(&m->names, id, &b, &e);
        for (uint32_t k = b; k < e && r == SPVCOND_OK; k++)
            if (spvcond_inst_opcode(m, m->names.inst[k]) == SPVCOND_OP_NAME)
                r = add(m, out, spvcond_inst_string(m, m->names.inst[k], 2), f);
        spvcond_refs_range(&m->decorations, id, &b, &e);
        for (uint32_t k = b; k < e && r == SPVCOND_OK; k++) {
            const uint32_t *w = spvcond_inst_words(m, m->decorations.inst[k]);
            if (spvcond_opcode_of(w[0]) == SPVCOND_OP_DECORATE && w[2] == SPVCOND_DECORATION_LINKAGE_ATTRIBUTES)
                r = add(m, out, spvcond_inst_string(m, m->decorations.inst[k], 3), f);
        }
    }
    return r;
}

size_t
spvcond_function_names_find(const struct spvcond_function_names *n, const char *name)
{
    uint64_t hash = spvcond_hash_string(name);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = spvcond_table_next(&n->table, hash, &cursor)) != 0;)
        if (n->hashes[e - 1] == hash && strcmp(n->name[e - 1], name) == 0)
            return n->function[e - 1] == UINT32_MAX ? SIZE_MAX : n->function[e - 1];
    return SIZE_MAX;
}

void
spvcond_function_names_release(struct spvcond_module *m, struct spvcond_function_names *n)
{
    spvcond_dealloc(m->ctx, n->name);
    spvcond_dealloc(m->ctx, n->function);
    spvcond_dealloc(m->ctx, n->hashes);
    spvcond_table_release(m->ctx, &n->table);
}

const char *
spvcond_function_label(const struct spvcond_module *m, size_t f, char buf[SPVCOND_LABEL_SIZE])
{
    const char *name = spvcond_name_of(m, m->functions[f].id);
    if (name)
        return name;
    snprintf(buf, SPVCOND_LABEL_SIZE, "%%%u", m->functions[f].id);
    return buf;
}
