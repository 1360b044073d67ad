/* SPDX-License-Identifier: MIT */
/* The consumer on hand-written modules with known answers (extension.md 2 and 4.3-4.4). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

struct result {
    spvcond_result code;
    spvcond_context *ctx;
    spvcond_module *out;   /* the specialized module, parsed back; NULL on failure */
    uint32_t *words;
    size_t count;
    spvcond_specialize_stats stats;
    char message[SPVCOND_DIAG_MESSAGE_SIZE];
};

static struct result
specialize(const char *name, spvcond_spec_value *values, size_t n, const spvcond_fnvar_device *device,
           uint32_t flags)
{
    struct result res;
    memset(&res, 0, sizeof(res));
    spvcond_module *m = load_module(fixture(name), &res.ctx);
    spvcond_specialize_options o = {sizeof(spvcond_specialize_options), values, n, device, flags};
    res.stats.size = sizeof(res.stats);
    res.code = spvcond_specialize(m, &o, &res.stats);
    if (res.code == SPVCOND_OK) {
        cr_assert_eq(spvcond_module_emit(m, &res.words, &res.count), SPVCOND_OK);
        res.out = parse_or_die(res.ctx, res.words, res.count);
        char *val;
        int rc = spirv_val(res.words, res.count, "spv1.2", &val);
        cr_assert_eq(rc, 0, "%s: spirv-val rejects the specialized module: %s", name, val);
        free(val);
    } else {
        const spvcond_diag *d = spvcond_context_first_error(res.ctx);
        cr_assert_not_null(d, "a failure must come with a diagnostic");
        memcpy(res.message, d->message, sizeof(res.message));
        /* Nothing usable is recorded: the module still emits as it was read. */
        size_t n_in;
        uint32_t *in = read_words(fixture(name), &n_in);
        uint32_t *w;
        size_t c;
        cr_assert_eq(spvcond_module_emit(m, &w, &c), SPVCOND_OK);
        cr_assert(c == n_in && memcmp(w, in, c * 4) == 0, "a failed specialization left edits behind");
        spvcond_free(res.ctx, w);
        free(in);
    }
    spvcond_module_destroy(m);
    return res;
}

static void
done(struct result *r)
{
    spvcond_module_destroy(r->out);
    spvcond_free(r->ctx, r->words);
    spvcond_context_destroy(r->ctx);
}

/* No instruction of the extension is left. */
static void
assert_plain(const spvcond_module *m)
{
    for (size_t i = 0; i < m->inst_count; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = w[0] & 0xffff;
        cr_assert(op < 6248 || op > 6254, "instruction %zu is %u", i, op);
        cr_assert(!(op == 17 && (w[1] == 6245 || w[1] == 6246)), "extension capability left");
        cr_assert(!((op == 71 || op == 332) && w[2] == 6247), "ConditionalINTEL left");
        cr_assert(!(op == 10 && strcmp((const char *)(w + 1), "SPV_INTEL_function_variants") == 0));
    }
}

static bool
has_capability(const spvcond_module *m, uint32_t cap)
{
    for (size_t i = 0; i < m->inst_count; i++)
        if (spvcond_inst_opcode(m, i) == 17 && spvcond_inst_words(m, i)[1] == cap)
            return true;
    return false;
}

static bool
has_extension(const spvcond_module *m, const char *name)
{
    for (size_t i = 0; i < m->inst_count; i++)
        if (spvcond_inst_opcode(m, i) == 10 && strcmp(spvcond_inst_string(m, i, 1), name) == 0)
            return true;
    return false;
}

