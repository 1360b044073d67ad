/* SPDX-License-Identifier: MIT */
/* Control-flow graphs of functions (cfg.h). */
#include "analysis/cfg.h"

#include <string.h>

#include "ir/operands.h"

/* Calls fn for each target label of block b's terminator, in word order (duplicates too). */
typedef void (*target_fn)(struct spvcond_cfg *g, uint32_t from, uint32_t to, void *user);

struct target_walk {
    struct spvcond_cfg *g;
    uint32_t from, first; /* the terminator's block; the word of its first label */
    target_fn fn;
    void *user;
};

static spvcond_result
each_target(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct target_walk *t = user;
    (void)inst;
    if (word >= t->first)
        t->fn(t->g, t->from, id, t->user);
    return SPVCOND_OK;
}

/* The ids a terminator uses from its first label on are its targets: the operand walker knows where an
 * OpSwitch's literals end and its labels begin. */
static spvcond_result
targets(struct spvcond_cfg *g, uint32_t b, target_fn fn, void *user)
{
    uint32_t op = spvcond_inst_opcode(g->m, g->terminator[b]);
    uint32_t first = op == SPVCOND_OP_BRANCH                                        ? 1
                     : op == SPVCOND_OP_BRANCH_CONDITIONAL || op == SPVCOND_OP_SWITCH ? 2
                                                                                      : 0;
    struct target_walk t = {g, b, first, fn, user};
    return first ? spvcond_walk_ids(g->m, g->terminator[b], each_target, &t) : SPVCOND_OK;
}

struct edge_fill {
    uint32_t *cursor; /* per block: next free slot */
    bool bad;
    uint32_t bad_id;
};

static void
count_edge(struct spvcond_cfg *g, uint32_t from, uint32_t to, void *user)
{
    struct edge_fill *e = user;
    uint32_t tb = spvcond_cfg_block(g, to);
    if (tb == SPVCOND_CFG_NONE) {
        e->bad = true;
        e->bad_id = to;
        return;
    }
    g->succ_start[from + 1]++;
    g->pred_start[tb + 1]++;
}

static void
fill_edge(struct spvcond_cfg *g, uint32_t from, uint32_t to, void *user)
{
    struct edge_fill *e = user;
    uint32_t tb = spvcond_cfg_block(g, to);
    g->succ[g->succ_start[from] + e->cursor[from]++] = tb;
    g->pred[g->pred_start[tb] + e->cursor[g->block_count + tb]++] = from;
}

/* Reverse postorder by an explicit stack (depth is input-controlled). */
static spvcond_result
order(struct spvcond_cfg *g)
{
    spvcond_context *ctx = g->m->ctx;
    size_t n = g->block_count;
    uint32_t *stack = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    uint32_t *next = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    uint32_t *post = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    spvcond_result r = stack && next && post ? SPVCOND_OK : spvcond_oom(ctx);
    size_t depth = 0, done = 0;
    for (size_t b = 0; b < n && r == SPVCOND_OK; b++)
        g->rpo_index[b] = SPVCOND_CFG_NONE;
    if (r == SPVCOND_OK && n) {
        stack[depth++] = 0;
        g->rpo_index[0] = 0; /* "on the way": any value but NONE */
    }
    while (depth && r == SPVCOND_OK) {
        uint32_t b = stack[depth - 1];
        if (next[b] < g->succ_start[b + 1] - g->succ_start[b]) {
            uint32_t s = g->succ[g->succ_start[b] + next[b]++];
            if (g->rpo_index[s] == SPVCOND_CFG_NONE) {
                g->rpo_index[s] = 0;
                stack[depth++] = s;
            }
        } else {
            post[done++] = b;
            depth--;
        }
    }
    g->reachable = done;
    for (size_t k = 0; k < done; k++) {
        g->rpo[k] = post[done - 1 - k];
        g->rpo_index[g->rpo[k]] = (uint32_t)k;
    }
    spvcond_dealloc(ctx, stack);
    spvcond_dealloc(ctx, next);
    spvcond_dealloc(ctx, post);
    return r;
}

