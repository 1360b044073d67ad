/* SPDX-License-Identifier: MIT */
/* Emitting a module: untouched runs of instructions are copied whole, edits are spliced in. */
#include <stdlib.h>
#include <string.h>

#include "support/copy_words.h"
#include "ir/edit.h"
#include "ir/module.h"

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

/* Where the pieces go: a buffer of the size the edits counted, or the caller's function. */
struct sink {
    uint32_t *w;    /* the buffer, or NULL */
    size_t total;   /* the words the edits counted */
    size_t o;       /* words given so far */
    spvcond_emit_fn fn;
    void *user;
    bool stopped;   /* fn asked to stop */
};

/* Give n words; false once more than `total` would be given, or the caller stopped. */
static bool
put(struct sink *k, const uint32_t *src, size_t n)
{
    if (n > k->total - k->o)
        return false;
    if (k->w)
        spvcond_copy_words(k->w + k->o, src, n);
    else if (n && k->fn(k->user, src, n) != 0)
        return !(k->stopped = true);
    k->o += n;
    return true;
}

/* Prepare the edits for emission; the number of words the output will have. */
static size_t
emit_begin(spvcond_module *m)
{
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
    /* The edits kept count of the words they add and remove. */
    int64_t signed_total = (int64_t)m->word_count + e->word_delta;
    return signed_total >= SPVCOND_HEADER_WORDS ? (size_t)signed_total : 0;
}

/* The header, then every instruction or its edit, to the sink; checks the count the edits kept. */
static spvcond_result
emit_walk(spvcond_module *m, struct sink *k)
{
    struct spvcond_edits *e = &m->edits;
    uint32_t header[SPVCOND_HEADER_WORDS];
    memcpy(header, m->words, sizeof(header));
    header[3] = e->restored_bound ? e->restored_bound : e->bound > m->header_bound ? e->bound : m->header_bound;
    bool fits = put(k, header, SPVCOND_HEADER_WORDS); /* every piece is checked against the count */
    size_t next = 0, i = 0;
    while (i <= m->inst_count && fits) {
        while (next < e->insert_len && e->inserts[next].before == i && fits) {
            fits = put(k, e->pool + e->inserts[next].words, e->inserts[next].count);
            next++;
        }
        if (i == m->inst_count)
            break;
        if (e->state && e->state[i]) {
            const uint32_t *record = spvcond_edit_replacement(m, i);
            if (record)
                fits = put(k, record + 1, record[0]);
            i++;
            if (!record) /* deleted: so may be those up to the next insertion */
                i = spvcond_edit_state_run(e->state, SPVCOND_EDIT_DELETED, i,
                                           next < e->insert_len ? e->inserts[next].before : m->inst_count);
            continue;
        }
        /* The longest run of untouched instructions with no insertion inside it. */
        size_t stop = next < e->insert_len ? e->inserts[next].before : m->inst_count;
        size_t j = e->state ? spvcond_edit_state_run(e->state, SPVCOND_EDIT_KEPT, i + 1, stop) : stop;
        fits = put(k, m->words + m->inst[i], m->inst[j] - m->inst[i]);
        i = j;
    }
    if (k->stopped)
        return spvcond_report(m->ctx, SPVCOND_ERROR_STOPPED, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "emission stopped by the caller after %zu words", k->o);
    if (!fits || k->o != k->total)
        return spvcond_report(m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "internal error: the edits counted %zu output words, emitting gave %s%zu", k->total,
                              fits ? "" : "more than ", k->o);
    return SPVCOND_OK;
}

spvcond_result
spvcond_module_emit(spvcond_module *m, uint32_t **out_words, size_t *out_count)
{
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!out_words || !out_count)
        return spvcond_invalid(m->ctx, "spvcond_module_emit", "`words` and `word_count` must not be NULL");
    *out_words = NULL;
    *out_count = 0;
    struct sink k = {NULL, emit_begin(m), 0, NULL, NULL, false};
    /* One allocation of the size the edits counted; every word of it is written. */
    k.w = k.total <= SIZE_MAX / sizeof(uint32_t) ? spvcond_alloc(m->ctx, k.total * sizeof(uint32_t)) : NULL;
    if (!k.w)
        return spvcond_oom(m->ctx);
    spvcond_result r = emit_walk(m, &k);
    if (r != SPVCOND_OK) {
        spvcond_dealloc(m->ctx, k.w);
        return r;
    }
    *out_words = k.w;
    *out_count = k.o;
    return SPVCOND_OK;
}

spvcond_result
spvcond_module_emit_to(spvcond_module *m, spvcond_emit_fn fn, void *user, size_t *out_count)
{
    if (out_count)
        *out_count = 0;
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!fn)
        return spvcond_invalid(m->ctx, "spvcond_module_emit_to", "`fn` is NULL");
    struct sink k = {NULL, emit_begin(m), 0, fn, user, false};
    spvcond_result r = emit_walk(m, &k);
    if (r == SPVCOND_OK && out_count)
        *out_count = k.o;
    return r;
}