Test(specialize, conditional_instructions_a_true_b_false)
{
    spvcond_spec_value v[2] = {{1, 1, false}, {2, 0, false}};
    struct result r = specialize("conditional_capability", v, 2, NULL, 0);
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert(v[0].found && v[1].found);
    assert_plain(r.out);
    cr_assert_neq(function_named(r.out, "helper"), 0, "helper (condition A) stays");
    cr_assert_eq(function_named(r.out, "kernel"), 0, "kernel (A and B) goes");
    cr_assert_eq(r.out->entry_point_count, 0, "its conditional entry point goes");
    cr_assert_eq(count_opcode(r.out, 16), 0, "and its execution mode");
    cr_assert(has_capability(r.out, 39), "Int8 is declared unconditionally too: a true conditional keeps one");
    cr_assert_eq(count_opcode(r.out, 17), 4, "Addresses Kernel Linkage Int8, no duplicate");
    cr_assert(has_extension(r.out, "SPV_KHR_no_integer_wrap_decoration"), "a true conditional extension stays");
    cr_assert_eq(r.stats.functions_kept, 1);
    cr_assert_eq(r.stats.functions_removed, 1);
    cr_assert_eq(count_opcode(r.out, 52) + count_opcode(r.out, 48) + count_opcode(r.out, 49), 0,
                 "the condition trees are frozen and dropped");
    done(&r);
}

Test(specialize, conditional_instructions_a_false)
{
    spvcond_spec_value v[1] = {{1, 0, false}};
    struct result r = specialize("conditional_capability", v, 1, NULL, 0);
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    assert_plain(r.out);
    cr_assert_eq(r.out->function_count, 0);
    cr_assert(has_capability(r.out, 39), "a false conditional never removes a plain declaration (translator bug)");
    cr_assert(!has_extension(r.out, "SPV_KHR_no_integer_wrap_decoration"), "a false conditional extension goes");
    cr_assert_eq(count_opcode(r.out, 5), 0, "names of removed functions and of dropped conditions go");
    done(&r);
}

Test(specialize, copy_object_with_two_true_conditions_is_an_error)
{
    spvcond_spec_value v[2] = {{1, 1, false}, {2, 1, false}};
    struct result r = specialize("conditional_capability", v, 2, NULL, 0);
    cr_assert_eq(r.code, SPVCOND_ERROR_UNSUPPORTED);
    cr_assert(strstr(r.message, "has 2 true conditions; exactly one must be true") != NULL, "%s", r.message);
    done(&r);
}

Test(specialize, linker_output_selects_the_variant)
{
    spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 4};
    struct result r = specialize("fnvar_link", NULL, 0, &d, 0);
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    assert_plain(r.out);
    cr_assert_eq(r.out->function_count, 2, "the variant foo and k");
    cr_assert_eq(count_opcode(r.out, 83), 1, "the merge became OpCopyObject");
    cr_assert_eq(count_opcode(r.out, 132) >= 1, 1, "the variant multiplies");
    cr_assert(has_capability(r.out, 39), "the variant's Int8 is declared");
    cr_assert_eq(count_opcode(r.out, SPVCOND_OP_MODULE_PROCESSED), 0,
                 "the linker's registry version goes with the extension (SPIR-V 1.0 has no OpModuleProcessed)");
    done(&r);
}

Test(specialize, linker_output_selects_the_base)
{
    spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 8, .unspecified = SPVCOND_UNSPECIFIED_UNKNOWN};
    struct result r = specialize("fnvar_link", NULL, 0, &d, 0);
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert_eq(r.out->function_count, 2);
    cr_assert(!has_capability(r.out, 39), "the variant's Int8 goes with it");
    for (size_t i = 0; i < r.out->inst_count; i++) {
        const uint32_t *w = spvcond_inst_words(r.out, i);
        cr_assert(!((w[0] & 0xffff) == 21 && w[2] == 8), "no 8-bit integer type is left");
    }
    /* No device at all: refused by default, naming the fact; under UNKNOWN nothing matches, so the base. */
    struct result none = specialize("fnvar_link", NULL, 0, NULL, 0);
    cr_assert_eq(none.code, SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(none.message, "needs the device's target") != NULL, "%s", none.message);
    done(&none);
    spvcond_fnvar_device unknown = {.size = sizeof(spvcond_fnvar_device), .unspecified = SPVCOND_UNSPECIFIED_UNKNOWN};
    struct result base = specialize("fnvar_link", NULL, 0, &unknown, 0);
    cr_assert_eq(base.code, SPVCOND_OK, "%s", base.message);
    cr_assert(!has_capability(base.out, 39));
    done(&base);
    done(&r);
}

