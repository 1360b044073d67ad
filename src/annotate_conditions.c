/* The producer, part two: which requirement sets reach each function, and the condition trees:
 * one OpSpecConstantTrue per requirement, And per set, Or per distinct group of sets. */
#include <stdio.h>
#include <string.h>

#include "annotate.h"
#include "aspects.h"

spvcond_result
spvcond_annotate_push(struct annotate *a, const uint32_t *w, uint32_t n)
{
    spvcond_result r = spvcond_grow(a->m->ctx, (void **)&a->defer, &a->defer_cap, a->defer_len + n, sizeof(uint32_t));
    if (r == SPVCOND_OK) {
        memcpy(a->defer + a->defer_len, w, n * sizeof(uint32_t));
        a->defer_len += n;
    }
    return r;
}

/* ---- reach: which requirement sets reach each function ------------------------------------- */

spvcond_result
spvcond_annotate_reach(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct spvcond_inference *inf = &a->inf;
    a->reach = spvcond_alloc_array(m->ctx, (m->function_count + 1) * a->set_words, sizeof(uint64_t));
    if (!a->reach)
        return spvcond_oom(m->ctx);
    for (size_t f = 0; f < m->function_count; f++)
        if (a->root_set[f])
            bitset_set(spvcond_annotate_reach_of(a, f), a->root_set[f] - 1);
    /* Components callers-first: the reverse of the order they were found in. */
    for (size_t c = inf->scc_count; c-- > 0;) {
        uint64_t *acc = a->scratch;
        memset(acc, 0, a->set_words * sizeof(uint64_t));
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++)
            bitset_or(acc, spvcond_annotate_reach_of(a, inf->scc_members[k]), a->set_words);
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++) {
            uint32_t f = inf->scc_members[k];
            memcpy(spvcond_annotate_reach_of(a, f), acc, a->set_words * sizeof(uint64_t));
            for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1]; e++)
                if (inf->scc_of[a->g.callees[e]] != c)
                    bitset_or(spvcond_annotate_reach_of(a, a->g.callees[e]), acc, a->set_words);
        }
    }
    /* Functions no root reaches are left alone: unconditional. */
    for (size_t f = 0; f < m->function_count; f++)
        if (bitset_empty(spvcond_annotate_reach_of(a, f), a->set_words))
            bitset_set(spvcond_annotate_reach_of(a, f), a->empty_set);
    return SPVCOND_OK;
}

/* ---- condition nodes ------------------------------------------------------------------------ */

static spvcond_result
new_node(struct annotate *a, uint32_t opcode, uint32_t lhs, uint32_t rhs, uint32_t *id)
{
    spvcond_result r = spvcond_edit_new_id(a->m, id);
    if (r != SPVCOND_OK)
        return r;
    a->stats.spec_constants++;
    uint32_t w[6] = {(6u << 16) | 52u, a->bool_type, *id, opcode, lhs, rhs};
    return spvcond_annotate_push(a, w, 6);
}

/* The And of each set's leaves (a one-leaf set is its leaf). */
spvcond_result
spvcond_annotate_emit_leaves(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_result r;
    for (size_t k = 0; k < a->leaf_count; k++) {
        struct leaf *l = &a->leaves[k];
        if ((r = spvcond_edit_new_id(m, &l->id)) != SPVCOND_OK)
            return r;
        /* SpecIds above the base, skipping any the module uses and the reserved one. */
        for (;;) {
            uint32_t candidate = a->next_spec_id++;
            bool taken = candidate == RESERVED_SPEC_ID;
            for (size_t s = 0; s < m->spec_id_count && !taken; s++)
                taken = m->spec_ids[s].spec_id == candidate;
            if (!taken) {
                l->spec_id = candidate;
                break;
            }
        }
        uint32_t c[3] = {(3u << 16) | 48u, a->bool_type, l->id};
        uint32_t d[4] = {(4u << 16) | 71u, l->id, 1 /* SpecId */, l->spec_id};
        char name[96];
        if (l->kind == LEAF_ASPECT) {
            const char *an = spvcond_aspect_name(l->v[0]);
            if (an)
                snprintf(name, sizeof(name), "spvcond.aspect.%s", an);
            else
                snprintf(name, sizeof(name), "spvcond.aspect.%u", l->v[0]);
        } else if (l->kind == LEAF_WORK_GROUP_SIZE) {
            snprintf(name, sizeof(name), "spvcond.reqd_work_group_size.%u.%u.%u", l->v[0], l->v[1], l->v[2]);
        } else {
            snprintf(name, sizeof(name), "spvcond.reqd_sub_group_size.%u", l->v[0]);
        }
        uint32_t nw[2 + 24] = {0, l->id};
        uint32_t sw = spvcond_encode_string(name, nw + 2, 24);
        nw[0] = ((2 + sw) << 16) | 5u;
        if ((r = spvcond_annotate_push(a, c, 3)) != SPVCOND_OK ||
            (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_ANNOTATION, d, 4)) != SPVCOND_OK ||
            (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_DEBUG_NAME, nw, 2 + sw)) != SPVCOND_OK)
            return r;
        a->stats.spec_constants++;
        a->stats.requirements++;
    }
    for (size_t s = 0; s < a->set_count; s++) {
        uint32_t acc = 0;
        for (size_t k = 0; k < a->leaf_count; k++) {
            if (!bitset_test(a->sets[s].leaves, k))
                continue;
            if (!acc)
                acc = a->leaves[k].id;
            else if ((r = new_node(a, 167 /* LogicalAnd */, acc, a->leaves[k].id, &acc)) != SPVCOND_OK)
                return r;
        }
        a->sets[s].id = acc;
    }
    return SPVCOND_OK;
}

