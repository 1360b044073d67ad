/* SPDX-License-Identifier: MIT */
/* Property test: random small annotated modules (inconsistent ones included) and random values.
 * specialize never crashes; when it succeeds, Debian's spirv-val accepts the output; and when our
 * validate finds no possible dangling reference, specialize succeeds for every assignment. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ir/edit.h"
#include "helpers.h"

struct builder {
    uint32_t w[8192];
    size_t n;
};

static void
emit(struct builder *b, uint32_t op, size_t count, const uint32_t *operands)
{
    cr_assert_lt(b->n + count + 1, sizeof(b->w) / sizeof(b->w[0]));
    b->w[b->n++] = ((uint32_t)(count + 1) << 16) | op;
    for (size_t k = 0; k < count; k++)
        b->w[b->n++] = operands[k];
}

#define EMIT(b, op, ...)                                                                                              \
    do {                                                                                                               \
        const uint32_t ops_[] = {__VA_ARGS__};                                                                         \
        emit(b, op, sizeof(ops_) / sizeof(ops_[0]), ops_);                                                              \
    } while (0)

static uint32_t
rnd(uint32_t *state, uint32_t n)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 8) % n;
}

/* One of the first `limit` conditions: leaves first, then tree nodes. */
static uint32_t
pick_cond(uint32_t *s, const uint32_t *leaf_id, size_t leaves, const uint32_t *node_id, uint32_t limit)
{
    uint32_t k = rnd(s, limit);
    return k < leaves ? leaf_id[k] : node_id[k - leaves];
}

enum { VOID = 1, BOOL, UINT, DOUBLE, FN_VOID, FN_UINT, FN_DOUBLE, UINT_1, DOUBLE_1, FIRST_FREE };

/* A module with `leaves` SpecId'd leaves, some And/Or/Not nodes, functions with calls (a DAG), and
 * ConditionalINTEL placed at random: on functions, calls, the double type and constant, entry points.
 * Padded: 16 more leaves, And-ed into the condition of an extra function, so that validate cannot
 * enumerate and must prove everything structurally. */
