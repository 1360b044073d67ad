/* SPDX-License-Identifier: MIT */
/* Adversarial shapes: deep call chains, huge fan-out, many kernels with distinct requirements, thousands
 * of decorations on one id, long condition chains. Each must finish well inside a loose time budget
 * (about 10x what it takes here under the sanitizers), without recursion on input-controlled depth. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/edit.h"
#include "helpers.h"

struct words {
    uint32_t *w;
    size_t n, cap;
};

static void
put(struct words *b, uint32_t op, size_t count, const uint32_t *operands)
{
    if (b->n + count + 1 > b->cap) {
        b->cap = (b->cap + count + 1) * 2;
        b->w = realloc(b->w, b->cap * 4);
    }
    b->w[b->n++] = ((uint32_t)(count + 1) << 16) | op;
    for (size_t k = 0; k < count; k++)
        b->w[b->n++] = operands[k];
}

#define PUT(b, op, ...)                                                                                                \
    do {                                                                                                               \
        const uint32_t ops_[] = {__VA_ARGS__};                                                                         \
        put(b, op, sizeof(ops_) / sizeof(ops_[0]), ops_);                                                              \
    } while (0)
#define PUT0(b, op) put(b, op, 0, NULL)

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Counts the bytes live at once, to bound what a pass allocates. */
struct tally {
    size_t live, peak;
};

static void *
tally_alloc(void *user, size_t size)
{
    struct tally *t = user;
    size_t *p = malloc(size + sizeof(size_t));
    if (!p)
        return NULL;
    *p = size;
    t->live += size;
    t->peak = t->live > t->peak ? t->live : t->peak;
    return p + 1;
}

static void
tally_free(void *user, void *ptr)
{
    struct tally *t = user;
    if (!ptr)
        return;
    size_t *p = (size_t *)ptr - 1;
    t->live -= *p;
    free(p);
}

static void *
tally_realloc(void *user, void *ptr, size_t size)
{
    void *n = tally_alloc(user, size);
    if (n && ptr) {
        size_t old = ((size_t *)ptr)[-1];
        memcpy(n, ptr, old < size ? old : size);
        tally_free(user, ptr);
    }
    return n;
}

/* Generous: about 4x what the passes take here (see the logged ratios). */
#define MEMORY_PER_INPUT_BYTE 64

/* A context whose allocator tallies the bytes live at once. */
static spvcond_context *
tallied_context(struct tally *t)
{
    *t = (struct tally){0, 0};
    spvcond_allocator a = {tally_alloc, tally_realloc, tally_free, t};
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(&a, NULL, NULL, &ctx), SPVCOND_OK);
    return ctx;
}

/* After the context is gone: nothing left allocated, and the peak stays within a small multiple of
 * the input (the passes keep per-id and per-instruction tables, never per-pair ones). */
static void
check_memory(const struct tally *t, size_t input_bytes, const char *what)
{
    cr_log_info("%s: peak %.1f MB for %.1f MB of input (%.1fx)", what, t->peak / 1e6, input_bytes / 1e6,
                (double)t->peak / (double)input_bytes);
    cr_assert_eq(t->live, 0, "%s: %zu bytes still allocated", what, t->live);
    cr_assert_lt(t->peak, MEMORY_PER_INPUT_BYTE * input_bytes + (1u << 20), "%s: peak %zu bytes for %zu bytes of input",
                 what, t->peak, input_bytes);
}

enum { VOID = 1, FN, DOUBLE, FN_D, D1, FIRST };

/* The header alone (SPIR-V 1.2, bound set by the caller). */
static void
start_module(struct words *b)
{
    uint32_t h[5] = {0x07230203, 0x00010200, 0, 0, 0};
    b->cap = 1 << 16;
    b->w = malloc(b->cap * 4);
    memcpy(b->w, h, sizeof(h));
    b->n = 5;
}

