/* SPDX-License-Identifier: MIT */
#include "analysis/infer.h"

#include <string.h>

#include "registry/aspects.h"
#include "ir/capabilities.h"
#include "ir/operands.h"

/* Type facts in definition order; a struct that reaches itself through a forward pointer sees the
 * pointer's facts as empty, which only matters for self-referential types. */
static void
type_facts(const struct spvcond_module *m, uint8_t *facts)
{
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
        if (wc < 2)
            continue;
        uint8_t f = 0;
        switch (op) {
        case SPVCOND_OP_TYPE_FLOAT:
            f = wc >= 3 && w[2] == 64 ? SPVCOND_TYPE_FP64 : wc >= 3 && w[2] == 16 ? SPVCOND_TYPE_FP16 : 0;
            break;
        case SPVCOND_OP_TYPE_VECTOR: case SPVCOND_OP_TYPE_MATRIX: case SPVCOND_OP_TYPE_ARRAY:
        case SPVCOND_OP_TYPE_RUNTIME_ARRAY: /* vector, matrix, array, runtime array: the element */
            f = wc >= 3 ? facts[w[2]] : 0;
            break;
        case SPVCOND_OP_TYPE_STRUCT: case SPVCOND_OP_TYPE_FUNCTION: /* struct members; function return and parameters */
            for (uint32_t k = 2; k < wc; k++)
                f |= facts[w[k]];
            break;
        case SPVCOND_OP_TYPE_POINTER: /* pointer: half behind a pointer is storage only (Float16Buffer) */
            f = wc >= 4 ? facts[w[3]] & (uint8_t)~SPVCOND_TYPE_FP16 : 0;
            break;
        case SPVCOND_OP_TYPE_IMAGE: case SPVCOND_OP_TYPE_SAMPLER: case SPVCOND_OP_TYPE_SAMPLED_IMAGE:
            f = SPVCOND_TYPE_IMAGE;
            break;
        default:
            continue;
        }
        facts[w[1]] = f;
    }
}

/* Set on the facts of functions and function-pointer constants: a use of an id whose facts lack it
 * needs no look-up in the call graph's (four times larger) table. */
#define FACT_NAMES_FUNCTION 0x40u
/* Set on the facts of module-level items (spvcond_is_module_item): the walk notes which of them
 * each function names with no look-up for the other ids. Values do not inherit it from their type. */
#define FACT_MODULE_ITEM 0x20u

/* Values take their type's facts, so that a use costs one lookup whatever defines it. */
static inline void
value_fact(uint8_t *facts, uint32_t result, uint32_t type)
{
    facts[result] = facts[type] & (uint8_t)~FACT_MODULE_ITEM;
}

/* The value instruction w defines, if any; `gi`: the grammar's row of w's opcode (NULL if none). */
static inline void
value_facts_row(const struct spvcond_grammar_instruction *gi, const uint32_t *w, uint8_t *facts)
{
    if (gi && gi->has_type && gi->has_result && spvcond_word_count_of(w[0]) >= 3)
        value_fact(facts, w[2], w[1]);
}

static inline void
value_facts(const uint32_t *w, uint8_t *facts)
{
    value_facts_row(spvcond_grammar_instruction(spvcond_opcode_of(w[0])), w, facts);
}

/* The module-level item k (spvcond_is_module_item; counted from OpExtInstImport's section, as the
 * reader's lists count them) defines `id` (0: none): marked, and its facts to item_facts if asked. */
static inline void
item_fact(uint8_t *facts, uint8_t *item_facts, size_t k, uint32_t id)
{
    if (id)
        facts[id] |= FACT_MODULE_ITEM;
    if (item_facts)
        item_facts[k] = facts[id]; /* id 0: no facts */
}

/* Module-level values; and the mark of functions and function pointers, whose facts are their return
 * type's (a call may precede the callee's definition). With `item_facts` (per item, as the reader's
 * lists count them), each item's facts too. Returns whether a function-pointer constant names a
 * function. */
