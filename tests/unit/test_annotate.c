/* SPDX-License-Identifier: MIT */
/* The producer on modules with known answers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/condition_store.h"
#include "ir/edit.h"
#include "helpers.h"

struct annotated {
    spvcond_result code;
    spvcond_context *ctx;
    spvcond_module *out;
    uint32_t *words;
    size_t count;
    spvcond_annotate_stats stats;
    char message[SPVCOND_DIAG_MESSAGE_SIZE];
};

/* Set around a module spirv-val would refuse before annotate (capabilities_only_code_needs' padding). */
static bool skip_spirv_val;

static struct annotated
annotate_module(spvcond_module *m, spvcond_context *ctx, const spvcond_annotate_options *o)
{
    struct annotated a;
    memset(&a, 0, sizeof(a));
    a.ctx = ctx;
    a.stats.size = sizeof(a.stats);
    a.code = spvcond_annotate(m, o, &a.stats);
    if (a.code == SPVCOND_OK) {
        cr_assert_eq(spvcond_module_emit(m, &a.words, &a.count), SPVCOND_OK);
        a.out = parse_or_die(a.ctx, a.words, a.count);
        char *val = NULL;
        if (spirv_val_knows_extension() && !skip_spirv_val) /* what annotate writes passes today's validator */
            cr_assert_eq(spirv_val(a.words, a.count, "spv1.6", &val), 0, "annotated: spirv-val: %s", val);
        free(val);
    } else {
        memcpy(a.message, spvcond_context_first_error(a.ctx)->message, sizeof(a.message));
    }
    spvcond_module_destroy(m);
    return a;
}

static struct annotated
annotate_file(const char *path, const spvcond_annotate_options *o)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(path, &ctx);
    return annotate_module(m, ctx, o);
}

static void
release(struct annotated *a)
{
    spvcond_module_destroy(a->out);
    spvcond_free(a->ctx, a->words);
    spvcond_context_destroy(a->ctx);
}

static const char *
name_of(const spvcond_module *m, uint32_t id)
{
    uint32_t b, e;
    spvcond_refs_range(&m->names, id, &b, &e);
    for (uint32_t k = b; k < e; k++)
        if (spvcond_inst_opcode(m, m->names.inst[k]) == 5)
            return spvcond_inst_string(m, m->names.inst[k], 2);
    return NULL;
}

/* A condition as text: leaves by name ("fp64"), And as '&', Or as '|'. */
static void
describe(const spvcond_module *m, uint32_t id, char *buf, size_t n)
{
    const uint32_t *w = spvcond_inst_words(m, spvcond_def(m, id));
    if ((w[0] & 0xffff) == 48) {
        const char *name = name_of(m, id);
        cr_assert_not_null(name, "leaf %%%u has no name", id);
        const char *dot = strrchr(name, '.');
        snprintf(buf, n, "%s", strncmp(name, "spvcond.aspect.", 15) == 0 ? name + 15 : dot ? name + 8 : name);
        return;
    }
    cr_assert_eq(w[0] & 0xffff, 52, "condition %%%u is not a spec constant tree", id);
    char l[128], r[128];
    describe(m, w[4], l, sizeof(l));
    describe(m, w[5], r, sizeof(r));
    snprintf(buf, n, "%s%s%s", l, w[3] == 167 ? "&" : "|", r);
}

/* The condition on an id, described; "" when it has none. */
static const char *
condition_on(const spvcond_module *m, uint32_t id)
{
    static char buf[256];
    uint32_t b, e;
    spvcond_refs_range(&m->decorations, id, &b, &e);
    for (uint32_t k = b; k < e; k++) {
        const uint32_t *w = spvcond_inst_words(m, m->decorations.inst[k]);
        if ((w[0] & 0xffff) == 71 && w[2] == 6247) {
            describe(m, w[3], buf, sizeof(buf));
            return buf;
        }
    }
    return "";
}

/* The condition on a function, described; "" when it has none. */
static const char *
condition_of(const spvcond_module *m, const char *function)
{
    uint32_t id = function_named(m, function);
    cr_assert_neq(id, 0, "no function %s", function);
    return condition_on(m, id);
}

struct expected_condition {
    const char *fn, *cond;
};

static void
expect_conditions(const spvcond_module *m, const struct expected_condition *want, size_t n)
{
    for (size_t k = 0; k < n; k++)
        cr_assert_str_eq(condition_of(m, want[k].fn), want[k].cond, "function %s", want[k].fn);
}