/* The condition of a reach set: 0 when always true, else the id of the Or of its sets after
 * absorption (a set whose leaves include another present set's leaves adds nothing). */
/* The next set bit at or after i, or SIZE_MAX. */
static size_t
next_bit(const uint64_t *b, size_t words, size_t i)
{
    for (size_t w = i / 64; w < words; w++) {
        uint64_t v = b[w] & (w == i / 64 ? ~UINT64_C(0) << (i % 64) : ~UINT64_C(0));
        if (v)
            return w * 64 + (size_t)__builtin_ctzll(v);
    }
    return SIZE_MAX;
}

spvcond_result
spvcond_annotate_condition(struct annotate *a, const uint64_t *reach, uint32_t *out)
{
    *out = 0;
    size_t sw = a->set_words;
    if (bitset_empty(reach, sw) || bitset_test(reach, a->empty_set))
        return SPVCOND_OK;
    size_t only = next_bit(reach, sw, 0);
    if (next_bit(reach, sw, only + 1) == SIZE_MAX) {
        *out = a->sets[only].id; /* one set: its own And node, no Or needed */
        return SPVCOND_OK;
    }
    uint64_t *key = a->scratch + sw;
    memcpy(key, reach, sw * sizeof(uint64_t));
    for (size_t s = next_bit(reach, sw, 0); s != SIZE_MAX; s = next_bit(reach, sw, s + 1)) {
        for (size_t t = next_bit(key, sw, 0); t != SIZE_MAX; t = next_bit(key, sw, t + 1)) {
            /* Distinct sets are never equal (they are interned), so t absorbs s iff t's leaves are in s. */
            const struct reqset *st = &a->sets[t], *ss = &a->sets[s];
            if (t == s || (st->first != UINT32_MAX && !bitset_test(ss->leaves, st->first)))
                continue;
            if (bitset_subset(st->leaves, ss->leaves, a->leaf_words)) {
                key[s / 64] &= ~(UINT64_C(1) << (s % 64));
                break;
            }
        }
    }
    uint64_t hash = spvcond_hash_words(key, sw);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = spvcond_table_next(&a->or_table, hash, &cursor)) != 0;) {
        if (a->or_hashes[e - 1] == hash && bitset_equal(a->ors[e - 1].sets, key, sw)) {
            *out = a->ors[e - 1].id;
            return SPVCOND_OK;
        }
    }
    uint32_t acc = 0;
    spvcond_result r = SPVCOND_OK;
    for (size_t s = next_bit(key, sw, 0); s != SIZE_MAX && r == SPVCOND_OK; s = next_bit(key, sw, s + 1)) {
        if (!acc)
            acc = a->sets[s].id;
        else
            r = new_node(a, 166 /* LogicalOr */, acc, a->sets[s].id, &acc);
    }
    if (r == SPVCOND_OK)
        r = spvcond_grow(a->m->ctx, (void **)&a->ors, &a->or_cap, a->or_count + 1, sizeof(*a->ors));
    if (r == SPVCOND_OK)
        r = spvcond_grow(a->m->ctx, (void **)&a->or_hashes, &a->or_hash_cap, a->or_count + 1, sizeof(uint64_t));
    uint64_t *copy = r == SPVCOND_OK ? spvcond_alloc_array(a->m->ctx, sw, sizeof(uint64_t)) : NULL;
    if (r == SPVCOND_OK && !copy)
        r = spvcond_oom(a->m->ctx);
    if (r != SPVCOND_OK)
        return r;
    memcpy(copy, key, sw * sizeof(uint64_t));
    a->ors[a->or_count] = (struct or_node){copy, acc};
    a->or_hashes[a->or_count] = hash;
    if ((r = spvcond_table_insert(a->m->ctx, &a->or_table, a->or_hashes, (uint32_t)a->or_count)) != SPVCOND_OK) {
        spvcond_dealloc(a->m->ctx, copy);
        return r;
    }
    a->or_count++;
    *out = acc;
    return SPVCOND_OK;
}

spvcond_result
spvcond_annotate_decorate(struct annotate *a, uint32_t target, uint32_t cond)
{
    uint32_t d[4] = {(4u << 16) | 71u, target, SPVCOND_DECORATION_CONDITIONAL, cond};
    a->stats.decorations++;
    return spvcond_edit_append_to_section(a->m, SPVCOND_SECTION_ANNOTATION, d, 4);
}

