/* SPDX-License-Identifier: MIT */
/* The condition store (condition_store.h): interned leaves, requirement sets and Or-lists of sets, their
 * union, And and Not. Dense bitsets over the sets, per function and per item, took 10 s and 115 MB for
 * 20000 kernels of distinct requirements; interned lists keep annotating linear. */
#include <stdlib.h>
#include <string.h>

#include "annotate/condition_store.h"

void
spvcond_store_init(struct condition_store *cs, const struct spvcond_module *m)
{
    memset(cs, 0, sizeof(*cs));
    cs->ctx = m->ctx;
    cs->m = m;
}

/* ---- leaves and sets ------------------------------------------------------------------------ */

spvcond_result
spvcond_store_leaf(struct condition_store *cs, uint8_t kind, const uint32_t v[4], size_t *out)
{
    bool aspect = kind == LEAF_ASPECT && v[0] < SPVCOND_ASPECT_MAX && (v[1] | v[2] | v[3]) == 0;
    if (aspect && cs->aspect_leaf[v[0]]) {
        *out = cs->aspect_leaf[v[0]] - 1u;
        return SPVCOND_OK;
    }
    const uint32_t key[5] = {kind, v[0], v[1], v[2], v[3]};
    uint64_t hash = spvcond_hash_u32(key, 5, 0);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = spvcond_table_next(&cs->leaf_table, hash, &cursor)) != 0;) {
        const struct leaf *l = &cs->leaves[e - 1];
        if (l->kind == kind && memcmp(l->v, v, sizeof(l->v)) == 0) {
            *out = e - 1;
            return SPVCOND_OK;
        }
    }
    spvcond_result r = spvcond_grow(cs->ctx, (void **)&cs->leaves, &cs->leaf_cap, cs->leaf_count + 1, sizeof(*cs->leaves));
    if (r == SPVCOND_OK)
        r = spvcond_grow(cs->ctx, (void **)&cs->leaf_hashes, &cs->leaf_hash_cap, cs->leaf_count + 1, sizeof(uint64_t));
    if (r != SPVCOND_OK)
        return r;
    struct leaf *l = &cs->leaves[cs->leaf_count];
    *l = (struct leaf){kind, false, false, {v[0], v[1], v[2], v[3]}, 0, 0};
    uint32_t constant = kind == LEAF_ASPECT && cs->aspect_constant ? cs->aspect_constant[v[0]]
                        : kind == LEAF_CAPABILITY && v[1] < SPVCOND_NO_DECLARED_CAP ? cs->capability_constant[v[1]] : 0;
    if (constant) {
        l->existing = true;
        l->id = constant;
        spvcond_spec_id_of(cs->m, constant, &l->spec_id);
    }
    cs->leaf_hashes[cs->leaf_count] = hash;
    if ((r = spvcond_table_insert(cs->ctx, &cs->leaf_table, cs->leaf_hashes, (uint32_t)cs->leaf_count)) != SPVCOND_OK)
        return r;
    if (aspect)
        cs->aspect_leaf[v[0]] = (uint32_t)cs->leaf_count + 1u;
    *out = cs->leaf_count++;
    return SPVCOND_OK;
}

spvcond_result
spvcond_store_set(struct condition_store *cs, const uint32_t *leaves, uint32_t n, uint32_t *index)
{
    uint64_t hash = spvcond_hash_u32(leaves, n, 0);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = spvcond_table_next(&cs->set_table, hash, &cursor)) != 0;) {
        const struct reqset *s = &cs->sets[e - 1];
        if (cs->set_hashes[e - 1] == hash && s->count == n &&
            memcmp(cs->set_leaves + s->first, leaves, n * sizeof(uint32_t)) == 0) {
            *index = e - 1;
            return SPVCOND_OK;
        }
    }
    spvcond_context *ctx = cs->ctx;
    spvcond_result r = spvcond_grow(ctx, (void **)&cs->sets, &cs->set_cap, cs->set_count + 1, sizeof(*cs->sets));
    if (r == SPVCOND_OK)
        r = spvcond_grow(ctx, (void **)&cs->set_hashes, &cs->set_hash_cap, cs->set_count + 1, sizeof(uint64_t));
    if (r == SPVCOND_OK)
        r = spvcond_grow(ctx, (void **)&cs->set_leaves, &cs->set_leaves_cap, cs->set_leaves_len + n + 1, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    uint64_t signature = 0;
    for (uint32_t k = 0; k < n; k++)
        signature |= UINT64_C(1) << (leaves[k] % 64);
    memcpy(cs->set_leaves + cs->set_leaves_len, leaves, n * sizeof(uint32_t));
    cs->sets[cs->set_count] = (struct reqset){(uint32_t)cs->set_leaves_len, n, signature, 0, 0};
    cs->set_leaves_len += n;
    cs->set_hashes[cs->set_count] = hash;
    if ((r = spvcond_table_insert(ctx, &cs->set_table, cs->set_hashes, (uint32_t)cs->set_count)) != SPVCOND_OK)
        return r;
    *index = (uint32_t)cs->set_count++;
    return SPVCOND_OK;
}