Test(annotate, known_answers)
{
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("annotate_graph"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    static const struct expected_condition want[] = {
        {"k_double", "fp64"}, {"a", "fp64"}, {"b", "fp64"}, {"c", "fp64"}, {"rec", "fp64"},
        {"k_half", "fp16"}, {"ext", "fp16"}, {"h", "fp64|fp16"}, {"k_sg", "reqd_sub_group_size.16"},
        {"k_plain", ""}, {"p", ""},
    };
    expect_conditions(a.out, want, sizeof(want) / sizeof(want[0]));
    cr_assert_eq(a.stats.roots, 4);
    cr_assert_eq(a.stats.conditional_roots, 3);
    cr_assert_eq(a.stats.requirements, 3);
    cr_assert_eq(a.stats.conditional_entry_points, 3);
    cr_assert_eq(count_opcode(a.out, 6249), 3);
    cr_assert_eq(count_opcode(a.out, 15), 1, "k_plain keeps a plain entry point");
    /* Float64 and Float16 become conditional; SpecConditionalINTEL comes before any conditional one. */
    bool seen_spec_conditional = false;
    size_t conditional_caps = 0;
    for (size_t i = 0; i < a.out->inst_count; i++) {
        const uint32_t *w = spvcond_inst_words(a.out, i);
        if ((w[0] & 0xffff) == 17 && w[1] == 6245)
            seen_spec_conditional = true;
        if ((w[0] & 0xffff) == 6250) {
            cr_assert(seen_spec_conditional);
            conditional_caps++;
        }
    }
    cr_assert_geq(conditional_caps, 2);
    release(&a);
}

Test(annotate, seed_example_two_aspects)
{
    /* The seed's worked example: a kernel requiring A1 and A2 gets two SpecId'd OpSpecConstantTrue,
     * one LogicalAnd, and ConditionalINTEL on its function. */
    static const uint32_t aspects[2] = {1, 2};
    spvcond_function_requirements req = {sizeof(spvcond_function_requirements), "k_plain", aspects, 2, false, NULL, 0, {0, 0, 0}, 0, NULL, NULL, NULL, 0};
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .spec_id_base = 100, .requirements = &req, .requirement_count = 1,
                                  .flags = SPVCOND_ANNOTATE_NO_INFERENCE};
    struct annotated a = annotate_file(fixture("annotate_graph"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    cr_assert_str_eq(condition_of(a.out, "k_plain"), "cpu&gpu");
    cr_assert_str_eq(condition_of(a.out, "p"), "cpu&gpu");
    /* k_sg still has its execution mode requirement; the others have none without inference. */
    cr_assert_str_eq(condition_of(a.out, "k_double"), "");
    cr_assert_eq(count_opcode(a.out, 48), 3);
    cr_assert_eq(count_opcode(a.out, 52), 1, "one LogicalAnd");
    cr_assert_eq(a.out->spec_id_count, 3);
    cr_assert_eq(a.out->spec_ids[0].spec_id, 100, "SpecIds start at the base");
    cr_assert_eq(a.out->spec_ids[1].spec_id, 101);
    release(&a);
}

Test(annotate, declared_requirements_replace_inferred_ones_with_a_warning)
{
    static const uint32_t fp16[1] = {5};
    spvcond_function_requirements req = {sizeof(spvcond_function_requirements), "k_double", NULL, 0, true, fp16, 1, {0, 0, 0}, 0, NULL, NULL, NULL, 0};
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .requirements = &req, .requirement_count = 1};
    struct annotated a = annotate_file(fixture("annotate_graph"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    cr_assert_str_eq(condition_of(a.out, "k_double"), "fp16");
    cr_assert_geq(spvcond_context_warning_count(a.ctx), 1, "uses fp64 but declares only fp16");
    release(&a);
}

Test(annotate, stated_sizes)
{
    spvcond_function_requirements req = {sizeof(spvcond_function_requirements), "k_plain", NULL, 0, false, NULL, 0, {8, 4, 1}, 32, NULL, NULL, NULL, 0};
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .requirements = &req, .requirement_count = 1};
    struct annotated a = annotate_file(fixture("annotate_graph"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    cr_assert_str_eq(condition_of(a.out, "k_plain"), "reqd_work_group_size.8.4.1&reqd_sub_group_size.32");
    release(&a);
}

Test(annotate, unknown_function_is_an_error)
{
    spvcond_function_requirements req = {sizeof(spvcond_function_requirements), "nope", NULL, 0, false, NULL, 0, {0, 0, 0}, 0, NULL, NULL, NULL, 0};
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .requirements = &req, .requirement_count = 1};
    struct annotated a = annotate_file(fixture("annotate_graph"), &o);
    cr_assert_eq(a.code, SPVCOND_ERROR_NOT_FOUND);
    cr_assert(strstr(a.message, "'nope'") != NULL, "%s", a.message);
    release(&a);
}

Test(annotate, existing_spec_ids_are_skipped)
{
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .spec_id_base = 7, .requirements = NULL, .requirement_count = 0};
    struct annotated a = annotate_file(fixture("kernels_fp64"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    release(&a);
    /* eval_conditions uses SpecIds 7, 8, 9 and 50 but is already annotated: use spec_constant_op's ids
     * (7, 8, 100, 101) with a base of 100 on a module that has conditions to emit. */
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("kernels_fp64"), &ctx);
    o.spec_id_base = 0xFF747468; /* the next one is reserved for ITT */
    spvcond_annotate_stats st = {.size = sizeof(spvcond_annotate_stats)};
    cr_assert_eq(spvcond_annotate(m, &o, &st), SPVCOND_OK);
    uint32_t *w;
    size_t n;
    cr_assert_eq(spvcond_module_emit(m, &w, &n), SPVCOND_OK);
    spvcond_module *out = parse_or_die(ctx, w, n);
    cr_assert_eq(out->spec_id_count, 2);
    cr_assert_eq(out->spec_ids[0].spec_id, 0xFF747468u);
    cr_assert_eq(out->spec_ids[1].spec_id, 0xFF74746Au, "0xFF747469 is reserved");
    spvcond_module_destroy(out);
    spvcond_free(ctx, w);
    destroy_module(m, ctx);
}

Test(annotate, refuses_an_annotated_module)
{
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("conditional_capability"), &o);
    cr_assert_eq(a.code, SPVCOND_ERROR_UNSUPPORTED);
    cr_assert(strstr(a.message, "already uses SPV_INTEL_function_variants") != NULL, "%s", a.message);
    release(&a);
    /* And its own output. */
    struct annotated first = annotate_file(fixture("kernels_fp64"), &o);
    cr_assert_eq(first.code, SPVCOND_OK);
    spvcond_module *again = parse_or_die(first.ctx, first.words, first.count);
    cr_assert_eq(spvcond_annotate(again, &o, NULL), SPVCOND_ERROR_UNSUPPORTED);
    spvcond_module_destroy(again);
    release(&first);
}

/* Annotating refuses the first use of the extension in module order: its capability or decoration
 * (before the types) ahead of any of its opcodes, and a lone opcode anywhere (the reader notes it). */
static spvcond_diag
refusal_of(const uint32_t *words, size_t count)
{
    spvcond_context *ctx = NULL;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, words, count);
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_ERROR_UNSUPPORTED);
    spvcond_diag d = *spvcond_context_first_error(ctx);
    cr_assert(strstr(d.message, "already uses SPV_INTEL_function_variants") != NULL, "%s", d.message);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    return d;
}

