/* SPDX-License-Identifier: MIT */
/* The producer's virtual functions (spec/virtual-functions.md): functions whose address is taken are
 * grouped in sets; a set requires what its members use; a kernel requires what the sets it calls
 * require, and nothing for naming a function (building a vtable); a member of a set that requires
 * something keeps its id as a stub, and its body moves to a new function guarded by the set's
 * condition, so that every specialization still resolves every function pointer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/state.h"
#include "analysis/function_names.h"
#include "ir/records.h"

#define SET_MAX 64             /* sets are bits of a uint64_t */
#define DEFAULT_SET ""         /* indirectly_callable<> */
#define DEFAULT_SET_DPCPP "_ZTSv" /* what DPC++ calls it in properties: the set of `void` */

struct virtuals {
    const char *set_name[SET_MAX]; /* the caller's strings, or DEFAULT_SET */
    size_t set_count;
    uint32_t *member_set;          /* per function: its set + 1, 0 if it is in none */
    uint8_t *taken;                /* per function: a function-pointer constant names it */
    uint64_t *stated_calls;        /* per function: the sets it states it calls */
    uint8_t *indirect;             /* per function: it makes an indirect call itself */
    uint8_t *ref_only;             /* per call-graph edge: the callee is named through pointers only */
    spvcond_aspects set_aspects[SET_MAX];
    uint32_t set_cond[SET_MAX];    /* the condition of a set's aspects, 0 if it requires nothing */
    uint8_t *stubbed;              /* per function */
    uint32_t *code_cond;           /* per function: the condition of its code */
    uint64_t used_sets;
};

static spvcond_result
find_set(struct annotate *a, const char *name, bool make, size_t *out)
{
    struct virtuals *v = a->virt;
    for (size_t s = 0; s < v->set_count; s++)
        if (strcmp(v->set_name[s], name) == 0) {
            *out = s;
            return SPVCOND_OK;
        }
    if (!make)
        return SPVCOND_ERROR_NOT_FOUND;
    if (strpbrk(name, ",\r\n"))
        return spvcond_report(a->m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "virtual-function set '%s': a set's name cannot hold ',' or a line end", name);
    if (v->set_count == SET_MAX)
        return spvcond_report(a->m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "more than %u virtual-function sets", SET_MAX);
    v->set_name[v->set_count] = name;
    *out = v->set_count++;
    return SPVCOND_OK;
}

static const char *
origin_prefix(const spvcond_function_requirements *q, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s", q->origin ? q->origin : "", q->origin ? ": " : "");
    return buf;
}

/* Members stated with indirectly_callable. */
static spvcond_result
stated_members(struct annotate *a, const struct spvcond_function_names *names)
{
    struct virtuals *v = a->virt;
    spvcond_result r = SPVCOND_OK;
    for (size_t k = 0; k < a->o->requirement_count && r == SPVCOND_OK; k++) {
        const spvcond_function_requirements *q = &a->o->requirements[k];
        size_t f = q->indirectly_callable && q->function ? spvcond_function_names_find(names, q->function) : SIZE_MAX;
        size_t s;
        if (f == SIZE_MAX || (r = find_set(a, q->indirectly_callable, true, &s)) != SPVCOND_OK)
            continue; /* a function no name finds was reported with the other requirements */
        char where[320];
        if (v->member_set[f] && v->member_set[f] != s + 1)
            r = spvcond_report(a->m->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                               "%sfunction '%s' is stated in two virtual-function sets, '%s' and '%s'",
                               origin_prefix(q, where, sizeof(where)), q->function, v->set_name[v->member_set[f] - 1],
                               q->indirectly_callable);
        v->member_set[f] = (uint32_t)s + 1;
    }
    return r;
}

/* The sets stated with calls_indirectly, once every set is known: for every function the name names
 * (a kernel's entry point, and the function of that name the translator's entry-point wrapper calls). */