static void
header_caps(struct words *b, bool spec_conditional)
{
    start_module(b);
    PUT(b, 17, 4);
    PUT(b, 17, 5);
    PUT(b, 17, 6);
    PUT(b, 17, 10);
    if (spec_conditional) {
        PUT(b, 17, 6245);
        uint32_t ext[8];
        uint32_t words = spvcond_encode_string("SPV_INTEL_function_variants", ext, 8);
        put(b, 10, words, ext);
    }
    PUT(b, 14, 2, 2);
}

static void
header(struct words *b)
{
    header_caps(b, false);
}

static void
types(struct words *b)
{
    PUT(b, 19, VOID);
    PUT(b, 33, FN, VOID);
    PUT(b, 22, DOUBLE, 64);
    PUT(b, 33, FN_D, DOUBLE);
    PUT(b, 43, DOUBLE, D1, 0, 0x3ff00000);
}

/* Annotate, validate and specialize (fp64 false) the module within the memory budget; return the seconds
 * taken. */
static double
run_passes(struct words *b, const char *what)
{
    double t0 = now();
    struct tally tally;
    spvcond_context *ctx = tallied_context(&tally);
    spvcond_module *m = parse_or_die(ctx, b->w, b->n);
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK, "%s", spvcond_context_first_error(ctx)->message);
    uint32_t *w;
    size_t n;
    cr_assert_eq(spvcond_module_emit(m, &w, &n), SPVCOND_OK);
    spvcond_module *a = parse_or_die(ctx, w, n);
    cr_assert_eq(spvcond_validate(a, NULL), SPVCOND_OK, "%s", spvcond_context_first_error(ctx)->message);
    spvcond_module_destroy(a);
    a = parse_or_die(ctx, w, n);
    spvcond_spec_value v[1] = {{0x10000, 0, false}};
    spvcond_specialize_options so = {sizeof(spvcond_specialize_options), v, 1, NULL, 0};
    cr_assert_eq(spvcond_specialize(a, &so, NULL), SPVCOND_OK, "%s", spvcond_context_first_error(ctx)->message);
    spvcond_module_destroy(a);
    spvcond_free(ctx, w);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    double t = now() - t0;
    check_memory(&tally, b->n * 4, what);
    return t;
}

Test(limits, deep_call_chain, .timeout = 120)
{
    /* k -> f1 -> f2 -> ... -> f40000, the last using double; and a cycle back to f1. */
    const uint32_t depth = 40000;
    struct words b = {0};
    header(&b);
    PUT(&b, 15, 6, FIRST, 0x0000006b);
    types(&b);
    for (uint32_t f = 0; f <= depth; f++) {
        PUT(&b, 54, VOID, FIRST + 2 * f, 0, FN);
        PUT(&b, 248, FIRST + 2 * f + 1);
        if (f < depth)
            PUT(&b, 57, VOID, FIRST + 2 * (depth + 1) + f, FIRST + 2 * (f + 1));
        else
            PUT(&b, 129, DOUBLE, FIRST + 4 * (depth + 1), D1, D1);
        PUT0(&b, 253);
        PUT0(&b, 56);
    }
    b.w[3] = FIRST + 4 * (depth + 1) + 1;
    double t = run_passes(&b, "call chain");
    cr_log_info("call chain of %u: %.2f s", depth, t);
    cr_assert_lt(t, 30.0);
    free(b.w);
}

Test(limits, many_kernels_with_distinct_requirements, .timeout = 120)
{
    /* 5000 kernels, each with its own LocalSize: 5000 requirement sets and leaves. */
    const uint32_t kernels = 20000;
    struct words b = {0};
    header(&b);
    for (uint32_t k = 0; k < kernels; k++) /* "k" and four letters: one name per kernel, as SPIR-V requires */
        PUT(&b, 15, 6, FIRST + 2 * k, 0x6bu | (k / 17576 % 26 + 'a') << 8 | (k / 676 % 26 + 'a') << 16 |
                                          (k / 26 % 26 + 'a') << 24, k % 26 + 'a');
    for (uint32_t k = 0; k < kernels; k++)
        PUT(&b, 16, FIRST + 2 * k, 17, k + 1, 1, 1);
    types(&b);
    for (uint32_t k = 0; k < kernels; k++) {
        PUT(&b, 54, VOID, FIRST + 2 * k, 0, FN);
        PUT(&b, 248, FIRST + 2 * k + 1);
        PUT0(&b, 253);
        PUT0(&b, 56);
    }
    b.w[3] = FIRST + 2 * kernels;
    double t = run_passes(&b, "distinct requirements");
    cr_log_info("%u kernels: %.2f s", kernels, t);
    cr_assert_lt(t, 30.0);
    free(b.w);
}