Test(annotate, refuses_the_first_use_of_the_extension)
{
    uint32_t w[] = {
        0x07230203, 0x00010200, 0, 9, 0,
        2u << 16 | 17, 4,             /* 0: OpCapability Addresses (replaced below) */
        2u << 16 | 17, 6,             /* 1: OpCapability Kernel */
        3u << 16 | 14, 2, 2,          /* 2: OpMemoryModel Physical64 OpenCL */
        4u << 16 | 15, 6, 1, 0x6b,    /* 3: OpEntryPoint Kernel %1 "k" */
        2u << 16 | 19, 2,             /* 4: %2 = OpTypeVoid */
        3u << 16 | 33, 3, 2,          /* 5: %3 = OpTypeFunction %2 */
        2u << 16 | 20, 5,             /* 6: %5 = OpTypeBool */
        3u << 16 | 41, 5, 6,          /* 7: %6 = OpConstantTrue %5 */
        5u << 16 | 54, 2, 1, 0, 3,    /* 8: %1 = OpFunction %2 None %3 */
        2u << 16 | 248, 4,            /* 9: %4 = OpLabel */
        5u << 16 | 6254, 5, 7, 6, 6,  /* 10: %7 = OpConditionalCopyObjectINTEL %5 %6 %6 */
        1u << 16 | 253,               /* 11: OpReturn */
        1u << 16 | 56,                /* 12: OpFunctionEnd */
    };
    size_t n = sizeof(w) / sizeof(w[0]);
    spvcond_diag d = refusal_of(w, n);
    cr_assert_eq(d.instruction_index, 10, "a lone conditional copy in a function: %zu", d.instruction_index);
    cr_assert_eq(d.opcode, 6254);
    w[6] = 6245; /* OpCapability SpecConditionalINTEL without its extension: a malformed guard input */
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, n);
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_ERROR_INVALID_BINARY);
    d = *spvcond_context_first_error(ctx);
    cr_assert(d.instruction_index == 0 && strstr(d.message, "without OpExtension") != NULL, "%zu: %s",
              d.instruction_index, d.message);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

Test(annotate, nothing_to_guard_leaves_the_module_alone)
{
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("group_decorations"), &o);
    cr_assert_eq(a.code, SPVCOND_OK);
    size_t n;
    uint32_t *in = read_words(fixture("group_decorations"), &n);
    cr_assert(a.count == n && memcmp(a.words, in, n * 4) == 0);
    free(in);
    release(&a);
}

/* The annotated module passes our validate, and specialized for every assignment of its SpecIds, spirv-val. */
static void
expect_every_assignment_valid(struct annotated *a)
{
    cr_assert_eq(spvcond_validate(a->out, NULL), SPVCOND_OK);
    size_t leaves = a->out->spec_id_count;
    cr_assert_leq(leaves, 8);
    for (uint32_t bits = 0; bits < (1u << leaves); bits++) {
        spvcond_spec_value v[8];
        for (size_t k = 0; k < leaves; k++)
            v[k] = (spvcond_spec_value){a->out->spec_ids[k].spec_id, (bits >> k) & 1, false};
        spvcond_module *m = parse_or_die(a->ctx, a->words, a->count);
        spvcond_specialize_options so = {sizeof(spvcond_specialize_options), v, leaves, NULL, SPVCOND_SPECIALIZE_STRICT};
        cr_assert_eq(spvcond_specialize(m, &so, NULL), SPVCOND_OK, "assignment %u", bits);
        uint32_t *w;
        size_t n;
        cr_assert_eq(spvcond_module_emit(m, &w, &n), SPVCOND_OK);
        char *val;
        cr_assert_eq(spirv_val(w, n, "spv1.2", &val), 0, "assignment %u: %s", bits, val);
        free(val);
        spvcond_free(a->ctx, w);
        spvcond_module_destroy(m);
    }
}

Test(annotate, every_assignment_specializes_validly)
{
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("annotate_graph"), &o);
    cr_assert_eq(a.code, SPVCOND_OK);
    expect_every_assignment_valid(&a);
    release(&a);
}

/* The condition on capability `cap` in module m, described: "" for a plain OpCapability, NULL when
 * it is not declared. */