spvcond_result
spvcond_cfg_build(const struct spvcond_module *m, const struct spvcond_function *f, uint32_t *block_of_id,
                  struct spvcond_cfg *g)
{
    memset(g, 0, sizeof(*g));
    g->m = m;
    g->block_of_id = block_of_id;
    spvcond_context *ctx = m->ctx;
    size_t n = 0;
    for (size_t i = f->first_block; i < f->end; i++)
        n += spvcond_inst_opcode(m, i) == SPVCOND_OP_LABEL;
    g->block_count = n;
    g->label = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    g->terminator = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    g->succ_start = spvcond_alloc_array(ctx, n + 2, sizeof(uint32_t));
    g->pred_start = spvcond_alloc_array(ctx, n + 2, sizeof(uint32_t));
    g->rpo = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    g->rpo_index = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    uint32_t *cursor = spvcond_alloc_array(ctx, 2 * n + 1, sizeof(uint32_t));
    spvcond_result r = SPVCOND_OK;
    if (!g->label || !g->terminator || !g->succ_start || !g->pred_start || !g->rpo || !g->rpo_index || !cursor)
        r = spvcond_oom(ctx);
    size_t b = 0;
    for (size_t i = f->first_block; i < f->end && r == SPVCOND_OK; i++) {
        if (spvcond_inst_opcode(m, i) != SPVCOND_OP_LABEL)
            continue;
        const uint32_t *w = spvcond_inst_words(m, i);
        if (b)
            g->terminator[b - 1] = (uint32_t)i - 1;
        g->label[b] = (uint32_t)i;
        block_of_id[w[1]] = (uint32_t)++b;
    }
    if (b)
        g->terminator[b - 1] = (uint32_t)f->end - 1;
    struct edge_fill e = {cursor, false, 0};
    for (size_t k = 0; k < n && r == SPVCOND_OK; k++)
        r = targets(g, (uint32_t)k, count_edge, &e);
    if (r == SPVCOND_OK && e.bad)
        r = spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, f->begin, e.bad_id,
                              "a branch of function %%%u goes to %%%u, which is not one of its blocks", f->id,
                              e.bad_id);
    for (size_t k = 0; k < n && r == SPVCOND_OK; k++) {
        g->succ_start[k + 1] += g->succ_start[k];
        g->pred_start[k + 1] += g->pred_start[k];
    }
    if (r == SPVCOND_OK) {
        g->succ = spvcond_alloc_array(ctx, g->succ_start[n] + 1, sizeof(uint32_t));
        g->pred = spvcond_alloc_array(ctx, g->pred_start[n] + 1, sizeof(uint32_t));
        if (!g->succ || !g->pred)
            r = spvcond_oom(ctx);
    }
    for (size_t k = 0; k < n && r == SPVCOND_OK; k++)
        r = targets(g, (uint32_t)k, fill_edge, &e);
    spvcond_dealloc(ctx, cursor);
    if (r == SPVCOND_OK)
        r = order(g);
    if (r != SPVCOND_OK)
        spvcond_cfg_release(g);
    return r;
}

static uint32_t
intersect(const struct spvcond_cfg *g, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (g->rpo_index[a] > g->rpo_index[b])
            a = g->idom[a];
        while (g->rpo_index[b] > g->rpo_index[a])
            b = g->idom[b];
    }
    return a;
}

