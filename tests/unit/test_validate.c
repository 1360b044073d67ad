/* SPDX-License-Identifier: MIT */
/* spvcond validate: every rule reported, clean modules clean, dangling references proved. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

struct collected {
    char text[8192];
    size_t errors;
};

static void
collect(void *user, const spvcond_diag *d)
{
    struct collected *c = user;
    if (d->severity != SPVCOND_SEVERITY_ERROR)
        return;
    c->errors++;
    size_t len = strlen(c->text);
    snprintf(c->text + len, sizeof(c->text) - len, "%s\n", d->message);
}

static spvcond_result
validate_file(const char *path, struct collected *c, size_t *violations)
{
    size_t n;
    uint32_t *w = read_words(path, &n);
    spvcond_context *ctx;
    memset(c, 0, sizeof(*c));
    cr_assert_eq(spvcond_context_create(NULL, collect, c, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, n);
    spvcond_result r = spvcond_validate(m, violations);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(w);
    return r;
}

Test(validate, clean_modules)
{
    const char *names[] = {"fnvar_link", "eval_conditions", "kernels_fp64", "fnvar_registry"};
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        struct collected c;
        size_t v = 99;
        cr_assert_eq(validate_file(fixture(names[k]), &c, &v), SPVCOND_OK, "%s: %s", names[k], c.text);
        cr_assert_eq(v, 0);
    }
}

Test(validate, every_rule)
{
    struct collected c;
    size_t v;
    cr_assert_neq(validate_file(fixture("validate_bad"), &c, &v), SPVCOND_OK);
    cr_assert_eq(v, 8, "%s", c.text);
    cr_assert_eq(c.errors, 8);
    const char *want[] = {
        "condition %6 is not a boolean scalar specialization constant",
        "%11 carries more than one ConditionalINTEL",
        "ConditionalINTEL may not decorate OpLabel %12",
        "compares with opcode 999",
        "OpConditionalCapabilityINTEL before the OpCapability that declares SpecConditionalINTEL",
        "OpSpecConstantArchitectureINTEL %7 needs OpCapability FunctionVariantsINTEL, which the module does not declare",
        "OpCapability of SPV_INTEL_function_variants without OpExtension \"SPV_INTEL_function_variants\"",
        "operand 1 of OpCapability: Capability SpecConditionalINTEL requires one of these extensions: "
        "SPV_INTEL_function_variants",
    };
    for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
        cr_assert(strstr(c.text, want[k]) != NULL, "missing '%s' in:\n%s", want[k], c.text);
}

/* Without any OpCapability SpecConditionalINTEL, a conditional capability is not "before" one: the
 * message says what is missing, at the first instruction that uses the extension. */
Test(validate, missing_declarations_are_named_where_used)
{
    size_t n;
    uint32_t *w = read_words(fixture("validate_bad"), &n);
    for (size_t i = SPVCOND_HEADER_WORDS; i + 1 < n; i += w[i] >> 16)
        if (w[i] == (2u << 16 | 17) && w[i + 1] == 6245)
            w[i + 1] = 6; /* OpCapability Kernel again */
    spvcond_context *ctx;
    struct collected c;
    memset(&c, 0, sizeof(c));
    cr_assert_eq(spvcond_context_create(NULL, collect, &c, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, n);
    cr_assert_neq(spvcond_validate(m, NULL), SPVCOND_OK);
    cr_assert(strstr(c.text, "before the OpCapability") == NULL, "%s", c.text);
    cr_assert(strstr(c.text, "OpConditionalCapabilityINTEL uses SPV_INTEL_function_variants, but the module declares "
                             "neither OpCapability SpecConditionalINTEL nor FunctionVariantsINTEL") != NULL, "%s", c.text);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(w);
}

Test(validate, dangling_references_are_proved_possible)
{
    struct collected c;
    size_t v;
    cr_assert_eq(validate_file(fixture("fnvar_defect_b"), &c, &v), SPVCOND_ERROR_INVALID_ID);
    cr_assert_eq(v, 2, "%s", c.text);
    cr_assert(strstr(c.text, "OpFunctionCall uses %6 under condition %21, which does not imply %6's condition %22") != NULL,
              "%s", c.text);
    cr_assert_eq(validate_file(fixture("fnvar_defect_c"), &c, &v), SPVCOND_ERROR_INVALID_ID);
    cr_assert_eq(v, 1);
    cr_assert(strstr(c.text, "OpIAdd uses %32 under condition always") != NULL, "%s", c.text);
}

Test(validate, annotated_output_is_clean)
{
    const char *paths[] = {"/usr/lib/clc/spirv64-mesa3d-.spv", NULL};
    paths[1] = fixture("annotate_graph");
    for (size_t k = 0; k < 2; k++) {
        spvcond_context *ctx;
        spvcond_module *m = load_module(paths[k], &ctx);
        spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
        cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK);
        uint32_t *w;
        size_t n;
        cr_assert_eq(spvcond_module_emit(m, &w, &n), SPVCOND_OK);
        spvcond_module *a = parse_or_die(ctx, w, n);
        size_t v = 99;
        cr_assert_eq(spvcond_validate(a, &v), SPVCOND_OK, "%s: %s", paths[k],
                     spvcond_context_first_error(ctx) ? spvcond_context_first_error(ctx)->message : "");
        cr_assert_eq(v, 0);
        spvcond_module_destroy(a);
        spvcond_free(ctx, w);
        destroy_module(m, ctx);
    }
}

