/* SPDX-License-Identifier: MIT */
/* The condition emitter (condition_emit.h): the store's conditions as spec constants and decorations. */
#include <stdio.h>
#include <string.h>

#include "annotate/condition_emit.h"
#include "ir/edit.h"

void
spvcond_emit_init(struct condition_emitter *e, struct spvcond_module *m, struct condition_store *store,
                  spvcond_annotate_stats *stats, uint32_t first_spec_id)
{
    memset(e, 0, sizeof(*e));
    e->m = m;
    e->store = store;
    e->stats = stats;
    e->next_spec_id = first_spec_id;
}

void
spvcond_emit_release(struct condition_emitter *e)
{
    spvcond_dealloc(e->m->ctx, e->defer);
    spvcond_dealloc(e->m->ctx, e->nodes);
    spvcond_dealloc(e->m->ctx, e->stack);
    spvcond_dealloc(e->m->ctx, e->decorations);
}

spvcond_result
spvcond_emit_push(struct condition_emitter *e, const uint32_t *w, uint32_t n)
{
    spvcond_result r = spvcond_grow(e->m->ctx, (void **)&e->defer, &e->defer_cap, e->defer_len + n, sizeof(uint32_t));
    if (r == SPVCOND_OK) {
        memcpy(e->defer + e->defer_len, w, n * sizeof(uint32_t));
        e->defer_len += n;
    }
    return r;
}

/* ---- condition nodes ------------------------------------------------------------------------ */

/* Sharing nodes, the slot of node (opcode, x, y) in e->nodes: its id, or 0 and where it goes. */
static struct node_key *
node_slot(struct condition_emitter *e, uint32_t opcode, uint32_t x, uint32_t y)
{
    size_t mask = e->node_cap - 1, k = (size_t)((x * 0x9E3779B1u) ^ (y * 0x85EBCA77u) ^ opcode) & mask;
    while (e->nodes[k].id && (e->nodes[k].opcode != opcode || e->nodes[k].x != x || e->nodes[k].y != y))
        k = (k + 1) & mask;
    return &e->nodes[k];
}

static spvcond_result
remember_node(struct condition_emitter *e, uint32_t opcode, uint32_t x, uint32_t y, uint32_t id)
{
    if (2 * (e->node_count + 1) > e->node_cap) {
        struct node_key *old = e->nodes;
        size_t old_cap = e->node_cap;
        e->node_cap = old_cap ? 2 * old_cap : 64;
        if (!(e->nodes = spvcond_alloc_array(e->m->ctx, e->node_cap, sizeof(*e->nodes)))) {
            e->nodes = old;
            e->node_cap = old_cap;
            return spvcond_oom(e->m->ctx);
        }
        for (size_t k = 0; k < old_cap; k++)
            if (old[k].id)
                *node_slot(e, old[k].opcode, old[k].x, old[k].y) = old[k];
        spvcond_dealloc(e->m->ctx, old);
    }
    *node_slot(e, opcode, x, y) = (struct node_key){opcode, x, y, id};
    e->node_count++;
    return SPVCOND_OK;
}

static spvcond_result
new_node(struct condition_emitter *e, uint32_t opcode, uint32_t lhs, uint32_t rhs, uint32_t *id)
{
    if (e->share_nodes && e->node_cap && (*id = node_slot(e, opcode, lhs, rhs)->id) != 0)
        return SPVCOND_OK;
    if (e->share_nodes && e->node_cap && opcode != SPVCOND_OP_LOGICAL_NOT && (*id = node_slot(e, opcode, rhs, lhs)->id) != 0)
        return SPVCOND_OK;
    spvcond_result r = spvcond_edit_new_id(e->m, id);
    if (r == SPVCOND_OK && e->share_nodes)
        r = remember_node(e, opcode, lhs, rhs, *id);
    if (r != SPVCOND_OK)
        return r;
    e->stats->spec_constants++;
    if (opcode == SPVCOND_OP_LOGICAL_NOT) {
        uint32_t w[5] = {spvcond_first_word(5, SPVCOND_OP_SPEC_CONSTANT_OP), e->bool_type, *id, opcode, lhs};
        return spvcond_emit_push(e, w, 5);
    }
    uint32_t w[6] = {spvcond_first_word(6, SPVCOND_OP_SPEC_CONSTANT_OP), e->bool_type, *id, opcode, lhs, rhs};
    return spvcond_emit_push(e, w, 6);
}