static spvcond_result
stated_calls(struct annotate *a, const struct spvcond_function_names *names)
{
    struct virtuals *v = a->virt;
    spvcond_result r = SPVCOND_OK;
    for (size_t k = 0; k < a->o->requirement_count && r == SPVCOND_OK; k++) {
        const spvcond_function_requirements *q = &a->o->requirements[k];
        if (!q->calls_indirectly_count || !q->function)
            continue;
        if (!q->calls_indirectly)
            return SPVCOND_ERROR_INVALID_ARGUMENT;
        uint64_t sets = 0;
        for (size_t c = 0; c < q->calls_indirectly_count && r == SPVCOND_OK; c++) {
            size_t s;
            char where[320];
            if (!q->calls_indirectly[c])
                return SPVCOND_ERROR_INVALID_ARGUMENT;
            if (find_set(a, q->calls_indirectly[c], false, &s) != SPVCOND_OK)
                r = spvcond_report(a->m->ctx, SPVCOND_ERROR_NOT_FOUND, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                   "%s'%s' calls virtual-function set '%s', but no function is in that set",
                                   origin_prefix(q, where, sizeof(where)), q->function, q->calls_indirectly[c]);
            else
                sets |= UINT64_C(1) << s;
        }
        for (size_t n = 0; n < names->count && r == SPVCOND_OK; n++)
            if (names->function[n] != UINT32_MAX && strcmp(names->name[n], q->function) == 0)
                v->stated_calls[names->function[n]] |= sets;
    }
    return r;
}

struct naming {
    struct annotate *a;
    uint32_t *named; /* per function: the last function + 1 whose code names it by its own id */
    uint32_t by;
};

static spvcond_result
note_named(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct naming *n = user;
    size_t callee = spvcond_callgraph_function(&n->a->g, n->a->m, id);
    (void)inst;
    (void)word;
    if (callee != SIZE_MAX)
        n->named[callee] = n->by;
    return SPVCOND_OK;
}

/* Which functions make indirect calls, and which call-graph edges name their callee only through
 * function-pointer constants (taking an address requires nothing of the function). */
static spvcond_result
scan_code(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct virtuals *v = a->virt;
    uint32_t *named = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t));
    if (!named)
        return spvcond_oom(m->ctx);
    spvcond_result r = SPVCOND_OK;
    struct naming n = {a, named, 0};
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++) {
        const struct spvcond_function *fn = &m->functions[f];
        n.by = (uint32_t)f + 1;
        for (size_t i = fn->first_block; i < fn->end && r == SPVCOND_OK; i++) {
            v->indirect[f] |= spvcond_inst_opcode(m, i) == SPVCOND_OP_FUNCTION_POINTER_CALL_INTEL;
            /* A function named by its own id: called, or named some other way that keeps it a callee. */
            r = spvcond_walk_ids(m, i, note_named, &n);
        }
        for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1]; e++)
            v->ref_only[e] = named[a->g.callees[e]] != f + 1;
    }
    spvcond_dealloc(m->ctx, named);
    return r;
}

spvcond_result
spvcond_virtual_begin(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    bool stated = false;
    for (size_t k = 0; k < a->o->requirement_count; k++)
        stated |= a->o->requirements[k].indirectly_callable || a->o->requirements[k].calls_indirectly_count;
    if (!a->g.has_pointers && !stated)
        return SPVCOND_OK;
    size_t nf = m->function_count, edges = a->g.callee_start[nf];
    struct virtuals *v = a->virt = spvcond_alloc_array(m->ctx, 1, sizeof(*v));
    if (!v)
        return spvcond_oom(m->ctx);
    v->member_set = spvcond_alloc_array(m->ctx, nf + 1, sizeof(uint32_t));
    v->taken = spvcond_alloc_array(m->ctx, nf + 1, 1);
    v->stated_calls = spvcond_alloc_array(m->ctx, nf + 1, sizeof(uint64_t));
    v->indirect = spvcond_alloc_array(m->ctx, nf + 1, 1);
    v->ref_only = spvcond_alloc_array(m->ctx, edges + 1, 1);
    v->stubbed = spvcond_alloc_array(m->ctx, nf + 1, 1);
    if (!v->member_set || !v->taken || !v->stated_calls || !v->indirect || !v->ref_only || !v->stubbed)
        return spvcond_oom(m->ctx);
    struct spvcond_function_names names;
    memset(&names, 0, sizeof(names));
    spvcond_result r = stated ? spvcond_function_names_build(m, &a->g, &names) : SPVCOND_OK;
    if (r == SPVCOND_OK && stated)
        r = stated_members(a, &names);
    /* A function whose address is taken and whose set is not stated is in the default set. */
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION] && r == SPVCOND_OK;
         i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        size_t f = spvcond_opcode_of(w[0]) == SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL
                       ? spvcond_callgraph_function(&a->g, m, w[3]) : SIZE_MAX;
        size_t s;
        if (f == SIZE_MAX)
            continue;
        v->taken[f] = 1;
        if (!v->member_set[f] && (r = find_set(a, DEFAULT_SET, true, &s)) == SPVCOND_OK)
            v->member_set[f] = (uint32_t)s + 1;
    }
    if (r == SPVCOND_OK && stated)
        r = stated_calls(a, &names);
    if (stated)
        spvcond_function_names_release(m, &names);
    for (size_t k = 0; k < m->entry_point_count && r == SPVCOND_OK; k++) {
        const uint32_t *w = spvcond_inst_words(m, m->entry_points[k]);
        size_t f = spvcond_callgraph_function(&a->g, m, w[2]);
        if (f != SIZE_MAX && v->member_set[f])
            r = spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, m->entry_points[k], w[2],
                                  "kernel '%s' is %s: a kernel cannot be a virtual function",
                                  spvcond_inst_string(m, m->entry_points[k], 3),
                                  v->taken[f] ? "named by a function pointer" : "stated indirectly_callable");
    }
    return r == SPVCOND_OK ? scan_code(a) : r;
}

