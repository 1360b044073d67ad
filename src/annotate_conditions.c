/* SPDX-License-Identifier: MIT */
/* The producer, part two: which requirement sets reach each function, and the condition trees:
 * one OpSpecConstantTrue per requirement, And per set, Or per distinct group of sets. */
#include <stdio.h>
#include <string.h>

#include "annotate.h"
#include "aspects.h"
#include "records.h"

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
            for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1] && r == SPVCOND_OK; e++) {
                if (inf->scc_of[a->g.callees[e]] == c)
                    continue;
                uint32_t via = acc; /* a guarded call reaches its callee under the guard too */
                if (a->edge_guard && a->edge_guard[e])
                    r = spvcond_cond_and(a, acc, a->edge_guard[e], &via);
                if (r == SPVCOND_OK)
                    r = spvcond_cond_union(a, a->reach[a->g.callees[e]], via, &a->reach[a->g.callees[e]]);
            }
        }
    }
    /* Functions no root reaches are left alone: unconditional. */
    for (size_t f = 0; f < m->function_count; f++)
        if (!a->reach[f])
            a->reach[f] = a->always;
    return r;
}

/* ---- condition nodes ------------------------------------------------------------------------ */

/* With guards, the slot of node (opcode, x, y) in a->nodes: its id, or 0 and where it goes. */
static struct node_key *
node_slot(struct annotate *a, uint32_t opcode, uint32_t x, uint32_t y)
{
    size_t mask = a->node_cap - 1, k = (size_t)((x * 0x9E3779B1u) ^ (y * 0x85EBCA77u) ^ opcode) & mask;
    while (a->nodes[k].id && (a->nodes[k].opcode != opcode || a->nodes[k].x != x || a->nodes[k].y != y))
        k = (k + 1) & mask;
    return &a->nodes[k];
}

static spvcond_result
remember_node(struct annotate *a, uint32_t opcode, uint32_t x, uint32_t y, uint32_t id)
{
    if (2 * (a->node_count + 1) > a->node_cap) {
        struct node_key *old = a->nodes;
        size_t old_cap = a->node_cap;
        a->node_cap = old_cap ? 2 * old_cap : 64;
        if (!(a->nodes = spvcond_alloc_array(a->m->ctx, a->node_cap, sizeof(*a->nodes)))) {
            a->nodes = old;
            a->node_cap = old_cap;
            return spvcond_oom(a->m->ctx);
        }
        for (size_t k = 0; k < old_cap; k++)
            if (old[k].id)
                *node_slot(a, old[k].opcode, old[k].x, old[k].y) = old[k];
        spvcond_dealloc(a->m->ctx, old);
    }
    *node_slot(a, opcode, x, y) = (struct node_key){opcode, x, y, id};
    a->node_count++;
    return SPVCOND_OK;
}

static spvcond_result
new_node(struct annotate *a, uint32_t opcode, uint32_t lhs, uint32_t rhs, uint32_t *id)
{
    if (a->guards && a->node_cap && (*id = node_slot(a, opcode, lhs, rhs)->id) != 0)
        return SPVCOND_OK;
    if (a->guards && a->node_cap && opcode != SPVCOND_OP_LOGICAL_NOT && (*id = node_slot(a, opcode, rhs, lhs)->id) != 0)
        return SPVCOND_OK;
    spvcond_result r = spvcond_edit_new_id(a->m, id);
    if (r == SPVCOND_OK && a->guards)
        r = remember_node(a, opcode, lhs, rhs, *id);
    if (r != SPVCOND_OK)
        return r;
    a->stats.spec_constants++;
    if (opcode == SPVCOND_OP_LOGICAL_NOT) {
        uint32_t w[5] = {spvcond_first_word(5, SPVCOND_OP_SPEC_CONSTANT_OP), a->bool_type, *id, opcode, lhs};
        return spvcond_annotate_push(a, w, 5);
    }
    uint32_t w[6] = {spvcond_first_word(6, SPVCOND_OP_SPEC_CONSTANT_OP), a->bool_type, *id, opcode, lhs, rhs};
    return spvcond_annotate_push(a, w, 6);
}

