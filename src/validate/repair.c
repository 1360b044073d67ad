/* SPDX-License-Identifier: MIT */
/* Repair (spec/repair.md): give a multi-target module's items the conditions their users need, so that
 * no specialization can leave a dangling use, without touching any function's or entry point's
 * condition. What validate proves may dangle is what changes: an item used where its condition may be
 * false takes the Or of its condition and its users' (or none, used unconditionally), and so, in turn,
 * do the items it uses and the capabilities it needs; a use of a conditional call's result that the
 * producer did not merge is pointed at the merge of that call. A module that validates is left as it is. */
#include <stdio.h>
#include <string.h>

#include "ir/capabilities.h"
#include "ir/edit.h"
#include "ir/operands.h"
#include "ir/records.h"
#include "validate/validate.h"
#include "support/sized.h"

#define ALWAYS ((struct guard){0, 0})

struct addition {
    struct guard g;
    uint32_t next; /* index + 1 of the next addition to the same target, 0 at the end */
};

struct repair {
    struct spvcond_module *m;
    spvcond_repair_stats stats;
    uint32_t *decoration; /* per id: index + 1 of its ConditionalINTEL decoration */
    uint32_t *first;      /* per id, then per capability declaration (bound + its index): additions */
    struct addition *adds;
    size_t add_count, add_cap;
    uint32_t *subst;      /* per id: the merge that stands for a call result, 0 if none */
    uint8_t *rewrite;     /* per instruction: uses of call results to redirect */
    size_t rewrites;
    uint32_t bool_type;
    uint32_t *nodes;      /* (opcode, x, y, id) of the nodes made */
    size_t node_count, node_cap;
    uint32_t *defer;      /* their words */
    size_t defer_len, defer_cap;
};

static uint32_t
condition_of(const struct repair *rp, uint32_t id)
{
    return rp->decoration[id] ? spvcond_inst_words(rp->m, rp->decoration[id] - 1)[3] : 0;
}

/* A guard target's condition already implies g: nothing to add. */
static bool
implied(struct guard g, uint32_t cond)
{
    return cond && (g.a == cond || g.b == cond);
}

static spvcond_result
add(struct repair *rp, size_t target, struct guard g)
{
    for (uint32_t k = rp->first[target]; k; k = rp->adds[k - 1].next)
        if (!memcmp(&rp->adds[k - 1].g, &g, sizeof(g)) || !memcmp(&rp->adds[k - 1].g, &ALWAYS, sizeof(g)))
            return SPVCOND_OK;
    spvcond_result r = spvcond_grow(rp->m->ctx, (void **)&rp->adds, &rp->add_cap, rp->add_count + 1, sizeof(*rp->adds));
    if (r != SPVCOND_OK)
        return r;
    rp->adds[rp->add_count] = (struct addition){g, rp->first[target]};
    rp->first[target] = (uint32_t)++rp->add_count;
    return SPVCOND_OK;
}

/* The merge of a conditional call's result: an OpConditionalCopyObjectINTEL of its block naming it. */
static uint32_t
merge_of(const struct spvcond_module *m, size_t call, uint32_t id)
{
    const struct spvcond_function *fn = spvcond_function_of_inst(m, call);
    for (size_t i = call + 1; fn && i < fn->end; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_LABEL)
            break;
        for (uint32_t k = 4; op == SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL && k < spvcond_word_count_of(w[0]); k += 2)
            if (w[k] == id)
                return w[2];
    }
    return 0;
}

