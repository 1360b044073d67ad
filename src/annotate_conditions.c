/* SPDX-License-Identifier: MIT */
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
    a->reach = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    if (!a->reach)
        return spvcond_oom(m->ctx);
    spvcond_result r = SPVCOND_OK;
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++)
        if (a->root_set[f])
            r = spvcond_cond_of_set(a, a->root_set[f] - 1, &a->reach[f]);
    /* Components callers-first: the reverse of the order they were found in. */
    for (size_t c = inf->scc_count; c-- > 0 && r == SPVCOND_OK;) {
        uint32_t acc = 0;
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1] && r == SPVCOND_OK; k++)
            r = spvcond_cond_union(a, acc, a->reach[inf->scc_members[k]], &acc);
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1] && r == SPVCOND_OK; k++) {
            uint32_t f = inf->scc_members[k];
            a->reach[f] = acc;
            for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1] && r == SPVCOND_OK; e++)
                if (inf->scc_of[a->g.callees[e]] != c)
                    r = spvcond_cond_union(a, a->reach[a->g.callees[e]], acc, &a->reach[a->g.callees[e]]);
        }
    }
    /* Functions no root reaches are left alone: unconditional. */
    for (size_t f = 0; f < m->function_count; f++)
        if (!a->reach[f])
            a->reach[f] = a->always;
    return r;
}

/* ---- condition nodes ------------------------------------------------------------------------ */

static spvcond_result
new_node(struct annotate *a, uint32_t opcode, uint32_t lhs, uint32_t rhs, uint32_t *id)
{
    spvcond_result r = spvcond_edit_new_id(a->m, id);
    if (r != SPVCOND_OK)
        return r;
    a->stats.spec_constants++;
    uint32_t w[6] = {spvcond_first_word(6, SPVCOND_OP_SPEC_CONSTANT_OP), a->bool_type, *id, opcode, lhs, rhs};
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
        uint32_t c[3] = {spvcond_first_word(3, SPVCOND_OP_SPEC_CONSTANT_TRUE), a->bool_type, l->id};
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
        nw[0] = spvcond_first_word(2 + sw, SPVCOND_OP_NAME);
        if ((r = spvcond_annotate_push(a, c, 3)) != SPVCOND_OK ||
            (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_DEBUG_NAME, nw, 2 + sw)) != SPVCOND_OK)
            return r;
        a->stats.spec_constants++;
        a->stats.requirements++;
    }
    /* After the names, as decorations follow names: insertions in place order need no sorting. */
    for (size_t k = 0; k < a->leaf_count; k++) {
        uint32_t d[4] = {spvcond_first_word(4, SPVCOND_OP_DECORATE), a->leaves[k].id, SPVCOND_DECORATION_SPEC_ID,
                         a->leaves[k].spec_id};
        if ((r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_ANNOTATION, d, 4)) != SPVCOND_OK)
            return r;
    }
    for (size_t s = 0; s < a->set_count; s++) {
        const struct reqset *set = &a->sets[s];
        uint32_t acc = 0;
        for (uint32_t k = set->first; k < set->first + set->count; k++) {
            uint32_t leaf = a->leaves[a->set_leaves[k]].id;
            if (!acc)
                acc = leaf;
            else if ((r = new_node(a, SPVCOND_OP_LOGICAL_AND, acc, leaf, &acc)) != SPVCOND_OK)
                return r;
        }
        a->sets[s].id = acc;
    }
    return SPVCOND_OK;
}

/* A list's node: the Or of its sets' And nodes, ascending (a one-set list is its set's node). */
static spvcond_result
emit_list(struct annotate *a, const struct cond *c, uint32_t *out)
{
    uint32_t acc = 0;
    spvcond_result r = SPVCOND_OK;
    for (uint32_t k = c->x; k < c->x + c->y && r == SPVCOND_OK; k++) {
        uint32_t set = a->sets[a->cond_sets[k]].id;
        if (!acc)
            acc = set;
        else
            r = new_node(a, SPVCOND_OP_LOGICAL_OR, acc, set, &acc);
    }
    *out = acc;
    return r;
}

/* Nodes are made once per condition, children first; an explicit stack, as Or conditions nest as deep
 * as the call graph. */
spvcond_result
spvcond_annotate_condition(struct annotate *a, uint32_t cond, uint32_t *out)
{
    *out = 0;
    if (cond == 0 || cond == a->always)
        return SPVCOND_OK;
    size_t depth = 0;
    spvcond_result r = spvcond_grow(a->m->ctx, (void **)&a->emit_stack, &a->emit_stack_cap, 1, sizeof(uint32_t));
    if (r == SPVCOND_OK)
        a->emit_stack[depth++] = cond;
    while (depth && r == SPVCOND_OK) {
        uint32_t h = a->emit_stack[depth - 1];
        struct cond *c = &a->conds[h];
        if (c->id) {
            depth--;
        } else if (!c->is_or) {
            uint32_t id;
            if ((r = emit_list(a, c, &id)) == SPVCOND_OK)
                a->conds[h].id = id, depth--;
        } else if (!a->conds[c->x].id || !a->conds[c->y].id) {
            uint32_t x = c->x, y = c->y;
            if ((r = spvcond_grow(a->m->ctx, (void **)&a->emit_stack, &a->emit_stack_cap, depth + 2, sizeof(uint32_t))) ==
                SPVCOND_OK) {
                if (!a->conds[x].id)
                    a->emit_stack[depth++] = x;
                if (!a->conds[y].id)
                    a->emit_stack[depth++] = y;
            }
        } else {
            uint32_t id;
            if ((r = new_node(a, SPVCOND_OP_LOGICAL_OR, a->conds[c->x].id, a->conds[c->y].id, &id)) == SPVCOND_OK)
                a->conds[h].id = id, depth--;
        }
    }
    if (r == SPVCOND_OK)
        *out = a->conds[cond].id;
    return r;
}

spvcond_result
spvcond_annotate_decorate(struct annotate *a, uint32_t target, uint32_t cond)
{
    uint32_t d[4] = {spvcond_first_word(4, SPVCOND_OP_DECORATE), target, SPVCOND_DECORATION_CONDITIONAL_INTEL, cond};
    a->stats.decorations++;
    return spvcond_edit_append_to_section(a->m, SPVCOND_SECTION_ANNOTATION, d, 4);
}

