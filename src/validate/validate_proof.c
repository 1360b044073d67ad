/* SPDX-License-Identifier: MIT */
/* Proving that every use is guarded at least as strongly as its definition: "the user's guard implies
 * the definition's guard". A few steps settle most pairs as they are found; the rest are kept once
 * each, then proved together per definition guard (one Or-closure serves all its users: a type used by
 * 20000 kernels of distinct conditions was 20000 walks of a 20000-node tree), then by evaluating the
 * trees, then by enumerating the leaves. Every step is charged to one budget, so adversarial trees end
 * in SPVCOND_ERROR_LIMIT instead of quadratic time. */
#include <stdlib.h>
#include <string.h>

#include "analysis/evaluate.h"
#include "validate/validate_check.h"

#define QUICK_STEPS 64

/* Evaluate every node for one assignment of the leaves (bit k of `bits` for leaf k). */
static void
evaluate_nodes(const struct check *c, uint32_t bits, uint8_t *value)
{
    const struct spvcond_module *m = c->m;
    uint32_t leaf = 0;
    for (size_t n = 0; n < c->node_count; n++) {
        const uint32_t *w = spvcond_inst_words(m, spvcond_def(m, c->nodes[n]));
        uint32_t op = spvcond_opcode_of(w[0]);
        if (op == SPVCOND_OP_CONSTANT_TRUE || op == SPVCOND_OP_CONSTANT_FALSE) {
            value[n] = op == SPVCOND_OP_CONSTANT_TRUE;
        } else if (op != SPVCOND_OP_SPEC_CONSTANT_OP) {
            value[n] = (bits >> leaf++) & 1;
        } else {
            value[n] = spvcond_validate_logical(c, w, value);
        }
    }
}

static bool
guard_value(const struct check *c, const uint8_t *value, struct guard g)
{
    return (!g.a || value[c->node[g.a] - 1]) && (!g.b || value[c->node[g.b] - 1]);
}

enum verdict { REFUTED, PROVEN, UNKNOWN };

/* One walk's allowance: at most `limit` node visits, each also charged to the check's budget. */
struct allowance {
    uint64_t steps, limit;
};

static bool
spend(struct check *c, struct allowance *a)
{
    if (a->steps >= a->limit || !c->budget)
        return false;
    a->steps++;
    c->budget--;
    return true;
}

/* The words of x if it is an OpSpecConstantOp `opcode` (LogicalOr 166, LogicalAnd 167) of two operands. */
static const uint32_t *
logical_node(const struct spvcond_module *m, uint32_t x, uint32_t opcode)
{
    size_t d = x ? spvcond_def(m, x) : SIZE_MAX; /* 0: an unguarded user */
    const uint32_t *w = d != SIZE_MAX ? spvcond_inst_words(m, d) : NULL;
    return w && spvcond_opcode_of(w[0]) == SPVCOND_OP_SPEC_CONSTANT_OP && spvcond_word_count_of(w[0]) >= 6 &&
           w[3] == opcode ? w : NULL;
}

/* Mark with `stamp` everything the user's guard makes true: its conditions and, through Ands, their
 * operands. Returns 1 as soon as one of them carries `closure_stamp` (when not 0), -1 when the
 * allowance ran out, else 0. */
static int
mark_known(struct check *c, struct guard u, uint32_t stamp, uint32_t closure_stamp, struct allowance *a)
{
    size_t sp = 0;
    if (u.a)
        c->stack[sp++] = u.a;
    if (u.b)
        c->stack[sp++] = u.b;
    while (sp) {
        uint32_t x = c->stack[--sp];
        if (c->mark[x] == stamp)
            continue;
        if (!spend(c, a))
            return -1;
        if (closure_stamp && c->closure[x] == closure_stamp)
            return 1;
        c->mark[x] = stamp;
        const uint32_t *w = logical_node(c->m, x, 167);
        if (w) {
            c->stack[sp++] = w[4];
            c->stack[sp++] = w[5];
        }
    }
    return 0;
}

/* Evaluate d bottom-up over Or/And with everything false unless the user's guard makes it true: d is one
 * of the user's conditions or an operand of an And among them (transitively), an Or with an implied
 * operand, or an And of implied operands. Iterative with stamps, since chains are as deep as the input
 * makes them; UNKNOWN once `limit` node visits are spent. */