/* A use validate says may dangle. */
static spvcond_result
dangling(void *user, size_t inst, uint32_t id, struct guard u, struct guard d)
{
    struct repair *rp = user;
    struct spvcond_module *m = rp->m;
    size_t def = spvcond_def(m, id);
    uint32_t op = spvcond_inst_opcode(m, def);
    (void)d;
    if (def < m->section[SPVCOND_SECTION_FUNCTION] && spvcond_is_module_item(m, def) && rp->decoration[id])
        return add(rp, id, u);
    if (op == SPVCOND_OP_FUNCTION_CALL && inst > def) {
        uint32_t merge = merge_of(m, def, id);
        if (merge) {
            rp->subst[id] = merge;
            rp->rewrites += !rp->rewrite[inst];
            rp->rewrite[inst] = 1;
            return SPVCOND_OK;
        }
        return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, inst, id,
                                 "%s uses the result %%%u of a conditional call where the call may be removed, and no "
                                 "OpConditionalCopyObjectINTEL of the call's block merges it", spvcond_grammar_opcode_name(
                                     spvcond_inst_opcode(m, inst)), id);
    }
    return spvcond_fail_inst(m, SPVCOND_ERROR_INVALID_ID, inst, id,
                             "%s uses %s %%%u where its condition may be false; repair does not change the conditions "
                             "a producer states for functions, entry points and code", spvcond_grammar_opcode_name(
                                 spvcond_inst_opcode(m, inst)), spvcond_grammar_opcode_name(op), id);
}

struct spread {
    struct repair *rp;
    uint32_t from;
};

/* The additions to `from`, passed on to `target` (whose condition is `cond`) where cond does not imply them. */
static spvcond_result
pass_on(struct repair *rp, size_t from, size_t target, uint32_t cond)
{
    spvcond_result r = SPVCOND_OK;
    for (uint32_t k = rp->first[from]; k && r == SPVCOND_OK; k = rp->adds[k - 1].next)
        if (!implied(rp->adds[k - 1].g, cond))
            r = add(rp, target, rp->adds[k - 1].g);
    return r;
}

/* An item that now exists under more conditions needs what it uses under them too. */
static spvcond_result
spread_to_operand(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct spread *s = user;
    struct repair *rp = s->rp;
    (void)word;
    size_t def = spvcond_def(rp->m, id);
    if (!rp->decoration[id] || def == SIZE_MAX)
        return SPVCOND_OK;
    if (!spvcond_is_module_item(rp->m, def)) /* a function a function-pointer constant names (fuzzing) */
        return spvcond_fail_inst(rp->m, SPVCOND_ERROR_INVALID_ID, inst, id,
                                 "%%%u must be kept more often than its condition allows, and it names %s %%%u, whose "
                                 "condition the producer stated: repair cannot widen it", s->from,
                                 spvcond_grammar_opcode_name(spvcond_inst_opcode(rp->m, def)), id);
    return pass_on(rp, s->from, id, condition_of(rp, id));
}

struct needs {
    struct repair *rp;
    uint32_t from;
    const uint32_t *declared; /* per capability value below 65536: 1 unconditional, 2 + index conditional */
};

/* The capabilities an item that now exists under more conditions needs: declared under them too. */
static spvcond_result
spread_to_capability(void *user, size_t inst, const uint32_t *caps, size_t count)
{
    struct needs *n = user;
    (void)inst;
    size_t conditional = SIZE_MAX;
    for (size_t k = 0; k < count; k++) {
        uint32_t d = caps[k] < 65536 ? n->declared[caps[k]] : 0;
        if (d == 1)
            return SPVCOND_OK; /* declared unconditionally */
        if (d >= 2 && conditional == SIZE_MAX)
            conditional = d - 2;
    }
    if (conditional == SIZE_MAX)
        return SPVCOND_OK; /* not declared at all: not ours to add */
    return pass_on(n->rp, n->from, n->rp->m->bound + conditional, spvcond_inst_words(n->rp->m, conditional)[1]);
}