static spvcond_result
new_not(struct condition_emitter *e, uint32_t operand, uint32_t *id)
{
    return new_node(e, SPVCOND_OP_LOGICAL_NOT, operand, 0, id);
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
    } else if (l->kind == LEAF_CAPABILITY) {
        const char *cn = spvcond_capability_name(l->v[0]);
        if (cn)
            snprintf(name, size, "spvcond.capability.%s", cn);
        else
            snprintf(name, size, "spvcond.capability.%u", l->v[0]);
    } else {
        snprintf(name, size, "spvcond.root.%u", l->v[0]);
    }
}

/* A guard's leaf: an architecture test (made with the requirements: markers' results become it), or
 * a module's constant. Negations are made when a set needs them (leaf_node). */
static spvcond_result
emit_guard_leaf(struct condition_emitter *e, size_t k)
{
    const struct leaf *l = spvcond_store_leaf_at(e->store, k);
    spvcond_result r = SPVCOND_OK;
    uint32_t id;
    if (l->kind == LEAF_NOT) {
        return SPVCOND_OK;
    } else if (l->kind == LEAF_ARCHITECTURE && (r = spvcond_edit_new_id(e->m, &id)) == SPVCOND_OK) {
        uint32_t w[7] = {spvcond_first_word(7, SPVCOND_OP_SPEC_CONSTANT_ARCHITECTURE_INTEL), e->bool_type, id,
                         l->v[0], l->v[1], l->v[2], l->v[3]};
        spvcond_store_name_leaf(e->store, k, id, l->spec_id);
        e->stats->spec_constants++;
        r = spvcond_emit_push(e, w, 7);
    } else if (l->kind == LEAF_CONSTANT) {
        spvcond_store_name_leaf(e->store, k, l->v[0], l->spec_id);
    }
    return r;
}

/* The node of leaf k, a negation made when first asked for. */
static spvcond_result
leaf_node(struct condition_emitter *e, uint32_t k, uint32_t *out)
{
    const struct leaf *l = spvcond_store_leaf_at(e->store, k);
    spvcond_result r = SPVCOND_OK;
    if (!l->id && l->kind == LEAF_NOT) {
        uint32_t base, id = 0;
        if ((r = leaf_node(e, l->v[0], &base)) == SPVCOND_OK && (r = new_not(e, base, &id)) == SPVCOND_OK)
            spvcond_store_name_leaf(e->store, k, id, 0);
    }
    *out = spvcond_store_leaf_at(e->store, k)->id;
    return r;
}

/* The And of set s's leaves (a one-leaf set is its leaf), made once. */
static spvcond_result
set_node(struct condition_emitter *e, uint32_t s, uint32_t *out)
{
    struct condition_store *cs = e->store;
    uint32_t acc = spvcond_store_set_node(cs, s), n = spvcond_store_set_size(cs, s);
    spvcond_result r = SPVCOND_OK;
    for (uint32_t k = 0; !spvcond_store_set_node(cs, s) && k < n && r == SPVCOND_OK; k++) {
        uint32_t leaf = 0;
        if ((r = leaf_node(e, spvcond_store_set_leaf(cs, s, k), &leaf)) == SPVCOND_OK && acc)
            r = new_node(e, SPVCOND_OP_LOGICAL_AND, acc, leaf, &leaf);
        acc = leaf;
    }
    if (r == SPVCOND_OK)
        spvcond_store_name_set(cs, s, acc);
    *out = acc;
    return r;
}

/* Splitting: a requirement leaf no condition uses (the roots' own leaves stand for their requirements)
 * gets no constant. */
static bool
unused_in_split(const struct condition_emitter *e, const struct leaf *l)
{
    return e->splitting && l->kind < LEAF_ROOT && !l->needed;
}

