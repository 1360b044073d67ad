/* SPDX-License-Identifier: MIT */
/* Branch folding (spec/guards.md): a guard's branch on a condition that specialization freezes becomes
 * an OpBranch, and the blocks it no longer reaches go, with the OpPhi operands that came from them, so
 * the path not taken and what only it used leave the output. */
#include <string.h>

#include "analysis/cfg.h"
#include "ir/edit.h"
#include "ir/operands.h"
#include "specialize/specialize_state.h"

/* Boolean operations of the code a condition is looked through, as deep as this. */
#define FOLD_DEPTH 32

enum { FOLD_NO, FOLD_FALSE, FOLD_TRUE };

/* A use of condition constant `id` went with a folded branch or a removed block: drop_unused_trees then
 * sees constants no one uses any more. Uses of other ids need no count. */
static void
uncount(struct spec *s, uint32_t id)
{
    if (s->cond_tree[id] && s->uses[id])
        s->uses[id]--;
}

static spvcond_result
uncount_ids(void *user, size_t inst, uint32_t word, uint32_t id)
{
    (void)inst;
    (void)word;
    uncount(user, id);
    return SPVCOND_OK;
}

/* The value of boolean `id` once specialized: FOLD_TRUE/FALSE when it is a constant this specialization
 * froze or a logical operation (in the code) over such and plain constants, with at least one frozen
 * constant (`*frozen`); FOLD_NO otherwise. */
static int
fold_value(const struct spec *s, uint32_t id, int depth, bool *frozen)
{
    const struct spvcond_module *m = s->m;
    size_t d = spvcond_def(m, id);
    if (d == SIZE_MAX || depth > FOLD_DEPTH)
        return FOLD_NO;
    const uint32_t *w = spvcond_inst_words(m, d);
    uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
    if (op == SPVCOND_OP_CONSTANT_TRUE || op == SPVCOND_OP_CONSTANT_FALSE)
        return op == SPVCOND_OP_CONSTANT_TRUE ? FOLD_TRUE : FOLD_FALSE;
    if (d < m->section[SPVCOND_SECTION_FUNCTION]) {
        if (!s->frozen[id] || spvcond_def_opcode(m, w[1]) != SPVCOND_OP_TYPE_BOOL)
            return FOLD_NO;
        *frozen = true;
        return s->v.value[id] ? FOLD_TRUE : FOLD_FALSE;
    }
    if ((op == SPVCOND_OP_COPY_OBJECT || op == SPVCOND_OP_LOGICAL_NOT) && wc == 4) {
        int x = fold_value(s, w[3], depth + 1, frozen);
        return x == FOLD_NO || op == SPVCOND_OP_COPY_OBJECT ? x : x == FOLD_TRUE ? FOLD_FALSE : FOLD_TRUE;
    }
    if ((op == SPVCOND_OP_LOGICAL_AND || op == SPVCOND_OP_LOGICAL_OR || op == SPVCOND_OP_LOGICAL_EQUAL ||
         op == SPVCOND_OP_LOGICAL_NOT_EQUAL) && wc == 5) {
        int x = fold_value(s, w[3], depth + 1, frozen), y = fold_value(s, w[4], depth + 1, frozen);
        if (x == FOLD_NO || y == FOLD_NO)
            return FOLD_NO;
        bool a = x == FOLD_TRUE, b = y == FOLD_TRUE;
        bool v = op == SPVCOND_OP_LOGICAL_AND ? a && b : op == SPVCOND_OP_LOGICAL_OR ? a || b
               : op == SPVCOND_OP_LOGICAL_EQUAL ? a == b : a != b;
        return v ? FOLD_TRUE : FOLD_FALSE;
    }
    return FOLD_NO;
}

/* The target a conditional branch `w` takes once specialized, or 0. */
static uint32_t
folded_target(const struct spec *s, const uint32_t *w)
{
    if (spvcond_opcode_of(w[0]) != SPVCOND_OP_BRANCH_CONDITIONAL || spvcond_word_count_of(w[0]) < 4)
        return 0;
    bool frozen = false;
    int v = fold_value(s, w[1], 0, &frozen);
    return v == FOLD_NO || !frozen ? 0 : v == FOLD_TRUE ? w[2] : w[3];
}

/* Whether function f has a branch to fold: not structured (merge instructions name blocks, which this
 * pass does not rewrite), and not touched by other edits. */
static bool
has_foldable_branch(const struct spec *s, const struct spvcond_function *fn)
{
    const struct spvcond_module *m = s->m;
    bool found = false;
    for (size_t i = fn->first_block; i < fn->end; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_SELECTION_MERGE || op == SPVCOND_OP_LOOP_MERGE)
            return false;
        found |= op == SPVCOND_OP_BRANCH_CONDITIONAL && !spvcond_edit_is_deleted(m, i) &&
                 !spvcond_edit_replacement(m, i) && folded_target(s, w);
    }
    return found;
}