/* An Or in the user's guard is proved case by case, with too many leaves to enumerate: f's guard
 * s1 | s3 implies %g's (s1 | s2) | s3; bad's s1 | s4 does not (s4 alone keeps bad and removes %g). */
Test(validate, or_in_the_user_guard_is_proved_by_cases)
{
    struct collected c;
    size_t v = 0;
    cr_assert_eq(validate_file(fixture("or_cases"), &c, &v), SPVCOND_ERROR_INVALID_ID);
    cr_assert_eq(v, 1, "only bad's load: %s", c.text);
    cr_assert(strstr(c.text, "OpLoad uses") != NULL, "%s", c.text);
}

/* The extension's copies are the one instruction of its own that stands in functions: the scan for the
 * extension's instructions reads code only when the reader counted one, and must then check it. Here
 * fnvar_link's copy takes the plain integer %6 as a condition. */
Test(validate, conditional_copy_in_a_function_is_checked)
{
    size_t n;
    uint32_t *w = read_words(fixture("fnvar_link"), &n);
    size_t p = 5;
    while (p < n && (w[p] & 0xffffu) != SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL)
        p += w[p] >> 16;
    cr_assert(p < n && w[p + 3] == 22, "fnvar_link's copy starts with condition %%22");
    w[p + 3] = 6;
    struct collected c;
    memset(&c, 0, sizeof(c));
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, collect, &c, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, n);
    size_t v = 0;
    cr_assert_neq(spvcond_validate(m, &v), SPVCOND_OK);
    cr_assert(strstr(c.text, "condition %6 is not a boolean scalar specialization constant") != NULL, "%s", c.text);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(w);
}

/* Guarded code (spec/guards.md): a guarded call whose result is used needs its merge. Annotated, the
 * guard_markers fixture validates clean; with a merge turned into a plain OpCopyObject of the call's
 * result, some specialization removes the call and keeps the copy, and validate proves it. */
Test(validate, guarded_call_without_its_merge_dangles)
{
    size_t n, count;
    uint32_t *plain = read_words(fixture("guard_markers"), &n);
    uint32_t *w = annotated_words(plain, n, &count);
    struct collected c;
    memset(&c, 0, sizeof(c));
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, collect, &c, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, count);
    size_t v = 99;
    cr_assert_eq(spvcond_validate(m, &v), SPVCOND_OK, "%s", c.text);
    cr_assert_eq(v, 0);
    cr_assert_eq(count_opcode(m, SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL), 3, "one merge per guarded call");
    spvcond_module_destroy(m);
    size_t p = 5;
    while (p < count && (w[p] & 0xffffu) != SPVCOND_OP_CONDITIONAL_COPY_OBJECT_INTEL)
        p += w[p] >> 16;
    cr_assert(p < count && w[p] >> 16 == 7);
    uint32_t type = w[p + 1], result = w[p + 2], call = w[p + 4];
    const uint32_t copy[7] = {spvcond_first_word(4, SPVCOND_OP_COPY_OBJECT), type, result, call,
                              spvcond_first_word(1, SPVCOND_OP_NOP), spvcond_first_word(1, SPVCOND_OP_NOP),
                              spvcond_first_word(1, SPVCOND_OP_NOP)};
    memcpy(w + p, copy, sizeof(copy));
    m = parse_or_die(ctx, w, count);
    cr_assert_neq(spvcond_validate(m, &v), SPVCOND_OK);
    char want[64];
    snprintf(want, sizeof(want), "OpCopyObject uses %%%u", call);
    cr_assert(v == 1 && strstr(c.text, want) != NULL, "%s", c.text);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(plain);
    free(w);
}

