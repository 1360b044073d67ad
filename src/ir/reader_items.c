/* SPDX-License-Identifier: MIT */
/* The reader's lists of the module-level items each function names (reader_items.h). */
#include "ir/reader_items.h"

#include <string.h>

#include "support/context.h"

static void
give_up(spvcond_context *ctx, struct item_notes *n)
{
    spvcond_dealloc(ctx, n->list);
    spvcond_dealloc(ctx, n->start);
    spvcond_dealloc(ctx, n->reads);
    spvcond_dealloc(ctx, n->reads_start);
    n->list = n->start = n->reads = n->reads_start = NULL;
    n->len = n->cap = n->start_cap = n->reads_len = n->reads_cap = n->reads_start_cap = 0;
    n->on = false;
    n->fn = 0;
}

/* Room for `need` words in *data, without a diagnostic (spvcond_items_finish reports); given up if none. */
static bool
grow_quietly(spvcond_context *ctx, struct item_notes *n, uint32_t **data, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 256;
    while (c < need && c <= SIZE_MAX / 2 / sizeof(uint32_t))
        c *= 2;
    uint32_t *p = c >= need ? spvcond_realloc(ctx, *data, c * sizeof(uint32_t)) : NULL;
    if (!p) {
        n->out_of_memory = true;
        give_up(ctx, n);
        return false;
    }
    *data = p;
    *cap = c;
    return true;
}

bool
spvcond_items_grow(spvcond_context *ctx, struct item_notes *n)
{
    return n->on && grow_quietly(ctx, n, &n->list, &n->cap, n->len + 1);
}

bool
spvcond_items_grow_reads(spvcond_context *ctx, struct item_notes *n)
{
    return n->on && grow_quietly(ctx, n, &n->reads, &n->reads_cap, n->reads_len + 1);
}

/* seen[k] for the `count` instructions before the code: 0 for an item (spvcond_item_runs), UINT32_MAX
 * for the others. */
static void
fill_items(const struct spvcond_module *m, uint32_t *seen, size_t count)
{
    size_t runs[2][2];
    spvcond_item_runs(m, runs);
    memset(seen, 0xFF, count * sizeof(uint32_t));
    for (size_t k = 0; k < 2; k++) {
        size_t end = runs[k][1] < count ? runs[k][1] : count;
        if (runs[k][0] < end)
            memset(seen + runs[k][0], 0, (end - runs[k][0]) * sizeof(uint32_t));
    }
}

void
spvcond_items_function(struct spvcond_module *m, struct item_notes *n, size_t index, size_t inst)
{
    if (!n->on)
        return;
    if (!n->seen) {
        if (!(n->seen = spvcond_alloc(m->ctx, (inst + 1) * sizeof(uint32_t)))) {
            n->out_of_memory = true;
            give_up(m->ctx, n);
            return;
        }
        /* Items: OpExtInstImport, and whatever stands among types, constants and variables
         * (spvcond_is_module_item); the debug and annotation sections' ids are none. */
        n->base = m->section[SPVCOND_SECTION_EXTINST_IMPORT];
        fill_items(m, n->seen, inst);
        /* The capabilities are all declared by now (they come first). */
        if (spvcond_declared_caps_build(m, false, &n->caps) != SPVCOND_OK) {
            n->out_of_memory = true;
            give_up(m->ctx, n);
            return;
        }
        for (uint32_t op = 0; op < SPVCOND_ITEMS_OPCODES; op++)
            n->reads_opcode[op] = spvcond_items_reads(n, op);
    }
    if (grow_quietly(m->ctx, n, &n->start, &n->start_cap, index + 2) &&
        grow_quietly(m->ctx, n, &n->reads_start, &n->reads_start_cap, index + 2)) {
        n->start[index] = (uint32_t)n->len;
        n->reads_start[index] = (uint32_t)n->reads_len;
        n->fn = (uint32_t)index + 1;
    }
}

void
spvcond_items_foreign_use(struct item_notes *n, const uint32_t *words, uint32_t word)
{
    if (!(word == 3 && spvcond_opcode_of(words[0]) == SPVCOND_OP_FUNCTION_CALL))
        n->on = false, n->fn = 0; /* the lists are freed at the end */
}

spvcond_result
spvcond_items_finish(struct spvcond_module *m, struct item_notes *n, spvcond_result r)
{
    spvcond_dealloc(m->ctx, n->seen);
    n->seen = NULL;
    spvcond_declared_caps_release(m, &n->caps);
    if (r == SPVCOND_OK && n->out_of_memory)
        r = spvcond_oom(m->ctx);
    if (r != SPVCOND_OK || !n->on || m->opaque_count != 0 || !n->start) {
        give_up(m->ctx, n);
        return r;
    }
    n->start[m->function_count] = (uint32_t)n->len;
    n->reads_start[m->function_count] = (uint32_t)n->reads_len;
    uint32_t *fit = n->len ? spvcond_realloc(m->ctx, n->list, n->len * sizeof(uint32_t)) : NULL;
    if (fit) /* a failed shrink keeps the larger block */
        n->list = fit;
    fit = n->reads_len ? spvcond_realloc(m->ctx, n->reads, n->reads_len * sizeof(uint32_t)) : NULL;
    if (fit)
        n->reads = fit;
    m->fn_item_start = n->start;
    m->fn_items = n->list;
    m->fn_read_start = n->reads_start;
    m->fn_reads = n->reads;
    n->start = n->list = n->reads = n->reads_start = NULL;
    return r;
}

void
spvcond_module_release_reads(struct spvcond_module *m)
{
    spvcond_dealloc(m->ctx, m->fn_reads);
    spvcond_dealloc(m->ctx, m->fn_read_start);
    m->fn_reads = m->fn_read_start = NULL;
}

void
spvcond_module_release_items(struct spvcond_module *m)
{
    spvcond_dealloc(m->ctx, m->fn_items);
    spvcond_dealloc(m->ctx, m->fn_item_start);
    m->fn_items = m->fn_item_start = NULL;
}
