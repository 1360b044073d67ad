/* SPDX-License-Identifier: MIT */
/* SPVCOND_PARSE_FOR_ANNOTATE: the reader's lists of what each function names (reader_items.h) must
 * change nothing annotate does, and must be given up wherever they could not say what annotate's own
 * walk over every id would find. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/context.h"
#include "ir/capabilities.h"
#include "helpers.h"
#include "analysis/infer.h"
#include "ir/module.h"

struct outcome {
    spvcond_result parsed, annotated;
    bool listed; /* the reader handed its lists over */
    char message[512];
    uint32_t *words;
    size_t count;
};

static void
annotate_with(const uint32_t *w, size_t n, uint32_t flags, struct outcome *o)
{
    memset(o, 0, sizeof(*o));
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m = NULL;
    o->parsed = spvcond_module_parse(ctx, w, n, SPVCOND_PARSE_BORROW | flags, &m);
    o->annotated = o->parsed;
    if (o->parsed == SPVCOND_OK) {
        o->listed = m->fn_items != NULL;
        spvcond_annotate_options opts = {.size = sizeof(spvcond_annotate_options)};
        o->annotated = spvcond_annotate(m, &opts, NULL);
        uint32_t *out;
        if (o->annotated == SPVCOND_OK && spvcond_module_emit(m, &out, &o->count) == SPVCOND_OK) {
            o->words = malloc(o->count * sizeof(uint32_t));
            memcpy(o->words, out, o->count * sizeof(uint32_t));
            spvcond_free(ctx, out);
        }
    }
    const spvcond_diag *d = spvcond_context_first_error(ctx);
    if (d)
        snprintf(o->message, sizeof(o->message), "%s", d->message);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

/* Annotating the module read for annotate, and read plainly: the same verdicts, the same message, the
 * same output. Returns whether the reader's lists stood; *read, whether the module was read. */
static bool
assert_same_annotation(const uint32_t *w, size_t n, const char *what, bool *read)
{
    struct outcome a, b;
    annotate_with(w, n, SPVCOND_PARSE_FOR_ANNOTATE, &a);
    annotate_with(w, n, 0, &b);
    cr_assert_eq(a.parsed, b.parsed, "%s: read %d with the lists, %d without (%s / %s)", what, a.parsed, b.parsed,
                 a.message, b.message);
    cr_assert_eq(a.annotated, b.annotated, "%s: annotated %d with the lists, %d without (%s / %s)", what,
                 a.annotated, b.annotated, a.message, b.message);
    cr_assert_str_eq(a.message, b.message, "%s", what);
    cr_assert(!b.listed, "%s: lists without being asked for", what);
    cr_assert_eq(a.count, b.count, "%s: %zu words with the lists, %zu without", what, a.count, b.count);
    cr_assert(a.count == 0 || !memcmp(a.words, b.words, a.count * sizeof(uint32_t)), "%s: outputs differ", what);
    if (a.count) { /* the output keeps the producer's promise (spvcond validate), as fuzz_annotate asks */
        spvcond_context *ctx;
        cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
        spvcond_module *m = parse_or_die(ctx, a.words, a.count);
        size_t violations = 0;
        spvcond_validate(m, &violations);
        cr_assert_eq(violations, 0, "%s: the annotated output fails spvcond validate", what);
        spvcond_module_destroy(m);
        spvcond_context_destroy(ctx);
    }
    if (read)
        *read = a.parsed == SPVCOND_OK;
    free(a.words);
    free(b.words);
    return a.listed;
}

Test(reader_items, agree_on_fixtures_and_real_modules, .timeout = 300)
{
    const char *fixtures[] = {"kernels_fp64", "conditional_capability", "group_decorations", "annotate_graph",
                              "function_pointers", "dead_code", "forward_calls", "module_items",
                              "code_capabilities", "exported_variables", "tree_users", "ext_inst_code", "trim"};
    for (size_t k = 0; k < sizeof(fixtures) / sizeof(fixtures[0]); k++) {
        size_t n;
        uint32_t *w = read_words(fixture(fixtures[k]), &n);
        assert_same_annotation(w, n, fixtures[k], NULL);
        free(w);
    }
    const char *real[] = {"ufo__complex.spv", "qgis__resources__opencl_programs__hillshade.spv",
                          "python3-pyfai__pyFAI__resources__openCL__preprocess.spv", "hashcat__m13711-pure.spv",
                          "/usr/lib/clc/spirv64-mesa3d-.spv"};
    for (size_t k = 0; k < sizeof(real) / sizeof(real[0]); k++) {
        size_t n;
        uint32_t *w = read_words(real[k][0] == '/' ? real[k] : corpus(real[k]), &n);
        cr_assert(assert_same_annotation(w, n, real[k], NULL), "%s: the reader gave its lists up", real[k]);
        free(w);
    }
}

/* One inference (spvcond_infer, with the declared capabilities as annotate builds them); false if the
 * walk fails (a call of something not a function), everything released then. */
struct walked {
    struct spvcond_declared_caps caps;
    struct spvcond_callgraph g;
    struct spvcond_inference inf;
};

static bool
walk_module(spvcond_module *m, struct walked *x)
{
    cr_assert_eq(spvcond_declared_caps_build(m, false, &x->caps), SPVCOND_OK);
    if (spvcond_infer(m, true, &x->caps, &x->g, &x->inf) == SPVCOND_OK)
        return true;
    spvcond_declared_caps_release(m, &x->caps);
    return false;
}

static void
release_walk(spvcond_module *m, struct walked *x)
{
    spvcond_inference_release(m, &x->inf);
    spvcond_callgraph_release(m, &x->g);
    spvcond_declared_caps_release(m, &x->caps);
}

#define SAME(a, b, n, what, part) \
    cr_assert(!(n) || !memcmp((a), (b), (n) * sizeof(*(a))), "%s: %s differ", what, part)

/* The walk over the reader's lists (items; calls and what may need a capability) finds what the walk
 * over every id finds: the same items in the same order, function by function, the same aspects,
 * capabilities and call graph (where the walk succeeds). The lists come from the reader's quick runs,
 * or with `general_only` from its general path alone. Returns false if the reader gave them up. */
static bool
assert_lists_equal_the_walks_read(const uint32_t *w, size_t n, const char *what, bool general_only)
{
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    ctx->reader_general_only = general_only;
    spvcond_module *listed, *plain;
    cr_assert_eq(spvcond_module_parse(ctx, w, n, SPVCOND_PARSE_FOR_ANNOTATE, &listed), SPVCOND_OK, "%s", what);
    cr_assert_eq(spvcond_module_parse(ctx, w, n, 0, &plain), SPVCOND_OK, "%s", what);
    bool made = listed->fn_items != NULL;
    struct walked a, b;
    if (made && walk_module(plain, &b)) {
        cr_assert(walk_module(listed, &a), "%s: the listed walk failed where the full one did not", what);
        cr_assert(!b.inf.items_borrowed, "%s: the plain module's walk used lists", what);
        size_t fc = plain->function_count;
        SAME(b.inf.item_start, listed->fn_item_start, fc + 1, what, "the functions' item counts");
        SAME(b.inf.item_list, listed->fn_items, b.inf.item_count, what, "the items");
        SAME(a.inf.own, b.inf.own, fc, what, "the functions' own aspects");
        SAME(a.inf.used, b.inf.used, fc, what, "the aspects used");
        if (a.inf.cap_need || b.inf.cap_need)
            SAME(a.inf.cap_need, b.inf.cap_need, fc, what, "the capabilities needed");
        SAME(a.g.callee_start, b.g.callee_start, fc + 1, what, "the callers' edge counts");
        SAME(a.g.callees, b.g.callees, b.g.callee_start[fc], what, "the callees");
        release_walk(listed, &a);
        release_walk(plain, &b);
    }
    spvcond_module_destroy(listed);
    spvcond_module_destroy(plain);
    spvcond_context_destroy(ctx);
    return made;
}

static bool
assert_lists_equal_the_walks(const uint32_t *w, size_t n, const char *what)
{
    bool quick = assert_lists_equal_the_walks_read(w, n, what, false);
    cr_assert_eq(assert_lists_equal_the_walks_read(w, n, what, true), quick, "%s: lists made by one path only", what);
    return quick;
}

Test(reader_items, lists_equal_the_walks)
{
    const char *real[] = {"ufo__complex.spv", "qgis__resources__opencl_programs__hillshade.spv",
                          "darktable__basecurve.spv", "hashcat__m13711-pure.spv", "/usr/lib/clc/spirv64-mesa3d-.spv"};
    for (size_t k = 0; k < sizeof(real) / sizeof(real[0]); k++) {
        size_t n;
        uint32_t *w = read_words(real[k][0] == '/' ? real[k] : corpus(real[k]), &n);
        cr_assert(assert_lists_equal_the_walks(w, n, real[k]), "%s: lists given up", real[k]);
        free(w);
    }
    size_t sn;
    uint32_t *sw = synth_words("300k", &sn); /* 64-bit atomics, images, fp16 */
    cr_assert(assert_lists_equal_the_walks(sw, sn, "synthetic"), "synthetic: lists given up");
    /* Its 64-bit atomics without Int64Atomics declared (a second Int64): atomic64 all the same. */
    size_t at = 5;
    while (at < sn && sw[at] != (2u << 16 | 17u) /* OpCapability */)
        at += sw[at] >> 16;
    for (; at < sn && sw[at] == (2u << 16 | 17u); at += 2)
        if (sw[at + 1] == 12 /* Int64Atomics */)
            sw[at + 1] = 11;
    cr_assert(assert_lists_equal_the_walks(sw, sn, "synthetic, Int64Atomics undeclared"));
    free(sw);
    const char *fixtures[] = {"module_items", "forward_calls", "annotate_graph", "ext_inst_code", "code_capabilities",
                              "kernels_fp64"};
    for (size_t k = 0; k < sizeof(fixtures) / sizeof(fixtures[0]); k++) {
        size_t n;
        uint32_t *w = read_words(fixture(fixtures[k]), &n);
        assert_lists_equal_the_walks(w, n, fixtures[k]);
        free(w);
    }
}

/* ---- modules made to the purpose ------------------------------------------------------------------ */

struct words {
    uint32_t w[256];
    size_t n;
};

static void
put(struct words *b, uint32_t opcode, size_t count, const uint32_t *operands)
{
    b->w[b->n++] = (uint32_t)(count + 1) << 16 | opcode;
    for (size_t k = 0; k < count; k++)
        b->w[b->n++] = operands[k];
}
#define I(b, op, ...) put(b, op, sizeof((uint32_t[]){__VA_ARGS__}) / 4, (uint32_t[]){__VA_ARGS__})

/* An instruction whose operands are `before` (unless 0), then a literal string. */
static void
put_string(struct words *b, uint32_t opcode, uint32_t before, const char *s)
{
    uint32_t ops[16] = {0};
    size_t n = before ? 1 : 0, len = strlen(s) + 1;
    ops[0] = before;
    memcpy(ops + n, s, len - 1);
    put(b, opcode, n + (len + 3) / 4, ops);
}

/* A SPIR-V 1.2 module's header (bound 20) and its capabilities Addresses and Kernel. */
static void
start_kernel_module(struct words *b)
{
    const uint32_t header[] = {0x07230203, 0x00010200, 0, 20, 0};
    memcpy(b->w, header, sizeof(header));
    b->n = 5;
    I(b, 17, 4); /* OpCapability Addresses */
    I(b, 17, 6); /* Kernel */
}

enum variant {
    CALL,                /* kernel %8 calls %5, defined before it */
    LATER_CALLEE,        /* calls %11, defined after it */
    RECURSION,           /* calls itself */
    EARLIER_AS_ARGUMENT, /* passes %5 to a call: a function named other than as a callee */
    LATER_AS_ARGUMENT,
    SELF_AS_ARGUMENT,
    BETWEEN_FUNCTIONS,   /* names an id a non-semantic instruction between functions defines */
    VARIANTS
};

/* %1 void, %2 void(), %3 double, %4 an undefined double (fp64 for whoever names it), %5 g and %11 h
 * (both name %4), the kernel k (%8) between them; %13 a non-semantic set, %14 its instruction between
 * g and k. A function the kernel names but does not call is used all the same: lists kept there would
 * lose that (and change the output). */
static size_t
made_module(enum variant v, uint32_t *out)
{
    struct words b = {.n = 0};
    start_kernel_module(&b);
    I(&b, 17, 10); /* Float64 */
    put_string(&b, 10, 0, "SPV_KHR_non_semantic_info");
    put_string(&b, 11, 13, "NonSemantic.Testing");
    I(&b, 14, 2, 2);                     /* OpMemoryModel Physical64 OpenCL */
    I(&b, 15, 6, 8, 'k');                /* OpEntryPoint Kernel %8 "k" */
    I(&b, 19, 1);                        /* %1 = OpTypeVoid */
    I(&b, 33, 2, 1);                     /* %2 = OpTypeFunction %1 */
    I(&b, 22, 3, 64);                    /* %3 = OpTypeFloat 64 */
    I(&b, 1, 3, 4);                      /* %4 = OpUndef %3 */
    I(&b, 54, 1, 5, 0, 2);               /* %5 = OpFunction %1 None %2 */
    I(&b, 248, 6);                       /* OpLabel */
    I(&b, 83, 3, 7, 4);                  /* %7 = OpCopyObject %3 %4 */
    put(&b, 253, 0, NULL);                          /* OpReturn */
    put(&b, 56, 0, NULL);                           /* OpFunctionEnd */
    if (v == BETWEEN_FUNCTIONS)
        I(&b, 12, 1, 14, 13, 1);         /* %14 = OpExtInst %1 %13 1 */
    I(&b, 54, 1, 8, 0, 2);               /* %8 = OpFunction %1 None %2 */
    I(&b, 248, 9);
    switch (v) {
    case CALL: I(&b, 57, 1, 10, 5); break;
    case LATER_CALLEE: I(&b, 57, 1, 10, 11); break;
    case RECURSION: I(&b, 57, 1, 10, 8); break;
    case EARLIER_AS_ARGUMENT: I(&b, 57, 1, 10, 11, 5); break; /* calls h, names g */
    case LATER_AS_ARGUMENT: I(&b, 57, 1, 10, 5, 11); break;   /* calls g, names h */
    case SELF_AS_ARGUMENT: I(&b, 57, 1, 10, 5, 8); break;
    default: I(&b, 57, 1, 10, 5), I(&b, 12, 1, 16, 13, 2, 14); break;
    }
    put(&b, 253, 0, NULL);
    put(&b, 56, 0, NULL);
    I(&b, 54, 1, 11, 0, 2);              /* %11 = OpFunction %1 None %2 */
    I(&b, 248, 12);
    I(&b, 83, 3, 15, 4);                 /* %15 = OpCopyObject %3 %4 */
    put(&b, 253, 0, NULL);
    put(&b, 56, 0, NULL);
    memcpy(out, b.w, b.n * sizeof(uint32_t));
    return b.n;
}

Test(reader_items, given_up_where_they_cannot_say)
{
    static const char *const names[VARIANTS] = {"a call", "a call of a later function", "recursion",
                                                "an earlier function as an argument",
                                                "a later function as an argument", "itself as an argument",
                                                "an id between functions"};
    for (int v = 0; v < VARIANTS; v++) {
        uint32_t w[256];
        size_t n = made_module((enum variant)v, w);
        struct outcome plain;
        annotate_with(w, n, 0, &plain);
        cr_assert_eq(plain.annotated, SPVCOND_OK, "%s: %s", names[v], plain.message);
        free(plain.words);
        bool listed = assert_same_annotation(w, n, names[v], NULL);
        cr_assert_eq(listed, v <= RECURSION, "%s: lists %s", names[v], listed ? "kept" : "given up");
    }
}

/* Words of functions' code (and, every fifth round, of the globals) replaced at random as the reader's
 * own agreement test does (mutate_word): whatever the module reads as, annotating it with the reader's
 * lists and without them agrees. */
Test(reader_items, agree_on_mutated_code, .timeout = 600)
{
    const char *names[] = {"ufo__complex.spv", "qgis__resources__opencl_programs__hillshade.spv",
                           "python3-pyfai__pyFAI__resources__openCL__preprocess.spv"};
    uint64_t seed = 0x2545f4914f6cdd1du;
    size_t read = 0, listed = 0, runs = 0;
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        size_t n;
        uint32_t *w = read_words(corpus(names[k]), &n);
        spvcond_context *ctx;
        cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
        spvcond_module *m = parse_or_die(ctx, w, n);
        size_t code = m->section[SPVCOND_SECTION_FUNCTION], count = m->inst_count, globals = m->section[SPVCOND_SECTION_GLOBAL];
        uint32_t bound = m->bound;
        uint32_t *offsets = malloc((count + 1) * sizeof(uint32_t));
        memcpy(offsets, m->inst, (count + 1) * sizeof(uint32_t));
        spvcond_module_destroy(m);
        spvcond_context_destroy(ctx);
        uint32_t *mutant = malloc(n * sizeof(uint32_t));
        for (int round = 0; round < 600; round++) {
            memcpy(mutant, w, n * sizeof(uint32_t));
            for (int edits = 1 + round % 2; edits > 0; edits--) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                uint32_t r = (uint32_t)(seed >> 33);
                size_t i = round % 5 == 4 ? globals + r % (code - globals) : code + r % (count - code);
                mutate_word(mutant, w, offsets, i, code, count, bound, r);
            }
            bool was_read;
            listed += assert_same_annotation(mutant, n, names[k], &was_read);
            read += was_read;
            if (was_read)
                assert_lists_equal_the_walks(mutant, n, names[k]);
            runs++;
        }
        free(mutant);
        free(offsets);
        free(w);
    }
    /* Mutants read with lists and without them (given up), and mutants refused, or the test compared
     * nothing of interest. */
    cr_log_info("%zu of %zu mutants read, %zu of them with lists", read, runs, listed);
    cr_assert(listed > runs / 10 && read - listed > runs / 50 && read < runs - runs / 10,
              "%zu of %zu mutants read, %zu of them with lists", read, runs, listed);
}