static size_t
generate(uint32_t seed, struct builder *b, size_t *leaves_out, bool padded)
{
    uint32_t s = seed;
    b->n = 0;
    size_t leaves = 1 + rnd(&s, 4), nodes = rnd(&s, 4), nf = 2 + rnd(&s, 6);
    uint32_t next = FIRST_FREE;
    uint32_t leaf_id[4], node_id[4], fn_id[8], kind[8], call_id[8][8] = {{0}};
    for (size_t k = 0; k < leaves; k++)
        leaf_id[k] = next++;
    for (size_t k = 0; k < nodes; k++)
        node_id[k] = next++;
    for (size_t f = 0; f < nf; f++) {
        fn_id[f] = next++;
        kind[f] = f == 0 ? 0 : rnd(&s, 3); /* 0 void kernel (never called: SPIR-V forbids it), 1 uint, 2 double */
    }
    uint32_t header[5] = {0x07230203, 0x00010200, 0, 0, 0};
    memcpy(b->w, header, sizeof(header));
    b->n = 5;
    EMIT(b, 17, 4);  /* Addresses */
    EMIT(b, 17, 5);  /* Linkage */
    EMIT(b, 17, 6);  /* Kernel */
    EMIT(b, 17, 10); /* Float64 */
    EMIT(b, 17, 6245);
    uint32_t ext[8];
    uint32_t words = spvcond_encode_string("SPV_INTEL_function_variants", ext, 8);
    emit(b, 10, words, ext);
    EMIT(b, 14, 2, 2);
    /* Entry points for the void kernels, plain or conditional. */
    uint32_t conds = (uint32_t)(leaves + nodes);
    for (size_t f = 0; f < nf; f++) {
        if (kind[f] != 0)
            continue;
        uint32_t name = 0x0000006b | (uint32_t)('0' + f) << 8; /* "k0", "k1", ...: one word with its NUL */
        if (rnd(&s, 2))
            EMIT(b, 15, 6, fn_id[f], name);
        else
            EMIT(b, 6249, pick_cond(&s, leaf_id, leaves, node_id, conds), 6, fn_id[f], name);
    }
    for (size_t k = 0; k < leaves; k++)
        EMIT(b, 71, leaf_id[k], 1, (uint32_t)k + 1);
    enum { PAD_LEAVES = 16 };
    uint32_t pad_leaf = next, pad_node = pad_leaf + PAD_LEAVES, pad_fn = pad_node + PAD_LEAVES - 1;
    if (padded) {
        next = pad_fn + 2; /* and its label */
        for (uint32_t k = 0; k < PAD_LEAVES; k++)
            EMIT(b, 71, pad_leaf + k, 1, 100 + k);
        EMIT(b, 71, pad_fn, 6247, pad_node + PAD_LEAVES - 2);
    }
    /* Calls get their ids now so decorations can name them. */
    for (size_t f = 0; f < nf; f++)
        for (size_t g = f + 1; g < nf; g++)
            if (kind[g] != 0 && rnd(&s, 3) == 0)
                call_id[f][g] = next++;
    for (size_t f = 0; f < nf; f++) {
        if (rnd(&s, 5) < 3)
            EMIT(b, 71, fn_id[f], 6247, pick_cond(&s, leaf_id, leaves, node_id, conds));
        if (kind[f] != 0 && rnd(&s, 2))
            EMIT(b, 71, fn_id[f], 41, 0x00000066 | (uint32_t)('0' + f) << 8, 0); /* LinkageAttributes "fN" Export */
        for (size_t g = 0; g < nf; g++)
            if (call_id[f][g] && rnd(&s, 3) == 0)
                EMIT(b, 71, call_id[f][g], 6247, pick_cond(&s, leaf_id, leaves, node_id, conds));
    }
    if (rnd(&s, 4) == 0)
        EMIT(b, 71, DOUBLE, 6247, pick_cond(&s, leaf_id, leaves, node_id, conds));
    if (rnd(&s, 4) == 0)
        EMIT(b, 71, DOUBLE_1, 6247, pick_cond(&s, leaf_id, leaves, node_id, conds));
    EMIT(b, 19, VOID);
    EMIT(b, 20, BOOL);
    EMIT(b, 21, UINT, 32, 0);
    EMIT(b, 22, DOUBLE, 64);
    EMIT(b, 33, FN_VOID, VOID);
    EMIT(b, 33, FN_UINT, UINT, UINT);
    EMIT(b, 33, FN_DOUBLE, DOUBLE, DOUBLE);
    EMIT(b, 43, UINT, UINT_1, 1);
    EMIT(b, 43, DOUBLE, DOUBLE_1, 0, 0x3ff00000);
    for (size_t k = 0; k < leaves; k++)
        EMIT(b, 48, BOOL, leaf_id[k]);
    for (size_t k = 0; k < nodes; k++) {
        uint32_t op = 166 + rnd(&s, 3); /* LogicalOr, LogicalAnd, LogicalNot */
        uint32_t x = pick_cond(&s, leaf_id, leaves, node_id, (uint32_t)(leaves + k));
        uint32_t y = pick_cond(&s, leaf_id, leaves, node_id, (uint32_t)(leaves + k));
        if (op == 168)
            EMIT(b, 52, BOOL, node_id[k], op, x);
        else
            EMIT(b, 52, BOOL, node_id[k], op, x, y);
    }
    for (uint32_t k = 0; padded && k < PAD_LEAVES; k++)
        EMIT(b, 48, BOOL, pad_leaf + k);
    for (uint32_t k = 0; padded && k + 1 < PAD_LEAVES; k++)
        EMIT(b, 52, BOOL, pad_node + k, 167, k ? pad_node + k - 1 : pad_leaf, pad_leaf + k + 1);
    static const uint32_t ret[3] = {VOID, UINT, DOUBLE}, type[3] = {FN_VOID, FN_UINT, FN_DOUBLE};
    static const uint32_t arg[3] = {0, UINT_1, DOUBLE_1};
    for (size_t f = nf; f-- > 0;) {
        EMIT(b, 54, ret[kind[f]], fn_id[f], 0, type[kind[f]]);
        uint32_t param = 0;
        if (kind[f] != 0) {
            param = next++;
            EMIT(b, 55, ret[kind[f]], param);
        }
        EMIT(b, 248, next++);
        for (size_t g = f + 1; g < nf; g++) {
            if (!call_id[f][g])
                continue;
            EMIT(b, 57, ret[kind[g]], call_id[f][g], fn_id[g], arg[kind[g]]);
        }
        if (kind[f] == 0)
            emit(b, 253, 0, NULL); /* OpReturn */
        else
            EMIT(b, 254, param);
        emit(b, 56, 0, NULL); /* OpFunctionEnd */
    }
    if (padded) {
        EMIT(b, 54, VOID, pad_fn, 0, FN_VOID);
        EMIT(b, 248, pad_fn + 1);
        emit(b, 253, 0, NULL);
        emit(b, 56, 0, NULL);
    }
    b->w[3] = next;
    *leaves_out = leaves;
    return b->n;
}