Test(limits, huge_fan_out_and_many_decorations_on_one_id, .timeout = 120)
{
    /* One kernel calling 30000 helpers, one of which uses double; 30000 decorations on the kernel. */
    const uint32_t helpers = 30000;
    struct words b = {0};
    header(&b);
    uint32_t k = FIRST, first_helper = FIRST + 2, call0 = FIRST + 2 + 2 * helpers;
    PUT(&b, 15, 6, k, 0x0000006b);
    for (uint32_t d = 0; d < helpers; d++)
        PUT(&b, 71, k, 21 /* Volatile... any decoration without operands */);
    types(&b);
    for (uint32_t h = 0; h < helpers; h++) {
        PUT(&b, 54, VOID, first_helper + 2 * h, 0, FN);
        PUT(&b, 248, first_helper + 2 * h + 1);
        if (h == helpers - 1)
            PUT(&b, 129, DOUBLE, call0 + helpers, D1, D1);
        PUT0(&b, 253);
        PUT0(&b, 56);
    }
    PUT(&b, 54, VOID, k, 0, FN);
    PUT(&b, 248, k + 1);
    for (uint32_t h = 0; h < helpers; h++)
        PUT(&b, 57, VOID, call0 + h, first_helper + 2 * h);
    PUT0(&b, 253);
    PUT0(&b, 56);
    b.w[3] = call0 + helpers + 1;
    double t = run_passes(&b, "fan-out");
    cr_log_info("fan-out of %u: %.2f s", helpers, t);
    cr_assert_lt(t, 30.0);
    free(b.w);
}

Test(limits, long_condition_chain, .timeout = 120)
{
    /* A condition that is a chain of 50000 LogicalAnd/Not nodes over two leaves. */
    const uint32_t length = 50000;
    struct words b = {0};
    header_caps(&b, true);
    uint32_t bool_t = FIRST, l1 = FIRST + 1, l2 = FIRST + 2, node0 = FIRST + 3, f = node0 + length;
    PUT(&b, 71, l1, 1, 1);
    PUT(&b, 71, l2, 1, 2);
    PUT(&b, 71, f, 6247, node0 + length - 1);
    PUT(&b, 71, f, 41, 0x00000066, 0);
    types(&b);
    PUT(&b, 20, bool_t);
    PUT(&b, 48, bool_t, l1);
    PUT(&b, 48, bool_t, l2);
    for (uint32_t n = 0; n < length; n++) {
        uint32_t prev = n ? node0 + n - 1 : l1;
        if (n % 2)
            PUT(&b, 52, bool_t, node0 + n, 168, prev);
        else
            PUT(&b, 52, bool_t, node0 + n, 167, prev, l2);
    }
    PUT(&b, 54, VOID, f, 0, FN);
    PUT(&b, 248, f + 1);
    PUT0(&b, 253);
    PUT0(&b, 56);
    b.w[3] = f + 2;
    double t0 = now();
    struct tally tally;
    spvcond_context *ctx = tallied_context(&tally);
    for (uint32_t bits = 0; bits < 4; bits++) {
        spvcond_module *m = parse_or_die(ctx, b.w, b.n);
        cr_assert_eq(spvcond_validate(m, NULL), SPVCOND_OK);
        spvcond_spec_value v[2] = {{1, bits & 1, false}, {2, bits >> 1, false}};
        spvcond_specialize_options o = {sizeof(spvcond_specialize_options), v, 2, NULL, 0};
        cr_assert_eq(spvcond_specialize(m, &o, NULL), SPVCOND_OK, "%s", spvcond_context_first_error(ctx)->message);
        spvcond_module_destroy(m);
    }
    spvcond_context_destroy(ctx);
    double t = now() - t0;
    check_memory(&tally, b.n * 4, "condition chain");
    cr_log_info("condition chain of %u: %.2f s", length, t);
    cr_assert_lt(t, 30.0);
    free(b.w);
}