void
spvcond_virtual_hide(const struct annotate *a, spvcond_aspects *hidden)
{
    const struct virtuals *v = a->virt;
    for (size_t e = 0; v && e < a->g.callee_start[a->m->function_count]; e++)
        if (v->ref_only[e])
            for (int w = 0; w < SPVCOND_REQUIREMENT_WORDS; w++)
                hidden[e].bits[w] = UINT64_MAX;
}

bool
spvcond_virtual_member(const struct annotate *a, size_t f, spvcond_aspects *signature)
{
    if (!a->virt || !a->virt->member_set[f])
        return false;
    /* Its set requires what its body uses; the stub, what its signature's types need. */
    const uint32_t *w = spvcond_inst_words(a->m, a->m->functions[f].begin);
    bool infer = !(a->o->flags & SPVCOND_ANNOTATE_NO_INFERENCE);
    *signature = infer ? spvcond_aspects_of_facts(a->inf.type_facts[w[4]]) : (spvcond_aspects){{0, 0}};
    return true;
}

/* The sets of aspects: what members use, and what the sets they call require. */
static void
set_requirements(struct annotate *a, const uint64_t *calls)
{
    struct spvcond_module *m = a->m;
    struct virtuals *v = a->virt;
    uint64_t set_calls[SET_MAX] = {0};
    for (size_t f = 0; f < m->function_count; f++) {
        if (!v->member_set[f])
            continue;
        spvcond_aspects *s = &v->set_aspects[v->member_set[f] - 1];
        for (int w = 0; w < SPVCOND_REQUIREMENT_WORDS; w++)
            s->bits[w] |= a->inf.used[f].bits[w];
        set_calls[v->member_set[f] - 1] |= calls[f];
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t s = 0; s < v->set_count; s++)
            for (uint64_t c = set_calls[s]; c; c &= c - 1) {
                const spvcond_aspects *t = &v->set_aspects[__builtin_ctzll(c)];
                spvcond_aspects before = v->set_aspects[s];
                for (int w = 0; w < SPVCOND_REQUIREMENT_WORDS; w++)
                    v->set_aspects[s].bits[w] |= t->bits[w];
                changed |= memcmp(&before, &v->set_aspects[s], sizeof(before)) != 0;
            }
    }
}