/* ---- conditions ---------------------------------------------------------------------------- */

/* Hash seeds: the kind + 1 (a list's seed was 1, an Or's 2). */
static bool
same_cond(const struct condition_store *cs, uint32_t h, uint8_t kind, const uint32_t *w, uint32_t n)
{
    const struct cond *c = &cs->conds[h];
    if (c->kind != kind)
        return false;
    if (kind == COND_NOT)
        return c->x == w[0];
    if (kind != COND_LIST)
        return c->x == w[0] && c->y == w[1];
    return c->y == n && memcmp(cs->cond_sets + c->x, w, n * sizeof(uint32_t)) == 0;
}

/* The handle of the list w[0..n) (Or, And: of handles w[0], w[1]; Not: of w[0]), added if new. */
static spvcond_result
intern(struct condition_store *cs, uint8_t kind, const uint32_t *w, uint32_t n, uint32_t *out)
{
    spvcond_context *ctx = cs->ctx;
    bool is_list = kind == COND_LIST;
    uint64_t hash = spvcond_hash_u32(w, n, kind + 1u);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = spvcond_table_next(&cs->cond_table, hash, &cursor)) != 0;) {
        if (cs->cond_hashes[e - 1] == hash && same_cond(cs, e - 1, kind, w, n)) {
            *out = e - 1;
            return SPVCOND_OK;
        }
    }
    if (cs->cond_count >= UINT32_MAX - 1)
        return spvcond_report(ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "more than 2^32 distinct conditions");
    spvcond_result r = spvcond_grow(ctx, (void **)&cs->conds, &cs->cond_cap, cs->cond_count + 1, sizeof(*cs->conds));
    if (r == SPVCOND_OK)
        r = spvcond_grow(ctx, (void **)&cs->cond_hashes, &cs->cond_hash_cap, cs->cond_count + 1, sizeof(uint64_t));
    if (r == SPVCOND_OK && is_list)
        r = spvcond_grow(ctx, (void **)&cs->cond_sets, &cs->cond_sets_cap, cs->cond_sets_len + n, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    uint32_t h = (uint32_t)cs->cond_count;
    if (!is_list) {
        cs->conds[h] = (struct cond){w[0], kind == COND_NOT ? 0 : w[1], 0, kind};
    } else {
        cs->conds[h] = (struct cond){(uint32_t)cs->cond_sets_len, n, 0, COND_LIST};
        memcpy(cs->cond_sets + cs->cond_sets_len, w, n * sizeof(uint32_t));
        cs->cond_sets_len += n;
    }
    cs->cond_hashes[h] = hash;
    if ((r = spvcond_table_insert(ctx, &cs->cond_table, cs->cond_hashes, h)) != SPVCOND_OK)
        return r;
    cs->cond_count++;
    *out = h;
    return SPVCOND_OK;
}

spvcond_result
spvcond_cond_init(struct condition_store *cs)
{
    spvcond_result r = spvcond_grow(cs->ctx, (void **)&cs->conds, &cs->cond_cap, 1, sizeof(*cs->conds));
    if (r == SPVCOND_OK)
        r = spvcond_grow(cs->ctx, (void **)&cs->cond_hashes, &cs->cond_hash_cap, 1, sizeof(uint64_t));
    if (r != SPVCOND_OK)
        return r;
    cs->conds[0] = (struct cond){0, 0, 0, COND_LIST}; /* "no user seen": never looked up (no list is empty) */
    cs->cond_hashes[0] = 0;
    cs->cond_count = 1;
    cs->absorb_budget = COND_ABSORB_BUDGET;
    return spvcond_cond_of_set(cs, 0, &cs->always);
}

spvcond_result
spvcond_cond_of_set(struct condition_store *cs, uint32_t set, uint32_t *out)
{
    if (cs->sets[set].cond) {
        *out = cs->sets[set].cond - 1u;
        return SPVCOND_OK;
    }
    spvcond_result r = intern(cs, COND_LIST, &set, 1, out);
    if (r == SPVCOND_OK)
        cs->sets[set].cond = *out + 1u; /* below 2^32 - 1: intern refuses more handles */
    return r;
}