static bool
global_facts(const struct spvcond_module *m, const struct spvcond_callgraph *g, bool infer, uint8_t *facts,
             uint8_t *item_facts)
{
    bool pointers = false;
    /* The items: OpExtInstImport's section, and the globals' (spvcond_is_module_item), each complete
     * once its own instruction is read (a value's facts are its type's, which comes earlier; functions
     * are no items). item_facts counts from the first; what stands between is no item (zero). */
    size_t runs[2][2];
    spvcond_item_runs(m, runs);
    size_t base = runs[0][0];
    for (size_t i = base; i < runs[0][1]; i++)
        item_fact(facts, item_facts, i - base, spvcond_result_id(m, i));
    for (size_t i = runs[1][0]; i < runs[1][1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(spvcond_opcode_of(w[0]));
        if (infer)
            value_facts_row(gi, w, facts);
        bool pointer = spvcond_opcode_of(w[0]) == SPVCOND_OP_CONSTANT_FUNCTION_POINTER_INTEL &&
                       spvcond_word_count_of(w[0]) >= 4 && g->function_of_id[w[2]];
        if (pointer)
            facts[w[2]] |= FACT_NAMES_FUNCTION;
        pointers |= pointer;
        item_fact(facts, item_facts, i - base, spvcond_result_id_row(gi, w));
    }
    /* Functions from the reader's records, not their OpFunctions' words, which lie far apart (each a
     * cache miss). A function's facts are its result type's, as value_facts gives a value's. */
    for (size_t f = 0; f < m->function_count; f++) {
        const struct spvcond_function *fn = &m->functions[f];
        if (infer)
            value_fact(facts, fn->id, fn->type);
        facts[fn->id] |= FACT_NAMES_FUNCTION;
    }
    return pointers;
}

struct code_walk {
    const struct spvcond_module *m;
    uint8_t *facts;
    struct spvcond_callgraph_builder *b;
    struct spvcond_inference *inf;
    uint32_t *item_seen; /* per module-level item: the last function (+ 1) that named it */
    size_t items, item_cap;
    uint32_t function;   /* the function being walked, + 1 */
    uint32_t edges_from; /* words before it name no callee (a call's callee is counted apart) */
    uint8_t seen;
    bool infer;
    struct spvcond_declared_caps *caps; /* NULL: capabilities are not asked for */
    uint64_t cap_need;                  /* of the function being walked */
    spvcond_aspects by_capability;      /* of the function being walked: aspects its instructions'
                                           capabilities mean (spvcond_aspect_of_capability) */
};

/* Room for one more entry in the lists (out of line: the walk's hot path only compares). */
static spvcond_result
grow_item_list(struct code_walk *o)
{
    return spvcond_grow(o->m->ctx, (void **)&o->inf->item_list, &o->item_cap, o->inf->item_count + 1,
                        sizeof(uint32_t));
}

/* The first time the current function names module-level item `id`: its index goes on the list. */
static inline __attribute__((always_inline)) spvcond_result
note_item(struct code_walk *o, uint32_t id)
{
    size_t item = (size_t)o->m->def[id] - 1 - o->m->section[SPVCOND_SECTION_EXTINST_IMPORT];
    if (item >= o->items || o->item_seen[item] == o->function) /* only items have the fact */
        return SPVCOND_OK;
    o->item_seen[item] = o->function;
    spvcond_result r = o->inf->item_count < o->item_cap ? SPVCOND_OK : grow_item_list(o);
    if (r == SPVCOND_OK)
        o->inf->item_list[o->inf->item_count++] = (uint32_t)item;
    return r;
}

static inline __attribute__((always_inline)) spvcond_result
note_id(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct code_walk *o = user;
    (void)inst;
    uint8_t f = o->facts[id];
    o->seen |= f;
    spvcond_result r = f & FACT_MODULE_ITEM ? note_item(o, id) : SPVCOND_OK;
    return (f & FACT_NAMES_FUNCTION) && word >= o->edges_from && r == SPVCOND_OK ? spvcond_callgraph_use(o->b, id) : r;
}

/* A requirement of one of caps[0..count): each declared one is needed (as annotate has always
 * counted alternatives); one alone may mean an aspect. */
static spvcond_result
note_capability(void *user, size_t inst, const uint32_t *caps, size_t count)
{
    struct code_walk *o = user;
    (void)inst;
    uint32_t aspect = o->infer && count == 1 ? spvcond_aspect_of_capability(caps[0], true) : SPVCOND_ASPECT_MAX;
    if (aspect < SPVCOND_ASPECT_MAX)
        spvcond_aspects_add(&o->by_capability, aspect);
    for (size_t c = 0; c < count && o->caps; c++) {
        size_t d = spvcond_declared_caps_find(o->caps, caps[c]);
        o->cap_need |= d != SIZE_MAX ? spvcond_declared_cap_done(d) : 0;
    }
    return SPVCOND_OK;
}

/* The capabilities of instruction i (opcode op) of a function: looked for only when its opcode may
 * need one the function is not known to need yet (one table lookup for most), or it is an atomic. */
static inline __attribute__((always_inline)) spvcond_result
code_caps(const struct spvcond_module *m, struct code_walk *o, bool infer, size_t i, uint32_t op)
{
    bool caps = o->caps && (spvcond_declared_caps_may(o->caps, op) & ~o->cap_need);
    return (infer && spvcond_is_atomic_opcode(op)) || caps ? spvcond_instruction_capabilities(m, i, note_capability, o)
                                                           : SPVCOND_OK;
}

/* Instruction i of a function: the ids it names, then its capabilities. */
static inline __attribute__((always_inline)) spvcond_result
code_inst(const struct spvcond_module *m, struct code_walk *o, bool infer, size_t i)
{
    spvcond_result r = spvcond_for_each_id(m, i, note_id, o);
    return r == SPVCOND_OK ? code_caps(m, o, infer, i, spvcond_inst_opcode(m, i)) : r;
}

/* One walk over the code for the call graph's edges (blocks only), the module-level items each
 * function names (every instruction), and each function's own aspects (`infer`: the facts of every id
 * its instructions name, result types included, e.g. an OpFConvert to double). Values of the code
 * keep no facts of their own: a function's values are used in that function only, where their
 * definitions name their types; module-level values and functions have their types' (global_facts).
 *
 * `listed`, with `item_facts` (each item's facts): the reader listed each function's items
 * (SPVCOND_PARSE_FOR_ANNOTATE) and no function-pointer constant names a function: the other ids a
 * function names tell nothing then (its own values have no facts, and the lists stand only if the
 * functions it names are its calls' callees), so only calls and the instructions that may need a
 * capability are read, and the lists serve as the walk's own. */
static inline __attribute__((always_inline)) spvcond_result
walk(const struct spvcond_module *m, struct spvcond_callgraph_builder *b, bool infer,
     struct spvcond_declared_caps *caps, uint8_t *facts, bool listed, const uint8_t *item_facts,
     struct spvcond_inference *inf)
{
    size_t items = m->section[SPVCOND_SECTION_FUNCTION] - m->section[SPVCOND_SECTION_EXTINST_IMPORT];
    struct code_walk o = {m, facts, b, inf, NULL, items, 0, 0, UINT32_MAX, 0, infer, caps, 0, {{0, 0}}};
    if (!listed && !(o.item_seen = spvcond_alloc_array(m->ctx, items + 1, sizeof(uint32_t))))
        return spvcond_oom(m->ctx);
    const uint32_t *start = m->fn_item_start, *list = m->fn_items;
    size_t reads_total = listed ? m->fn_read_start[m->function_count] : 0;
    spvcond_aspects *own = inf->own;
    spvcond_result r = SPVCOND_OK;
    size_t i = m->section[SPVCOND_SECTION_FUNCTION];
    for (size_t f = 0; f <= m->function_count && r == SPVCOND_OK; f++) {
        size_t gap_end = f < m->function_count ? m->functions[f].begin : m->inst_count;
        for (; infer && i < gap_end; i++) /* debug instructions between functions: their values only */
            value_facts(spvcond_inst_words(m, i), facts);
        if (f == m->function_count)
            break;
        const struct spvcond_function *fn = &m->functions[f];
        if (!listed && f + 4 < m->function_count) /* its OpFunction and parameters, read below: far apart */
            __builtin_prefetch(m->words + m->inst[m->functions[f + 4].begin]);
        o.seen = 0;
        o.by_capability = (spvcond_aspects){{0, 0}};
        o.cap_need = 0;
        o.edges_from = UINT32_MAX;
        o.function = (uint32_t)f + 1;
        if (!listed)
            inf->item_start[f] = (uint32_t)inf->item_count;
        for (uint32_t k = listed ? start[f] : 0; infer && listed && k < start[f + 1]; k++)
            o.seen |= item_facts[list[k]];
        /* OpFunction, parameters: listed, among the reads below */
        for (i = fn->begin; !listed && i < fn->first_block && r == SPVCOND_OK; i++)
            r = code_inst(m, &o, infer, i);
        spvcond_callgraph_caller(b, f);
        /* Listed: what the reader listed of the function (calls, atomics, what may need a capability). */
        uint32_t reads_end = listed ? m->fn_read_start[f + 1] : 0;
        for (uint32_t k = listed ? m->fn_read_start[f] : 0; k < reads_end && r == SPVCOND_OK; k++) {
            if (k + 32 < reads_total) /* as spvcond_prefetch_ahead, for the instructions listed */
                __builtin_prefetch(m->words + m->inst[m->fn_reads[k + 32]]);
            i = m->fn_reads[k];
            uint32_t op = spvcond_inst_opcode(m, i);
            if (op == SPVCOND_OP_FUNCTION_CALL && (r = spvcond_callgraph_call(b, i)) == SPVCOND_OK)
                o.seen |= facts[spvcond_inst_words(m, i)[3]]; /* the callee's, as the full walk has it */
            if (r == SPVCOND_OK)
                r = code_caps(m, &o, infer, i, op);
        }
        for (i = fn->first_block; !listed && i < fn->end && r == SPVCOND_OK; i++) {
            spvcond_prefetch_ahead(m, i);
            uint32_t op = spvcond_inst_opcode(m, i);
            bool call = op == SPVCOND_OP_FUNCTION_CALL; /* OpFunctionCall: its callee, checked; then arguments */
            o.edges_from = call ? 4 : 0;
            if (call)
                r = spvcond_callgraph_call(b, i);
            if (r == SPVCOND_OK)
                r = code_inst(m, &o, infer, i);
        }
        i = fn->end + 1; /* OpFunctionEnd names nothing */
        if (caps)
            inf->cap_need[f] = o.cap_need;
        own[f] = spvcond_aspects_of_facts(o.seen);
        for (int w = 0; w < SPVCOND_REQUIREMENT_WORDS; w++)
            own[f].bits[w] |= o.by_capability.bits[w];
    }
    if (listed) {
        spvcond_dealloc(m->ctx, inf->item_start);
        inf->item_start = m->fn_item_start;
        inf->item_list = m->fn_items;
        inf->item_count = start[m->function_count];
        inf->items_borrowed = true;
    } else {
        inf->item_start[m->function_count] = (uint32_t)inf->item_count;
        spvcond_dealloc(m->ctx, o.item_seen);
    }
    return r;
}

static spvcond_result
walk_every_id(const struct spvcond_module *m, struct spvcond_callgraph_builder *b, bool infer,
              struct spvcond_declared_caps *caps, uint8_t *facts, struct spvcond_inference *inf)
{
    return walk(m, b, infer, caps, facts, false, NULL, inf);
}

static spvcond_result
walk_listed(const struct spvcond_module *m, struct spvcond_callgraph_builder *b, bool infer,
            struct spvcond_declared_caps *caps, uint8_t *facts, const uint8_t *item_facts,
            struct spvcond_inference *inf)
{
    return walk(m, b, infer, caps, facts, true, item_facts, inf);
}

spvcond_aspects
spvcond_aspects_of_facts(uint8_t facts)
{
    spvcond_aspects a = {{0, 0}};
#define SPVCOND_OF_FACT(n, NAME, name, type_fact, capability, inferred, more, query, extensions) \
    if ((type_fact) && (facts & (type_fact)))                                                 \
        spvcond_aspects_add(&a, n);
    SPVCOND_ASPECT_TABLE(SPVCOND_OF_FACT)
#undef SPVCOND_OF_FACT
    return a;
}

/* Tarjan's algorithm without recursion (call depth is input-controlled). Components come out
 * callees-first. */
static spvcond_result
components(const struct spvcond_module *m, const struct spvcond_callgraph *g, struct spvcond_inference *inf)
{
    size_t n = m->function_count;
    uint32_t *index = spvcond_alloc_array(m->ctx, n + 1, sizeof(uint32_t));
    uint32_t *low = spvcond_alloc_array(m->ctx, n + 1, sizeof(uint32_t));
    uint32_t *stack = spvcond_alloc_array(m->ctx, n + 1, sizeof(uint32_t));
    uint8_t *on_stack = spvcond_alloc_array(m->ctx, n + 1, 1);
    uint32_t *frames = spvcond_alloc_array(m->ctx, 2 * n + 2, sizeof(uint32_t)); /* (node, next edge) */
    spvcond_result r = SPVCOND_OK;
    if (!index || !low || !stack || !on_stack || !frames) {
        r = spvcond_oom(m->ctx);
        goto out;
    }
    uint32_t next_index = 1, sp = 0, fp = 0, members = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root])
            continue;
        frames[fp++] = root;
        frames[fp++] = g->callee_start[root];
        index[root] = low[root] = next_index++;
        stack[sp++] = root;
        on_stack[root] = 1;
        while (fp) {
            uint32_t v = frames[fp - 2], e = frames[fp - 1];
            if (e < g->callee_start[v + 1]) {
                frames[fp - 1]++;
                uint32_t w = g->callees[e];
                if (!index[w]) {
                    index[w] = low[w] = next_index++;
                    stack[sp++] = w;
                    on_stack[w] = 1;
                    frames[fp++] = w;
                    frames[fp++] = g->callee_start[w];
                } else if (on_stack[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            fp -= 2;
            if (fp && low[v] < low[frames[fp - 2]])
                low[frames[fp - 2]] = low[v];
            if (low[v] != index[v])
                continue;
            inf->scc_start[inf->scc_count] = members;
            uint32_t w;
            do {
                w = stack[--sp];
                on_stack[w] = 0;
                inf->scc_of[w] = (uint32_t)inf->scc_count;
                inf->scc_members[members++] = w;
            } while (w != v);
            inf->scc_count++;
        }
    }
    inf->scc_start[inf->scc_count] = members;
out:
    spvcond_dealloc(m->ctx, index);
    spvcond_dealloc(m->ctx, low);
    spvcond_dealloc(m->ctx, stack);
    spvcond_dealloc(m->ctx, on_stack);
    spvcond_dealloc(m->ctx, frames);
    return r;
}

void
spvcond_infer_propagate(const struct spvcond_module *m, const struct spvcond_callgraph *g,
                        struct spvcond_inference *inf, const spvcond_aspects *hidden)
{
    static const spvcond_aspects none = {{0, 0}};
    for (size_t c = 0; c < inf->scc_count; c++) {
        spvcond_aspects acc = {{0, 0}};
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++) {
            uint32_t f = inf->scc_members[k];
            for (int w = 0; w < SPVCOND_REQUIREMENT_WORDS; w++)
                acc.bits[w] |= inf->own[f].bits[w];
            for (uint32_t e = g->callee_start[f]; e < g->callee_start[f + 1]; e++) {
                /* Callees in other components are complete: they came out earlier. */
                const spvcond_aspects *h = hidden ? &hidden[e] : &none;
                for (int w = 0; w < SPVCOND_REQUIREMENT_WORDS; w++)
                    acc.bits[w] |= inf->used[g->callees[e]].bits[w] & ~h->bits[w];
            }
        }
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++)
            inf->used[inf->scc_members[k]] = acc;
    }
    (void)m;
}

