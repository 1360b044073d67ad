/* Emitting a module: untouched runs of instructions are copied whole, edits are spliced in. */
#include <stdlib.h>
#include <string.h>

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

static bool
edited(const struct spvcond_edits *e, size_t i)
{
    return (e->deleted && e->deleted[i]) || (e->replacement && e->replacement[i]);
}

spvcond_result
spvcond_module_emit(spvcond_module *m, uint32_t **out_words, size_t *out_count)
{
    if (!m || !out_words || !out_count)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    *out_words = NULL;
    *out_count = 0;
    struct spvcond_edits *e = &m->edits;
    if (e->insert_len)
        qsort(e->inserts, e->insert_len, sizeof(*e->inserts), compare_insert);

    /* Size first, so the output is one allocation. */
    size_t total = SPVCOND_HEADER_WORDS;
    for (size_t k = 0; k < e->insert_len; k++)
        total += e->inserts[k].count;
    if (!e->deleted && !e->replacement) {
        total += m->word_count - SPVCOND_HEADER_WORDS;
    } else {
        for (size_t i = 0; i < m->inst_count; i++) {
            if (e->deleted && e->deleted[i])
                continue;
            /* The length from the offsets, not the opcode word: the copy below reads the words once. */
            total += e->replacement && e->replacement[i] ? e->pool[e->replacement[i] - 1] : m->inst[i + 1] - m->inst[i];
        }
    }
    uint32_t *w = total <= SIZE_MAX / sizeof(uint32_t) ? spvcond_alloc(m->ctx, total * sizeof(uint32_t)) : NULL; /* every word is written below */
    if (!w)
        return spvcond_oom(m->ctx);

    memcpy(w, m->words, SPVCOND_HEADER_WORDS * sizeof(uint32_t));
    w[3] = e->bound > m->header_bound ? e->bound : m->header_bound;
    size_t o = SPVCOND_HEADER_WORDS, next = 0;
    size_t i = 0;
    while (i <= m->inst_count) {
        while (next < e->insert_len && e->inserts[next].before == i) {
            memcpy(w + o, e->pool + e->inserts[next].words, e->inserts[next].count * sizeof(uint32_t));
            o += e->inserts[next].count;
            next++;
        }
        if (i == m->inst_count)
            break;
        if (edited(e, i)) {
            if (e->replacement && e->replacement[i]) {
                uint32_t at = e->replacement[i] - 1;
                memcpy(w + o, e->pool + at + 1, e->pool[at] * sizeof(uint32_t));
                o += e->pool[at];
            }
            i++;
            continue;
        }
        /* The longest run of untouched instructions with no insertion inside it. */
        size_t stop = next < e->insert_len ? e->inserts[next].before : m->inst_count;
        size_t j = i + 1;
        while (j < stop && !edited(e, j))
            j++;
        size_t words = m->inst[j] - m->inst[i];
        memcpy(w + o, m->words + m->inst[i], words * sizeof(uint32_t));
        o += words;
        i = j;
    }
    *out_words = w;
    *out_count = o;
    return SPVCOND_OK;
}