/* Are t's leaves among s's? Both lists ascend. */
static bool
implies(struct condition_store *cs, uint32_t t, uint32_t s)
{
    const struct reqset *st = &cs->sets[t], *ss = &cs->sets[s];
    if ((st->signature & ~ss->signature) || st->count > ss->count)
        return false;
    uint64_t cost = (uint64_t)st->count + ss->count;
    cs->absorb_budget = cs->absorb_budget > cost ? cs->absorb_budget - cost : 0;
    const uint32_t *tl = cs->set_leaves + st->first, *sl = cs->set_leaves + ss->first;
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
merge_lists(struct condition_store *cs, const struct cond *cx, const struct cond *cy, uint32_t *out)
{
    const uint32_t *x = cs->cond_sets + cx->x, *y = cs->cond_sets + cy->x;
    uint32_t nx = cx->y, ny = cy->y, i = 0, j = 0, n = 0;
    bool absorb = cs->absorb_budget > 0;
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
            implied = other[k] != s && implies(cs, other[k], s);
        if (!implied)
            out[n++] = s;
    }
    return n;
}

/* The union of two conditions neither of which contains the other trivially (spvcond_cond_union). */
static spvcond_result
union_of(struct condition_store *cs, uint32_t x, uint32_t y, uint32_t *out)
{
    const struct cond *cx = &cs->conds[x], *cy = &cs->conds[y];
    if (cx->kind == COND_LIST && cy->kind == COND_LIST) {
        uint32_t merged[2 * COND_LIST_MAX];
        uint32_t n = merge_lists(cs, cx, cy, merged);
        if (n <= COND_LIST_MAX)
            return intern(cs, COND_LIST, merged, n, out);
    }
    uint32_t pair[2] = {x < y ? x : y, x < y ? y : x};
    return intern(cs, COND_OR, pair, 2, out);
}

spvcond_result
spvcond_cond_union_new(struct condition_store *cs, uint32_t x, uint32_t y, uint32_t *out)
{
    uint32_t bits = !cs->union_memo ? UNION_MEMO_FIRST_BITS
                    : cs->union_memo_bits < UNION_MEMO_BITS && cs->union_memo_made >= 1u << cs->union_memo_bits
                        ? cs->union_memo_bits + 2 : 0;
    if (bits) { /* made, or grown (what it held is forgotten: it only spares work) */
        struct union_memo *memo = spvcond_alloc_array(cs->ctx, (size_t)1 << bits, sizeof(*memo));
        if (!memo)
            return spvcond_oom(cs->ctx);
        spvcond_dealloc(cs->ctx, cs->union_memo);
        cs->union_memo = memo;
        cs->union_memo_bits = bits;
        cs->union_memo_made = 0;
    }
    if (x > y) { /* the union is symmetric: one entry answers both orders */
        uint32_t t = x;
        x = y;
        y = t;
    }
    uint32_t hash = x * 0x9E3779B1u ^ y * 0x85EBCA77u;
    struct union_memo *e = &cs->union_memo[hash >> (32 - cs->union_memo_bits)]; /* the top bits */
    if (e->x == x && e->y == y) {
        *out = e->out;
        return SPVCOND_OK;
    }
    spvcond_result r = union_of(cs, x, y, out);
    if (r == SPVCOND_OK) {
        *e = (struct union_memo){x, y, *out};
        cs->union_memo_made++;
    }
    return r;
}

/* ---- guards: And, Not, and what a condition implies ----------------------------------------- */

/* A set's leaves are at most this many to be combined by distribution (the union of two sets). */
#define AND_LEAVES_MAX 64u

/* The set of the leaves of sets s and t together, ascending. */
static spvcond_result
union_set(struct condition_store *cs, uint32_t s, uint32_t t, uint32_t *out)
{
    uint32_t leaves[2 * AND_LEAVES_MAX];
    const struct reqset *ss = &cs->sets[s], *st = &cs->sets[t];
    const uint32_t *x = cs->set_leaves + ss->first, *y = cs->set_leaves + st->first;
    uint32_t i = 0, j = 0, n = 0;
    while (i < ss->count || j < st->count) {
        if (j == st->count || (i < ss->count && x[i] < y[j]))
            leaves[n++] = x[i++];
        else if (i == ss->count || y[j] < x[i])
            leaves[n++] = y[j++];
        else
            leaves[n++] = x[i++], j++;
    }
    return spvcond_store_set(cs, leaves, n, out);
}