/* Returns the number of modules validate found clean. */
static size_t
run_random(bool padded, size_t *succeeded_out, size_t *refused_out)
{
    size_t succeeded = 0, refused = 0, clean_modules = 0;
    for (uint32_t seed = 1; seed <= 250; seed++) {
        struct builder b;
        size_t leaves;
        size_t n = generate(seed, &b, &leaves, padded);
        spvcond_context *ctx;
        cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
        spvcond_module *probe = NULL;
        spvcond_result pr = spvcond_module_parse(ctx, b.w, n, 0, &probe);
        cr_assert_eq(pr, SPVCOND_OK, "seed %u: generated module does not parse: %s", seed,
                     spvcond_context_first_error(ctx)->message);
        size_t violations = 0;
        bool clean = spvcond_validate(probe, &violations) == SPVCOND_OK;
        spvcond_module_destroy(probe);
        clean_modules += clean;
        for (uint32_t bits = 0; bits < (1u << leaves); bits++) {
            spvcond_spec_value v[4];
            for (size_t k = 0; k < leaves; k++)
                v[k] = (spvcond_spec_value){(uint32_t)k + 1, (bits >> k) & 1, false};
            spvcond_module *m = parse_or_die(ctx, b.w, n);
            spvcond_specialize_options o = {sizeof(spvcond_specialize_options), v, leaves, NULL, 0};
            spvcond_result r = spvcond_specialize(m, &o, NULL);
            if (r != SPVCOND_OK) {
                cr_assert(!clean, "seed %u assignment %u: validate found nothing wrong, but specialize failed: %s",
                          seed, bits, spvcond_context_first_error(ctx)->message);
                cr_assert(r == SPVCOND_ERROR_INVALID_ID, "seed %u: unexpected failure %d", seed, r);
                refused++;
            } else {
                uint32_t *w;
                size_t count;
                cr_assert_eq(spvcond_module_emit(m, &w, &count), SPVCOND_OK);
                char *out;
                cr_assert_eq(spirv_val(w, count, "spv1.2", &out), 0, "seed %u assignment %u: %s", seed, bits, out);
                free(out);
                spvcond_free(ctx, w);
                succeeded++;
            }
            spvcond_module_destroy(m);
            spvcond_context_clear_diag(ctx);
        }
        spvcond_context_destroy(ctx);
    }
    cr_log_info("%s: %zu specializations validated, %zu refused as inconsistent; %zu of 250 modules clean",
                padded ? "padded" : "plain", succeeded, refused, clean_modules);
    *succeeded_out = succeeded;
    *refused_out = refused;
    return clean_modules;
}

Test(random, specialize_never_breaks_modules, .timeout = 600)
{
    size_t succeeded, refused, clean = run_random(false, &succeeded, &refused);
    cr_assert_gt(succeeded, 100, "the generator should produce many consistent cases");
    cr_assert_gt(refused, 10, "and some inconsistent ones");
    cr_assert_gt(clean, 10);
}

/* With more leaves than validate enumerates, its structural proofs alone decide: whatever they call
 * clean must specialize for every assignment (the pad leaves keep their defaults). */
Test(random, structural_proofs_are_sound, .timeout = 600)
{
    size_t succeeded, refused, clean = run_random(true, &succeeded, &refused);
    cr_assert_gt(clean, 10, "structural proofs settle many modules");
}
