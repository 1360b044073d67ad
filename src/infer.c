#include "infer.h"

#include <string.h>

#include "aspects.h"
#include "capabilities.h"
#include "operands.h"

/* Type facts in definition order; a struct that reaches itself through a forward pointer sees the
 * pointer's facts as empty, which only matters for self-referential types. */
static void
type_facts(const struct spvcond_module *m, uint8_t *facts)
{
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->section[SPVCOND_SECTION_FUNCTION]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
        if (wc < 2)
            continue;
        uint8_t f = 0;
        switch (op) {
        case 22: /* OpTypeFloat */
            f = wc >= 3 && w[2] == 64 ? SPVCOND_TYPE_FP64 : wc >= 3 && w[2] == 16 ? SPVCOND_TYPE_FP16 : 0;
            break;
        case 23: case 24: case 28: case 29: /* vector, matrix, array, runtime array: the element */
            f = wc >= 3 ? facts[w[2]] : 0;
            break;
        case 30: case 33: /* struct members; function return and parameters */
            for (uint32_t k = 2; k < wc; k++)
                f |= facts[w[k]];
            break;
        case 32: /* pointer: half behind a pointer is storage only (Float16Buffer) */
            f = wc >= 4 ? facts[w[3]] & (uint8_t)~SPVCOND_TYPE_FP16 : 0;
            break;
        case 25: case 26: case 27:
            f = SPVCOND_TYPE_IMAGE;
            break;
        default:
            continue;
        }
        facts[w[1]] = f;
    }
}

struct own_walk {
    const struct spvcond_module *m;
    const uint8_t *facts;
    uint8_t seen;
};

/* Values take their type's facts, so that a use costs one lookup whatever defines it. */
static void
value_facts(const struct spvcond_module *m, uint8_t *facts)
{
    for (size_t i = m->section[SPVCOND_SECTION_GLOBAL]; i < m->inst_count; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        const struct spvcond_grammar_instruction *gi = spvcond_grammar_instruction(w[0] & 0xffffu);
        if (gi && gi->has_type && gi->has_result && (w[0] >> 16) >= 3)
            facts[w[2]] = facts[w[1]];
    }
}

static spvcond_result
note_id(void *user, size_t inst, uint32_t word, uint32_t id)
{
    struct own_walk *o = user;
    (void)inst;
    (void)word;
    o->seen |= o->facts[id];
    return SPVCOND_OK;
}

static spvcond_result
note_atomic64(void *user, size_t inst, const uint32_t *caps, size_t count)
{
    struct own_walk *o = user;
    (void)inst;
    if (count == 1 && caps[0] == 12 /* Int64Atomics */)
        o->seen |= 0x80;
    return SPVCOND_OK;
}

static spvcond_result
own_aspects(const struct spvcond_module *m, const uint8_t *facts, spvcond_aspects *own)
{
    for (size_t f = 0; f < m->function_count; f++) {
        struct own_walk o = {m, facts, 0};
        for (size_t i = m->functions[f].begin; i <= m->functions[f].end; i++) {
            spvcond_result r = spvcond_for_each_id(m, i, note_id, &o);
            if (r == SPVCOND_OK && spvcond_is_atomic_opcode(spvcond_inst_opcode(m, i)))
                r = spvcond_instruction_capabilities(m, i, note_atomic64, &o);
            if (r != SPVCOND_OK)
                return r;
            /* A result's own type counts too (e.g. an OpFConvert to double): the walk reports it. */
        }
        own[f] = spvcond_aspects_of_facts(o.seen);
        if (o.seen & 0x80)
            spvcond_aspects_add(&own[f], SPVCOND_ASPECT_ATOMIC64);
    }
    return SPVCOND_OK;
}

spvcond_aspects
spvcond_aspects_of_facts(uint8_t facts)
{
    spvcond_aspects a = {{0, 0}};
    if (facts & SPVCOND_TYPE_FP64)
        spvcond_aspects_add(&a, SPVCOND_ASPECT_FP64);
    if (facts & SPVCOND_TYPE_FP16)
        spvcond_aspects_add(&a, SPVCOND_ASPECT_FP16);
    if (facts & SPVCOND_TYPE_IMAGE)
        spvcond_aspects_add(&a, SPVCOND_ASPECT_IMAGE);
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
                        struct spvcond_inference *inf)
{
    for (size_t c = 0; c < inf->scc_count; c++) {
        spvcond_aspects acc = {{0, 0}};
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++) {
            uint32_t f = inf->scc_members[k];
            acc.bits[0] |= inf->own[f].bits[0];
            acc.bits[1] |= inf->own[f].bits[1];
            for (uint32_t e = g->callee_start[f]; e < g->callee_start[f + 1]; e++) {
                /* Callees in other components are complete: they came out earlier. */
                acc.bits[0] |= inf->used[g->callees[e]].bits[0];
                acc.bits[1] |= inf->used[g->callees[e]].bits[1];
            }
        }
        for (uint32_t k = inf->scc_start[c]; k < inf->scc_start[c + 1]; k++)
            inf->used[inf->scc_members[k]] = acc;
    }
    (void)m;
}

spvcond_result
spvcond_infer(const struct spvcond_module *m, const struct spvcond_callgraph *g, bool infer,
              struct spvcond_inference *inf)
{
    memset(inf, 0, sizeof(*inf));
    size_t n = m->function_count;
    inf->own = spvcond_alloc_array(m->ctx, n + 1, sizeof(*inf->own));
    inf->used = spvcond_alloc_array(m->ctx, n + 1, sizeof(*inf->used));
    inf->scc_of = spvcond_alloc_array(m->ctx, n + 1, sizeof(uint32_t));
    inf->scc_members = spvcond_alloc_array(m->ctx, n + 1, sizeof(uint32_t));
    inf->scc_start = spvcond_alloc_array(m->ctx, n + 2, sizeof(uint32_t));
    uint8_t *facts = inf->type_facts = spvcond_alloc_array(m->ctx, m->bound, 1);
    spvcond_result r = SPVCOND_OK;
    if (!inf->own || !inf->used || !inf->scc_of || !inf->scc_members || !inf->scc_start || !facts)
        r = spvcond_oom(m->ctx);
    if (r == SPVCOND_OK && infer) {
        type_facts(m, facts);
        value_facts(m, facts);
        r = own_aspects(m, facts, inf->own);
    }
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
    memset(inf, 0, sizeof(*inf));
}