static spvcond_result
new_not(struct annotate *a, uint32_t operand, uint32_t *id)
{
    return new_node(a, SPVCOND_OP_LOGICAL_NOT, operand, 0, id);
}

/* The OpName of a requirement leaf. */
static void
leaf_name(const struct leaf *l, char *name, size_t size)
{
    if (l->kind == LEAF_ASPECT) {
        const char *an = spvcond_aspect_name(l->v[0]);
        if (an)
            snprintf(name, size, "spvcond.aspect.%s", an);
        else
            snprintf(name, size, "spvcond.aspect.%u", l->v[0]);
    } else if (l->kind == LEAF_WORK_GROUP_SIZE) {
        snprintf(name, size, "spvcond.reqd_work_group_size.%u.%u.%u", l->v[0], l->v[1], l->v[2]);
    } else if (l->kind == LEAF_SUB_GROUP_SIZE) {
        snprintf(name, size, "spvcond.reqd_sub_group_size.%u", l->v[0]);
    } else {
        snprintf(name, size, "spvcond.root.%u", l->v[0]);
    }
}

/* A guard's leaf: an architecture test (made with the requirements: markers' results become it), or
 * a module's constant. Negations are made when a set needs them (leaf_node). */
static spvcond_result
emit_guard_leaf(struct annotate *a, struct leaf *l)
{
    spvcond_result r = SPVCOND_OK;
    if (l->kind == LEAF_NOT) {
        return SPVCOND_OK;
    } else if (l->kind == LEAF_ARCHITECTURE && (r = spvcond_edit_new_id(a->m, &l->id)) == SPVCOND_OK) {
        uint32_t w[7] = {spvcond_first_word(7, SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL), a->bool_type, l->id,
                         l->v[0], l->v[1], l->v[2], l->v[3]};
        a->stats.spec_constants++;
        r = spvcond_annotate_push(a, w, 7);
    } else if (l->kind == LEAF_CONSTANT) {
        l->id = l->v[0];
    }
    return r;
}

/* The node of leaf k, a negation made when first asked for. */
static spvcond_result
leaf_node(struct annotate *a, uint32_t k, uint32_t *out)
{
    struct leaf *l = &a->leaves[k];
    spvcond_result r = SPVCOND_OK;
    if (!l->id && l->kind == LEAF_NOT) {
        uint32_t base, id = 0;
        if ((r = leaf_node(a, l->v[0], &base)) == SPVCOND_OK && (r = new_not(a, base, &id)) == SPVCOND_OK)
            a->leaves[k].id = id;
    }
    *out = a->leaves[k].id;
    return r;
}

/* The And of set s's leaves (a one-leaf set is its leaf), made once. */
static spvcond_result
set_node(struct annotate *a, uint32_t s, uint32_t *out)
{
    uint32_t acc = a->sets[s].id, end = a->sets[s].first + a->sets[s].count;
    spvcond_result r = SPVCOND_OK;
    for (uint32_t k = a->sets[s].first; !a->sets[s].id && k < end && r == SPVCOND_OK; k++) {
        uint32_t leaf = 0;
        if ((r = leaf_node(a, a->set_leaves[k], &leaf)) == SPVCOND_OK && acc)
            r = new_node(a, SPVCOND_OP_LOGICAL_AND, acc, leaf, &leaf);
        acc = leaf;
    }
    if (r == SPVCOND_OK)
        a->sets[s].id = acc;
    *out = acc;
    return r;
}

/* Splitting: a requirement leaf no condition uses (the roots' own leaves stand for their requirements)
 * gets no constant. */
static bool
unused_in_split(const struct annotate *a, const struct leaf *l)
{
    return a->split_set && l->kind < LEAF_ROOT && !l->needed;
}