static bool kept(const struct result *r, const char *name);

/* The default: a fact a constant needs and nobody gave is refused, naming the constant and the fact; a part
 * of the architecture without the rest is a malformed device. */
Test(specialize, a_fact_not_given_is_refused)
{
    static const uint32_t features[2] = {11, 10};
    spvcond_fnvar_device target_only = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 4, .features = features, .feature_count = 2};
    struct result r = specialize("fnvar_device", NULL, 0, &target_only, 0);
    cr_assert_eq(r.code, SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(r.message, "(architecture ULessThanEqual cpu/intel/gdc) needs the device's architecture") != NULL, "%s",
              r.message);
    done(&r);
    spvcond_fnvar_device no_features = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 4, .has_architecture = true, .category = 2,
                                        .family = 1, .architecture = 1, .has_capabilities = true};
    r = specialize("fnvar_device", NULL, 0, &no_features, 0);
    cr_assert(strstr(r.message, "(target x86_64 features avx/avx2) needs the device's features") != NULL, "%s",
              r.message);
    done(&r);
    /* An architecture known in part: refused where the constant needs the rest (cpu/intel here), false
     * where its category or family already differs. */
    spvcond_fnvar_device part = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 4, .features = features, .feature_count = 2,
                                 .has_family = true, .category = 1, .family = 1, .has_capabilities = true};
    r = specialize("fnvar_device", NULL, 0, &part, 0);
    cr_assert_eq(r.code, SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(r.message, "(architecture ULessThanEqual cpu/intel/gdc) needs the device's architecture") != NULL, "%s",
              r.message);
    done(&r);
    part.category = 2;
    r = specialize("fnvar_device", NULL, 0, &part, 0);
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert(!kept(&r, "by_arch"));
    done(&r);
    spvcond_fnvar_device bad = {.size = sizeof(spvcond_fnvar_device), .unspecified = (spvcond_unspecified)7};
    r = specialize("fnvar_device", NULL, 0, &bad, 0);
    cr_assert_eq(r.code, SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(r.message, "none of ERROR, UNKNOWN and ANY") != NULL, "%s", r.message);
    done(&r);
}

Test(specialize, defect_b_is_reported_not_emitted)
{
    spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 4};
    struct result r = specialize("fnvar_defect_b", NULL, 0, &d, 0);
    cr_assert_eq(r.code, SPVCOND_ERROR_INVALID_ID);
    cr_assert(strstr(r.message, "would refer to %6 after specialization") != NULL, "%s", r.message);
    cr_assert(strstr(r.message, "ConditionalINTEL %22, which is false") != NULL, "%s", r.message);
    done(&r);
    d.target = 8; /* the base: consistent */
    struct result ok = specialize("fnvar_defect_b", NULL, 0, &d, 0);
    cr_assert_eq(ok.code, SPVCOND_OK, "%s", ok.message);
    done(&ok);
}

Test(specialize, defect_c_is_reported_not_emitted)
{
    spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 4};
    struct result r = specialize("fnvar_defect_c", NULL, 0, &d, 0);
    cr_assert_eq(r.code, SPVCOND_ERROR_INVALID_ID);
    cr_assert(strstr(r.message, "OpIAdd would refer to %32") != NULL, "%s", r.message);
    done(&r);
}

/* A removed function's ids take its reason (a function goes as one deleted range, its ids unmarked):
 * fnvar_link with the base call %32 unguarded refers to the removed base %10. */