/* Drops from list[0..n) the sets another of them implies, then sorts; returns the length. */
static uint32_t
normalize(struct condition_store *cs, uint32_t *list, uint32_t n)
{
    qsort(list, n, sizeof(uint32_t), spvcond_compare_u32);
    uint32_t kept = 0;
    for (uint32_t k = 0; k < n; k++) {
        bool drop = k > 0 && list[k] == list[k - 1];
        for (uint32_t j = 0; j < n && !drop; j++)
            drop = list[j] != list[k] && implies(cs, list[j], list[k]);
        if (!drop)
            list[kept++] = list[k];
    }
    return kept;
}

spvcond_result
spvcond_cond_and(struct condition_store *cs, uint32_t x, uint32_t y, uint32_t *out)
{
    if (x == y || y == 0 || y == cs->always) {
        *out = x;
        return SPVCOND_OK;
    }
    if (x == 0 || x == cs->always) {
        *out = y;
        return SPVCOND_OK;
    }
    const struct cond *cx = &cs->conds[x], *cy = &cs->conds[y];
    if (cx->kind == COND_LIST && cy->kind == COND_LIST && cx->y * cy->y <= COND_LIST_MAX) {
        uint32_t list[COND_LIST_MAX], n = 0;
        bool fits = true;
        for (uint32_t i = 0; i < cx->y && fits; i++)
            for (uint32_t j = 0; j < cy->y && fits; j++) {
                uint32_t s = cs->cond_sets[cx->x + i], t = cs->cond_sets[cy->x + j];
                fits = cs->sets[s].count <= AND_LEAVES_MAX && cs->sets[t].count <= AND_LEAVES_MAX;
                spvcond_result r = fits ? union_set(cs, s, t, &list[n]) : SPVCOND_OK;
                if (r != SPVCOND_OK)
                    return r;
                n += fits;
                cx = &cs->conds[x], cy = &cs->conds[y]; /* interning may have moved the table */
            }
        if (fits)
            return intern(cs, COND_LIST, list, normalize(cs, list, n), out);
    }
    uint32_t pair[2] = {x < y ? x : y, x < y ? y : x};
    return intern(cs, COND_AND, pair, 2, out);
}

/* The negation of leaf k. */
static spvcond_result
negated_leaf(struct condition_store *cs, uint32_t k, uint32_t *out)
{
    if (cs->leaves[k].kind == LEAF_NOT) {
        *out = cs->leaves[k].v[0];
        return SPVCOND_OK;
    }
    uint32_t v[4] = {k, 0, 0, 0};
    size_t index;
    spvcond_result r = spvcond_store_leaf(cs, LEAF_NOT, v, &index);
    *out = (uint32_t)index;
    return r;
}

/* Not x, by De Morgan when x is one set (an Or of its leaves' negations) or an Or of single leaves (one
 * set of their negations); otherwise a Not node. */
spvcond_result
spvcond_cond_not(struct condition_store *cs, uint32_t x, uint32_t *out)
{
    const struct cond *c = &cs->conds[x];
    if (c->kind == COND_NOT) {
        *out = c->x;
        return SPVCOND_OK;
    }
    bool singles = c->kind == COND_LIST && c->y > 1;
    for (uint32_t k = 0; singles && k < c->y; k++)
        singles = cs->sets[cs->cond_sets[c->x + k]].count == 1;
    bool one_set = c->kind == COND_LIST && c->y == 1 && cs->sets[cs->cond_sets[c->x]].count <= COND_LIST_MAX &&
                   cs->sets[cs->cond_sets[c->x]].count > 0;
    if (!singles && !one_set)
        return intern(cs, COND_NOT, &x, 1, out);
    uint32_t list[COND_LIST_MAX], n = 0, leaves[COND_LIST_MAX];
    spvcond_result r = SPVCOND_OK;
    if (singles) { /* Not (a Or b) = Not a And Not b */
        for (uint32_t k = 0; k < cs->conds[x].y && r == SPVCOND_OK; k++) {
            const struct reqset *s = &cs->sets[cs->cond_sets[cs->conds[x].x + k]];
            r = negated_leaf(cs, cs->set_leaves[s->first], &leaves[n++]);
        }
        qsort(leaves, n, sizeof(uint32_t), spvcond_compare_u32);
        uint32_t set;
        if (r == SPVCOND_OK && (r = spvcond_store_set(cs, leaves, n, &set)) == SPVCOND_OK)
            r = intern(cs, COND_LIST, &set, 1, out);
        return r;
    }
    uint32_t s = cs->cond_sets[c->x]; /* Not (a And b) = Not a Or Not b */
    for (uint32_t k = 0; k < cs->sets[s].count && r == SPVCOND_OK; k++) {
        uint32_t leaf;
        if ((r = negated_leaf(cs, cs->set_leaves[cs->sets[s].first + k], &leaf)) == SPVCOND_OK)
            r = spvcond_store_set(cs, &leaf, 1, &list[n++]);
    }
    return r == SPVCOND_OK ? intern(cs, COND_LIST, list, normalize(cs, list, n), out) : r;
}