spvcond_result
spvcond_virtual_requirements(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct virtuals *v = a->virt;
    if (!v)
        return SPVCOND_OK;
    struct spvcond_inference *inf = &a->inf;
    size_t nf = m->function_count, default_set = SIZE_MAX;
    find_set(a, DEFAULT_SET, false, &default_set);
    uint64_t *calls = spvcond_alloc_array(m->ctx, nf + 1, sizeof(uint64_t));
    uint8_t *indirect = spvcond_alloc_array(m->ctx, nf + 1, 1);
    if (!calls || !indirect) {
        spvcond_dealloc(m->ctx, calls);
        spvcond_dealloc(m->ctx, indirect);
        return spvcond_oom(m->ctx);
    }
    /* The sets stated on what a function calls (not what it names), and whether an indirect call is
     * among it: components callees first. */
    for (size_t c = 0; c < inf->scc_count; c++) {
        uint64_t acc = 0;
        uint8_t ind = 0;
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++) {
            uint32_t f = inf->scc_members[k];
            acc |= v->stated_calls[f];
            ind |= v->indirect[f];
            for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1]; e++)
                if (!v->ref_only[e] && inf->scc_of[a->g.callees[e]] != c) {
                    acc |= calls[a->g.callees[e]];
                    ind |= indirect[a->g.callees[e]];
                }
        }
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++) {
            calls[inf->scc_members[k]] = acc;
            indirect[inf->scc_members[k]] = ind;
        }
    }
    /* Who makes an indirect call and states no set calls the default set; a kernel is told so. */
    for (size_t k = 0; k < m->entry_point_count; k++) {
        const uint32_t *w = spvcond_inst_words(m, m->entry_points[k]);
        size_t f = spvcond_callgraph_function(&a->g, m, w[2]);
        if (f != SIZE_MAX && indirect[f] && !calls[f])
            spvcond_warn_inst(m, m->entry_points[k], w[2],
                              "kernel '%s' makes an indirect call but states no calls_indirectly: it calls the "
                              "default virtual-function set%s",
                              spvcond_inst_string(m, m->entry_points[k], 3),
                              default_set == SIZE_MAX ? ", which has no function" : "");
    }
    for (size_t f = 0; f < nf; f++)
        if (indirect[f] && !calls[f] && default_set != SIZE_MAX)
            calls[f] = UINT64_C(1) << default_set;
    set_requirements(a, calls);
    /* Members stay: they are roots that require nothing. Kernels require what the sets they call do. */
    for (size_t f = 0; f < nf; f++) {
        if (v->member_set[f]) {
            a->is_root[f] |= m->functions[f].first_block != m->functions[f].end;
            v->used_sets |= v->taken[f] ? UINT64_C(1) << (v->member_set[f] - 1) : 0;
            continue;
        }
        if (!a->is_root[f])
            continue;
        v->used_sets |= calls[f];
        for (uint64_t c = calls[f]; c; c &= c - 1)
            for (int w = 0; w < SPVCOND_REQUIREMENT_WORDS; w++)
                inf->used[f].bits[w] |= v->set_aspects[__builtin_ctzll(c)].bits[w];
    }
    spvcond_dealloc(m->ctx, calls);
    spvcond_dealloc(m->ctx, indirect);
    return SPVCOND_OK;
}

/* A member's body may only move when everything in its recursive cycle moves with it. */
static spvcond_result
check_cycle(struct annotate *a, size_t f)
{
    struct spvcond_module *m = a->m;
    const struct spvcond_inference *inf = &a->inf;
    uint32_t c = inf->scc_of[f];
    for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++) {
        uint32_t g = inf->scc_members[k];
        if (a->virt->member_set[g])
            continue;
        char fl[SPVCOND_LABEL_SIZE], gl[SPVCOND_LABEL_SIZE];
        return spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, m->functions[f].begin, m->functions[f].id,
                                 "virtual function %s is in a recursive cycle with %s, which is not a virtual "
                                 "function: its body cannot move behind its set's condition",
                                 spvcond_function_label(m, f, fl), spvcond_function_label(m, g, gl));
    }
    return SPVCOND_OK;
}