Test(specialize, a_use_of_a_removed_function_names_its_condition)
{
    size_t n;
    uint32_t *w = read_words(fixture("fnvar_link"), &n);
    size_t p = 5;
    while (p < n && !((w[p] & 0xffffu) == 71 && w[p + 1] == 32 && w[p + 2] == SPVCOND_DECORATION_CONDITIONAL_INTEL))
        p += w[p] >> 16;
    cr_assert(p < n, "fnvar_link guards the call %%32");
    w[p + 2] = 44; /* Alignment 22 instead of ConditionalINTEL %22 */
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, n);
    spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 4}; /* the variant: %22 is false */
    spvcond_specialize_options o = {sizeof(spvcond_specialize_options), NULL, 0, &d, 0};
    cr_assert_eq(spvcond_specialize(m, &o, NULL), SPVCOND_ERROR_INVALID_ID);
    const char *msg = spvcond_context_first_error(ctx)->message;
    cr_assert(strstr(msg, "OpFunctionCall would refer to %10 after specialization, but it carries ConditionalINTEL "
                          "%22, which is false") != NULL, "%s", msg);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(w);
}

/* The OpExtInst instructions of r's output naming %17 (removed_local_between_functions). */
static size_t
ext_insts_naming_17(const struct result *r)
{
    const spvcond_module *m = r->out;
    size_t n = 0;
    for (size_t i = m->section[SPVCOND_SECTION_FUNCTION]; i < m->inst_count; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        n += spvcond_opcode_of(w[0]) == SPVCOND_OP_EXT_INST && w[spvcond_word_count_of(w[0]) - 1] == 17;
    }
    return n;
}

/* Debug information between functions may name a function's local: when that function goes whole (its
 * ids found by their deleted definitions, not marked one by one), the instruction goes with it. */
Test(specialize, debug_information_naming_a_removed_local_goes)
{
    spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 8};
    struct result r = specialize("removed_local_between_functions", NULL, 0, &d, 0); /* the base: %14 goes */
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert(spvcond_function_by_id(r.out, 14) == NULL, "the variant %%14 is removed");
    cr_assert_eq(ext_insts_naming_17(&r), 0);
    done(&r);
    d.target = 4; /* the variant: %14 stays, and so does the instruction naming its local */
    r = specialize("removed_local_between_functions", NULL, 0, &d, 0);
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert(spvcond_function_by_id(r.out, 14) != NULL, "the variant %%14 is kept");
    cr_assert_eq(ext_insts_naming_17(&r), 1);
    done(&r);
}

/* The OpTypeBool annotate's record says it added goes only when nothing is left using it: here a plain
 * constant of that type, which a later edit made the kernel use, keeps it (the check of what survives
 * counts the type's uses for that, as it counts few ids). spirv-val judges each output (specialize()). */
Test(specialize, annotates_bool_stays_while_used)
{
    for (uint32_t fp64 = 0; fp64 < 2; fp64++) {
        spvcond_spec_value v[] = {{.spec_id = 65536, .value = fp64}};
        struct result r = specialize("annotate_bool_used", v, 1, NULL, 0);
        cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
        cr_assert_eq(r.stats.functions_removed, fp64 ? 0u : 1u);
        size_t d = spvcond_def(r.out, 14);
        cr_assert(d != SIZE_MAX && spvcond_inst_opcode(r.out, d) == SPVCOND_OP_TYPE_BOOL, "%%14 stays an OpTypeBool");
        done(&r);
    }
}

/* An OpDecorateId's operand is a use (its target is none): a constant a producer guarded although a
 * decoration names it cannot go while the decoration stays. The count of uses passes over decorations
 * that name nothing past their target; this one it must read. */