/* The aspects an OpSpecConstantCapabilitiesINTEL (true only on a device with every capability it lists)
 * stands for, as the aspect table says (Float64 is fp64, Float16 fp16, Int64Atomics atomic64, ImageBasic
 * image). */
static void
constant_aspects(const struct condition_store *cs, uint32_t id, spvcond_aspects *out)
{
    const uint32_t *w = spvcond_inst_words(cs->m, spvcond_def(cs->m, id));
    if (spvcond_opcode_of(w[0]) != SPVCOND_OP_SPEC_CONSTANT_CAPABILITIES_INTEL)
        return;
    for (uint32_t k = 3; k < spvcond_word_count_of(w[0]); k++) {
        uint32_t aspect = spvcond_aspect_of_capability(w[k], false);
        if (aspect < SPVCOND_ASPECT_MAX)
            spvcond_aspects_add(out, aspect);
    }
}

/* Depth of And/Or nodes looked through; deeper, nothing is claimed (which is always sound). */
#define IMPLIED_DEPTH 32

static void
implied(const struct condition_store *cs, uint32_t cond, int depth, spvcond_aspects *out)
{
    const struct cond *c = &cs->conds[cond];
    spvcond_aspects acc = {{0, 0}}, other;
    if (depth > IMPLIED_DEPTH || cond == 0 || c->kind == COND_NOT) {
        *out = acc;
        return;
    }
    if (c->kind == COND_AND || c->kind == COND_OR) {
        uint32_t y = c->y;
        implied(cs, c->x, depth + 1, &acc);
        implied(cs, y, depth + 1, &other);
        for (int k = 0; k < SPVCOND_REQUIREMENT_WORDS; k++)
            acc.bits[k] = cs->conds[cond].kind == COND_AND ? acc.bits[k] | other.bits[k] : acc.bits[k] & other.bits[k];
        *out = acc;
        return;
    }
    for (uint32_t k = 0; k < c->y; k++) {
        const struct reqset *s = &cs->sets[cs->cond_sets[c->x + k]];
        spvcond_aspects mine = {{0, 0}};
        for (uint32_t j = 0; j < s->count; j++) {
            const struct leaf *l = &cs->leaves[cs->set_leaves[s->first + j]];
            if (l->kind == LEAF_ASPECT)
                spvcond_aspects_add(&mine, l->v[0]);
            else if (l->kind == LEAF_CAPABILITY)
                mine.bits[2] |= spvcond_declared_cap_done(l->v[1]);
            else if (l->kind == LEAF_CONSTANT)
                constant_aspects(cs, l->v[0], &mine);
        }
        for (int b = 0; b < SPVCOND_REQUIREMENT_WORDS; b++)
            acc.bits[b] = k == 0 ? mine.bits[b] : acc.bits[b] & mine.bits[b];
    }
    *out = acc;
}

void
spvcond_cond_implied_aspects(const struct condition_store *cs, uint32_t cond, spvcond_aspects *out)
{
    implied(cs, cond, 0, out);
}

void
spvcond_store_release(struct condition_store *cs)
{
    spvcond_context *ctx = cs->ctx;
    spvcond_dealloc(ctx, cs->leaves);
    spvcond_table_release(ctx, &cs->leaf_table);
    spvcond_dealloc(ctx, cs->leaf_hashes);
    spvcond_dealloc(ctx, cs->sets);
    spvcond_dealloc(ctx, cs->set_leaves);
    spvcond_table_release(ctx, &cs->set_table);
    spvcond_dealloc(ctx, cs->set_hashes);
    spvcond_dealloc(ctx, cs->conds);
    spvcond_dealloc(ctx, cs->cond_sets);
    spvcond_table_release(ctx, &cs->cond_table);
    spvcond_dealloc(ctx, cs->cond_hashes);
    spvcond_dealloc(ctx, cs->union_memo);
}
