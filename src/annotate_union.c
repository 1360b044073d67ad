/* SPDX-License-Identifier: MIT */
/* Conditions as values: interned Or-lists of requirement sets and their union. Every function, item and
 * capability holds one handle, and each user or caller costs one union of bounded size, so annotating
 * stays linear in the module however many distinct requirement sets it has (dense bitsets over the
 * sets, per function and per item, took 10 s and 115 MB for 20000 kernels of distinct requirements). */
#include <string.h>

#include "annotate.h"

enum { SEED_LIST = 1, SEED_OR = 2 };

static bool
same_cond(const struct annotate *a, uint32_t h, bool is_or, const uint32_t *w, uint32_t n)
{
    const struct cond *c = &a->conds[h];
    if (c->is_or != is_or)
        return false;
    if (is_or)
        return c->x == w[0] && c->y == w[1];
    return c->y == n && memcmp(a->cond_sets + c->x, w, n * sizeof(uint32_t)) == 0;
}

/* The handle of the list w[0..n) (is_or: the Or of handles w[0], w[1]), added if new. */
static spvcond_result
intern(struct annotate *a, bool is_or, const uint32_t *w, uint32_t n, uint32_t *out)
{
    spvcond_context *ctx = a->m->ctx;
    uint64_t hash = spvcond_hash_u32(w, n, is_or ? SEED_OR : SEED_LIST);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = spvcond_table_next(&a->cond_table, hash, &cursor)) != 0;) {
        if (a->cond_hashes[e - 1] == hash && same_cond(a, e - 1, is_or, w, n)) {
            *out = e - 1;
            return SPVCOND_OK;
        }
    }
    if (a->cond_count >= UINT32_MAX - 1)
        return spvcond_report(ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "more than 2^32 distinct conditions");
    spvcond_result r = spvcond_grow(ctx, (void **)&a->conds, &a->cond_cap, a->cond_count + 1, sizeof(*a->conds));
    if (r == SPVCOND_OK)
        r = spvcond_grow(ctx, (void **)&a->cond_hashes, &a->cond_hash_cap, a->cond_count + 1, sizeof(uint64_t));
    if (r == SPVCOND_OK && !is_or)
        r = spvcond_grow(ctx, (void **)&a->cond_sets, &a->cond_sets_cap, a->cond_sets_len + n, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    uint32_t h = (uint32_t)a->cond_count;
    if (is_or) {
        a->conds[h] = (struct cond){w[0], w[1], 0, true};
    } else {
        a->conds[h] = (struct cond){(uint32_t)a->cond_sets_len, n, 0, false};
        memcpy(a->cond_sets + a->cond_sets_len, w, n * sizeof(uint32_t));
        a->cond_sets_len += n;
    }
    a->cond_hashes[h] = hash;
    if ((r = spvcond_table_insert(ctx, &a->cond_table, a->cond_hashes, h)) != SPVCOND_OK)
        return r;
    a->cond_count++;
    *out = h;
    return SPVCOND_OK;
}

spvcond_result
spvcond_cond_init(struct annotate *a)
{
    spvcond_result r = spvcond_grow(a->m->ctx, (void **)&a->conds, &a->cond_cap, 1, sizeof(*a->conds));
    if (r == SPVCOND_OK)
        r = spvcond_grow(a->m->ctx, (void **)&a->cond_hashes, &a->cond_hash_cap, 1, sizeof(uint64_t));
    if (r != SPVCOND_OK)
        return r;
    a->conds[0] = (struct cond){0, 0, 0, false}; /* "no user seen": never looked up (no list is empty) */
    a->cond_hashes[0] = 0;
    a->cond_count = 1;
    a->absorb_budget = COND_ABSORB_BUDGET;
    return spvcond_cond_of_set(a, 0, &a->always);
}

spvcond_result
spvcond_cond_of_set(struct annotate *a, uint32_t set, uint32_t *out)
{
    return intern(a, false, &set, 1, out);
}