/* Interval numbers of the dominator tree by an explicit walk over child lists. */
static spvcond_result
number_tree(struct spvcond_cfg *g)
{
    spvcond_context *ctx = g->m->ctx;
    size_t n = g->block_count;
    uint32_t *child_start = spvcond_alloc_array(ctx, n + 2, sizeof(uint32_t));
    uint32_t *children = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    uint32_t *fill = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    uint32_t *stack = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    spvcond_result r = child_start && children && fill && stack ? SPVCOND_OK : spvcond_oom(ctx);
    for (size_t k = 1; k < g->reachable && r == SPVCOND_OK; k++)
        child_start[g->idom[g->rpo[k]] + 1]++;
    for (size_t k = 0; k < n && r == SPVCOND_OK; k++)
        child_start[k + 1] += child_start[k];
    for (size_t k = 1; k < g->reachable && r == SPVCOND_OK; k++) {
        uint32_t p = g->idom[g->rpo[k]];
        children[child_start[p] + fill[p]++] = g->rpo[k];
    }
    uint32_t clock = 0;
    size_t depth = 0;
    if (r == SPVCOND_OK && g->reachable) {
        stack[depth++] = 0;
        g->pre[0] = clock++;
        memset(fill, 0, (n + 1) * sizeof(uint32_t));
    }
    while (depth && r == SPVCOND_OK) {
        uint32_t b = stack[depth - 1];
        if (fill[b] < child_start[b + 1] - child_start[b]) {
            uint32_t c = children[child_start[b] + fill[b]++];
            g->pre[c] = clock++;
            stack[depth++] = c;
        } else {
            g->post[b] = clock++;
            depth--;
        }
    }
    spvcond_dealloc(ctx, child_start);
    spvcond_dealloc(ctx, children);
    spvcond_dealloc(ctx, fill);
    spvcond_dealloc(ctx, stack);
    return r;
}

spvcond_result
spvcond_cfg_dominators(struct spvcond_cfg *g)
{
    spvcond_context *ctx = g->m->ctx;
    size_t n = g->block_count;
    g->idom = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    g->pre = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    g->post = spvcond_alloc_array(ctx, n + 1, sizeof(uint32_t));
    if (!g->idom || !g->pre || !g->post)
        return spvcond_oom(ctx);
    if (!g->reachable)
        return SPVCOND_OK;
    for (size_t k = 0; k < n; k++)
        g->idom[k] = SPVCOND_CFG_NONE;
    g->idom[0] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t k = 1; k < g->reachable; k++) {
            uint32_t b = g->rpo[k], d = SPVCOND_CFG_NONE;
            for (uint32_t e = g->pred_start[b]; e < g->pred_start[b + 1]; e++) {
                uint32_t p = g->pred[e];
                if (g->rpo_index[p] == SPVCOND_CFG_NONE || g->idom[p] == SPVCOND_CFG_NONE)
                    continue;
                d = d == SPVCOND_CFG_NONE ? p : intersect(g, p, d);
            }
            if (d != g->idom[b]) {
                g->idom[b] = d;
                changed = true;
            }
        }
    }
    return number_tree(g);
}

void
spvcond_cfg_release(struct spvcond_cfg *g)
{
    if (!g->m)
        return;
    spvcond_context *ctx = g->m->ctx;
    for (size_t b = 0; g->block_of_id && g->label && b < g->block_count; b++) {
        const uint32_t *w = spvcond_inst_words(g->m, g->label[b]);
        if (spvcond_word_count_of(w[0]) >= 2 && w[1] < g->m->bound)
            g->block_of_id[w[1]] = 0;
    }
    spvcond_dealloc(ctx, g->label);
    spvcond_dealloc(ctx, g->terminator);
    spvcond_dealloc(ctx, g->succ_start);
    spvcond_dealloc(ctx, g->succ);
    spvcond_dealloc(ctx, g->pred_start);
    spvcond_dealloc(ctx, g->pred);
    spvcond_dealloc(ctx, g->rpo);
    spvcond_dealloc(ctx, g->rpo_index);
    spvcond_dealloc(ctx, g->idom);
    spvcond_dealloc(ctx, g->pre);
    spvcond_dealloc(ctx, g->post);
    memset(g, 0, sizeof(*g));
}