/* Additions flow from users to what they use: module-level items in reverse, then capabilities. */
static spvcond_result
spread(struct repair *rp)
{
    struct spvcond_module *m = rp->m;
    uint32_t *declared = spvcond_alloc_array(m->ctx, 65536, sizeof(uint32_t));
    if (!declared)
        return spvcond_oom(m->ctx);
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_CAPABILITY + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_CAPABILITY && w[1] < 65536)
            declared[w[1]] = 1;
        else if (op == SPVCOND_OP_CONDITIONAL_CAPABILITY_INTEL && w[2] < 65536 && !declared[w[2]])
            declared[w[2]] = (uint32_t)i + 2;
    }
    spvcond_result r = SPVCOND_OK;
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; i-- > m->section[SPVCOND_SECTION_EXTINST_IMPORT] && r == SPVCOND_OK;) {
        uint32_t id = spvcond_is_module_item(m, i) ? spvcond_result_id(m, i) : 0;
        if (!id || !rp->first[id])
            continue;
        struct spread s = {rp, id};
        struct needs n = {rp, id, declared};
        if ((r = spvcond_walk_ids(m, i, spread_to_operand, &s)) == SPVCOND_OK)
            r = spvcond_instruction_capabilities(m, i, spread_to_capability, &n);
    }
    spvcond_dealloc(m->ctx, declared);
    return r;
}

/* The node (opcode x y), made once. */
static spvcond_result
node(struct repair *rp, uint32_t opcode, uint32_t x, uint32_t y, uint32_t *out)
{
    for (size_t k = 0; k < rp->node_count; k++) {
        const uint32_t *n = rp->nodes + 4 * k;
        if (n[0] == opcode && ((n[1] == x && n[2] == y) || (n[1] == y && n[2] == x))) {
            *out = n[3];
            return SPVCOND_OK;
        }
    }
    spvcond_context *ctx = rp->m->ctx;
    spvcond_result r = spvcond_edit_new_id(rp->m, out);
    if (r == SPVCOND_OK)
        r = spvcond_grow(ctx, (void **)&rp->nodes, &rp->node_cap, 4 * (rp->node_count + 1), sizeof(uint32_t));
    if (r == SPVCOND_OK)
        r = spvcond_grow(ctx, (void **)&rp->defer, &rp->defer_cap, rp->defer_len + 6, sizeof(uint32_t));
    if (r != SPVCOND_OK)
        return r;
    uint32_t *n = rp->nodes + 4 * rp->node_count++;
    n[0] = opcode, n[1] = x, n[2] = y, n[3] = *out;
    uint32_t w[6] = {spvcond_first_word(6, SPVCOND_OP_SPEC_CONSTANT_OP), rp->bool_type, *out, opcode, x, y};
    memcpy(rp->defer + rp->defer_len, w, sizeof(w));
    rp->defer_len += 6;
    return SPVCOND_OK;
}

/* `cond` Or each addition to `target` (0: an addition says always). */
static spvcond_result
widened(struct repair *rp, size_t target, uint32_t cond, uint32_t *out)
{
    spvcond_result r = SPVCOND_OK;
    for (uint32_t k = rp->first[target]; k && r == SPVCOND_OK; k = rp->adds[k - 1].next) {
        struct guard g = rp->adds[k - 1].g;
        uint32_t term = g.a;
        if (!g.a) {
            *out = 0;
            return SPVCOND_OK;
        }
        if (g.b)
            r = node(rp, SPVCOND_OP_LOGICAL_AND, g.a, g.b, &term);
        if (r == SPVCOND_OK)
            r = node(rp, SPVCOND_OP_LOGICAL_OR, cond, term, &cond);
    }
    *out = cond;
    return r;
}

struct redirect {
    struct repair *rp;
    uint32_t *words;
};

static spvcond_result
redirect_use(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct redirect *d = user;
    (void)inst;
    if (d->rp->subst[id])
        d->words[word] = d->rp->subst[id];
    return SPVCOND_OK;
}