spvcond_result
spvcond_infer(const struct spvcond_module *m, bool infer, struct spvcond_declared_caps *caps,
              struct spvcond_callgraph *g, struct spvcond_inference *inf)
{
    memset(inf, 0, sizeof(*inf));
    struct spvcond_callgraph_builder b;
    spvcond_result r = spvcond_callgraph_begin(m, g, &b);
    size_t n = m->function_count;
    inf->own = spvcond_alloc_array(m->ctx, n + 1, sizeof(*inf->own));
    inf->used = spvcond_alloc_array(m->ctx, n + 1, sizeof(*inf->used));
    inf->scc_of = spvcond_alloc_array(m->ctx, n + 1, sizeof(uint32_t));
    inf->scc_members = spvcond_alloc_array(m->ctx, n + 1, sizeof(uint32_t));
    inf->scc_start = spvcond_alloc_array(m->ctx, n + 2, sizeof(uint32_t));
    inf->item_start = spvcond_alloc_array(m->ctx, n + 1, sizeof(uint32_t));
    uint8_t *facts = inf->type_facts = spvcond_alloc_array(m->ctx, m->bound, 1);
    if (caps && caps->count > 62)
        caps = NULL; /* they would share bits: the caller scans */
    if (caps)
        inf->cap_need = spvcond_alloc_array(m->ctx, n + 1, sizeof(uint64_t));
    if (r == SPVCOND_OK && (!inf->own || !inf->used || !inf->scc_of || !inf->scc_members || !inf->scc_start ||
                            !inf->item_start || !facts || (caps && !inf->cap_need)))
        r = spvcond_oom(m->ctx);
    /* The reader's item lists, if it made them, spare the walk over every id. */
    size_t items = m->section[SPVCOND_SECTION_FUNCTION] - m->section[SPVCOND_SECTION_EXTINST_IMPORT];
    uint8_t *item_facts = m->fn_items && m->fn_item_start ? spvcond_alloc_array(m->ctx, items + 1, 1) : NULL;
    if (r == SPVCOND_OK) {
        if (infer)
            type_facts(m, facts);
        bool pointers = global_facts(m, g, infer, facts, item_facts);
        r = item_facts && !pointers ? walk_listed(m, &b, infer, caps, facts, item_facts, inf)
                                    : walk_every_id(m, &b, infer, caps, facts, inf);
    }
    spvcond_dealloc(m->ctx, item_facts);
    r = spvcond_callgraph_finish(&b, r);
    if (r == SPVCOND_OK)
        r = components(m, g, inf);
    if (r != SPVCOND_OK)
        spvcond_inference_release(m, inf);
    return r;
}

void
spvcond_inference_release(const struct spvcond_module *m, struct spvcond_inference *inf)
{
    spvcond_dealloc(m->ctx, inf->own);
    spvcond_dealloc(m->ctx, inf->used);
    spvcond_dealloc(m->ctx, inf->scc_of);
    spvcond_dealloc(m->ctx, inf->scc_members);
    spvcond_dealloc(m->ctx, inf->scc_start);
    spvcond_dealloc(m->ctx, inf->type_facts);
    if (!inf->items_borrowed) {
        spvcond_dealloc(m->ctx, inf->item_start);
        spvcond_dealloc(m->ctx, inf->item_list);
    }
    spvcond_dealloc(m->ctx, inf->cap_need);
    memset(inf, 0, sizeof(*inf));
}