Test(specialize, a_decoration_operand_removed_is_refused)
{
    spvcond_spec_value off[] = {{.spec_id = 65536, .value = 0}}, on[] = {{.spec_id = 65536, .value = 1}};
    struct result r = specialize("decorate_id_removed", off, 1, NULL, 0);
    cr_assert_eq(r.code, SPVCOND_ERROR_INVALID_ID, "%s", r.message);
    cr_assert(strstr(r.message, "OpDecorateId would refer to %") != NULL, "%s", r.message);
    done(&r);
    struct result ok = specialize("decorate_id_removed", on, 1, NULL, 0);
    cr_assert_eq(ok.code, SPVCOND_OK, "%s", ok.message);
    cr_assert_neq(id_named(ok.out, "eight"), 0, "the constant stays with its condition true");
    done(&ok);
}

static bool
kept(const struct result *r, const char *name)
{
    return function_named(r->out, name) != 0;
}

struct expect {
    uint64_t n, b, d;
    const char *kept; /* letters: e eq, l lt, s slt, v div, h shift, c select, d by_d */
};

Test(specialize, integer_conditions)
{
    static const struct expect cases[] = {
        {16, 1, 1, "elsvhcd"},
        {8, 1, 1, "lsd"},
        {64, 0, 1, "sd"},
        {0, 1, 1, "ld"}, /* 0 - 0 is not negative */
        {16, 1, 16, "elsvhc"},
    };
    static const char *const names[] = {"f_eq", "f_lt", "f_slt", "f_div", "f_shift", "f_select", "f_by_d"};
    static const char letters[] = "elsvhcd";
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        spvcond_spec_value v[3] = {{7, cases[k].n, false}, {8, cases[k].b, false}, {9, cases[k].d, false}};
        struct result r = specialize("eval_conditions", v, 3, NULL, 0);
        cr_assert_eq(r.code, SPVCOND_OK, "case %zu: %s", k, r.message);
        for (size_t f = 0; f < 7; f++) {
            bool want = strchr(cases[k].kept, letters[f]) != NULL;
            cr_assert_eq(kept(&r, names[f]), want, "case %zu (n=%llu b=%llu d=%llu): %s should %s", k,
                         (unsigned long long)cases[k].n, (unsigned long long)cases[k].b,
                         (unsigned long long)cases[k].d, names[f], want ? "stay" : "go");
        }
        /* The application's spec constant is not part of a condition: it stays specializable. */
        cr_assert_eq(count_opcode(r.out, 50), 1);
        uint32_t sid;
        cr_assert(spvcond_spec_id_of(r.out, r.out->spec_ids[0].id, &sid) && sid == 50 && r.out->spec_id_count == 1);
        done(&r);
    }
}

Test(specialize, undefined_operation_is_an_error)
{
    spvcond_spec_value v[1] = {{9, 0, false}};
    struct result r = specialize("eval_conditions", v, 1, NULL, 0);
    cr_assert_eq(r.code, SPVCOND_ERROR_UNSUPPORTED);
    cr_assert(strstr(r.message, "division by zero") != NULL, "%s", r.message);
    done(&r);
}

Test(specialize, freeze_all)
{
    spvcond_spec_value v[1] = {{50, 77, false}};
    struct result r = specialize("eval_conditions", v, 1, NULL, SPVCOND_SPECIALIZE_FREEZE_ALL);
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert_eq(count_opcode(r.out, 50), 0);
    cr_assert_eq(r.out->spec_id_count, 0);
    uint32_t app = 0;
    for (size_t i = 0; i < r.out->inst_count; i++)
        if (spvcond_inst_opcode(r.out, i) == 254 /* OpReturnValue */)
            app = spvcond_inst_words(r.out, i)[1];
    const uint32_t *c = spvcond_inst_words(r.out, spvcond_def(r.out, app));
    cr_assert_eq(c[0] & 0xffff, 43, "the app constant is an OpConstant now");
    cr_assert_eq(c[3], 77);
    done(&r);
}