static enum verdict
implies_one(struct check *c, struct guard u, uint32_t d, uint64_t limit)
{
    const struct spvcond_module *m = c->m;
    if (!d || d == u.a || d == u.b)
        return PROVEN;
    uint32_t known = ++c->stamp, evaluated = ++c->stamp;
    c->stamp++; /* evaluated + 1 stands for "true" */
    struct allowance a = {0, limit};
    if (mark_known(c, u, known, 0, &a) < 0)
        return UNKNOWN;
    size_t sp = 0;
    c->stack[sp++] = d;
    while (sp) {
        uint32_t x = c->stack[sp - 1];
        if (c->eval[x] == evaluated || c->eval[x] == evaluated + 1) {
            sp--;
            continue;
        }
        if (!spend(c, &a))
            return UNKNOWN;
        const uint32_t *w = spvcond_inst_words(m, spvcond_def(m, x));
        bool node = spvcond_opcode_of(w[0]) == SPVCOND_OP_SPEC_CONSTANT_OP && (w[3] == SPVCOND_OP_LOGICAL_OR ||
            w[3] == SPVCOND_OP_LOGICAL_AND) && spvcond_word_count_of(w[0]) >= 6;
        if (c->mark[x] == known || !node) {
            c->eval[x] = c->mark[x] == known ? evaluated + 1 : evaluated;
            sp--;
            continue;
        }
        bool pending = false;
        for (int k = 4; k < 6; k++) {
            if (c->eval[w[k]] != evaluated && c->eval[w[k]] != evaluated + 1) {
                c->stack[sp++] = w[k];
                pending = true;
            }
        }
        if (pending)
            continue;
        bool l = c->eval[w[4]] == evaluated + 1, r = c->eval[w[5]] == evaluated + 1;
        c->eval[x] = (w[3] == SPVCOND_OP_LOGICAL_OR ? (l || r) : (l && r)) ? evaluated + 1 : evaluated;
        sp--;
    }
    return c->eval[d] == evaluated + 1 ? PROVEN : REFUTED;
}

/* A pair's state while it is proved: bit 1 its def.a, bit 2 its def.b is implied; 4: refuted. */
enum { PROVEN_A = 1, PROVEN_B = 2, REFUTED_PAIR = 4 };

/* What a few steps prove of a pair (a refutation here is not final: the Or cases may still prove it). */
static uint8_t
quick_state(struct check *c, struct guard user, struct guard def)
{
    enum verdict va = implies_one(c, user, def.a, QUICK_STEPS);
    enum verdict vb = va == PROVEN ? implies_one(c, user, def.b, QUICK_STEPS) : UNKNOWN;
    return (uint8_t)((va == PROVEN ? PROVEN_A : 0) | (vb == PROVEN ? PROVEN_B : 0));
}

/* The pair kept for (user, def), or NULL; *hash is its key's hash. */
static const struct pair *
find_pair(const struct check *c, struct guard user, struct guard def, uint64_t *hash)
{
    const uint32_t key[4] = {user.a, user.b, def.a, def.b};
    *hash = spvcond_hash_u32(key, 4, 0);
    size_t cursor = SIZE_MAX;
    for (uint32_t e; (e = spvcond_table_next(&c->pair_table, *hash, &cursor)) != 0;) {
        const struct pair *q = &c->pairs[e - 1];
        if (!memcmp(&q->user, &user, sizeof(user)) && !memcmp(&q->def, &def, sizeof(def)))
            return q;
    }
    return NULL;
}

spvcond_result
spvcond_validate_note_pair(struct check *c, struct guard user, struct guard def, size_t inst, uint32_t id)
{
    spvcond_context *ctx = c->m->ctx;
    /* Uses repeat the same (user, definition) guards: remember recent quick proofs. */
    uint32_t h = (user.a * 2654435761u) ^ (user.b * 40503u) ^ (def.a * 2246822519u) ^ (def.b * 3266489917u);
    struct proof *p = &c->proofs[(h ^ (h >> 15)) % PROOF_CACHE];
    uint8_t state = 0;
    if (p->valid && !memcmp(&p->user, &user, sizeof(user)) && !memcmp(&p->def, &def, sizeof(def))) {
        if (p->holds)
            return SPVCOND_OK;
    } else {
        state = quick_state(c, user, def);
        *p = (struct proof){user, def, 1, state == (PROVEN_A | PROVEN_B)};
        if (p->holds)
            return SPVCOND_OK;
    }
    uint64_t hash;
    if (find_pair(c, user, def, &hash))
        return SPVCOND_OK; /* kept already */
    spvcond_result r = spvcond_grow(ctx, (void **)&c->pairs, &c->pair_cap, c->pair_count + 1, sizeof(*c->pairs));
    if (r == SPVCOND_OK)
        r = spvcond_grow(ctx, (void **)&c->pair_hashes, &c->pair_hash_cap, c->pair_count + 1, sizeof(uint64_t));
    if (r != SPVCOND_OK)
        return r;
    c->pairs[c->pair_count] = (struct pair){user, def, inst, id, state, false};
    c->pair_hashes[c->pair_count] = hash;
    if ((r = spvcond_table_insert(ctx, &c->pair_table, c->pair_hashes, (uint32_t)c->pair_count)) != SPVCOND_OK)
        return r;
    c->pair_count++;
    return SPVCOND_OK;
}