static const char *
capability_condition(const spvcond_module *m, uint32_t cap)
{
    static char buf[256];
    for (size_t i = 0; i < m->section[SPVCOND_SECTION_CAPABILITY + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        if ((w[0] & 0xffff) == 17 && w[1] == cap)
            return "";
        if ((w[0] & 0xffff) == 6250 && w[2] == cap) {
            describe(m, w[1], buf, sizeof(buf));
            return buf;
        }
    }
    return NULL;
}

/* Capabilities only code needs take the conditions of the functions whose instructions need them, as
 * the code walk finds them, with requirements inferred or stated; with more than 62 declared (too
 * many for the walk's masks), a scan of the code finds the same. */
Test(annotate, capabilities_only_code_needs)
{
    size_t count, padded_count = SPVCOND_HEADER_WORDS, extra = 0;
    uint32_t *plain = read_words(fixture("code_capabilities"), &count);
    /* The same module declaring 63 more capabilities, which nothing uses, with an extension that
     * enables each (after the module's own capabilities). */
    uint32_t *padded = malloc((count + 2 * 63 + 63 * 20) * sizeof(uint32_t));
    cr_assert_not_null(padded);
    memcpy(padded, plain, SPVCOND_HEADER_WORDS * sizeof(uint32_t));
    const struct spvcond_grammar_enumerant *chosen[63];
    for (uint32_t v = 4400; extra < 63; v++) {
        const struct spvcond_grammar_enumerant *e = spvcond_grammar_enumerant(SPVCOND_KIND_Capability, v);
        /* Enabled at SPIR-V 1.2 by the version or an extension (validate's version rules; what else some
         * of them need, spirv-val's own rules, is beside the point here). */
        if (!e || (!e->ext_count && e->version > 0x0102u) || (e->ext_count && strlen(spvcond_grammar_extensions[e->first_ext]) > 70))
            continue;
        padded[padded_count++] = 2u << 16 | 17;
        padded[padded_count++] = v;
        chosen[extra++] = e;
    }
    size_t own = SPVCOND_HEADER_WORDS; /* the module's own capabilities */
    while (own < count && (plain[own] & 0xffff) == 17)
        own += plain[own] >> 16;
    memcpy(padded + padded_count, plain + SPVCOND_HEADER_WORDS, (own - SPVCOND_HEADER_WORDS) * sizeof(uint32_t));
    padded_count += own - SPVCOND_HEADER_WORDS;
    for (size_t k = 0; k < extra; k++) {
        if (!chosen[k]->ext_count)
            continue;
        uint32_t n = spvcond_encode_string(spvcond_grammar_extensions[chosen[k]->first_ext], padded + padded_count + 1, 19);
        padded[padded_count] = (1 + n) << 16 | 10;
        padded_count += 1 + n;
    }
    memcpy(padded + padded_count, plain + own, (count - own) * sizeof(uint32_t));
    padded_count += count - own;
    static const uint32_t fp64[1] = {6}, atomic64[1] = {28};
    spvcond_function_requirements req[2] = {{sizeof(spvcond_function_requirements), "k_double", fp64, 1, false, NULL, 0, {0, 0, 0}, 0, NULL, NULL, NULL, 0},
                                            {sizeof(spvcond_function_requirements), "k_atomic", atomic64, 1, false, NULL, 0, {0, 0, 0}, 0, NULL, NULL, NULL, 0}};
    spvcond_annotate_options inferred = {.size = sizeof(spvcond_annotate_options)}, stated = {.size = sizeof(spvcond_annotate_options), .requirements = req, .requirement_count = 2,
                                         .flags = SPVCOND_ANNOTATE_NO_INFERENCE};
    const uint32_t *inputs[3] = {plain, padded, plain};
    size_t sizes[3] = {count, padded_count, count};
    const spvcond_annotate_options *options[3] = {&inferred, &inferred, &stated};
    for (int k = 0; k < 3; k++) {
        spvcond_context *ctx = NULL;
        cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
        skip_spirv_val = k == 1;
        struct annotated a = annotate_module(parse_or_die(ctx, inputs[k], sizes[k]), ctx, options[k]);
        skip_spirv_val = false;
        cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
        cr_assert_str_eq(capability_condition(a.out, 12 /* Int64Atomics */), "atomic64", "input %d", k);
        cr_assert_str_eq(capability_condition(a.out, 18 /* Groups */), "", "input %d: p needs it always", k);
        cr_assert_str_eq(capability_condition(a.out, 10 /* Float64 */), "fp64", "input %d", k);
        cr_assert_eq(count_opcode(a.out, 17), 5 + (k == 1 ? 63 : 0), "input %d", k);
        if (k != 1)
            expect_every_assignment_valid(&a);
        else /* the 63 extra capabilities: our checker only */
            cr_assert_eq(spvcond_validate(a.out, NULL), SPVCOND_OK, "input %d", k);
        release(&a);
    }
    free(plain);
    free(padded);
}

/* An exported module-scope variable is a root with the requirements of its type, found among the
 * decorations; without inference it requires nothing. */
Test(annotate, exported_variables_are_roots)
{
    spvcond_annotate_options inferred = {.size = sizeof(spvcond_annotate_options)}, stated = {.size = sizeof(spvcond_annotate_options), .requirements = NULL, .requirement_count = 0,
                                         .flags = SPVCOND_ANNOTATE_NO_INFERENCE};
    struct annotated a = annotate_file(fixture("exported_variables"), &inferred);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    cr_assert_str_eq(condition_on(a.out, id_named(a.out, "gd")), "fp64");
    cr_assert_str_eq(condition_on(a.out, id_named(a.out, "double")), "fp64");
    cr_assert_str_eq(condition_on(a.out, id_named(a.out, "gi")), "");
    cr_assert_str_eq(condition_of(a.out, "h"), "", "an imported declaration");
    expect_every_assignment_valid(&a);
    release(&a);
    struct annotated b = annotate_file(fixture("exported_variables"), &stated);
    cr_assert_eq(b.code, SPVCOND_OK, "%s", b.message);
    cr_assert_eq(count_opcode(b.out, 6250), 0, "nothing is conditional");
    cr_assert_str_eq(condition_on(b.out, id_named(b.out, "gd")), "");
    release(&b);
}

/* Items only conditional code names take its condition, found by the code walk: a function type named by
 * the OpFunction itself (walked also without inference, where the requirement is stated). The extended
 * instruction set only h names stays unconditional (the translator's consumer cannot erase an import,
 * spec/extension.md), and specialize drops it once h went. */
Test(annotate, items_named_only_by_conditional_code)
{
    static const uint32_t fp64[1] = {6};
    spvcond_function_requirements req = {sizeof(spvcond_function_requirements), "k_double", fp64, 1, false, NULL, 0, {0, 0, 0}, 0, NULL, NULL, NULL, 0};
    spvcond_annotate_options inferred = {.size = sizeof(spvcond_annotate_options)}, stated = {.size = sizeof(spvcond_annotate_options), .requirements = &req, .requirement_count = 1,
                                         .flags = SPVCOND_ANNOTATE_NO_INFERENCE};
    const spvcond_annotate_options *options[2] = {&inferred, &stated};
    for (int k = 0; k < 2; k++) {
        struct annotated a = annotate_file(fixture("module_items"), options[k]);
        cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
        cr_assert_str_eq(condition_of(a.out, "h"), "fp64", "options %d", k);
        cr_assert_str_eq(condition_of(a.out, "k_plain"), "", "options %d", k);
        cr_assert_str_eq(condition_on(a.out, id_named(a.out, "fn_h")), "fp64", "options %d", k);
        cr_assert_str_eq(condition_on(a.out, id_named(a.out, "std")), "", "options %d", k);
        expect_every_assignment_valid(&a);
        spvcond_module *m = parse_or_die(a.ctx, a.words, a.count);
        spvcond_spec_value v[1] = {{m->spec_ids[0].spec_id, 0, false}};
        spvcond_specialize_options so = {sizeof(spvcond_specialize_options), v, 1, NULL, SPVCOND_SPECIALIZE_STRICT};
        cr_assert_eq(spvcond_specialize(m, &so, NULL), SPVCOND_OK);
        uint32_t *w;
        size_t n;
        cr_assert_eq(spvcond_module_emit(m, &w, &n), SPVCOND_OK);
        spvcond_module *out = parse_or_die(a.ctx, w, n);
        cr_assert_eq(count_opcode(out, SPVCOND_OP_EXT_INST_IMPORT), 0, "options %d: the import h alone used went", k);
        spvcond_module_destroy(out);
        spvcond_free(a.ctx, w);
        spvcond_module_destroy(m);
        release(&a);
    }
}

/* An OpDecorateId's operands past its target are used unconditionally: a constant named there and
 * otherwise only by fp64 code stays unconditional; one named by that code alone does not. */
Test(annotate, decoration_operands_are_unconditional_uses)
{
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("decorate_id_operand"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    cr_assert_str_eq(condition_of(a.out, "k_double"), "fp64");
    cr_assert_str_eq(condition_on(a.out, id_named(a.out, "two")), "fp64");
    cr_assert_str_eq(condition_on(a.out, id_named(a.out, "eight")), "");
    expect_every_assignment_valid(&a);
    release(&a);
}

static spvcond_result
parse_requirements(spvcond_context *ctx, const char *text, spvcond_requirements_file **f)
{
    return spvcond_requirements_file_parse(ctx, text, strlen(text), "reqs.yaml", f);
}

Test(annotate, requirements_file)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("annotate_graph"), &ctx);
    const char *text = "k_double:\n  declared: [fp16]\nk_plain:\n  uses: [image, 28]\n"
                       "  reqd_work_group_size: [64, 2]\n  reqd_sub_group_size: 8\n";
    spvcond_requirements_file *f;
    cr_assert_eq(parse_requirements(ctx, text, &f), SPVCOND_OK);
    size_t n;
    const spvcond_function_requirements *e = spvcond_requirements_file_entries(f, &n);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(e[0].function, "k_double");
    cr_assert(e[0].has_declared && e[0].declared_count == 1 && e[0].declared[0] == 5);
    cr_assert_str_eq(e[0].origin, "reqs.yaml:1");
    cr_assert(e[1].use_count == 2 && e[1].uses[0] == 9 && e[1].uses[1] == 28);
    cr_assert(e[1].reqd_work_group_size[0] == 64 && e[1].reqd_work_group_size[1] == 2 && e[1].reqd_work_group_size[2] == 1);
    cr_assert_eq(e[1].reqd_sub_group_size, 8);
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .requirements = e, .requirement_count = n};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK);
    cr_assert_eq(spvcond_context_warning_count(ctx), 1, "k_double uses fp64 but declares fp16");
    uint32_t *w;
    size_t count;
    cr_assert_eq(spvcond_module_emit(m, &w, &count), SPVCOND_OK);
    spvcond_module *a = parse_or_die(ctx, w, count);
    cr_assert_str_eq(condition_of(a, "k_double"), "fp16");
    cr_assert_str_eq(condition_of(a, "k_plain"),
                     "image&atomic64&reqd_work_group_size.64.2.1&reqd_sub_group_size.8");
    spvcond_module_destroy(a);
    spvcond_free(ctx, w);
    spvcond_requirements_file_destroy(f);
    destroy_module(m, ctx);
}

