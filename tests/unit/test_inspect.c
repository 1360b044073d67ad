/* SPDX-License-Identifier: MIT */
/* The inspection calls (spvcond.h, "inspection"): what spvcond info prints, through the public API. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

static size_t fixture_words;

static spvcond_module *
fixture_module(const char *name, spvcond_context **ctx)
{
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, ctx), SPVCOND_OK);
    size_t count;
    uint32_t *words = read_words(fixture(name), &count);
    spvcond_module *m = parse_or_die(*ctx, words, count);
    fixture_words = count;
    free(words);
    return m;
}

Test(inspect, module_facts)
{
    spvcond_context *ctx;
    spvcond_module *m = fixture_module("kernels_fp64", &ctx);
    spvcond_module_info info = SPVCOND_SIZED(spvcond_module_info);
    cr_assert_eq(spvcond_module_info_get(m, &info), SPVCOND_OK);
    cr_assert(info.has_memory_model);
    cr_assert_str_eq(info.addressing_model_name, "Physical64");
    cr_assert_str_eq(info.memory_model_name, "OpenCL");
    cr_assert_eq(info.function_count, 4);
    cr_assert_eq(info.function_declaration_count, 0);
    cr_assert_eq(info.name_count, 5);
    cr_assert_eq(info.decoration_count, 4);
    cr_assert_eq(info.word_count, fixture_words);
    spvcond_module_info unsized = {0};
    cr_assert_eq(spvcond_module_info_get(m, &unsized), SPVCOND_ERROR_INVALID_ARGUMENT);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

Test(inspect, items_in_module_order)
{
    spvcond_context *ctx;
    spvcond_module *m = fixture_module("kernels_fp64", &ctx);
    spvcond_item it = SPVCOND_SIZED(spvcond_item);
    size_t cursor = 0;
    const char *caps[] = {"Addresses", "Linkage", "Kernel", "Float64", "Int64"};
    for (size_t k = 0; k < 5; k++) {
        cr_assert(spvcond_module_next_item(m, SPVCOND_ITEM_CAPABILITY, &cursor, &it));
        cr_assert_str_eq(it.value_name, caps[k]);
        cr_assert_eq(it.condition, 0);
    }
    cr_assert_not(spvcond_module_next_item(m, SPVCOND_ITEM_CAPABILITY, &cursor, &it), "five capabilities");
    cursor = 0;
    cr_assert(spvcond_module_next_item(m, SPVCOND_ITEM_EXT_INST_IMPORT, &cursor, &it));
    cr_assert_str_eq(it.name, "OpenCL.std");
    cr_assert_eq(it.id, 1);
    cursor = 0;
    cr_assert(spvcond_module_next_item(m, SPVCOND_ITEM_ENTRY_POINT, &cursor, &it));
    cr_assert_str_eq(it.name, "add_float");
    cr_assert_str_eq(it.value_name, "Kernel");
    cr_assert_eq(it.target, 10);
    cr_assert(spvcond_module_next_item(m, SPVCOND_ITEM_ENTRY_POINT, &cursor, &it));
    cr_assert_str_eq(it.name, "add_double");
    cr_assert_not(spvcond_module_next_item(m, SPVCOND_ITEM_ENTRY_POINT, &cursor, &it));
    cursor = 0;
    cr_assert(spvcond_module_next_item(m, SPVCOND_ITEM_EXECUTION_MODE, &cursor, &it));
    cr_assert_str_eq(it.value_name, "LocalSize");
    cr_assert_eq(it.target, 10);
    cr_assert_eq(it.operand_count, 3);
    cr_assert(it.operands[0] == 64 && it.operands[1] == 1 && it.operands[2] == 1);
    cr_assert(spvcond_module_next_item(m, SPVCOND_ITEM_EXECUTION_MODE, &cursor, &it));
    cr_assert_str_eq(it.value_name, "ContractionOff");
    cr_assert_eq(it.operand_count, 0);
    /* The same modes, per entry point, through the index. */
    cursor = 0;
    cr_assert(spvcond_module_next_execution_mode(m, 20, &cursor, &it));
    cr_assert_str_eq(it.value_name, "ContractionOff");
    cr_assert_eq(it.target, 20);
    cr_assert_not(spvcond_module_next_execution_mode(m, 20, &cursor, &it), "add_double has one mode");
    cursor = 0;
    cr_assert(spvcond_module_next_execution_mode(m, 10, &cursor, &it));
    cr_assert_str_eq(it.value_name, "LocalSize");
    cr_assert_not(spvcond_module_next_execution_mode(m, 10, &cursor, &it));
    cursor = 0;
    cr_assert_not(spvcond_module_next_execution_mode(m, 30, &cursor, &it), "twice is no entry point");
    cursor = 0;
    cr_assert_not(spvcond_module_next_item(m, SPVCOND_ITEM_SPEC_CONSTANT, &cursor, &it), "no spec constant yet");
    spvcond_item unsized = {0};
    cursor = 0;
    cr_assert_not(spvcond_module_next_item(m, SPVCOND_ITEM_CAPABILITY, &cursor, &unsized), "an unsized item");
    cr_assert_str_eq(spvcond_opcode_name(48), "OpSpecConstantTrue");
    cr_assert_str_eq(spvcond_opcode_name(0xFFFFu), "");
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

/* An annotated module: its requirement constants with SpecIds and names, and its conditions. */
Test(inspect, annotated_conditions)
{
    spvcond_context *ctx;
    spvcond_module *m = fixture_module("kernels_fp64", &ctx);
    uint32_t *words;
    size_t count;
    spvcond_annotate_options o = SPVCOND_SIZED(spvcond_annotate_options);
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK);
    cr_assert_eq(spvcond_module_emit(m, &words, &count), SPVCOND_OK);
    spvcond_module *a = parse_or_die(ctx, words, count);
    spvcond_item it = SPVCOND_SIZED(spvcond_item);
    size_t cursor = 0, constants = 0, named = 0;
    while (spvcond_module_next_item(a, SPVCOND_ITEM_SPEC_CONSTANT, &cursor, &it)) {
        constants++;
        if (it.name && strcmp(it.name, "spvcond.aspect.fp64") == 0) {
            named++;
            cr_assert(it.has_spec_id);
            cr_assert_eq(it.spec_id, 0x10001, "after the work-group size's 0x10000");
            cr_assert_eq(it.opcode, 48 /* OpSpecConstantTrue */);
        }
    }
    cr_assert_eq(named, 1, "the fp64 requirement's constant");
    cr_assert_geq(constants, 1);
    size_t decorations = 0;
    for (cursor = 0; spvcond_module_next_item(a, SPVCOND_ITEM_CONDITIONAL_DECORATION, &cursor, &it);) {
        decorations++;
        cr_assert_neq(it.condition, 0);
        cr_assert_str_neq(it.value_name, "");
    }
    cr_assert_eq(decorations, 15, "as spvcond info counts them");
    size_t conditional_entry_points = 0;
    for (cursor = 0; spvcond_module_next_item(a, SPVCOND_ITEM_ENTRY_POINT, &cursor, &it);)
        conditional_entry_points += it.condition != 0;
    cr_assert_eq(conditional_entry_points, 2, "add_float's (its work-group size) and add_double's");
    spvcond_free(ctx, words);
    spvcond_module_destroy(a);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}