spvcond_result
spvcond_virtual_guard_bodies(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct virtuals *v = a->virt;
    if (!v)
        return SPVCOND_OK;
    spvcond_result r = SPVCOND_OK;
    for (size_t s = 0; s < v->set_count && r == SPVCOND_OK; s++) {
        uint32_t leaves[SPVCOND_ASPECT_MAX], n = 0, set;
        const spvcond_aspects *need = &v->set_aspects[s];
        for (uint32_t asp = spvcond_aspects_next(need, 0); asp < SPVCOND_ASPECT_MAX && r == SPVCOND_OK;
             asp = spvcond_aspects_next(need, asp + 1)) {
            uint32_t val[4] = {asp, 0, 0, 0};
            size_t idx;
            if ((r = spvcond_store_leaf(&a->store, LEAF_ASPECT, val, &idx)) == SPVCOND_OK) {
                leaves[n++] = (uint32_t)idx;
                spvcond_store_need_leaf(&a->store, idx); /* a body's condition uses it, split or not */
            }
        }
        qsort(leaves, n, sizeof(uint32_t), spvcond_compare_u32);
        if (r == SPVCOND_OK && n && (r = spvcond_store_set(&a->store, leaves, n, &set)) == SPVCOND_OK)
            r = spvcond_cond_of_set(&a->store, set, &v->set_cond[s]);
    }
    size_t edges = a->g.callee_start[m->function_count];
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++) {
        const struct spvcond_function *fn = &m->functions[f];
        uint32_t cond = v->member_set[f] ? v->set_cond[v->member_set[f] - 1] : 0;
        spvcond_aspects signature;
        if (!cond || fn->first_block == fn->end || !spvcond_virtual_member(a, f, &signature))
            continue;
        const spvcond_aspects *need = &v->set_aspects[v->member_set[f] - 1];
        bool more = false;
        for (int w = 0; w < SPVCOND_REQUIREMENT_WORDS; w++)
            more |= (need->bits[w] & ~signature.bits[w]) != 0;
        if (!more)
            continue; /* the stub would require all its body does: nothing to move */
        for (size_t i = fn->begin + 1; i < fn->first_block && r == SPVCOND_OK; i++) /* found by fuzzing */
            if (spvcond_inst_opcode(m, i) != SPVCOND_OP_FUNCTION_PARAMETER)
                r = spvcond_fail_inst(m, SPVCOND_ERROR_UNSUPPORTED, i, fn->id,
                                      "virtual function %%%u has %s among its parameters: no stub can take its place",
                                      fn->id, spvcond_grammar_opcode_name(spvcond_inst_opcode(m, i)));
        if (r != SPVCOND_OK || (r = check_cycle(a, f)) != SPVCOND_OK)
            break;
        if (!a->edge_guard && !(a->edge_guard = spvcond_alloc_array(m->ctx, edges + 1, sizeof(uint32_t))))
            return spvcond_oom(m->ctx);
        v->stubbed[f] = 1;
        a->stats.virtual_stubs++;
        /* What the body calls, it calls under the set's condition. */
        for (uint32_t e = a->g.callee_start[f]; e < a->g.callee_start[f + 1] && r == SPVCOND_OK; e++)
            r = a->edge_guard[e] ? spvcond_cond_and(&a->store, a->edge_guard[e], cond, &a->edge_guard[e])
                                 : (a->edge_guard[e] = cond, SPVCOND_OK);
    }
    return r;
}

spvcond_result
spvcond_virtual_code_conditions(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct virtuals *v = a->virt;
    a->code_cond = a->reach;
    if (!v || !a->stats.virtual_stubs)
        return SPVCOND_OK;
    if (!(v->code_cond = spvcond_alloc_array(m->ctx, m->function_count + 1, sizeof(uint32_t))))
        return spvcond_oom(m->ctx);
    spvcond_result r = SPVCOND_OK;
    for (size_t f = 0; f < m->function_count && r == SPVCOND_OK; f++)
        r = v->stubbed[f] ? spvcond_cond_and(&a->store, a->reach[f], v->set_cond[v->member_set[f] - 1], &v->code_cond[f])
                          : (v->code_cond[f] = a->reach[f], SPVCOND_OK);
    a->code_cond = v->code_cond;
    return r;
}

/* ---- rewriting -------------------------------------------------------------------------------- */

/* Copies of the decorations of parameter `from` for the stub's parameter `to`, before the originals
 * (insertions after the last would meet what annotate adds at the end of the section). */
static spvcond_result
copy_decorations(struct spvcond_module *m, uint32_t from, uint32_t to)
{
    uint32_t b, e;
    spvcond_refs_range(&m->decorations, from, &b, &e);
    spvcond_result r = SPVCOND_OK;
    for (uint32_t k = b; k < e && r == SPVCOND_OK; k++) {
        size_t i = m->decorations.inst[k];
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t wc = spvcond_word_count_of(w[0]), op = spvcond_opcode_of(w[0]);
        if ((op != SPVCOND_OP_DECORATE && op != SPVCOND_OP_DECORATE_ID && op != SPVCOND_OP_DECORATE_STRING) ||
            w[1] != from)
            continue;
        uint32_t *c = spvcond_alloc_array(m->ctx, wc, sizeof(uint32_t));
        if (!c)
            return spvcond_oom(m->ctx);
        memcpy(c, w, wc * sizeof(uint32_t));
        c[1] = to;
        r = spvcond_edit_insert(m, i, c, wc);
        spvcond_dealloc(m->ctx, c);
    }
    return r;
}