/* fnvar_registry's words with OpDeviceRegistryVersion (0x00021874 0) changed by `how`: 'd' a second one
 * after it, 'g' moved among the globals (OpNops where it was), 'c' FunctionVariantsINTEL declared as
 * SpecConditionalINTEL. */
static uint32_t *
registry_variant(char how, size_t *n)
{
    size_t count;
    uint32_t *in = read_words(fixture("fnvar_registry"), &count);
    uint32_t *w = malloc((count + 2) * sizeof(uint32_t));
    cr_assert_not_null(w);
    size_t o = 0;
    for (size_t i = 0; i < count;) {
        size_t wc = i < SPVCOND_HEADER_WORDS ? 1 : in[i] >> 16;
        cr_assert(wc > 0 && i + wc <= count);
        if (i >= SPVCOND_HEADER_WORDS && in[i] == 0x00021874u && how == 'g') {
            w[o++] = 0x00010000u; /* OpNop */
            w[o++] = 0x00010000u;
        } else if (i >= SPVCOND_HEADER_WORDS && in[i] == 0x00020013u && how == 'g') { /* before OpTypeVoid */
            w[o++] = 0x00021874u;
            w[o++] = 0;
            memcpy(w + o, in + i, wc * sizeof(uint32_t));
            o += wc;
        } else {
            memcpy(w + o, in + i, wc * sizeof(uint32_t));
            o += wc;
            if (i >= SPVCOND_HEADER_WORDS && in[i] == 0x00021874u && how == 'd') {
                w[o++] = 0x00021874u;
                w[o++] = 1;
            }
            if (i >= SPVCOND_HEADER_WORDS && in[i] == 0x00020011u && in[i + 1] == 6246 && how == 'c')
                w[o - 1] = 6245;
        }
        i += wc;
    }
    free(in);
    *n = o;
    return w;
}

/* OpDeviceRegistryVersion (revision 0.13): read and given by the API; at most one, beside
 * OpModuleProcessed, with FunctionVariantsINTEL declared. */
Test(validate, device_registry_version_rules)
{
    struct collected c;
    size_t v = 99;
    cr_assert_eq(validate_file(fixture("fnvar_registry"), &c, &v), SPVCOND_OK, "%s", c.text);
    const struct {
        char how;
        const char *message;
    } cases[] = {
        {'d', "a second OpDeviceRegistryVersion (the first is instruction 10); a module states one"},
        {'g', "OpDeviceRegistryVersion belongs beside OpModuleProcessed (layout section 7c), before the annotations"},
        {'c', "OpDeviceRegistryVersion needs OpCapability FunctionVariantsINTEL, which the module does not declare"},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        size_t n;
        uint32_t *w = registry_variant(cases[k].how, &n);
        spvcond_context *ctx;
        memset(&c, 0, sizeof(c));
        cr_assert_eq(spvcond_context_create(NULL, collect, &c, &ctx), SPVCOND_OK);
        spvcond_module *m = parse_or_die(ctx, w, n);
        uint32_t version = 99;
        cr_assert_eq(spvcond_module_registry_version(m, &version), SPVCOND_OK);
        cr_assert_eq(version, 0);
        cr_assert_neq(spvcond_validate(m, NULL), SPVCOND_OK, "case %c", cases[k].how);
        cr_assert(strstr(c.text, cases[k].message) != NULL, "case %c: %s", cases[k].how, c.text);
        spvcond_module_destroy(m);
        spvcond_context_destroy(ctx);
        free(w);
    }
}

/* Over every device (spec/validate.md): conditional_capability's copy has two independent conditions, so
 * some device gets both true; duplicate_entry_points' two "foo" both survive on some device. Each is named
 * with the device. */