/* OpPhi i of block b loses the operands of predecessors that no longer branch to it. */
static spvcond_result
trim_phi(struct spec *s, const struct spvcond_cfg *g, const uint32_t *taken, const uint8_t *live, uint32_t b, size_t i)
{
    struct spvcond_module *m = s->m;
    const uint32_t *w = spvcond_inst_words(m, i);
    uint32_t wc = spvcond_word_count_of(w[0]), label = spvcond_inst_words(m, g->label[b])[1], n = 3;
    uint32_t *out = spvcond_alloc_array(m->ctx, wc, sizeof(uint32_t));
    if (!out)
        return spvcond_oom(m->ctx);
    memcpy(out, w, 3 * sizeof(uint32_t));
    for (uint32_t k = 3; k + 1 < wc; k += 2) {
        uint32_t p = spvcond_cfg_block(g, w[k + 1]);
        bool edge = p != SPVCOND_CFG_NONE && live[p] && (!taken[p] || taken[p] == label);
        if (edge) {
            out[n++] = w[k];
            out[n++] = w[k + 1];
        } else {
            uncount(s, w[k]);
        }
    }
    out[0] = spvcond_first_word(n, SPVCOND_OP_PHI);
    spvcond_result r = n == wc ? SPVCOND_OK : spvcond_edit_replace(m, i, out, n);
    spvcond_dealloc(m->ctx, out);
    return r;
}

static spvcond_result
check_kept(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct spec *s = user;
    (void)word;
    return spvcond_spec_removed(s, id) ? spvcond_spec_use_of_removed(s, inst, id) : SPVCOND_OK;
}

static spvcond_result
fold_function(struct spec *s, const struct spvcond_function *fn, uint32_t *block_of_id)
{
    struct spvcond_module *m = s->m;
    struct spvcond_cfg g;
    spvcond_result r = spvcond_cfg_build(m, fn, block_of_id, &g);
    if (r != SPVCOND_OK)
        return r;
    uint32_t *taken = spvcond_alloc_array(m->ctx, g.block_count + 1, sizeof(uint32_t)); /* folded: its target */
    uint8_t *live = spvcond_alloc_array(m->ctx, g.block_count + 1, 1);
    uint32_t *stack = spvcond_alloc_array(m->ctx, g.block_count + 1, sizeof(uint32_t));
    if (!taken || !live || !stack)
        r = spvcond_oom(m->ctx);
    for (size_t b = 0; b < g.block_count && r == SPVCOND_OK; b++) {
        const uint32_t *w = spvcond_inst_words(m, g.terminator[b]);
        if (spvcond_edit_is_deleted(m, g.terminator[b]) || spvcond_edit_replacement(m, g.terminator[b]))
            continue;
        uint32_t target = folded_target(s, w);
        if (!target || spvcond_cfg_block(&g, target) == SPVCOND_CFG_NONE)
            continue;
        taken[b] = target;
        uint32_t branch[2] = {spvcond_first_word(2, SPVCOND_OP_BRANCH), target};
        r = spvcond_edit_replace(m, g.terminator[b], branch, 2);
        uncount(s, w[1]);
        s->stats.branches_folded++;
    }
    /* What the entry still reaches. */
    size_t depth = 0;
    if (r == SPVCOND_OK && g.block_count) {
        live[0] = 1;
        stack[depth++] = 0;
    }
    while (depth && r == SPVCOND_OK) {
        uint32_t b = stack[--depth];
        for (uint32_t e = g.succ_start[b]; e < g.succ_start[b + 1]; e++) {
            uint32_t t = g.succ[e];
            if (live[t] || (taken[b] && spvcond_inst_words(m, g.label[t])[1] != taken[b]))
                continue;
            live[t] = 1;
            stack[depth++] = t;
        }
    }
    for (size_t b = 0; b < g.block_count && r == SPVCOND_OK; b++) {
        for (size_t i = g.label[b]; i <= g.terminator[b] && r == SPVCOND_OK; i++) {
            if (live[b]) {
                if (spvcond_inst_opcode(m, i) == SPVCOND_OP_PHI && !spvcond_edit_is_deleted(m, i))
                    r = trim_phi(s, &g, taken, live, (uint32_t)b, i);
                continue;
            }
            if (!spvcond_edit_is_deleted(m, i) && !spvcond_edit_replacement(m, i)) /* counted as it was read */
                r = spvcond_walk_ids(m, i, uncount_ids, s);
            if (r == SPVCOND_OK)
                r = spvcond_spec_remove_defining(s, i, 0);
        }
    }
    /* Uses were checked before: what survives must not name what the fold removed (a value used outside
     * the blocks it dominates, which valid SPIR-V has only in OpPhi, trimmed above). */
    for (size_t b = 0; b < g.block_count && r == SPVCOND_OK; b++)
        for (size_t i = g.label[b]; live[b] && i <= g.terminator[b] && r == SPVCOND_OK; i++)
            if (!spvcond_edit_is_deleted(m, i) && !spvcond_edit_replacement(m, i))
                r = spvcond_walk_ids(m, i, check_kept, s);
    spvcond_dealloc(m->ctx, taken);
    spvcond_dealloc(m->ctx, live);
    spvcond_dealloc(m->ctx, stack);
    spvcond_cfg_release(&g);
    return r;
}

spvcond_result
spvcond_spec_fold_branches(struct spec *s)
{
    struct spvcond_module *m = s->m;
    uint32_t *block_of_id = NULL;
    spvcond_result r = SPVCOND_OK;
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++) {
        const struct spvcond_function *fn = &m->functions[f];
        if (s->fn_reason[f] || !has_foldable_branch(s, fn))
            continue;
        if (!block_of_id && !(block_of_id = spvcond_alloc_array(m->ctx, m->bound, sizeof(uint32_t))))
            return spvcond_oom(m->ctx);
        r = fold_function(s, fn, block_of_id);
    }
    spvcond_dealloc(m->ctx, block_of_id);
    return r;
}
