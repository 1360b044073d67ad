/* SPDX-License-Identifier: MIT */
/* Repair (spec/repair.md): spirv-link's defects B and C mended, A reported, consistent modules untouched. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "ir/module.h"

struct repaired {
    spvcond_context *ctx;
    spvcond_result code;
    spvcond_repair_stats stats;
    uint32_t *words;
    size_t count;
    char message[SPVCOND_DIAG_MESSAGE_SIZE];
};

static struct repaired
repair_words(const uint32_t *in, size_t n)
{
    struct repaired r;
    memset(&r, 0, sizeof(r));
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &r.ctx), SPVCOND_OK);
    spvcond_module *m = parse_or_die(r.ctx, in, n);
    r.stats.size = sizeof(r.stats);
    r.code = spvcond_repair(m, &r.stats);
    if (r.code == SPVCOND_OK)
        cr_assert_eq(spvcond_module_emit(m, &r.words, &r.count), SPVCOND_OK);
    else
        memcpy(r.message, spvcond_context_first_error(r.ctx)->message, sizeof(r.message));
    spvcond_module_destroy(m);
    return r;
}

static struct repaired
repair_fixture(const char *name)
{
    size_t n;
    uint32_t *in = read_words(fixture(name), &n);
    struct repaired r = repair_words(in, n);
    free(in);
    return r;
}

static void
release(struct repaired *r)
{
    spvcond_free(r->ctx, r->words);
    spvcond_context_destroy(r->ctx);
}

/* The repaired module validates, and specializes for the variant (target 4) and the base (8) into
 * modules Debian's spirv-val accepts. */
static void
expect_consistent(const struct repaired *r, const char *what)
{
    spvcond_module *m = parse_or_die(r->ctx, r->words, r->count);
    size_t violations = 0;
    cr_assert_eq(spvcond_validate(m, &violations), SPVCOND_OK, "%s: the repair validates", what);
    spvcond_module_destroy(m);
    for (uint32_t target = 4; target <= 8; target += 4) {
        spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = target};
        spvcond_specialize_options o = {.size = sizeof(spvcond_specialize_options), .device = &d};
        spvcond_module *s = parse_or_die(r->ctx, r->words, r->count);
        cr_assert_eq(spvcond_specialize(s, &o, NULL), SPVCOND_OK, "%s for target %u: %s", what, target,
                     spvcond_context_first_error(r->ctx) ? spvcond_context_first_error(r->ctx)->message : "");
        uint32_t *w;
        size_t n;
        cr_assert_eq(spvcond_module_emit(s, &w, &n), SPVCOND_OK);
        char *val;
        cr_assert_eq(spirv_val(w, n, "spv1.2", &val), 0, "%s for target %u: spirv-val: %s", what, target, val);
        free(val);
        spvcond_free(r->ctx, w);
        spvcond_module_destroy(s);
    }
}

Test(repair, defect_b_base_items_used_by_shared_code)
{
    struct repaired r = repair_fixture("fnvar_defect_b");
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert_eq(r.stats.conditions_removed, 1, "the base constant the kernel uses is kept always");
    cr_assert_eq(r.stats.uses_merged, 0);
    expect_consistent(&r, "defect B");
    release(&r);
}

Test(repair, defect_c_uses_outside_the_block_take_the_merge)
{
    struct repaired r = repair_fixture("fnvar_defect_c");
    cr_assert_eq(r.code, SPVCOND_OK, "%s", r.message);
    cr_assert_eq(r.stats.uses_merged, 1);
    cr_assert_eq(r.stats.conditions_removed + r.stats.conditions_widened, 0);
    expect_consistent(&r, "defect C");
    release(&r);
}

Test(repair, defect_a_is_reported)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    size_t n;
    uint32_t *in = read_words(fixture("fnvar_defect_a"), &n);
    spvcond_module *m;
    cr_assert_eq(spvcond_module_parse(ctx, in, n, 0, &m), SPVCOND_ERROR_INVALID_ID);
    const spvcond_diag *d = spvcond_context_first_error(ctx);
    cr_assert(strstr(d->message, "made conditional twice") != NULL, "%s", d->message);
    cr_assert_str_eq(d->opcode_name, "OpConditionalEntryPointINTEL");
    free(in);
    spvcond_context_destroy(ctx);
}