static void
expect_requirements_error(const char *text, const char *needle)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_requirements_file *f = (spvcond_requirements_file *)1;
    cr_assert_neq(parse_requirements(ctx, text, &f), SPVCOND_OK);
    cr_assert_null(f);
    const char *msg = spvcond_context_first_error(ctx)->message;
    cr_assert(strstr(msg, needle) != NULL, "'%s' lacks '%s'", msg, needle);
    spvcond_context_destroy(ctx);
}

Test(annotate, requirements_file_errors_name_the_line)
{
    expect_requirements_error("k:\n  uses: [fp99]\n", "reqs.yaml:2: unknown aspect: fp99");
    expect_requirements_error("k:\n  usez: [fp64]\n", "reqs.yaml:2: unknown key");
    expect_requirements_error("k:\n  reqd_work_group_size: [1, 2, 3, 4]\n", "reqs.yaml:2: reqd_work_group_size must be");
    expect_requirements_error("k:\n  reqd_sub_group_size: 0\n", "reqs.yaml:2: reqd_sub_group_size must be");
    expect_requirements_error("k: 3\n", "reqs.yaml:1: a function's requirements must be a mapping");
    expect_requirements_error("k:\n  uses: [fp64\n", "reqs.yaml:");
    /* An unknown function is reported by annotate, with the line. */
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("annotate_graph"), &ctx);
    spvcond_requirements_file *f;
    cr_assert_eq(parse_requirements(ctx, "\nnope:\n  uses: [fp64]\n", &f), SPVCOND_OK);
    size_t n;
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .requirements = spvcond_requirements_file_entries(f, &n)};
    o.requirement_count = n;
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_ERROR_NOT_FOUND);
    cr_assert(strstr(spvcond_context_first_error(ctx)->message, "reqs.yaml:2: requirements name function 'nope'") != NULL,
              "%s", spvcond_context_first_error(ctx)->message);
    spvcond_requirements_file_destroy(f);
    destroy_module(m, ctx);
}