/* One function, under a header that claims `bound` ids; calling `callee` if it is not 0. */
static void
one_function(struct words *b, uint32_t bound, uint32_t callee)
{
    header(b);
    b->w[3] = bound;
    types(b);
    PUT(b, 54, VOID, FIRST, 0, FN);
    PUT(b, 248, FIRST + 1);
    if (callee)
        PUT(b, 57, VOID, FIRST + 2, callee);
    PUT0(b, 253);
    PUT0(b, 56);
}

/* A 164-byte module whose header claims the largest bound: per-id tables follow the ids that exist,
 * not the header, so reading, annotating, validating and specializing it stays small. */
Test(limits, header_bound_does_not_size_the_tables)
{
    struct words b;
    one_function(&b, 0x3fffff, 0);
    struct tally t;
    spvcond_context *ctx = tallied_context(&t);
    spvcond_module *m;
    cr_assert_eq(spvcond_module_parse(ctx, b.w, b.n, 0, &m), SPVCOND_OK);
    cr_assert_eq(spvcond_module_bound(m), 0x3fffff, "the header's bound is still the module's");
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK);
    uint32_t *out;
    size_t n;
    cr_assert_eq(spvcond_module_emit(m, &out, &n), SPVCOND_OK);
    cr_assert_eq(out[3], 0x3fffff, "emitted with the header's bound");
    spvcond_module *annotated;
    cr_assert_eq(spvcond_module_parse(ctx, out, n, 0, &annotated), SPVCOND_OK);
    cr_assert_eq(spvcond_validate(annotated, NULL), SPVCOND_OK);
    spvcond_module_destroy(annotated);
    spvcond_free(ctx, out);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    cr_assert_lt(t.peak, 256 * 1024, "peak %zu bytes for a module of %zu bytes", t.peak, b.n * 4);
    cr_assert_eq(t.live, 0);
    free(b.w);
}

/* Instructions we cannot see into might define any id among their words, not any id below the header's
 * bound: a 36-byte module claiming 4M ids with two unknown instructions stays small too (found by
 * fuzzing: 16 MB per table and 0.7 s per input under the sanitizers). */
Test(limits, unknown_instructions_do_not_size_the_tables_by_the_header)
{
    const uint32_t w[] = {0x07230203, 0x00010200, 0, 0x3e0005, 0, 0x00020013, 0x00014700, 0x00014700, 0x00014700};
    struct tally t;
    spvcond_context *ctx = tallied_context(&t);
    spvcond_module *m;
    cr_assert_eq(spvcond_module_parse(ctx, w, sizeof(w) / 4, 0, &m), SPVCOND_OK);
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    cr_assert_lt(t.peak, 2 * 1024 * 1024, "peak %zu bytes for a 36-byte module", t.peak);
    cr_assert_eq(t.live, 0);
}

/* An id between the largest defined one and the header's bound is reported as never defined. */
Test(limits, use_above_every_definition_is_never_defined)
{
    struct words b;
    one_function(&b, 1000, 900);
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_module *m;
    cr_assert_eq(spvcond_module_parse(ctx, b.w, b.n, 0, &m), SPVCOND_ERROR_INVALID_ID);
    cr_assert(strstr(spvcond_context_first_error(ctx)->message, "%900 is used but never defined") != NULL, "%s",
              spvcond_context_first_error(ctx)->message);
    spvcond_context_destroy(ctx);
    free(b.w);
}

