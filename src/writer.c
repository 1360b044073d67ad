/* SPDX-License-Identifier: MIT */
/* Emitting a module: untouched runs of instructions are copied whole, edits are spliced in. */
#include <stdlib.h>
#include <string.h>

#include "copy_words.h"
#include "edit.h"
#include "module.h"

static int
compare_insert(const void *a, const void *b)
{
    const struct spvcond_insert *x = a, *y = b;
    if (x->before != y->before)
        return x->before < y->before ? -1 : 1;
    if (x->section != y->section)
        return x->section < y->section ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The first edited instruction in [i, stop), or stop: eight states at a time. */
static size_t
next_edited(const uint8_t *state, size_t i, size_t stop)
{
    if (!state)
        return stop;
    for (uint64_t eight; i + 8 <= stop; i += 8) {
        memcpy(&eight, state + i, 8);
        if (eight)
            break;
    }
    while (i < stop && !state[i])
        i++;
    return i;
}

/* Append n words at *o if they fit in `total`. */
static bool
put(uint32_t *w, size_t total, size_t *o, const uint32_t *src, size_t n)
{
    if (n > total - *o)
        return false;
    spvcond_copy_words(w + *o, src, n);
    *o += n;
    return true;
}

spvcond_result
spvcond_module_emit(spvcond_module *m, uint32_t **out_words, size_t *out_count)
{
    if (!m || !out_words || !out_count)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    *out_words = NULL;
    *out_count = 0;
    struct spvcond_edits *e = &m->edits;
    /* Insertions are mostly made in place order (a pass appends to one section at a time). */
    if (e->inserts_unordered) {
        qsort(e->inserts, e->insert_len, sizeof(*e->inserts), compare_insert);
        e->inserts_unordered = false;
    }
    /* The edit lists grew while the pass's temporaries lived: moved down, they leave room for the output. */
    e->pool = spvcond_move_down(m->ctx, e->pool);
    e->inserts = spvcond_move_down(m->ctx, e->inserts);
    e->replaced = spvcond_move_down(m->ctx, e->replaced);
    /* The edits kept count of the words they add and remove, so the output is one allocation. */
    int64_t signed_total = (int64_t)m->word_count + e->word_delta;
    size_t total = signed_total >= SPVCOND_HEADER_WORDS ? (size_t)signed_total : 0;
    uint32_t *w = total <= SIZE_MAX / sizeof(uint32_t) ? spvcond_alloc(m->ctx, total * sizeof(uint32_t)) : NULL; /* every word is written below */
    if (!w)
        return spvcond_oom(m->ctx);

    memcpy(w, m->words, SPVCOND_HEADER_WORDS * sizeof(uint32_t));
    w[3] = e->restored_bound ? e->restored_bound : e->bound > m->header_bound ? e->bound : m->header_bound;
    size_t o = SPVCOND_HEADER_WORDS, next = 0;
    size_t i = 0;
    bool fits = true; /* every copy is checked against the size the edits counted */
    while (i <= m->inst_count && fits) {
        while (next < e->insert_len && e->inserts[next].before == i && fits) {
            fits = put(w, total, &o, e->pool + e->inserts[next].words, e->inserts[next].count);
            next++;
        }
        if (i == m->inst_count)
            break;
        if (e->state && e->state[i]) {
            const uint32_t *record = spvcond_edit_replacement(m, i);
            if (record)
                fits = put(w, total, &o, record + 1, record[0]);
            i++;
            continue;
        }
        /* The longest run of untouched instructions with no insertion inside it. */
        size_t stop = next < e->insert_len ? e->inserts[next].before : m->inst_count;
        size_t j = next_edited(e->state, i + 1, stop);
        fits = put(w, total, &o, m->words + m->inst[i], m->inst[j] - m->inst[i]);
        i = j;
    }
    if (!fits || o != total) {
        spvcond_dealloc(m->ctx, w);
        return spvcond_report(m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "internal error: the edits counted %zu output words, emitting gave %s%zu", total,
                              fits ? "" : "more than ", o);
    }
    *out_words = w;
    *out_count = o;
    return SPVCOND_OK;
}