/* The leaves' constants and names. */
spvcond_result
spvcond_emit_leaf_constants(struct condition_emitter *e)
{
    struct spvcond_module *m = e->m;
    struct condition_store *cs = e->store;
    spvcond_result r;
    for (size_t k = 0; k < spvcond_store_leaf_count(cs); k++) {
        const struct leaf *l = spvcond_store_leaf_at(cs, k);
        bool requirement = l->kind <= LEAF_ROOT;
        if (unused_in_split(e, l))
            continue;
        if (!requirement) {
            if ((r = emit_guard_leaf(e, k)) != SPVCOND_OK)
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
            e->stats->requirements++;
            continue;
        }
        uint32_t id, spec_id;
        if ((r = spvcond_edit_new_id(m, &id)) != SPVCOND_OK)
            return r;
        /* SpecIds above the base, skipping any the module uses and the reserved one. */
        for (;;) {
            uint32_t candidate = e->next_spec_id++;
            bool taken = candidate == SPVCOND_RESERVED_SPEC_ID;
            for (size_t s = 0; s < m->spec_id_count && !taken; s++)
                taken = m->spec_ids[s].spec_id == candidate;
            if (!taken) {
                spec_id = candidate;
                break;
            }
        }
        spvcond_store_name_leaf(cs, k, id, spec_id);
        uint32_t c[3] = {spvcond_first_word(3, SPVCOND_OP_SPEC_CONSTANT_TRUE), e->bool_type, id};
        nw[1] = id;
        if ((r = spvcond_emit_push(e, c, 3)) != SPVCOND_OK ||
            (r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_DEBUG_NAME, nw, 2 + sw)) != SPVCOND_OK)
            return r;
        e->stats->spec_constants++;
        e->stats->requirements++;
    }
    return SPVCOND_OK;
}

/* After the names, as decorations follow names: insertions in place order need no sorting. */
spvcond_result
spvcond_emit_leaf_decorations(struct condition_emitter *e)
{
    struct condition_store *cs = e->store;
    spvcond_result r;
    for (size_t k = 0; k < spvcond_store_leaf_count(cs); k++) {
        const struct leaf *l = spvcond_store_leaf_at(cs, k);
        if (l->kind > LEAF_ROOT || l->existing || unused_in_split(e, l))
            continue;
        uint32_t d[4] = {spvcond_first_word(4, SPVCOND_OP_DECORATE), l->id, SPVCOND_DECORATION_SPEC_ID, l->spec_id};
        if ((r = spvcond_edit_append_to_section(e->m, SPVCOND_SECTION_ANNOTATION, d, 4)) != SPVCOND_OK)
            return r;
    }
    /* Every set is some root's: each gets its node now. Sharing nodes (guards), most sets are steps of
     * combining guards, and a set's node is made when a condition first needs it (set_node). */
    for (uint32_t s = 0; s < spvcond_store_set_count(cs) && !e->share_nodes; s++) {
        uint32_t node;
        if (e->splitting && spvcond_store_set_size(cs, s) &&
            spvcond_store_leaf_at(cs, spvcond_store_set_leaf(cs, s, 0))->kind != LEAF_ROOT)
            continue; /* splitting: a requirement set, which no condition uses */
        if ((r = set_node(e, s, &node)) != SPVCOND_OK)
            return r;
    }
    return SPVCOND_OK;
}

/* A list's node: the Or of its sets' And nodes, ascending (a one-set list is its set's node). */
static spvcond_result
emit_list(struct condition_emitter *e, uint32_t cond, uint32_t *out)
{
    uint32_t acc = 0, n = spvcond_cond_at(e->store, cond)->y;
    spvcond_result r = SPVCOND_OK;
    for (uint32_t k = 0; k < n && r == SPVCOND_OK; k++) {
        uint32_t set;
        if ((r = set_node(e, spvcond_cond_list_set(e->store, cond, k), &set)) != SPVCOND_OK)
            break;
        if (!acc)
            acc = set;
        else
            r = new_node(e, SPVCOND_OP_LOGICAL_OR, acc, set, &acc);
    }
    *out = acc;
    return r;
}