/* The leaves' constants, names and SpecIds. */
spvcond_result
spvcond_annotate_emit_leaves(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    spvcond_result r;
    /* The record stands between names and decorations, or before SPIR-V 1.1 before the names. */
    if (spvcond_record_section(m) == SPVCOND_SECTION_DEBUG_SOURCE && (r = spvcond_annotate_record(a)) != SPVCOND_OK)
        return r;
    for (size_t k = 0; k < a->leaf_count; k++) {
        struct leaf *l = &a->leaves[k];
        bool requirement = l->kind <= LEAF_ROOT;
        if (unused_in_split(a, l))
            continue;
        if (!requirement) {
            if ((r = emit_guard_leaf(a, l)) != SPVCOND_OK)
                return r;
            continue;
        }
        char name[96];
        leaf_name(l, name, sizeof(name));
        uint32_t nw[2 + 24] = {0, 0};
        uint32_t sw = spvcond_encode_string(name, nw + 2, 24);
        nw[0] = spvcond_first_word(2 + sw, SPVCOND_OP_NAME);
        if (l->existing) { /* a spec constant of the module that a requirements file says means this */
            nw[1] = l->id;
            if ((r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_DEBUG_NAME, nw, 2 + sw)) != SPVCOND_OK)
                return r;
            a->stats.requirements++;
            continue;
        }
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
        nw[1] = l->id;
        if ((r = spvcond_annotate_push(a, c, 3)) != SPVCOND_OK ||
            (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_DEBUG_NAME, nw, 2 + sw)) != SPVCOND_OK)
            return r;
        a->stats.spec_constants++;
        a->stats.requirements++;
    }
    if (spvcond_record_section(m) == SPVCOND_SECTION_DEBUG_PROCESSED && (r = spvcond_annotate_record(a)) != SPVCOND_OK)
        return r;
    /* After the names, as decorations follow names: insertions in place order need no sorting. */
    for (size_t k = 0; k < a->leaf_count; k++) {
        if (a->leaves[k].kind > LEAF_ROOT || a->leaves[k].existing || unused_in_split(a, &a->leaves[k]))
            continue;
        uint32_t d[4] = {spvcond_first_word(4, SPVCOND_OP_DECORATE), a->leaves[k].id, SPVCOND_DECORATION_SPEC_ID,
                         a->leaves[k].spec_id};
        if ((r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_ANNOTATION, d, 4)) != SPVCOND_OK)
            return r;
    }
    /* Every set is some root's: each gets its node now. With guards, most sets are steps of combining
     * guards, and a set's node is made when a condition first needs it (set_node). */
    for (size_t s = 0; s < a->set_count && !a->guards; s++) {
        const struct reqset *set = &a->sets[s];
        if (a->split_set && set->count && a->leaves[a->set_leaves[set->first]].kind != LEAF_ROOT)
            continue; /* splitting: a requirement set, which no condition uses */
        if ((r = set_node(a, (uint32_t)s, &a->sets[s].id)) != SPVCOND_OK)
            return r;
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
        uint32_t set;
        if ((r = set_node(a, a->cond_sets[k], &set)) != SPVCOND_OK)
            break;
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
        } else if (c->kind == COND_LIST) {
            uint32_t id;
            if ((r = emit_list(a, c, &id)) == SPVCOND_OK)
                a->conds[h].id = id, depth--;
        } else if (!a->conds[c->x].id || (c->kind != COND_NOT && !a->conds[c->y].id)) {
            uint32_t x = c->x, y = c->kind == COND_NOT ? c->x : c->y;
            r = spvcond_grow(a->m->ctx, (void **)&a->emit_stack, &a->emit_stack_cap, depth + 2, sizeof(uint32_t));
            if (r == SPVCOND_OK) {
                if (!a->conds[x].id)
                    a->emit_stack[depth++] = x;
                if (y != x && !a->conds[y].id)
                    a->emit_stack[depth++] = y;
            }
        } else if (c->kind == COND_NOT) {
            uint32_t id;
            if ((r = new_not(a, a->conds[c->x].id, &id)) == SPVCOND_OK)
                a->conds[h].id = id, depth--;
        } else {
            uint32_t id, op = c->kind == COND_AND ? SPVCOND_OP_LOGICAL_AND : SPVCOND_OP_LOGICAL_OR;
            if ((r = new_node(a, op, a->conds[c->x].id, a->conds[c->y].id, &id)) == SPVCOND_OK)
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