Test(specialize, unknown_spec_ids)
{
    spvcond_spec_value v[2] = {{7, 16, false}, {12345, 1, false}};
    struct result r = specialize("eval_conditions", v, 2, NULL, 0);
    cr_assert_eq(r.code, SPVCOND_OK);
    cr_assert(v[0].found && !v[1].found);
    cr_assert_eq(spvcond_context_warning_count(r.ctx), 1);
    done(&r);
    struct result strict = specialize("eval_conditions", v, 2, NULL, SPVCOND_SPECIALIZE_STRICT);
    cr_assert_eq(strict.code, SPVCOND_ERROR_NOT_FOUND);
    cr_assert(strstr(strict.message, "SpecId 12345") != NULL, "%s", strict.message);
    done(&strict);
}

Test(specialize, refuses_bad_arguments_and_second_runs)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("eval_conditions"), &ctx);
    spvcond_specialize_options o = {sizeof(spvcond_specialize_options), NULL, 0, NULL, 0x100};
    cr_assert_eq(spvcond_specialize(m, &o, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    o.flags = 0;
    cr_assert_eq(spvcond_specialize(m, &o, NULL), SPVCOND_OK);
    cr_assert_eq(spvcond_specialize(m, &o, NULL), SPVCOND_ERROR_INVALID_ARGUMENT, "edits are relative to the input");
    cr_assert_eq(spvcond_specialize(NULL, &o, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    destroy_module(m, ctx);
}

Test(specialize, trims_a_capability_named_only_by_a_storage_class)
{
    /* GenericPointer's only user is OpTypePointer Generic: kept with it, trimmed without it. */
    spvcond_spec_value on[1] = {{1, 1, false}};
    struct result used = specialize("trim_storage_class", on, 1, NULL, 0);
    cr_assert_eq(used.code, SPVCOND_OK, "%s", used.message);
    cr_assert(has_capability(used.out, 38), "GenericPointer is still used by the kept pointer type");
    done(&used);
    spvcond_spec_value off[1] = {{1, 0, false}};
    struct result r = specialize("trim_storage_class", off, 1, NULL, 0);
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert(!has_capability(r.out, 38), "GenericPointer had its only user in the stripped type");
    cr_assert_eq(r.stats.capabilities_removed, 1);
    done(&r);
}

Test(specialize, trims_capabilities_whose_users_were_stripped)
{
    spvcond_spec_value off[1] = {{1, 0, false}};
    struct result r = specialize("trim", off, 1, NULL, 0);
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert(!has_capability(r.out, 10), "Float64 had users only in the stripped function");
    cr_assert(has_capability(r.out, 6) && has_capability(r.out, 4) && has_capability(r.out, 5),
              "Kernel, Addresses and Linkage still have users");
    cr_assert_eq(r.stats.capabilities_removed, 1);
    done(&r);
    struct result kept = specialize("trim", off, 1, NULL, SPVCOND_SPECIALIZE_NO_TRIM);
    cr_assert(has_capability(kept.out, 10), "--no-trim keeps it");
    done(&kept);
    spvcond_spec_value on[1] = {{1, 1, false}};
    struct result used = specialize("trim", on, 1, NULL, 0);
    cr_assert(has_capability(used.out, 10), "still used");
    done(&used);
}

Test(specialize, function_variants_device_constants)
{
    static const uint32_t features[2] = {11, 10}, caps[3] = {11, 10, 39};
    struct {
        spvcond_fnvar_device d;
        const char *kept; /* t target, a arch, c caps */
    } cases[] = {
#define UNKNOWN .size = sizeof(spvcond_fnvar_device), .unspecified = SPVCOND_UNSPECIFIED_UNKNOWN
#define ANY .size = sizeof(spvcond_fnvar_device), .unspecified = SPVCOND_UNSPECIFIED_ANY
        {{.has_target = true, .target = 4, .features = features, .feature_count = 2, UNKNOWN}, "t"},
        {{.has_target = true, .target = 4, .features = features, .feature_count = 1, UNKNOWN}, ""}, /* 10 missing */
        {{.has_target = true, .target = 8, .features = features, .feature_count = 2, UNKNOWN}, ""},
        {{.has_architecture = true, .category = 1, .family = 1, .architecture = 12, UNKNOWN}, "a"},
        {{.has_architecture = true, .category = 1, .family = 1, .architecture = 13, UNKNOWN}, ""},
        {{.has_architecture = true, .category = 2, .family = 1, .architecture = 3, UNKNOWN}, ""}, /* translator's bug */
        {{.has_capabilities = true, .capabilities = caps, .capability_count = 3, UNKNOWN}, "c"},
        {{.has_capabilities = true, .capabilities = caps, .capability_count = 1, UNKNOWN}, ""},
        {{UNKNOWN}, ""}, /* nothing known: nothing matches */
        {{ANY}, "tac"},  /* the translator's reading: an omitted fact matches anything */
        {{.has_target = true, .target = 4, ANY}, "tac"}, /* no features given: every feature */
        {{.has_target = true, .target = 4, .has_features = true, ANY}, "tac"}, /* empty: every one, as there */
        {{.has_category = true, .category = 1, ANY}, "tac"},
        {{.has_category = true, .category = 2, ANY}, "tc"},
        {{.has_family = true, .category = 1, .family = 1, UNKNOWN}, "a"}, /* ULessThanEqual: the table, true */
        {{.has_target = true, .target = 4, .features = features, .feature_count = 2, .has_architecture = true,
          .category = 1, .family = 1, .architecture = 12, .has_capabilities = true, .capabilities = caps,
          .capability_count = 3, .size = sizeof(spvcond_fnvar_device)}, "tac"}, /* everything given: the default needs nothing else */
#undef UNKNOWN
#undef ANY
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct result r = specialize("fnvar_device", NULL, 0, &cases[k].d, 0);
        cr_assert_eq(r.code, SPVCOND_OK, "case %zu: %s", k, r.message);
        assert_plain(r.out);
        cr_assert_eq(kept(&r, "by_target"), strchr(cases[k].kept, 't') != NULL, "case %zu", k);
        cr_assert_eq(kept(&r, "by_arch"), strchr(cases[k].kept, 'a') != NULL, "case %zu", k);
        cr_assert_eq(kept(&r, "by_caps"), strchr(cases[k].kept, 'c') != NULL, "case %zu", k);
        cr_assert_eq(count_opcode(r.out, 6251) + count_opcode(r.out, 6252) + count_opcode(r.out, 6253), 0);
        done(&r);
    }
}

/* Condition leaves that module-level constants also use stay, as their values, whichever way the
 * conditions go: their uses are counted through the words the reader recorded (a two-element
 * composite names c) and through a walk past word 31 (a forty-element one names e). The And nodes and
 * the leaf d, which only conditions used, go. */
Test(specialize, condition_leaves_other_constants_use_stay)
{
    for (uint32_t bits = 0; bits < 8; bits++) {
        spvcond_spec_value v[3] = {{1, bits & 1, false}, {2, (bits >> 1) & 1, false}, {3, bits >> 2, false}};
        struct result r = specialize("tree_users", v, 3, NULL, 0);
        cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
        assert_plain(r.out);
        cr_assert(id_named(r.out, "c") && id_named(r.out, "pair"), "values %u", bits);
        cr_assert(id_named(r.out, "e") && id_named(r.out, "many"), "values %u", bits);
        cr_assert(!id_named(r.out, "d") && !id_named(r.out, "cd") && !id_named(r.out, "cde"),
                  "values %u: only conditions used them", bits);
        cr_assert_eq(id_named(r.out, "f") != 0, bits == 7, "values %u", bits);
        done(&r);
    }
}

/* Revision 0.13: OpDeviceRegistryVersion goes with the rest of the extension, and a ConditionalINTEL
 * OpExtInst stays or goes with its condition. */
Test(specialize, revision_0_13)
{
    static const uint32_t both[2] = {10, 11}, one[1] = {11};
    const spvcond_fnvar_device devices[2] = {
        {.size = sizeof(spvcond_fnvar_device), .has_capabilities = true, .capabilities = both, .capability_count = 2},
        {.size = sizeof(spvcond_fnvar_device), .has_capabilities = true, .capabilities = one, .capability_count = 1},
    };
    for (size_t k = 0; k < 2; k++) {
        struct result r = specialize("fnvar_registry", NULL, 0, &devices[k], 0);
        cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
        assert_plain(r.out);
        uint32_t version;
        cr_assert_eq(spvcond_module_registry_version(r.out, &version), SPVCOND_ERROR_NOT_FOUND);
        cr_assert_eq(count_opcode(r.out, SPVCOND_OP_DEVICE_REGISTRY_VERSION), 0);
        cr_assert_eq(count_opcode(r.out, SPVCOND_OP_EXT_INST), k == 0 ? 1 : 0, "device %zu", k);
        cr_assert_eq(count_opcode(r.out, SPVCOND_OP_MODULE_PROCESSED), 1, "the module's own record stays");
        done(&r);
    }
}

/* A SPIR-V 1.0 module has no OpModuleProcessed: specialize's output never keeps one there (spirv-link and
 * other tools write them whatever the version), and keeps one from 1.1 on. */
Test(specialize, no_module_processed_before_1_1)
{
    for (int v = 0; v < 2; v++) {
        size_t n;
        uint32_t *w = read_words(fixture("fnvar_registry"), &n);
        w[1] = v ? 0x00010100u : 0x00010000u;
        spvcond_context *ctx;
        cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
        spvcond_module *m = parse_or_die(ctx, w, n);
        static const uint32_t both[2] = {10, 11};
        spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_capabilities = true, .capabilities = both, .capability_count = 2};
        spvcond_specialize_options o = {sizeof(spvcond_specialize_options), NULL, 0, &d, 0};
        cr_assert_eq(spvcond_specialize(m, &o, NULL), SPVCOND_OK);
        uint32_t *out;
        size_t count;
        cr_assert_eq(spvcond_module_emit(m, &out, &count), SPVCOND_OK);
        spvcond_module *s = parse_or_die(ctx, out, count);
        cr_assert_eq(count_opcode(s, SPVCOND_OP_MODULE_PROCESSED), (size_t)v, "version 1.%d", v);
        char *val = NULL;
        cr_assert_eq(spirv_val(out, count, v ? "spv1.1" : "spv1.0", &val), 0, "version 1.%d: %s", v, val);
        free(val);
        spvcond_module_destroy(s);
        spvcond_free(ctx, out);
        spvcond_module_destroy(m);
        spvcond_context_destroy(ctx);
        free(w);
    }
}

/* Conditional entry points may share a name and model, but at most one may survive: both true is refused,
 * naming both, and nothing is written; any other assignment keeps at most one "foo". */
Test(specialize, duplicate_entry_points_are_refused)
{
    for (unsigned bits = 0; bits < 4; bits++) {
        spvcond_spec_value v[2] = {{1, bits & 1, false}, {2, bits >> 1 & 1, false}};
        struct result r = specialize("duplicate_entry_points", v, 2, NULL, 0);
        if (bits == 3) {
            cr_assert_eq(r.code, SPVCOND_ERROR_INVALID_BINARY);
            cr_assert(strstr(r.message, "this entry point and instruction 6's both survive as Kernel \"foo\"") != NULL,
                      "%s", r.message);
        } else {
            cr_assert_eq(r.code, SPVCOND_OK, "%u: %s", bits, r.message);
            cr_assert_eq(r.stats.entry_points_kept, (size_t)(bits ? 1 : 0), "%u", bits);
        }
        done(&r);
    }
}