/* Are t's leaves among s's? Both lists ascend. */
static bool
implies(struct annotate *a, uint32_t t, uint32_t s)
{
    const struct reqset *st = &a->sets[t], *ss = &a->sets[s];
    if ((st->signature & ~ss->signature) || st->count > ss->count)
        return false;
    uint64_t cost = (uint64_t)st->count + ss->count;
    a->absorb_budget = a->absorb_budget > cost ? a->absorb_budget - cost : 0;
    const uint32_t *tl = a->set_leaves + st->first, *sl = a->set_leaves + ss->first;
    uint32_t j = 0;
    for (uint32_t k = 0; k < st->count; k++) {
        while (j < ss->count && sl[j] < tl[k])
            j++;
        if (j == ss->count || sl[j] != tl[k])
            return false;
    }
    return true;
}

/* Merge two lists (each ascending, none implied by another of its own) into out; a set of one list
 * implied by a different set of the other is dropped, while the budget lasts. Returns the length. */
static uint32_t
merge_lists(struct annotate *a, const struct cond *cx, const struct cond *cy, uint32_t *out)
{
    const uint32_t *x = a->cond_sets + cx->x, *y = a->cond_sets + cy->x;
    uint32_t nx = cx->y, ny = cy->y, i = 0, j = 0, n = 0;
    bool absorb = a->absorb_budget > 0;
    while (i < nx || j < ny) {
        uint32_t s;
        const uint32_t *other;
        uint32_t other_n;
        if (j == ny || (i < nx && x[i] < y[j])) {
            s = x[i++], other = y, other_n = ny;
        } else if (i == nx || y[j] < x[i]) {
            s = y[j++], other = x, other_n = nx;
        } else {
            out[n++] = x[i]; /* in both lists: nothing in either implies it */
            i++, j++;
            continue;
        }
        bool implied = false;
        for (uint32_t k = 0; absorb && k < other_n && !implied; k++)
            implied = other[k] != s && implies(a, other[k], s);
        if (!implied)
            out[n++] = s;
    }
    return n;
}

/* The union of two conditions neither of which contains the other trivially (spvcond_cond_union). */
static spvcond_result
union_of(struct annotate *a, uint32_t x, uint32_t y, uint32_t *out)
{
    const struct cond *cx = &a->conds[x], *cy = &a->conds[y];
    if (!cx->is_or && !cy->is_or) {
        uint32_t merged[2 * COND_LIST_MAX];
        uint32_t n = merge_lists(a, cx, cy, merged);
        if (n <= COND_LIST_MAX)
            return intern(a, false, merged, n, out);
    }
    uint32_t pair[2] = {x < y ? x : y, x < y ? y : x};
    return intern(a, true, pair, 2, out);
}

spvcond_result
spvcond_cond_union_new(struct annotate *a, uint32_t x, uint32_t y, uint32_t *out)
{
    if (!a->union_memo && !(a->union_memo = spvcond_alloc_array(a->m->ctx, UNION_MEMO_SIZE, sizeof(*a->union_memo))))
        return spvcond_oom(a->m->ctx);
    if (x > y) { /* the union is symmetric: one entry answers both orders */
        uint32_t t = x;
        x = y;
        y = t;
    }
    uint32_t hash = x * 0x9E3779B1u ^ y * 0x85EBCA77u;
    struct union_memo *e = &a->union_memo[(hash >> 20) & (UNION_MEMO_SIZE - 1)]; /* the top 12 bits */
    if (e->x == x && e->y == y) {
        *out = e->out;
        return SPVCOND_OK;
    }
    spvcond_result r = union_of(a, x, y, out);
    if (r == SPVCOND_OK)
        *e = (struct union_memo){x, y, *out};
    return r;
}

void
spvcond_cond_release(struct annotate *a)
{
    spvcond_context *ctx = a->m->ctx;
    spvcond_dealloc(ctx, a->conds);
    spvcond_dealloc(ctx, a->cond_sets);
    spvcond_table_release(ctx, &a->cond_table);
    spvcond_dealloc(ctx, a->cond_hashes);
    spvcond_dealloc(ctx, a->emit_stack);
    spvcond_dealloc(ctx, a->union_memo);
}