/* "NAME.body" for the moved body of a named function, before the function's name. */
static spvcond_result
name_body(struct spvcond_module *m, uint32_t function, uint32_t body)
{
    uint32_t b, e;
    spvcond_refs_range(&m->names, function, &b, &e);
    for (uint32_t k = b; k < e; k++) {
        size_t i = m->names.inst[k];
        if (spvcond_inst_opcode(m, i) != SPVCOND_OP_NAME)
            continue;
        const char *name = spvcond_inst_string(m, i, 2);
        size_t len = strlen(name);
        uint32_t cap = (uint32_t)(len + 5) / 4 + 2;
        char *text = spvcond_alloc(m->ctx, len + 6);
        uint32_t *w = spvcond_alloc_array(m->ctx, cap + 2, sizeof(uint32_t));
        spvcond_result r = text && w ? SPVCOND_OK : spvcond_oom(m->ctx);
        if (r == SPVCOND_OK) {
            memcpy(text, name, len);
            memcpy(text + len, ".body", 6);
            uint32_t n = 2 + spvcond_encode_string(text, w + 2, cap);
            w[0] = spvcond_first_word(n, SPVCOND_OP_NAME);
            w[1] = body;
            r = spvcond_edit_insert(m, i, w, n);
        }
        spvcond_dealloc(m->ctx, text);
        spvcond_dealloc(m->ctx, w);
        return r;
    }
    return SPVCOND_OK;
}

/* Function f becomes
 *   %f = OpFunction %ret Control %type            ; the stub: every pointer to %f still resolves
 *   %p' = OpFunctionParameter ...
 *   %r = OpFunctionCall %ret %body %p' ...        ; ConditionalINTEL: the body's condition
 *   %u = OpUndef %ret
 *   %v = OpConditionalCopyObjectINTEL %ret %cond %r %not_cond %u
 *   OpReturnValue %v                              ; (OpReturn for void)
 *   OpFunctionEnd
 *   %body = OpFunction %ret Control %type         ; the original body, ConditionalINTEL: its condition
 */
static spvcond_result
stub(struct annotate *a, size_t f)
{
    struct spvcond_module *m = a->m;
    const struct spvcond_function *fn = &m->functions[f];
    const uint32_t *fw = spvcond_inst_words(m, fn->begin);
    uint32_t params = (uint32_t)(fn->first_block - fn->begin - 1), ret = fw[1];
    bool is_void = spvcond_def_opcode(m, ret) == SPVCOND_OP_TYPE_VOID;
    uint32_t cond, not_cond = 0, negated, body, label, call, undef = 0, result = 0;
    uint32_t code = a->code_cond[f];
    spvcond_result r = spvcond_emit_condition(&a->emit, code, &cond);
    if (r == SPVCOND_OK && !is_void && (r = spvcond_cond_not(&a->store, code, &negated)) == SPVCOND_OK)
        r = spvcond_emit_condition(&a->emit, negated, &not_cond);
    if (r == SPVCOND_OK)
        r = spvcond_edit_new_id(m, &body);
    if (r == SPVCOND_OK)
        r = spvcond_edit_new_id(m, &label);
    if (r == SPVCOND_OK)
        r = spvcond_edit_new_id(m, &call);
    if (r == SPVCOND_OK && !is_void && (r = spvcond_edit_new_id(m, &undef)) == SPVCOND_OK)
        r = spvcond_edit_new_id(m, &result);
    size_t cap = 5 + 3 * (size_t)params + 2 + 4 + params + 3 + 7 + 2 + 1 + 5;
    uint32_t *w = r == SPVCOND_OK ? spvcond_alloc_array(m->ctx, cap, sizeof(uint32_t)) : NULL;
    if (r == SPVCOND_OK && !w)
        r = spvcond_oom(m->ctx);
    if (r != SPVCOND_OK)
        return r;
    memcpy(w, fw, 5 * sizeof(uint32_t));
    size_t n = 5;
    for (uint32_t p = 0; p < params && r == SPVCOND_OK; p++) {
        const uint32_t *pw = spvcond_inst_words(m, fn->begin + 1 + p);
        w[n++] = spvcond_first_word(3, SPVCOND_OP_FUNCTION_PARAMETER);
        w[n++] = pw[1];
        if ((r = spvcond_edit_new_id(m, &w[n])) == SPVCOND_OK)
            r = copy_decorations(m, pw[2], w[n]);
        n++;
    }
    w[n++] = spvcond_first_word(2, SPVCOND_OP_LABEL);
    w[n++] = label;
    w[n++] = spvcond_first_word(4 + params, SPVCOND_OP_FUNCTION_CALL);
    w[n++] = ret;
    w[n++] = call;
    w[n++] = body;
    for (uint32_t p = 0; p < params; p++)
        w[n++] = w[5 + 3 * p + 2];
    if (is_void) {
        w[n++] = spvcond_first_word(1, SPVCOND_OP_RETURN);
    } else {
        uint32_t tail[12] = {spvcond_first_word(3, SPVCOND_OP_UNDEF), ret, undef,
                             spvcond_first_word(7, SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL), ret, result, cond, call,
                             not_cond, undef, spvcond_first_word(2, SPVCOND_OP_RETURN_VALUE), result};
        memcpy(w + n, tail, sizeof(tail));
        n += 12;
    }
    w[n++] = spvcond_first_word(1, SPVCOND_OP_FUNCTION_END);
    memcpy(w + n, fw, 5 * sizeof(uint32_t));
    w[n + 2] = body;
    n += 5;
    if (r == SPVCOND_OK)
        r = spvcond_edit_replace(m, fn->begin, w, (uint32_t)n);
    spvcond_dealloc(m->ctx, w);
    if (r == SPVCOND_OK)
        r = spvcond_emit_decorate(&a->emit, body, cond);
    if (r == SPVCOND_OK)
        r = spvcond_emit_decorate(&a->emit, call, cond);
    if (r == SPVCOND_OK)
        r = name_body(m, fn->id, body);
    return r;
}