/* 100000 declarations of one capability and 100000 users of it: capability bookkeeping is per
 * capability, not per declaration (a scan of the declarations per user took seconds at 30000). */
Test(limits, many_declarations_of_one_capability)
{
    const uint32_t n = 100000;
    struct words b = {0};
    header(&b);
    size_t memory_model = b.n - 3; /* the last instruction: OpMemoryModel, 3 words */
    uint32_t saved[3];
    memcpy(saved, b.w + memory_model, sizeof(saved));
    b.n = memory_model;
    for (uint32_t k = 0; k < n; k++)
        PUT(&b, 17, 6);
    put(&b, 14, 2, saved + 1);
    uint32_t k = FIRST, ptr = FIRST + 2, var = FIRST + 3;
    PUT(&b, 15, 6, k, 0x0000006b);
    for (uint32_t d = 0; d < n; d++)
        PUT(&b, 71, var, 44 /* Alignment: needs Kernel */, 8);
    types(&b);
    PUT(&b, 32, ptr, 7 /* Function */, DOUBLE);
    PUT(&b, 54, VOID, k, 0, FN);
    PUT(&b, 248, k + 1);
    PUT(&b, 59, ptr, var, 7);
    PUT0(&b, 253);
    PUT0(&b, 56);
    b.w[3] = var + 1;
    double t = run_passes(&b, "declarations of one capability");
    cr_log_info("%u declarations and users of one capability: %.2f s", n, t);
    cr_assert_lt(t, 20.0);
    free(b.w);
}

/* 50000 conditional extensions of two names and 50000 conditional capabilities under one condition:
 * a true condition keeps one OpExtension per name, found without comparing every pair. */
Test(limits, many_conditional_extensions)
{
    const uint32_t n = 50000;
    struct words b = {0};
    start_module(&b);
    uint32_t bool_t = FIRST, leaf = FIRST + 1;
    PUT(&b, 17, 4);
    PUT(&b, 17, 5);
    PUT(&b, 17, 6);
    PUT(&b, 17, 6245);
    for (uint32_t c = 0; c < n; c++)
        PUT(&b, 6250, leaf, 11 /* Int64 */);
    uint32_t ext[16];
    put(&b, 10, spvcond_encode_string("SPV_INTEL_function_variants", ext, 16), ext);
    for (uint32_t c = 0; c < n; c++) {
        uint32_t cond_ext[17] = {leaf};
        uint32_t words = spvcond_encode_string(c % 2 ? "SPV_KHR_linkonce_odr" : "SPV_KHR_expect_assume", cond_ext + 1, 16);
        put(&b, 6248, words + 1, cond_ext);
    }
    PUT(&b, 14, 2, 2);
    PUT(&b, 71, leaf, 1, 7);
    PUT(&b, 20, bool_t);
    PUT(&b, 48, bool_t, leaf);
    b.w[3] = leaf + 1;
    double t0 = now();
    struct tally tally;
    spvcond_context *ctx = tallied_context(&tally);
    for (uint32_t value = 0; value < 2; value++) {
        spvcond_module *m = parse_or_die(ctx, b.w, b.n);
        spvcond_spec_value v[1] = {{7, value, false}};
        spvcond_specialize_options o = {sizeof(spvcond_specialize_options), v, 1, NULL, 0};
        cr_assert_eq(spvcond_specialize(m, &o, NULL), SPVCOND_OK, "%s", spvcond_context_first_error(ctx)->message);
        uint32_t *w;
        size_t count;
        cr_assert_eq(spvcond_module_emit(m, &w, &count), SPVCOND_OK);
        spvcond_module *out = parse_or_die(ctx, w, count);
        cr_assert_eq(count_opcode(out, 10), value ? 2 : 0, "one OpExtension per name when true, none when false");
        cr_assert_eq(count_opcode(out, 17), value ? 4 : 3, "Addresses, Linkage, Kernel (and Int64 once)");
        spvcond_module_destroy(out);
        spvcond_free(ctx, w);
        spvcond_module_destroy(m);
    }
    spvcond_context_destroy(ctx);
    double t = now() - t0;
    check_memory(&tally, b.n * 4, "conditional extensions");
    cr_log_info("%u conditional extensions and capabilities: %.2f s", n, t);
    cr_assert_lt(t, 20.0);
    free(b.w);
}