/* Nodes are made once per condition, children first; an explicit stack, as Or conditions nest as deep
 * as the call graph. */
spvcond_result
spvcond_emit_condition(struct condition_emitter *e, uint32_t cond, uint32_t *out)
{
    struct condition_store *cs = e->store;
    *out = 0;
    if (cond == 0 || cond == spvcond_cond_always(cs))
        return SPVCOND_OK;
    size_t depth = 0;
    spvcond_result r = spvcond_grow(e->m->ctx, (void **)&e->stack, &e->stack_cap, 1, sizeof(uint32_t));
    if (r == SPVCOND_OK)
        e->stack[depth++] = cond;
    while (depth && r == SPVCOND_OK) {
        uint32_t h = e->stack[depth - 1], id;
        const struct cond *c = spvcond_cond_at(cs, h);
        uint32_t x = c->x, y = c->kind == COND_NOT ? c->x : c->y;
        uint32_t x_id = c->kind == COND_LIST ? 0 : spvcond_cond_at(cs, x)->id;
        uint32_t y_id = c->kind == COND_LIST ? 0 : spvcond_cond_at(cs, y)->id;
        if (c->id) {
            depth--;
        } else if (c->kind == COND_LIST) {
            if ((r = emit_list(e, h, &id)) == SPVCOND_OK)
                spvcond_store_name_cond(cs, h, id), depth--;
        } else if (!x_id || !y_id) {
            r = spvcond_grow(e->m->ctx, (void **)&e->stack, &e->stack_cap, depth + 2, sizeof(uint32_t));
            if (r == SPVCOND_OK) {
                if (!x_id)
                    e->stack[depth++] = x;
                if (y != x && !y_id)
                    e->stack[depth++] = y;
            }
        } else if (c->kind == COND_NOT) {
            if ((r = new_not(e, x_id, &id)) == SPVCOND_OK)
                spvcond_store_name_cond(cs, h, id), depth--;
        } else {
            uint32_t op = c->kind == COND_AND ? SPVCOND_OP_LOGICAL_AND : SPVCOND_OP_LOGICAL_OR;
            if ((r = new_node(e, op, x_id, y_id, &id)) == SPVCOND_OK)
                spvcond_store_name_cond(cs, h, id), depth--;
        }
    }
    if (r == SPVCOND_OK)
        *out = spvcond_cond_at(cs, cond)->id;
    return r;
}

spvcond_result
spvcond_emit_decorate(struct condition_emitter *e, uint32_t target, uint32_t cond)
{
    spvcond_result r = spvcond_grow(e->m->ctx, (void **)&e->decorations, &e->decorations_cap,
                                    e->decorations_len + 4, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    uint32_t *d = e->decorations + e->decorations_len;
    d[0] = spvcond_first_word(4, SPVCOND_OP_DECORATE);
    d[1] = target;
    d[2] = SPVCOND_DECORATION_CONDITIONAL_INTEL;
    d[3] = cond;
    e->decorations_len += 4;
    e->stats->decorations++;
    return SPVCOND_OK;
}

spvcond_result
spvcond_emit_decorations_flush(struct condition_emitter *e)
{
    if (!e->decorations_len)
        return SPVCOND_OK;
    if (e->decorations_len > UINT32_MAX)
        return spvcond_report(e->m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "more than 2^32 words of decorations");
    spvcond_result r = spvcond_edit_append_to_section(e->m, SPVCOND_SECTION_ANNOTATION, e->decorations,
                                                      (uint32_t)e->decorations_len);
    e->decorations_len = 0;
    return r;
}

spvcond_result
spvcond_emit_flush(struct condition_emitter *e)
{
    spvcond_result r = spvcond_emit_decorations_flush(e);
    /* Nothing new where every condition is a constant the module has (a shader's guard constant; found with
     * glslang's HLSL, which inlines the guarded function) */
    if (r != SPVCOND_OK || !e->defer_len)
        return r;
    return spvcond_edit_append_to_section(e->m, SPVCOND_SECTION_GLOBAL, e->defer, (uint32_t)e->defer_len);
}