/* The sets the module uses, for its property set: "spvcond annotate: virtual-function sets used: A,B". */
static spvcond_result
record_sets(struct annotate *a)
{
    struct spvcond_module *m = a->m;
    struct virtuals *v = a->virt;
    const char *names[SET_MAX];
    size_t n = 0, len = strlen(SPVCOND_VIRTUAL_SETS_RECORD) + 1;
    for (size_t s = 0; s < v->set_count; s++)
        if (v->used_sets >> s & 1) {
            names[n] = v->set_name[s][0] ? v->set_name[s] : DEFAULT_SET_DPCPP;
            len += strlen(names[n++]) + 1;
        }
    if (!n)
        return SPVCOND_OK;
    if (len > 4 * 60000)
        return spvcond_report(m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "the names of the virtual-function sets are too long to record (%zu bytes)", len);
    qsort(names, n, sizeof(names[0]), spvcond_compare_strings);
    char *text = spvcond_alloc(m->ctx, len);
    if (!text)
        return spvcond_oom(m->ctx);
    size_t o = (size_t)snprintf(text, len, "%s", SPVCOND_VIRTUAL_SETS_RECORD);
    for (size_t k = 0; k < n; k++)
        o += (size_t)snprintf(text + o, len - o, "%s%s", k ? "," : "", names[k]);
    spvcond_result r = spvcond_record_append(m, text);
    spvcond_dealloc(m->ctx, text);
    return r;
}

spvcond_result
spvcond_virtual_rewrite(struct annotate *a)
{
    struct virtuals *v = a->virt;
    if (!v)
        return SPVCOND_OK;
    spvcond_result r = record_sets(a);
    for (size_t f = 0; f < a->m->function_count && r == SPVCOND_OK; f++)
        if (v->stubbed[f])
            r = stub(a, f);
    return r;
}

void
spvcond_virtual_release(struct annotate *a)
{
    struct virtuals *v = a->virt;
    spvcond_context *ctx = a->m->ctx;
    if (!v)
        return;
    spvcond_dealloc(ctx, v->member_set);
    spvcond_dealloc(ctx, v->taken);
    spvcond_dealloc(ctx, v->stated_calls);
    spvcond_dealloc(ctx, v->indirect);
    spvcond_dealloc(ctx, v->ref_only);
    spvcond_dealloc(ctx, v->stubbed);
    spvcond_dealloc(ctx, v->code_cond);
    spvcond_dealloc(ctx, v);
    a->virt = NULL;
}