bool
spvcond_validate_pair_failed(const struct check *c, struct guard user, struct guard def)
{
    uint64_t hash;
    const struct pair *p = find_pair(c, user, def, &hash);
    return p && p->failed;
}

static spvcond_result
over_budget(struct check *c)
{
    return spvcond_report(c->m->ctx, SPVCOND_ERROR_LIMIT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                          "proving that every use is guarded by its definition's condition needs more than %llu "
                          "steps: the condition trees are too large or too entangled to check",
                          (unsigned long long)PROOF_BUDGET);
}

/* A user guard with an Or among its conditions implies d when each case of the Or does: the Or's
 * operands (through nested Ors) with the guard's other condition, each meeting d's closure or, failing
 * that, implying d by evaluation (a case's set may include a set of d that absorbed it, as a node of its
 * own). Returns 1, 0, -1 when the allowance ran out, -2 when memory did (reported). */
static int
split_meets(struct check *c, struct guard u, uint32_t d, uint32_t closure_stamp, struct allowance *a)
{
    bool first = logical_node(c->m, u.a, SPVCOND_OP_LOGICAL_OR) != NULL;
    if (!first && !(u.b && logical_node(c->m, u.b, SPVCOND_OP_LOGICAL_OR)))
        return 0;
    uint32_t top = first ? u.a : u.b, other = first ? u.b : u.a, stamp = ++c->stamp;
    size_t n = 0;
    if (spvcond_grow(c->m->ctx, (void **)&c->cases, &c->case_cap, 1, sizeof(uint32_t)) != SPVCOND_OK)
        return -2;
    c->cases[n++] = top;
    size_t done = 0;
    /* Breadth-first over the Or-tree: cases[done..n) wait; an Or is replaced by its operands. */
    while (done < n) {
        uint32_t x = c->cases[done++];
        if (c->visit[x] == stamp)
            continue;
        if (!spend(c, a))
            return -1;
        c->visit[x] = stamp;
        const uint32_t *w = logical_node(c->m, x, 166);
        if (!w) {
            struct guard one = {x, other};
            int met = mark_known(c, one, ++c->stamp, closure_stamp, a);
            if (met == 0) {
                enum verdict v = implies_one(c, one, d, UINT64_MAX);
                met = v == PROVEN ? 1 : v == REFUTED ? 0 : -1;
            }
            if (met <= 0)
                return met;
            continue;
        }
        if (spvcond_grow(c->m->ctx, (void **)&c->cases, &c->case_cap, n + 2, sizeof(uint32_t)) != SPVCOND_OK)
            return -2;
        c->cases[n++] = w[4];
        c->cases[n++] = w[5];
    }
    return 1;
}

/* Proofs grouped by one component of the definition guard: the Or-closure of each distinct condition d
 * (d and, through Ors, their operands) is marked once; a user whose known conditions meet it implies d. */