static spvcond_result
apply(struct repair *rp)
{
    struct spvcond_module *m = rp->m;
    spvcond_result r = SPVCOND_OK;
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION] && !rp->bool_type; i++)
        if (spvcond_inst_opcode(m, i) == SPVCOND_OP_TYPE_BOOL)
            rp->bool_type = spvcond_inst_words(m, i)[1];
    for (uint32_t id = 1; id < m->bound && r == SPVCOND_OK; id++) {
        if (!rp->first[id])
            continue;
        size_t dec = rp->decoration[id] - 1;
        uint32_t cond;
        if ((r = widened(rp, id, condition_of(rp, id), &cond)) != SPVCOND_OK)
            break;
        if (!cond) {
            r = spvcond_edit_delete(m, dec);
            rp->stats.conditions_removed++;
            spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_NOTE, spvcond_where_inst(m, dec, id),
                           "%%%u: ConditionalINTEL removed (something kept unconditionally uses it)", id);
            continue;
        }
        uint32_t w[4];
        memcpy(w, spvcond_inst_words(m, dec), sizeof(w));
        spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_NOTE, spvcond_where_inst(m, dec, id),
                       "%%%u: condition %%%u widened to %%%u (the Or of its users')", id, w[3], cond);
        w[3] = cond;
        r = spvcond_edit_replace(m, dec, w, 4);
        rp->stats.conditions_widened++;
    }
    for (size_t c = 0; c < m->section[SPVCOND_SECTION_CAPABILITY + 1] && r == SPVCOND_OK; c++) {
        if (!rp->first[m->bound + c])
            continue;
        const uint32_t *cw = spvcond_inst_words(m, c);
        uint32_t cond, w[3] = {cw[0], cw[1], cw[2]};
        if ((r = widened(rp, m->bound + c, cw[1], &cond)) != SPVCOND_OK)
            break;
        if (cond) {
            w[1] = cond;
            r = spvcond_edit_replace(m, c, w, 3);
        } else {
            uint32_t plain[2] = {spvcond_first_word(2, SPVCOND_OP_CAPABILITY), cw[2]};
            r = spvcond_edit_replace(m, c, plain, 2);
        }
        rp->stats.capabilities_widened++;
        spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_NOTE, spvcond_where_inst(m, c, 0),
                       "capability %u: condition %s", cw[2], cond ? "widened" : "removed");
    }
    /* Uses of call results, pointed at their merges. */
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; i < m->inst_count && r == SPVCOND_OK; i++) {
        if (!rp->rewrite[i])
            continue;
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t wc = spvcond_word_count_of(w[0]);
        uint32_t *out = spvcond_alloc_array(m->ctx, wc, sizeof(uint32_t));
        if (!out)
            return spvcond_oom(m->ctx);
        memcpy(out, w, wc * sizeof(uint32_t));
        struct redirect d = {rp, out};
        if ((r = spvcond_walk_ids(m, i, redirect_use, &d)) == SPVCOND_OK)
            r = spvcond_edit_replace(m, i, out, wc);
        spvcond_dealloc(m->ctx, out);
        rp->stats.uses_merged++;
        spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_NOTE, spvcond_where_inst(m, i, 0),
                       "a use of a conditional call's result now uses the call's merge");
    }
    if (r == SPVCOND_OK && rp->defer_len)
        r = spvcond_edit_append_to_section(m, SPVCOND_SECTION_GLOBAL, rp->defer, (uint32_t)rp->defer_len);
    return r;
}

/* The promise: what repair writes validates. The steps above are meant to keep it; this proves it. */
static spvcond_result
verify(struct spvcond_module *m)
{
    uint32_t *w;
    size_t n, violations = 0;
    spvcond_module *out;
    spvcond_result r = spvcond_module_emit(m, &w, &n);
    if (r != SPVCOND_OK)
        return r;
    if ((r = spvcond_module_parse(m->ctx, w, n, SPVCOND_PARSE_BORROW, &out)) == SPVCOND_OK) {
        r = spvcond_validate(out, &violations);
        spvcond_module_destroy(out);
    }
    spvcond_free(m->ctx, w);
    if (r == SPVCOND_OK || r == SPVCOND_ERROR_OUT_OF_MEMORY)
        return r;
    return spvcond_report(m->ctx, r, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                          "the repaired module still has %zu violation%s (above): nothing is written", violations,
                          violations == 1 ? "" : "s");
}

/* spirv-link records the device registry's version in OpModuleProcessed whatever the module's version;
 * SPIR-V 1.0 has no OpModuleProcessed (records.h), so there the record goes. */