Test(validate, what_no_device_may_get)
{
    const struct {
        const char *fixture, *message;
    } cases[] = {
        {"conditional_capability", "a device with SpecId 1 true, SpecId 2 true gets 2 true conditions of "
                                   "OpConditionalCopyObjectINTEL %17 in kernel; exactly one must be true"},
        {"duplicate_entry_points", "a device with SpecId 1 true, SpecId 2 true keeps this entry point and "
                                   "instruction 6's, both \"foo\""},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct collected c;
        size_t v;
        cr_assert_eq(validate_file(fixture(cases[k].fixture), &c, &v), SPVCOND_ERROR_INVALID_ID, "%s", c.text);
        cr_assert_eq(v, 1, "%s: %s", cases[k].fixture, c.text);
        cr_assert(strstr(c.text, cases[k].message) != NULL, "%s: %s", cases[k].fixture, c.text);
    }
}

/* Of three entry points "foo" (duplicate_entry_points with its second, %2 Kernel %11, twice), the two a
 * device keeps are the ones named, not the group's first: SpecId 1 false, SpecId 2 true keeps the second
 * and the third. */
Test(validate, the_two_entry_points_that_survive_are_named)
{
    size_t n;
    uint32_t *in = read_words(fixture("duplicate_entry_points"), &n);
    uint32_t *w = malloc((n + 5) * sizeof(uint32_t));
    cr_assert_not_null(w);
    size_t o = 0, second = 0;
    for (size_t i = 0; i < n;) {
        size_t wc = i < SPVCOND_HEADER_WORDS ? 1 : in[i] >> 16;
        memcpy(w + o, in + i, wc * sizeof(uint32_t));
        o += wc;
        if (i >= SPVCOND_HEADER_WORDS && in[i] == 0x00051869u && ++second == 2) {
            memcpy(w + o, in + i, 5 * sizeof(uint32_t)); /* %2 Kernel %11 "foo" again */
            o += 5;
        }
        i += wc;
    }
    spvcond_context *ctx;
    struct collected c;
    memset(&c, 0, sizeof(c));
    cr_assert_eq(spvcond_context_create(NULL, collect, &c, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, o);
    cr_assert_neq(spvcond_validate(m, NULL), SPVCOND_OK);
    cr_assert(strstr(c.text, "a device with SpecId 1 false, SpecId 2 true keeps this entry point and instruction 7's") !=
                  NULL, "%s", c.text);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(w);
    free(in);
}

/* Coverage (spvcond_variant_coverage): per group of variants, how many of the devices the constants tell
 * apart keep each one and how many keep none; the counts add up to the devices. */
struct coverage_seen {
    size_t groups;
    uint64_t total, kept[4], uncovered;
    size_t variants;
    bool entry_point, examples;
};

static void
note_coverage(void *user, const spvcond_coverage *c)
{
    struct coverage_seen *s = user;
    s->groups++;
    s->total = c->total;
    s->variants = c->variant_count;
    s->entry_point = c->entry_point;
    s->uncovered = c->uncovered;
    s->examples = c->uncovered_example != NULL;
    for (size_t k = 0; k < c->variant_count && k < 4; k++) {
        s->kept[k] = c->devices[k];
        s->examples &= c->examples[k] != NULL && strstr(c->examples[k], "a device with") != NULL;
    }
}

Test(validate, coverage_counts_every_device)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("dot_two_widths"), &ctx);
    struct coverage_seen s = {0};
    cr_assert_eq(spvcond_variant_coverage(m, note_coverage, &s), SPVCOND_OK);
    cr_assert_eq(s.groups, 1);
    cr_assert(s.entry_point);
    cr_assert_eq(s.variants, 2);
    cr_assert_eq(s.total, 2304);
    cr_assert_eq(s.kept[0] + s.kept[1] + s.uncovered, s.total, "each device keeps one variant or none");
    cr_assert(s.kept[0] && s.kept[1] && s.uncovered && s.examples);
    cr_assert_eq(spvcond_context_warning_count(ctx), 0, "coverage reports nothing");
    destroy_module(m, ctx);

    m = load_module(fixture("three_ops"), &ctx);
    struct coverage_seen t = {0};
    cr_assert_eq(spvcond_variant_coverage(m, note_coverage, &t), SPVCOND_OK);
    cr_assert_eq(t.groups, 1);
    cr_assert(!t.entry_point);
    cr_assert_eq(t.variants, 3);
    cr_assert_eq(t.kept[0] + t.kept[1] + t.kept[2] + t.uncovered, t.total);
    destroy_module(m, ctx);
    cr_assert_eq(spvcond_variant_coverage(NULL, note_coverage, &t), SPVCOND_ERROR_INVALID_ARGUMENT);
}