/* What precedes a function's blocks is listed too: the walk over the lists reads no OpFunction or
 * parameter of its own, so one that may need a declared capability must be on the list. %5 is
 * OptNoneINTEL (a function-control bit needing the capability of that name), %9 is not; each has a
 * parameter. The lists' walk must find the capability where the full walk does, by the quick path and
 * by the general path alone. */
Test(reader_items, lists_hold_what_precedes_the_blocks)
{
    struct words b = {.n = 0};
    start_kernel_module(&b);
    I(&b, 17, 6094); /* OptNoneINTEL */
    put_string(&b, 10, 0, "SPV_INTEL_optnone");
    I(&b, 14, 2, 2);                     /* OpMemoryModel Physical64 OpenCL */
    I(&b, 15, 6, 9, 'k');                /* OpEntryPoint Kernel %9 "k" */
    I(&b, 19, 1);                        /* %1 = OpTypeVoid */
    I(&b, 21, 2, 32, 0);                 /* %2 = OpTypeInt 32 0 */
    I(&b, 33, 3, 1, 2);                  /* %3 = OpTypeFunction %1 %2 */
    I(&b, 54, 1, 5, 0x10000, 3);         /* %5 = OpFunction %1 OptNoneINTEL %3 */
    I(&b, 55, 2, 6);                     /* %6 = OpFunctionParameter %2 */
    I(&b, 248, 7);                       /* OpLabel */
    put(&b, 253, 0, NULL);               /* OpReturn */
    put(&b, 56, 0, NULL);                /* OpFunctionEnd */
    I(&b, 54, 1, 9, 0, 3);               /* %9 = OpFunction %1 None %3 */
    I(&b, 55, 2, 10);
    I(&b, 248, 11);
    I(&b, 57, 1, 12, 5, 10);             /* OpFunctionCall %1 %5 %10 */
    put(&b, 253, 0, NULL);
    put(&b, 56, 0, NULL);
    cr_assert(assert_lists_equal_the_walks(b.w, b.n, "OptNoneINTEL"), "the lists were given up");
    for (int general = 0; general < 2; general++) {
        spvcond_context *ctx;
        cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
        ctx->reader_general_only = general;
        spvcond_module *m;
        cr_assert_eq(spvcond_module_parse(ctx, b.w, b.n, SPVCOND_PARSE_FOR_ANNOTATE, &m), SPVCOND_OK);
        cr_assert(m->fn_reads && m->function_count == 2);
        /* Each OpFunction is listed (its opcode may need the capability; the walk finds which does), then
         * %9's call; no parameter (its operands are ids). */
        cr_assert_eq(m->fn_read_start[1] - m->fn_read_start[0], 1, "general path %d", general);
        cr_assert_eq(m->fn_reads[m->fn_read_start[0]], m->functions[0].begin, "general path %d", general);
        cr_assert_eq(m->fn_read_start[2] - m->fn_read_start[1], 2, "general path %d", general);
        cr_assert_eq(m->fn_reads[m->fn_read_start[1]], m->functions[1].begin, "general path %d", general);
        cr_assert_eq(spvcond_inst_opcode(m, m->fn_reads[m->fn_read_start[1] + 1]), SPVCOND_OP_FUNCTION_CALL);
        struct walked x;
        cr_assert(walk_module(m, &x));
        cr_assert(x.inf.items_borrowed, "the walk did not take the lists");
        size_t d = spvcond_declared_caps_find(&x.caps, 6094);
        cr_assert(d != SIZE_MAX && x.inf.cap_need);
        cr_assert(x.inf.cap_need[0] & spvcond_declared_cap_done(d), "%%5 needs OptNoneINTEL (general path %d)",
                  general);
        cr_assert(!(x.inf.cap_need[1] & spvcond_declared_cap_done(d)), "%%9 does not (general path %d)", general);
        release_walk(m, &x);
        spvcond_module_destroy(m);
        spvcond_context_destroy(ctx);
    }
}