static void
count_verdict(void *user, const char *kernel, bool supported, const char *reason)
{
    (void)kernel;
    (void)reason;
    *(size_t *)user += !supported;
}

/* 20000 conditional entry points over 500000 constants: listing every kernel's requirements and
 * checking every kernel against a device walk each condition tree, not the module per kernel (the
 * check took 32 s here, kernel by kernel). */
Test(limits, many_conditional_entry_points)
{
    const uint32_t entries = 20000, constants = 500000;
    struct words b = {0};
    start_module(&b);
    enum { INT = FIRST, BOOL, LEAF, F, LABEL, CONSTANT0 };
    PUT(&b, 17, 4);
    PUT(&b, 17, 5);
    PUT(&b, 17, 6);
    PUT(&b, 17, 6245);
    uint32_t text[16];
    put(&b, 10, spvcond_encode_string("SPV_INTEL_function_variants", text, 16), text);
    PUT(&b, 14, 2, 2);
    for (uint32_t e = 0; e < entries; e++) {
        uint32_t entry[20] = {LEAF, 6, F};
        char name[16];
        snprintf(name, sizeof(name), "k%u", e);
        put(&b, 6249, 3 + spvcond_encode_string(name, entry + 3, 16), entry);
    }
    uint32_t name[16] = {LEAF};
    put(&b, 5, 1 + spvcond_encode_string("spvcond.aspect.fp64", name + 1, 15), name);
    PUT(&b, 71, LEAF, 1, 1);
    PUT(&b, 19, VOID);
    PUT(&b, 33, FN, VOID);
    PUT(&b, 21, INT, 32, 0);
    PUT(&b, 20, BOOL);
    PUT(&b, 48, BOOL, LEAF);
    for (uint32_t c = 0; c < constants; c++)
        PUT(&b, 43, INT, CONSTANT0 + c, c);
    PUT(&b, 54, VOID, F, 0, FN);
    PUT(&b, 248, LABEL);
    PUT0(&b, 253);
    PUT0(&b, 56);
    b.w[3] = CONSTANT0 + constants;
    double t0 = now();
    struct tally tally;
    spvcond_context *ctx = tallied_context(&tally);
    spvcond_module *m = parse_or_die(ctx, b.w, b.n);
    spvcond_requirements *reqs;
    cr_assert_eq(spvcond_requirements_from_module(m, &reqs), SPVCOND_OK, "%s", spvcond_context_first_error(ctx)->message);
    cr_assert_eq(spvcond_requirements_kernel_count(reqs), entries);
    cr_assert_eq(spvcond_requirements_count(reqs, entries - 1), 1, "fp64, under the shared condition");
    spvcond_requirements_destroy(reqs);
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_builtin_device_find("intel_gpu_acm_g10", &d)); /* no fp64 */
    size_t unsupported = 0;
    cr_assert_eq(spvcond_kernels_supported(m, &d, count_verdict, &unsupported), SPVCOND_OK);
    cr_assert_eq(unsupported, entries);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    double t = now() - t0;
    check_memory(&tally, b.n * 4, "conditional entry points");
    cr_log_info("%u conditional entry points over %u constants: %.2f s", entries, constants, t);
    cr_assert_lt(t, 20.0);
    free(b.w);
}

/* Sixteen leaves under 4200 condition nodes and one use its guard does not imply structurally:
 * enumerating would cost 2^16 evaluations of every node, past the proof budget, so validation stops
 * with SPVCOND_ERROR_LIMIT at once instead of spending seconds. */