Test(repair, a_consistent_module_is_left_as_it_is)
{
    /* Modules that use the extension as they are; the others as annotate writes them too. */
    static const char *const names[] = {"fnvar_link", "fnvar_device", "tree_users", "guard_markers",
                                        "kernels_fp64", "virtual_stub", "many_sets", "module_items"};
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        size_t n, an = 0;
        uint32_t *in = read_words(fixture(names[k]), &n);
        uint32_t *ann = k >= 3 ? annotated_words(in, n, &an) : NULL;
        for (int pass = 0; pass < (ann ? 2 : 1); pass++) {
            const uint32_t *w = pass ? ann : in;
            size_t count = pass ? an : n;
            struct repaired r = repair_words(w, count);
            cr_assert_eq(r.code, SPVCOND_OK, "%s: %s", names[k], r.message);
            cr_assert(r.count == count && memcmp(r.words, w, count * 4) == 0, "%s%s: changed", names[k],
                      pass ? " annotated" : "");
            release(&r);
        }
        free(ann);
        free(in);
    }
}

Test(repair, what_no_item_condition_can_mend_is_refused)
{
    /* fnvar_link with the base call %32 unguarded: it calls the base foo %10 under "always", and only a
     * change of %10's condition, which the producer stated, could mend that. */
    size_t n;
    uint32_t *w = read_words(fixture("fnvar_link"), &n);
    size_t p = 5;
    while (p < n && !((w[p] & 0xffffu) == 71 && w[p + 1] == 32 && w[p + 2] == SPVCOND_DECORATION_CONDITIONAL_INTEL))
        p += w[p] >> 16;
    cr_assert_lt(p, n);
    w[p + 2] = 44; /* Alignment 22 instead of ConditionalINTEL %22: %32 is unguarded */
    struct repaired r = repair_words(w, n);
    cr_assert_eq(r.code, SPVCOND_ERROR_INVALID_ID);
    cr_assert(strstr(r.message, "repair does not change the conditions a producer states") != NULL, "%s", r.message);
    release(&r);
    free(w);
}

struct seen {
    char text[4][256];
    bool kept[4];
    uint32_t function[4];
    size_t count;
};

static void
note_variant(void *user, const spvcond_variant *v)
{
    struct seen *s = user;
    cr_assert_lt(s->count, 4);
    cr_assert_str_eq(v->name, "foo");
    cr_assert(!v->entry_point);
    snprintf(s->text[s->count], sizeof(s->text[0]), "%s", v->condition_text);
    s->kept[s->count] = v->kept;
    s->function[s->count++] = v->function;
}

Test(repair, variants_are_explained)
{
    /* fnvar_link: foo %10 for the base (not var.spv), foo %14 for target 4 (var.spv); k is alone. */
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("fnvar_link"), &ctx);
    struct seen s = {0};
    cr_assert_eq(spvcond_function_variants(m, NULL, note_variant, &s), SPVCOND_OK);
    cr_assert_eq(s.count, 2);
    cr_assert_eq(s.function[0], 10);
    cr_assert_str_eq(s.text[0], "base.spv = not var.spv");
    cr_assert_str_eq(s.text[1], "var.spv = target x86_64"); /* the device registry's name of 4 */
    cr_assert(s.kept[0] && !s.kept[1], "no device: the base");
    spvcond_fnvar_device d = {.size = sizeof(spvcond_fnvar_device), .has_target = true, .target = 4};
    spvcond_specialize_options o = {.size = sizeof(spvcond_specialize_options), .device = &d};
    struct seen t = {0};
    cr_assert_eq(spvcond_function_variants(m, &o, note_variant, &t), SPVCOND_OK);
    cr_assert(!t.kept[0] && t.kept[1], "target 4: the variant");
    destroy_module(m, ctx);
}