Test(annotate, local_size_and_function_pointers)
{
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("kernels_fp64"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    cr_assert_str_eq(condition_of(a.out, "add_float"), "reqd_work_group_size.64.1.1");
    cr_assert_str_eq(condition_of(a.out, "add_double"), "fp64");
    cr_assert_str_eq(condition_of(a.out, "twice_double"), "fp64");
    cr_assert_str_eq(condition_of(a.out, "twice"), "", "exported, requires nothing");
    release(&a);
    /* k reaches f (double) only through OpConstantFunctionPointerINTEL: f is k's callee. */
    struct annotated p = annotate_file(fixture("function_pointers"), &o);
    cr_assert_eq(p.code, SPVCOND_OK, "%s", p.message);
    cr_assert_str_eq(condition_of(p.out, "k"), "fp64");
    cr_assert_str_eq(condition_of(p.out, "f"), "fp64");
    cr_assert_eq(spvcond_validate(p.out, NULL), SPVCOND_OK);
    release(&p);
}

Test(annotate, aspect_sets_iterate_in_order)
{
    static const uint32_t held[] = {0, 5, 63, 64, 100, 127};
    spvcond_aspects a = {{0, 0}};
    for (size_t k = 0; k < sizeof(held) / sizeof(held[0]); k++)
        spvcond_aspects_add(&a, held[k]);
    size_t n = 0;
    for (uint32_t asp = spvcond_aspects_next(&a, 0); asp < SPVCOND_ASPECT_MAX; asp = spvcond_aspects_next(&a, asp + 1)) {
        cr_assert_lt(n, sizeof(held) / sizeof(held[0]));
        cr_assert_eq(asp, held[n], "aspect %zu: %u, expected %u", n, asp, held[n]);
        n++;
    }
    cr_assert_eq(n, sizeof(held) / sizeof(held[0]));
    spvcond_aspects none = {{0, 0}};
    cr_assert_eq(spvcond_aspects_next(&none, 0), SPVCOND_ASPECT_MAX);
    cr_assert_eq(spvcond_aspects_next(&a, 101), 127);
    cr_assert_eq(spvcond_aspects_next(&a, 128), SPVCOND_ASPECT_MAX);
}

Test(annotate, callers_before_callees)
{
    /* One walk over the code finds both the call edges and what each function uses: calls of later
     * functions, a call after the callee's definition, a value used before its definition, and an
     * earlier function named without a call. */
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("forward_calls"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    static const struct expected_condition want[] = {
        {"k_fwd", "fp64"}, {"mid", "fp64"}, {"leaf", "fp64"}, {"k_ret", "fp64"}, {"get_d", "fp64"},
        {"k_back", "fp64"}, {"k_none", ""}, {"nothing", ""}, {"k_query", "fp64"}, {"block", "fp64"},
    };
    expect_conditions(a.out, want, sizeof(want) / sizeof(want[0]));
    cr_assert_eq(a.stats.roots, 5);
    cr_assert_eq(a.stats.conditional_roots, 4);
    cr_assert_eq(spvcond_validate(a.out, NULL), SPVCOND_OK);
    release(&a);
    /* Without inference the edges are the same: the requirements stated for k_fwd (before mid) and for
     * k_back (after it) both reach mid and leaf. */
    static const uint32_t fp16[1] = {5}, fp64[1] = {6};
    spvcond_function_requirements req[2] = {{sizeof(spvcond_function_requirements), "k_fwd", fp16, 1, false, NULL, 0, {0, 0, 0}, 0, NULL, NULL, NULL, 0},
                                            {sizeof(spvcond_function_requirements), "k_back", fp64, 1, false, NULL, 0, {0, 0, 0}, 0, NULL, NULL, NULL, 0}};
    spvcond_annotate_options n = {.size = sizeof(spvcond_annotate_options), .requirements = req, .requirement_count = 2, .flags = SPVCOND_ANNOTATE_NO_INFERENCE};
    struct annotated b = annotate_file(fixture("forward_calls"), &n);
    cr_assert_eq(b.code, SPVCOND_OK, "%s", b.message);
    static const struct expected_condition stated[] = {
        {"k_fwd", "fp16"}, {"k_back", "fp64"}, {"mid", "fp16|fp64"}, {"leaf", "fp16|fp64"}, {"get_d", ""},
    };
    expect_conditions(b.out, stated, sizeof(stated) / sizeof(stated[0]));
    cr_assert_eq(spvcond_validate(b.out, NULL), SPVCOND_OK);
    release(&b);
}

Test(annotate, dead_functions_are_roots)
{
    /* Unconditional, `unused` would keep calling `uses_double` after a device without fp64 strips it. */
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("dead_code"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    cr_assert_str_eq(condition_of(a.out, "uses_double"), "fp64");
    cr_assert_str_eq(condition_of(a.out, "unused"), "fp64");
    cr_assert_eq(spvcond_validate(a.out, NULL), SPVCOND_OK);
    release(&a);
}

/* The SpecId of the requirement constant named `name`. */
static uint32_t
spec_id_named(const spvcond_module *m, const char *name)
{
    for (size_t k = 0; k < m->spec_id_count; k++) {
        const char *n = name_of(m, m->spec_ids[k].id);
        if (n && strcmp(n, name) == 0)
            return m->spec_ids[k].spec_id;
    }
    cr_assert_fail("no requirement constant %s", name);
    return 0;
}

/* Conditions past the Or-list limit (Ors of conditions, not of sets) prove and specialize the same:
 * a shared function is kept exactly when a kernel calling it is. */
Test(annotate, conditions_past_the_list_limit)
{
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("many_sets"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    cr_assert_eq(a.stats.requirements, 25, "24 work-group sizes and fp64");
    cr_assert_eq(spvcond_validate(a.out, NULL), SPVCOND_OK, "%s", spvcond_context_first_error(a.ctx)->message);
    /* Which kernel's leaf is true (-1: none, 24: fp64 only, 25: all). */
    static const int cases[] = {-1, 0, 5, 11, 12, 23, 24, 25};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        int on = cases[c];
        spvcond_spec_value v[25];
        for (int k = 0; k < 25; k++) {
            char name[64];
            if (k < 24)
                snprintf(name, sizeof(name), "spvcond.reqd_work_group_size.%d.1.1", k + 1);
            else
                snprintf(name, sizeof(name), "spvcond.aspect.fp64");
            v[k] = (spvcond_spec_value){spec_id_named(a.out, name), on == k || on == 25, false};
        }
        spvcond_module *m = parse_or_die(a.ctx, a.words, a.count);
        spvcond_specialize_options so = {sizeof(spvcond_specialize_options), v, 25, NULL, SPVCOND_SPECIALIZE_STRICT};
        cr_assert_eq(spvcond_specialize(m, &so, NULL), SPVCOND_OK, "case %d: %s", on,
                     spvcond_context_first_error(a.ctx)->message);
        uint32_t *w;
        size_t n;
        cr_assert_eq(spvcond_module_emit(m, &w, &n), SPVCOND_OK);
        char *val;
        cr_assert_eq(spirv_val(w, n, "spv1.2", &val), 0, "case %d: %s", on, val);
        free(val);
        spvcond_module *s = parse_or_die(a.ctx, w, n);
        cr_assert_eq(function_named(s, "shared") != 0, on >= 0, "case %d: shared", on);
        cr_assert_eq(function_named(s, "half_shared") != 0, on >= 0 && (on < 12 || on == 25), "case %d: half_shared",
                     on);
        cr_assert_eq(function_named(s, "k5") != 0, on == 5 || on == 25, "case %d: k5", on);
        cr_assert_eq(function_named(s, "k_fp64") != 0, on >= 24, "case %d: k_fp64", on);
        spvcond_module_destroy(s);
        spvcond_free(a.ctx, w);
        spvcond_module_destroy(m);
    }
    release(&a);
}

/* A condition store over a module, with the requirement sets `sets` (each `sizes[k]` leaves of `leaves`,
 * in turn) made in order, set 0 the empty set, for the union of conditions. */
static void
begin_unions(struct condition_store *cs, spvcond_context **ctx, const uint32_t *leaves, const uint32_t *sizes, size_t n)
{
    spvcond_module *m = load_module(fixture("annotate_graph"), ctx);
    spvcond_store_init(cs, m);
    for (size_t k = 0, first = 0; k < n; first += sizes[k++]) {
        uint32_t index;
        cr_assert_eq(spvcond_store_set(cs, leaves + first, sizes[k], &index), SPVCOND_OK);
        cr_assert_eq(index, k, "set %zu is new", k);
    }
    cr_assert_eq(spvcond_cond_init(cs), SPVCOND_OK);
}

static void
end_unions(struct condition_store *cs, spvcond_context *ctx)
{
    spvcond_module *m = (spvcond_module *)cs->m;
    spvcond_store_release(cs);
    destroy_module(m, ctx);
}

/* Unions of one condition with more others than the memo has slots at its largest: each answer is its
 * own pair of sets, though slots are shared (an entry must match both operands) and the memo grows from
 * a page to its full size on the way, forgetting what it held. */
Test(annotate, union_memo_matches_both_operands)
{
    enum { N = (1u << UNION_MEMO_BITS) + 100 };
    static uint32_t leaves[N], sizes[N + 1]; /* {} and {leaf k} */
    for (uint32_t k = 0; k < N; k++) {
        leaves[k] = k;
        sizes[k + 1] = 1;
    }
    spvcond_context *ctx;
    struct condition_store cs;
    begin_unions(&cs, &ctx, leaves, sizes, N + 1);
    uint32_t first, other, both;
    cr_assert_eq(spvcond_cond_of_set(&cs, 1, &first), SPVCOND_OK);
    for (uint32_t s = 2; s <= N; s++) {
        cr_assert_eq(spvcond_cond_of_set(&cs, s, &other), SPVCOND_OK);
        cr_assert_eq(spvcond_cond_union(&cs, first, other, &both), SPVCOND_OK);
        const struct cond *c = spvcond_cond_at(&cs, both);
        cr_assert(c->kind == COND_LIST && c->y == 2 && spvcond_cond_list_set(&cs, both, 0) == 1 &&
                      spvcond_cond_list_set(&cs, both, 1) == s,
                  "{leaf 0} | {leaf %u} is both sets", s - 1);
    }
    cr_assert_eq(cs.union_memo_bits, UNION_MEMO_BITS, "the memo grew from 2^%u entries to 2^%u",
                 UNION_MEMO_FIRST_BITS, UNION_MEMO_BITS);
    end_unions(&cs, ctx);
}

/* The union of conditions, on hand-made sets: {fp16} implies {fp16, fp64}'s Or away while the absorption
 * budget lasts; once it is spent, lists merge as they are (larger, the same truth value). */
Test(annotate, union_absorbs_while_the_budget_lasts)
{
    /* {}, {leaf 0}, {leaf 0, leaf 1}, {leaf 1} */
    static const uint32_t leaves[4] = {0, 0, 1, 1}, sizes[4] = {0, 1, 2, 1};
    spvcond_context *ctx;
    struct condition_store cs;
    begin_unions(&cs, &ctx, leaves, sizes, 4);
    uint32_t one, two, both, always = spvcond_cond_always(&cs);
    cr_assert_eq(spvcond_cond_of_set(&cs, 1, &one), SPVCOND_OK);
    cr_assert_eq(spvcond_cond_of_set(&cs, 2, &two), SPVCOND_OK);
    cr_assert_eq(spvcond_cond_union(&cs, one, two, &both), SPVCOND_OK);
    cr_assert_eq(both, one, "{leaf 0} | {leaf 0, leaf 1} is {leaf 0}");
    cr_assert_eq(spvcond_cond_union(&cs, two, always, &both), SPVCOND_OK);
    cr_assert_eq(both, always);
    cs.absorb_budget = 0;
    cr_assert_eq(spvcond_cond_union(&cs, two, one, &both), SPVCOND_OK);
    cr_assert_eq(both, one, "a union made before is remembered (in either order), budget or not");
    uint32_t three;
    cr_assert_eq(spvcond_cond_of_set(&cs, 3, &three), SPVCOND_OK);
    cr_assert_eq(spvcond_cond_union(&cs, three, two, &both), SPVCOND_OK);
    cr_assert(both != three && spvcond_cond_at(&cs, both)->kind == COND_LIST && spvcond_cond_at(&cs, both)->y == 2,
              "past the budget, both sets kept, as one list");
    end_unions(&cs, ctx);
}

/* The store answers an aspect's leaf and a set's condition, asked again, from what it kept: the same
 * index and handle, nothing new made; a leaf of another kind with the same value, or an aspect leaf
 * with more values, is another leaf. */
Test(annotate, store_keeps_aspect_leaves_and_set_conditions)
{
    static const uint32_t leaves[2] = {0, 1}, sizes[3] = {0, 1, 1}; /* {}, {leaf 0}, {leaf 1} */
    spvcond_context *ctx;
    struct condition_store cs;
    begin_unions(&cs, &ctx, leaves, sizes, 3);
    size_t fp64, again, other_kind, other_values;
    cr_assert_eq(spvcond_store_leaf(&cs, LEAF_ASPECT, (uint32_t[4]){SPVCOND_ASPECT_FP64, 0, 0, 0}, &fp64), SPVCOND_OK);
    size_t leaves_made = spvcond_store_leaf_count(&cs);
    cr_assert_eq(spvcond_store_leaf(&cs, LEAF_ASPECT, (uint32_t[4]){SPVCOND_ASPECT_FP64, 0, 0, 0}, &again), SPVCOND_OK);
    cr_assert_eq(again, fp64);
    cr_assert_eq(spvcond_store_leaf_count(&cs), leaves_made, "asked again, no leaf is made");
    cr_assert_eq(spvcond_store_leaf(&cs, LEAF_SUB_GROUP_SIZE, (uint32_t[4]){SPVCOND_ASPECT_FP64, 0, 0, 0}, &other_kind),
                 SPVCOND_OK);
    cr_assert_neq(other_kind, fp64, "a sub-group size of the aspect's number is another leaf");
    cr_assert_eq(spvcond_store_leaf(&cs, LEAF_ASPECT, (uint32_t[4]){SPVCOND_ASPECT_FP64, 1, 0, 0}, &other_values),
                 SPVCOND_OK);
    cr_assert(other_values != fp64 && other_values != other_kind);
    cr_assert_eq(spvcond_store_leaf_count(&cs), leaves_made + 2);
    uint32_t one, one_again, two;
    cr_assert_eq(spvcond_cond_of_set(&cs, 1, &one), SPVCOND_OK);
    size_t conds_made = cs.cond_count;
    cr_assert_eq(spvcond_cond_of_set(&cs, 1, &one_again), SPVCOND_OK);
    cr_assert_eq(one_again, one);
    cr_assert_eq(cs.cond_count, conds_made, "asked again, no condition is interned");
    cr_assert_eq(spvcond_cond_of_set(&cs, 2, &two), SPVCOND_OK);
    cr_assert(two != one && spvcond_cond_list_set(&cs, two, 0) == 2);
    uint32_t always;
    cr_assert_eq(spvcond_cond_of_set(&cs, 0, &always), SPVCOND_OK);
    cr_assert_eq(always, spvcond_cond_always(&cs), "the empty set's condition is always");
    end_unions(&cs, ctx);
}

Test(annotate, virtual_function_sets)
{
    /* Without statements f and g form the default set, which needs fp64 (f's body): both become stubs,
     * k (which only names them) requires nothing, c (which calls through them) requires fp64. */
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    struct annotated a = annotate_file(fixture("virtual_stub"), &o);
    cr_assert_eq(a.code, SPVCOND_OK, "%s", a.message);
    cr_assert_eq(a.stats.virtual_stubs, 2);
    cr_assert_str_eq(condition_of(a.out, "k"), "");
    cr_assert_str_eq(condition_of(a.out, "c"), "fp64");
    cr_assert_str_eq(condition_of(a.out, "f"), "", "the stub stays wherever its pointer is");
    cr_assert_str_eq(condition_of(a.out, "f.body"), "fp64");
    cr_assert_str_eq(condition_of(a.out, "h"), "fp64", "what the body calls goes with it");
    cr_assert_eq(spvcond_validate(a.out, NULL), SPVCOND_OK);
    release(&a);
    /* g in a set of its own that c states: c requires nothing, and only f is a stub. */
    static const char *const calls[] = {"plain"};
    spvcond_function_requirements req[2] = {{.size = sizeof(spvcond_function_requirements), .function = "g", .indirectly_callable = "plain"},
                                            {.size = sizeof(spvcond_function_requirements), .function = "c", .calls_indirectly = calls, .calls_indirectly_count = 1}};
    o = (spvcond_annotate_options){.size = sizeof(spvcond_annotate_options), .requirements = req, .requirement_count = 2};
    struct annotated b = annotate_file(fixture("virtual_stub"), &o);
    cr_assert_eq(b.code, SPVCOND_OK, "%s", b.message);
    cr_assert_eq(b.stats.virtual_stubs, 1);
    cr_assert_str_eq(condition_of(b.out, "c"), "");
    cr_assert_str_eq(condition_of(b.out, "g"), "");
    cr_assert_str_eq(condition_of(b.out, "f.body"), "fp64");
    release(&b);
    /* A set no function is in. */
    static const char *const nowhere[] = {"nowhere"};
    req[1].calls_indirectly = nowhere;
    struct annotated e = annotate_file(fixture("virtual_stub"), &o);
    cr_assert_eq(e.code, SPVCOND_ERROR_NOT_FOUND);
    cr_assert(strstr(e.message, "'c' calls virtual-function set 'nowhere', but no function is in that set"), "%s",
              e.message);
    spvcond_context_destroy(e.ctx);
}

/* The round-trip record is an instruction the module's version has (spec/annotate.md): OpString before
 * SPIR-V 1.1, OpModuleProcessed from 1.1; either way specialize with every condition true gives the input
 * back, byte for byte. */
Test(annotate, record_fits_the_version)
{
    size_t n;
    uint32_t *in = read_words(fixture("kernels_fp64"), &n);
    const uint32_t versions[] = {0x00010000, 0x00010100, 0x00010200};
    for (size_t v = 0; v < sizeof(versions) / sizeof(versions[0]); v++) {
        in[1] = versions[v];
        spvcond_context *ctx;
        cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
        spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
        struct annotated a = annotate_module(parse_or_die(ctx, in, n), ctx, &o);
        cr_assert_eq(a.code, SPVCOND_OK);
        size_t strings = count_opcode(a.out, SPVCOND_OP_STRING), processed = count_opcode(a.out, SPVCOND_OP_MODULE_PROCESSED);
        if (versions[v] < 0x00010100)
            cr_assert(strings == 1 && processed == 0, "1.0: %zu OpString, %zu OpModuleProcessed", strings, processed);
        else
            cr_assert(strings == 0 && processed == 1, "version %x: %zu OpString, %zu OpModuleProcessed", versions[v],
                      strings, processed);
        spvcond_module *m = parse_or_die(ctx, a.words, a.count);
        spvcond_specialize_options so = {sizeof(spvcond_specialize_options), NULL, 0, NULL, SPVCOND_SPECIALIZE_STRICT};
        cr_assert_eq(spvcond_specialize(m, &so, NULL), SPVCOND_OK);
        uint32_t *w;
        size_t wn;
        cr_assert_eq(spvcond_module_emit(m, &w, &wn), SPVCOND_OK);
        cr_assert(wn == n && memcmp(w, in, n * 4) == 0, "version %x: the round trip is not exact", versions[v]);
        spvcond_free(ctx, w);
        spvcond_module_destroy(m);
        release(&a);
    }
    free(in);
}