static spvcond_result
prove_by_closure(struct check *c, bool second, uint64_t *keys)
{
    uint8_t bit = second ? PROVEN_B : PROVEN_A;
    size_t n = 0;
    for (size_t k = 0; k < c->pair_count; k++)
        if (!(c->pairs[k].state & (bit | REFUTED_PAIR)))
            keys[n++] = (uint64_t)(second ? c->pairs[k].def.b : c->pairs[k].def.a) << 32 | k;
    if (n > 1)
        qsort(keys, n, sizeof(*keys), spvcond_compare_u64);
    struct allowance a = {0, UINT64_MAX};
    for (size_t g = 0; g < n;) {
        uint32_t d = (uint32_t)(keys[g] >> 32), stamp = ++c->stamp;
        size_t sp = 0;
        c->stack[sp++] = d;
        while (sp) {
            uint32_t x = c->stack[--sp];
            if (c->closure[x] == stamp)
                continue;
            if (!spend(c, &a))
                return over_budget(c);
            c->closure[x] = stamp;
            const uint32_t *w = logical_node(c->m, x, 166);
            if (w) {
                c->stack[sp++] = w[4];
                c->stack[sp++] = w[5];
            }
        }
        for (; g < n && (uint32_t)(keys[g] >> 32) == d; g++) {
            struct pair *p = &c->pairs[(uint32_t)keys[g]];
            int met = mark_known(c, p->user, ++c->stamp, stamp, &a);
            if (met == 0)
                met = split_meets(c, p->user, d, stamp, &a);
            if (met < 0)
                return met == -2 ? SPVCOND_ERROR_OUT_OF_MEMORY : over_budget(c);
            if (met)
                p->state |= bit;
        }
    }
    return SPVCOND_OK;
}

/* What the closures did not prove, the full evaluation does or refutes. */
static spvcond_result
prove_by_evaluation(struct check *c)
{
    for (size_t k = 0; k < c->pair_count; k++) {
        struct pair *p = &c->pairs[k];
        for (int second = 0; second < 2 && !(p->state & REFUTED_PAIR); second++) {
            uint8_t bit = second ? PROVEN_B : PROVEN_A;
            if (p->state & bit)
                continue;
            enum verdict v = implies_one(c, p->user, second ? p->def.b : p->def.a, UINT64_MAX);
            if (v == UNKNOWN)
                return over_budget(c);
            p->state |= v == PROVEN ? bit : REFUTED_PAIR;
        }
    }
    return SPVCOND_OK;
}

/* Refuted structurally is not yet wrong: try every assignment of the leaves, when there are few. */
static spvcond_result
prove_by_enumeration(struct check *c)
{
    size_t refuted = 0;
    for (size_t k = 0; k < c->pair_count; k++) {
        c->pairs[k].failed = (c->pairs[k].state & REFUTED_PAIR) != 0;
        refuted += c->pairs[k].failed;
    }
    if (!refuted || !c->enumerable)
        return SPVCOND_OK;
    uint64_t cost = ((uint64_t)1 << c->leaf_count) * (c->node_count + refuted);
    if (cost > c->budget)
        return over_budget(c);
    c->budget -= cost;
    uint8_t *value = spvcond_alloc_array(c->m->ctx, c->node_count + 1, 1);
    if (!value)
        return spvcond_oom(c->m->ctx);
    for (size_t k = 0; k < c->pair_count; k++)
        c->pairs[k].failed = false;
    for (uint32_t bits = 0; bits < (1u << c->leaf_count); bits++) {
        evaluate_nodes(c, bits, value);
        for (size_t k = 0; k < c->pair_count; k++) {
            struct pair *p = &c->pairs[k];
            if ((p->state & REFUTED_PAIR) && !p->failed && guard_value(c, value, p->user) &&
                !guard_value(c, value, p->def))
                p->failed = true;
        }
    }
    spvcond_dealloc(c->m->ctx, value);
    return SPVCOND_OK;
}

spvcond_result
spvcond_validate_prove(struct check *c)
{
    if (!c->pair_count)
        return SPVCOND_OK;
    for (size_t k = 0; k < c->pair_count; k++)
        if (!c->pairs[k].def.b)
            c->pairs[k].state |= PROVEN_B;
    uint64_t *keys = spvcond_alloc_array(c->m->ctx, c->pair_count, sizeof(uint64_t));
    if (!keys)
        return spvcond_oom(c->m->ctx);
    spvcond_result r = prove_by_closure(c, false, keys);
    if (r == SPVCOND_OK)
        r = prove_by_closure(c, true, keys);
    spvcond_dealloc(c->m->ctx, keys);
    if (r == SPVCOND_OK)
        r = prove_by_evaluation(c);
    if (r == SPVCOND_OK)
        r = prove_by_enumeration(c);
    return r;
}

void
spvcond_validate_release_proofs(struct check *c)
{
    spvcond_context *ctx = c->m->ctx;
    spvcond_dealloc(ctx, c->pairs);
    spvcond_dealloc(ctx, c->pair_hashes);
    spvcond_table_release(ctx, &c->pair_table);
    spvcond_dealloc(ctx, c->cases);
}