static spvcond_result
drop_unversioned_records(struct repair *rp, bool *dropped)
{
    struct spvcond_module *m = rp->m;
    *dropped = false;
    for (size_t i = m->section[SPVCOND_SECTION_DEBUG_PROCESSED]; i < m->section[SPVCOND_SECTION_DEBUG_PROCESSED + 1]; i++) {
        if (!spvcond_record_unversioned(m, i))
            continue;
        spvcond_result r = spvcond_edit_delete(m, i);
        if (r != SPVCOND_OK)
            return r;
        spvcond_report(m->ctx, SPVCOND_OK, SPVCOND_SEVERITY_NOTE, spvcond_where_inst(m, i, 0),
                       "removed: OpModuleProcessed \"%s\" (SPIR-V 1.0 has no OpModuleProcessed)",
                       spvcond_inst_string(m, i, 1));
        *dropped = true;
    }
    return SPVCOND_OK;
}

static spvcond_result
run(struct repair *rp)
{
    struct spvcond_module *m = rp->m;
    spvcond_context *ctx = m->ctx;
    size_t caps = m->section[SPVCOND_SECTION_CAPABILITY + 1];
    rp->decoration = spvcond_alloc_array(ctx, m->bound, sizeof(uint32_t));
    rp->first = spvcond_alloc_array(ctx, m->bound + caps + 1, sizeof(uint32_t));
    rp->subst = spvcond_alloc_array(ctx, m->bound, sizeof(uint32_t));
    rp->rewrite = spvcond_alloc_array(ctx, m->inst_count + 1, 1);
    if (!rp->decoration || !rp->first || !rp->subst || !rp->rewrite)
        return spvcond_oom(ctx);
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if (spvcond_is_condition_decoration(w) && spvcond_opcode_of(w[0]) == SPVCOND_OP_DECORATE &&
            !rp->decoration[w[1]])
            rp->decoration[w[1]] = (uint32_t)i + 1;
    }
    size_t violations = 0;
    bool dropped;
    spvcond_result r = drop_unversioned_records(rp, &dropped);
    if (r == SPVCOND_OK)
        r = spvcond_validate_dangling(m, dangling, rp, &violations);
    if (r == SPVCOND_OK && violations)
        return spvcond_report(ctx, SPVCOND_ERROR_INVALID_BINARY, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "%zu violation%s that repair cannot mend (above: the extension's rules or SPIR-V's)",
                              violations, violations == 1 ? "" : "s");
    if (r == SPVCOND_OK && rp->add_count)
        r = spread(rp);
    if (r == SPVCOND_OK && (rp->add_count || rp->rewrites) && (r = apply(rp)) == SPVCOND_OK)
        r = verify(m);
    else if (r == SPVCOND_OK && dropped)
        r = verify(m);
    return r;
}

spvcond_result
spvcond_repair(spvcond_module *m, spvcond_repair_stats *stats)
{
    if (!m)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    spvcond_result r = SPVCOND_SIZED_OUT_CHECK(m->ctx, stats, spvcond_repair_stats);
    if (r == SPVCOND_OK)
        r = spvcond_edit_begin_pass(m, "repairing");
    if (r != SPVCOND_OK)
        return r;
    struct repair rp;
    memset(&rp, 0, sizeof(rp));
    rp.m = m;
    rp.stats.size = sizeof(rp.stats);
    r = run(&rp);
    if (r == SPVCOND_OK && stats)
        SPVCOND_SIZED_OUT(stats, &rp.stats, spvcond_repair_stats);
    if (r != SPVCOND_OK)
        spvcond_edit_abandon(m);
    spvcond_context *ctx = m->ctx;
    spvcond_dealloc(ctx, rp.decoration);
    spvcond_dealloc(ctx, rp.first);
    spvcond_dealloc(ctx, rp.adds);
    spvcond_dealloc(ctx, rp.subst);
    spvcond_dealloc(ctx, rp.rewrite);
    spvcond_dealloc(ctx, rp.nodes);
    spvcond_dealloc(ctx, rp.defer);
    return r;
}