Test(limits, proofs_past_the_budget_stop_with_a_limit_error)
{
    const uint32_t chain = 4200;
    struct words b = {0};
    header_caps(&b, true);
    enum { BOOL = FIRST, LEAF0, F = LEAF0 + 16, G = F + 2, NODE0 = G + 2 };
    for (uint32_t k = 0; k < 16; k++)
        PUT(&b, 71, LEAF0 + k, 1, k + 1);
    PUT(&b, 71, F, 6247, LEAF0);
    PUT(&b, 71, DOUBLE, 6247, LEAF0 + 1);       /* the unguarded type of f returns it: not implied */
    PUT(&b, 71, G, 6247, NODE0 + chain - 1);    /* g holds the long tree */
    types(&b);
    PUT(&b, 20, BOOL);
    for (uint32_t k = 0; k < 16; k++)
        PUT(&b, 48, BOOL, LEAF0 + k);
    for (uint32_t n = 0; n < chain; n++)
        PUT(&b, 52, BOOL, NODE0 + n, 166, n ? NODE0 + n - 1 : LEAF0, LEAF0 + n % 16);
    PUT(&b, 54, VOID, F, 0, FN_D);
    PUT(&b, 248, F + 1);
    PUT0(&b, 253);
    PUT0(&b, 56);
    PUT(&b, 54, VOID, G, 0, FN);
    PUT(&b, 248, G + 1);
    PUT0(&b, 253);
    PUT0(&b, 56);
    b.w[3] = NODE0 + chain;
    double t0 = now();
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, b.w, b.n);
    cr_assert_eq(spvcond_validate(m, NULL), SPVCOND_ERROR_LIMIT);
    cr_assert(strstr(spvcond_context_first_error(ctx)->message, "needs more than") != NULL, "%s",
              spvcond_context_first_error(ctx)->message);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    double t = now() - t0;
    cr_log_info("16 leaves under %u nodes: %.2f s", chain, t);
    cr_assert_lt(t, 5.0);
    free(b.w);
}

/* 20000 kernels named k0..k19999, each given a work-group size by name in the options: names are found
 * through an index built once (a scan of the entry points per requirement took seconds). */
Test(limits, many_requirements_stated_by_name)
{
    const uint32_t kernels = 20000;
    struct words b = {0};
    header(&b);
    char (*names)[16] = calloc(kernels, sizeof(*names));
    spvcond_function_requirements *q = calloc(kernels, sizeof(*q));
    for (uint32_t k = 0; k < kernels; k++) {
        uint32_t entry[8] = {6, FIRST + 2 * k};
        snprintf(names[k], sizeof(names[k]), "k%u", k);
        put(&b, 15, 2 + spvcond_encode_string(names[k], entry + 2, 6), entry);
        q[k] = (spvcond_function_requirements){.size = sizeof(spvcond_function_requirements), .function = names[k], .reqd_work_group_size = {k + 1, 1, 1}};
    }
    types(&b);
    for (uint32_t k = 0; k < kernels; k++) {
        PUT(&b, 54, VOID, FIRST + 2 * k, 0, FN);
        PUT(&b, 248, FIRST + 2 * k + 1);
        PUT0(&b, 253);
        PUT0(&b, 56);
    }
    b.w[3] = FIRST + 2 * kernels;
    double t0 = now();
    struct tally tally;
    spvcond_context *ctx = tallied_context(&tally);
    spvcond_module *m = parse_or_die(ctx, b.w, b.n);
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .requirements = q, .requirement_count = kernels};
    spvcond_annotate_stats stats = {.size = sizeof(spvcond_annotate_stats)};
    cr_assert_eq(spvcond_annotate(m, &o, &stats), SPVCOND_OK, "%s", spvcond_context_first_error(ctx)->message);
    cr_assert_eq(stats.requirements, kernels, "one work-group size per kernel");
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    double t = now() - t0;
    check_memory(&tally, b.n * 4, "requirements by name");
    cr_log_info("%u requirements by name: %.2f s", kernels, t);
    cr_assert_lt(t, 20.0);
    free(q);
    free(names);
    free(b.w);
}
