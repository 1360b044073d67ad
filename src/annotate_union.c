/* SPDX-License-Identifier: MIT */
/* Conditions as values: interned Or-lists of requirement sets and their union. Every function, item and
 * capability holds one handle, and each user or caller costs one union of bounded size, so annotating
 * stays linear in the module however many distinct requirement sets it has (dense bitsets over the
 * sets, per function and per item, took 10 s and 115 MB for 20000 kernels of distinct requirements). */
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "aspects.h"

/* Hash seeds: the kind + 1 (a list's seed was 1, an Or's 2). */
static bool
same_cond(const struct annotate *a, uint32_t h, uint8_t kind, const uint32_t *w, uint32_t n)
{
    const struct cond *c = &a->conds[h];
    if (c->kind != kind)
        return false;
    if (kind == COND_NOT)
        return c->x == w[0];
    if (kind != COND_LIST)
        return c->x == w[0] && c->y == w[1];
    return c->y == n && memcmp(a->cond_sets + c->x, w, n * sizeof(uint32_t)) == 0;
}

/* The handle of the list w[0..n) (Or, And: of handles w[0], w[1]; Not: of w[0]), added if new. */
static spvcond_result
intern(struct annotate *a, uint8_t kind, const uint32_t *w, uint32_t n, uint32_t *out)
{
    spvcond_context *ctx = a->m->ctx;
    bool is_list = kind == COND_LIST;
    uint64_t hash = spvcond_hash_u32(w, n, kind + 1u);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = spvcond_table_next(&a->cond_table, hash, &cursor)) != 0;) {
        if (a->cond_hashes[e - 1] == hash && same_cond(a, e - 1, kind, w, n)) {
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
    if (r == SPVCOND_OK && is_list)
        r = spvcond_grow(ctx, (void **)&a->cond_sets, &a->cond_sets_cap, a->cond_sets_len + n, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    uint32_t h = (uint32_t)a->cond_count;
    if (!is_list) {
        a->conds[h] = (struct cond){w[0], kind == COND_NOT ? 0 : w[1], 0, kind};
    } else {
        a->conds[h] = (struct cond){(uint32_t)a->cond_sets_len, n, 0, COND_LIST};
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
    a->conds[0] = (struct cond){0, 0, 0, COND_LIST}; /* "no user seen": never looked up (no list is empty) */
    a->cond_hashes[0] = 0;
    a->cond_count = 1;
    a->absorb_budget = COND_ABSORB_BUDGET;
    return spvcond_cond_of_set(a, 0, &a->always);
}

spvcond_result
spvcond_cond_of_set(struct annotate *a, uint32_t set, uint32_t *out)
{
    return intern(a, COND_LIST, &set, 1, out);
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
    if (cx->kind == COND_LIST && cy->kind == COND_LIST) {
        uint32_t merged[2 * COND_LIST_MAX];
        uint32_t n = merge_lists(a, cx, cy, merged);
        if (n <= COND_LIST_MAX)
            return intern(a, COND_LIST, merged, n, out);
    }
    uint32_t pair[2] = {x < y ? x : y, x < y ? y : x};
    return intern(a, COND_OR, pair, 2, out);
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

/* ---- guards: And, Not, and what a condition implies ----------------------------------------- */

/* A set's leaves are at most this many to be combined by distribution (the union of two sets). */
#define AND_LEAVES_MAX 64u

/* The set of the leaves of sets s and t together, ascending. */
static spvcond_result
union_set(struct annotate *a, uint32_t s, uint32_t t, uint32_t *out)
{
    uint32_t leaves[2 * AND_LEAVES_MAX];
    const struct reqset *ss = &a->sets[s], *st = &a->sets[t];
    const uint32_t *x = a->set_leaves + ss->first, *y = a->set_leaves + st->first;
    uint32_t i = 0, j = 0, n = 0;
    while (i < ss->count || j < st->count) {
        if (j == st->count || (i < ss->count && x[i] < y[j]))
            leaves[n++] = x[i++];
        else if (i == ss->count || y[j] < x[i])
            leaves[n++] = y[j++];
        else
            leaves[n++] = x[i++], j++;
    }
    return spvcond_annotate_set(a, leaves, n, out);
}

/* Drops from list[0..n) the sets another of them implies, then sorts; returns the length. */
static uint32_t
normalize(struct annotate *a, uint32_t *list, uint32_t n)
{
    qsort(list, n, sizeof(uint32_t), spvcond_compare_u32);
    uint32_t kept = 0;
    for (uint32_t k = 0; k < n; k++) {
        bool drop = k > 0 && list[k] == list[k - 1];
        for (uint32_t j = 0; j < n && !drop; j++)
            drop = list[j] != list[k] && implies(a, list[j], list[k]);
        if (!drop)
            list[kept++] = list[k];
    }
    return kept;
}

spvcond_result
spvcond_cond_and(struct annotate *a, uint32_t x, uint32_t y, uint32_t *out)
{
    if (x == y || y == 0 || y == a->always) {
        *out = x;
        return SPVCOND_OK;
    }
    if (x == 0 || x == a->always) {
        *out = y;
        return SPVCOND_OK;
    }
    const struct cond *cx = &a->conds[x], *cy = &a->conds[y];
    if (cx->kind == COND_LIST && cy->kind == COND_LIST && cx->y * cy->y <= COND_LIST_MAX) {
        uint32_t list[COND_LIST_MAX], n = 0;
        bool fits = true;
        for (uint32_t i = 0; i < cx->y && fits; i++)
            for (uint32_t j = 0; j < cy->y && fits; j++) {
                uint32_t s = a->cond_sets[cx->x + i], t = a->cond_sets[cy->x + j];
                fits = a->sets[s].count <= AND_LEAVES_MAX && a->sets[t].count <= AND_LEAVES_MAX;
                spvcond_result r = fits ? union_set(a, s, t, &list[n]) : SPVCOND_OK;
                if (r != SPVCOND_OK)
                    return r;
                n += fits;
                cx = &a->conds[x], cy = &a->conds[y]; /* interning may have moved the table */
            }
        if (fits)
            return intern(a, COND_LIST, list, normalize(a, list, n), out);
    }
    uint32_t pair[2] = {x < y ? x : y, x < y ? y : x};
    return intern(a, COND_AND, pair, 2, out);
}

/* The negation of leaf k. */
static spvcond_result
negated_leaf(struct annotate *a, uint32_t k, uint32_t *out)
{
    if (a->leaves[k].kind == LEAF_NOT) {
        *out = a->leaves[k].v[0];
        return SPVCOND_OK;
    }
    uint32_t v[4] = {k, 0, 0, 0};
    size_t index;
    spvcond_result r = spvcond_annotate_leaf(a, LEAF_NOT, v, &index);
    *out = (uint32_t)index;
    return r;
}

/* Not x, by De Morgan when x is one set (an Or of its leaves' negations) or an Or of single leaves (one
 * set of their negations); otherwise a Not node. */
spvcond_result
spvcond_cond_not(struct annotate *a, uint32_t x, uint32_t *out)
{
    const struct cond *c = &a->conds[x];
    if (c->kind == COND_NOT) {
        *out = c->x;
        return SPVCOND_OK;
    }
    bool singles = c->kind == COND_LIST && c->y > 1;
    for (uint32_t k = 0; singles && k < c->y; k++)
        singles = a->sets[a->cond_sets[c->x + k]].count == 1;
    bool one_set = c->kind == COND_LIST && c->y == 1 && a->sets[a->cond_sets[c->x]].count <= COND_LIST_MAX &&
                   a->sets[a->cond_sets[c->x]].count > 0;
    if (!singles && !one_set)
        return intern(a, COND_NOT, &x, 1, out);
    uint32_t list[COND_LIST_MAX], n = 0, leaves[COND_LIST_MAX];
    spvcond_result r = SPVCOND_OK;
    if (singles) { /* Not (a Or b) = Not a And Not b */
        for (uint32_t k = 0; k < a->conds[x].y && r == SPVCOND_OK; k++) {
            const struct reqset *s = &a->sets[a->cond_sets[a->conds[x].x + k]];
            r = negated_leaf(a, a->set_leaves[s->first], &leaves[n++]);
        }
        qsort(leaves, n, sizeof(uint32_t), spvcond_compare_u32);
        uint32_t set;
        if (r == SPVCOND_OK && (r = spvcond_annotate_set(a, leaves, n, &set)) == SPVCOND_OK)
            r = intern(a, COND_LIST, &set, 1, out);
        return r;
    }
    uint32_t s = a->cond_sets[c->x]; /* Not (a And b) = Not a Or Not b */
    for (uint32_t k = 0; k < a->sets[s].count && r == SPVCOND_OK; k++) {
        uint32_t leaf;
        if ((r = negated_leaf(a, a->set_leaves[a->sets[s].first + k], &leaf)) == SPVCOND_OK)
            r = spvcond_annotate_set(a, &leaf, 1, &list[n++]);
    }
    return r == SPVCOND_OK ? intern(a, COND_LIST, list, normalize(a, list, n), out) : r;
}

/* The aspects an OpSpecConstantCapabilitiesINTEL (true only on a device with every capability it lists)
 * stands for: Float64 is fp64, Float16 fp16, Int64Atomics atomic64, ImageBasic image. */
static void
constant_aspects(struct annotate *a, uint32_t id, spvcond_aspects *out)
{
    const uint32_t *w = spvcond_inst_words(a->m, spvcond_def(a->m, id));
    if (spvcond_opcode_of(w[0]) != SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL)
        return;
    for (uint32_t k = 3; k < spvcond_word_count_of(w[0]); k++) {
        uint32_t aspect = w[k] == SPVCOND_CAPABILITY_FLOAT64 ? SPVCOND_ASPECT_FP64
                          : w[k] == SPVCOND_CAPABILITY_FLOAT16 ? SPVCOND_ASPECT_FP16
                          : w[k] == SPVCOND_CAPABILITY_INT64_ATOMICS ? SPVCOND_ASPECT_ATOMIC64
                          : w[k] == SPVCOND_CAPABILITY_IMAGE_BASIC ? SPVCOND_ASPECT_IMAGE : SPVCOND_ASPECT_MAX;
        if (aspect < SPVCOND_ASPECT_MAX)
            spvcond_aspects_add(out, aspect);
    }
}

/* Depth of And/Or nodes looked through; deeper, nothing is claimed (which is always sound). */
#define IMPLIED_DEPTH 32

static void
implied(struct annotate *a, uint32_t cond, int depth, spvcond_aspects *out)
{
    const struct cond *c = &a->conds[cond];
    spvcond_aspects acc = {{0, 0}}, other;
    if (depth > IMPLIED_DEPTH || cond == 0 || c->kind == COND_NOT) {
        *out = acc;
        return;
    }
    if (c->kind == COND_AND || c->kind == COND_OR) {
        uint32_t y = c->y;
        implied(a, c->x, depth + 1, &acc);
        implied(a, y, depth + 1, &other);
        for (int k = 0; k < 2; k++)
            acc.bits[k] = a->conds[cond].kind == COND_AND ? acc.bits[k] | other.bits[k] : acc.bits[k] & other.bits[k];
        *out = acc;
        return;
    }
    for (uint32_t k = 0; k < c->y; k++) {
        const struct reqset *s = &a->sets[a->cond_sets[c->x + k]];
        spvcond_aspects mine = {{0, 0}};
        for (uint32_t j = 0; j < s->count; j++) {
            const struct leaf *l = &a->leaves[a->set_leaves[s->first + j]];
            if (l->kind == LEAF_ASPECT)
                spvcond_aspects_add(&mine, l->v[0]);
            else if (l->kind == LEAF_CONSTANT)
                constant_aspects(a, l->v[0], &mine);
        }
        for (int b = 0; b < 2; b++)
            acc.bits[b] = k == 0 ? mine.bits[b] : acc.bits[b] & mine.bits[b];
    }
    *out = acc;
}

void
spvcond_cond_implied_aspects(struct annotate *a, uint32_t cond, spvcond_aspects *out)
{
    implied(a, cond, 0, out);
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
