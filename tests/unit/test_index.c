/* SPDX-License-Identifier: MIT */
/* The module index checked against an independent source: counts taken from spirv-dis output. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

struct counts {
    size_t functions, calls, entry_points, decorations, names;
};

/* Count from `spirv-dis --raw-id`: one instruction per line. */
static struct counts
dis_counts(const char *path)
{
    char cmd[1024];
    snprintf(cmd, sizeof(cmd), "%s --raw-id --no-header --no-indent %s", getenv("SPIRV_DIS"), path);
    char *text;
    cr_assert_eq(run_capture(cmd, &text), 0, "spirv-dis failed on %s", path);
    struct counts c = {
        count_lines_with(text, "= OpFunction "),
        count_lines_with(text, "OpFunctionCall "),
        count_lines_with(text, "OpEntryPoint "),
        count_lines_with(text, "OpDecorate ") + count_lines_with(text, "OpMemberDecorate ") +
            count_lines_with(text, "OpGroupDecorate ") + count_lines_with(text, "OpGroupMemberDecorate ") +
            count_lines_with(text, "OpDecorateId ") + count_lines_with(text, "OpDecorateString ") +
            count_lines_with(text, "OpMemberDecorateString "),
        count_lines_with(text, "OpName ") + count_lines_with(text, "OpMemberName "),
    };
    free(text);
    return c;
}

static struct counts
index_counts(const spvcond_module *m)
{
    spvcond_module_info info = {.size = sizeof(info)};
    cr_assert_eq(spvcond_module_info_get(m, &info), SPVCOND_OK);
    struct counts c = {m->function_count, info.call_edge_count, m->entry_point_count, 0, 0};
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++)
        if (spvcond_inst_opcode(m, i) != 73) /* OpDecorationGroup is not a decoration */
            c.decorations++;
    c.names = m->section[SPVCOND_SECTION_DEBUG_NAME + 1] - m->section[SPVCOND_SECTION_DEBUG_NAME];
    return c;
}

static void
check_against_dis(const char *path)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(path, &ctx);
    struct counts want = dis_counts(path), got = index_counts(m);
    cr_assert_eq(got.functions, want.functions, "%s: functions %zu vs %zu", path, got.functions, want.functions);
    cr_assert_eq(got.calls, want.calls, "%s: calls %zu vs %zu", path, got.calls, want.calls);
    cr_assert_eq(got.entry_points, want.entry_points, "%s: entry points", path);
    cr_assert_eq(got.decorations, want.decorations, "%s: decorations %zu vs %zu", path, got.decorations,
                 want.decorations);
    cr_assert_eq(got.names, want.names, "%s: names %zu vs %zu", path, got.names, want.names);
    /* Every name and decoration row points back at instructions that name that target. */
    for (uint32_t id = 1; id < m->bound; id++) {
        uint32_t b, e;
        spvcond_refs_range(&m->names, id, &b, &e);
        for (uint32_t k = b; k < e; k++)
            cr_assert_eq(spvcond_inst_words(m, m->names.inst[k])[1], id);
    }
    cr_log_info("%s: %zu functions, %zu calls, %zu entry points, %zu decorations, %zu names", path, got.functions,
                got.calls, got.entry_points, got.decorations, got.names);
    destroy_module(m, ctx);
}

Test(index, libclc_matches_spirv_dis)
{
    check_against_dis("/usr/lib/clc/spirv-mesa3d-.spv");
    check_against_dis("/usr/lib/clc/spirv64-mesa3d-.spv");
}

Test(index, corpus_matches_spirv_dis)
{
    const char *names[] = {"darktable__extended.spv", "hashcat__m06211-pure.spv", "ufo__reductor.spv",
                           "pocl-tests__tests__kernel__test_convert_type_16.spv",
                           "python3-pyopencl__pyopencl__cl__pyopencl-bessel-y.spv"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        check_against_dis(corpus(names[i]));
}

Test(index, fixtures_match_spirv_dis)
{
    check_against_dis(fixture("kernels_fp64"));
    check_against_dis(fixture("group_decorations"));
    check_against_dis(fixture("switch64"));
}

Test(index, functions_and_entry_points)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("kernels_fp64"), &ctx);
    cr_assert_eq(m->function_count, 4);
    for (size_t f = 0; f < m->function_count; f++) {
        const struct spvcond_function *fn = &m->functions[f];
        cr_assert_eq(spvcond_inst_opcode(m, fn->begin), 54);
        cr_assert_eq(spvcond_inst_opcode(m, fn->first_block), 248);
        cr_assert_eq(spvcond_inst_opcode(m, fn->end), 56);
        cr_assert_eq(spvcond_function_by_id(m, fn->id), fn);
        cr_assert_eq(spvcond_function_of_inst(m, fn->first_block), fn);
    }
    cr_assert_null(spvcond_function_of_inst(m, 0));
    cr_assert_eq(m->entry_point_count, 2);
    uint32_t k10 = spvcond_inst_words(m, m->entry_points[0])[2];
    uint32_t b, e;
    spvcond_refs_range(&m->modes, k10, &b, &e);
    cr_assert_eq(e - b, 1);
    cr_assert_eq(spvcond_inst_words(m, m->modes.inst[b])[2], 17 /* LocalSize */);
    destroy_module(m, ctx);
}

Test(index, group_and_member_decorations)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("group_decorations"), &ctx);
    const struct spvcond_function *f = &m->functions[0];
    uint32_t p1 = spvcond_inst_words(m, f->begin + 1)[2];
    uint32_t b, e;
    spvcond_refs_range(&m->decorations, p1, &b, &e);
    cr_assert_eq(e - b, 1);
    cr_assert_eq(spvcond_inst_opcode(m, m->decorations.inst[b]), 74, "OpGroupDecorate targets the parameter");
    /* The struct: OpName + two OpMemberName; one OpGroupMemberDecorate listed once per (struct, member). */
    uint32_t s = 0;
    for (size_t i = 0; i < m->inst_count; i++)
        if (spvcond_inst_opcode(m, i) == 30)
            s = spvcond_inst_words(m, i)[1];
    spvcond_refs_range(&m->names, s, &b, &e);
    cr_assert_eq(e - b, 3);
    spvcond_refs_range(&m->decorations, s, &b, &e);
    cr_assert_eq(e - b, 2);
    destroy_module(m, ctx);
}

Test(index, spec_ids_sorted)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("spec_constant_op"), &ctx);
    cr_assert_eq(m->spec_id_count, 4);
    uint32_t want[] = {7, 8, 100, 101};
    for (size_t k = 0; k < 4; k++) {
        cr_assert_eq(m->spec_ids[k].spec_id, want[k]);
        uint32_t sid;
        cr_assert(spvcond_spec_id_of(m, m->spec_ids[k].id, &sid));
        cr_assert_eq(sid, want[k]);
    }
    destroy_module(m, ctx);
}

/* ---- the decorations' rows in target order ------------------------------------------------------ */

struct ref_pair {
    uint32_t target, inst;
};

static int
compare_ref_pair(const void *a, const void *b)
{
    const struct ref_pair *x = a, *y = b;
    if (x->target != y->target)
        return x->target < y->target ? -1 : 1;
    return x->inst < y->inst ? -1 : x->inst > y->inst;
}

/* The decoration rows of words (count) against the model: every (target, instruction) of the
 * annotation section, sorted by target and then module order. Returns the number of sorted runs the
 * section's targets make in module order. */
static size_t
check_decoration_rows(const uint32_t *words, size_t count)
{
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, words, count);
    size_t n = 0, cap = 16, runs = 0;
    struct ref_pair *want = malloc(cap * sizeof(*want));
    uint32_t last = UINT32_MAX;
    for (size_t i = m->section[SPVCOND_SECTION_ANNOTATION]; i < m->section[SPVCOND_SECTION_ANNOTATION + 1]; i++) {
        const uint32_t *w = spvcond_inst_words(m, i);
        uint32_t op = spvcond_opcode_of(w[0]), wc = spvcond_word_count_of(w[0]);
        uint32_t first = 1, step = 0; /* the targets: word 1, or from word 2 on (group decorations) */
        if (op == SPVCOND_OP_GROUP_DECORATE)
            first = 2, step = 1;
        else if (op == SPVCOND_OP_GROUP_MEMBER_DECORATE)
            first = 2, step = 2;
        else if (op == SPVCOND_OP_DECORATION_GROUP)
            continue;
        for (uint32_t k = first; k < wc; k += step) {
            if (n == cap)
                want = realloc(want, (cap *= 2) * sizeof(*want));
            want[n++] = (struct ref_pair){w[k], (uint32_t)i};
            runs += last == UINT32_MAX || w[k] < last;
            last = w[k];
            if (!step)
                break;
        }
    }
    qsort(want, n, sizeof(*want), compare_ref_pair);
    cr_assert_eq(m->decorations.count, n);
    for (size_t k = 0; k < n; k++) {
        cr_assert_eq(m->decorations.target[k], want[k].target, "row %zu: target %u, want %u", k,
                     m->decorations.target[k], want[k].target);
        cr_assert_eq(m->decorations.inst[k], want[k].inst, "row %zu: instruction %u, want %u", k,
                     m->decorations.inst[k], want[k].inst);
    }
    free(want);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    return runs;
}

/* How reorder_annotations orders the annotation section: in `parts` blocks, the blocks in reverse (one
 * block: every instruction reversed); or dealt into `parts` piles in turn (the first, the second...),
 * the piles one after another, so that each keeps the module's order and every two overlap all along,
 * with equal targets and neighbouring ones where a merge's bounds fall. */
enum reorder { BLOCKS_REVERSED, DEALT };

/* words with the annotation section's instructions in another order (`how`, in `parts`). */
static uint32_t *
reorder_annotations(const uint32_t *words, size_t count, enum reorder how, size_t parts)
{
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, words, count);
    size_t begin = m->section[SPVCOND_SECTION_ANNOTATION], end = m->section[SPVCOND_SECTION_ANNOTATION + 1];
    size_t n = end - begin, o = 0, *order = malloc(n * sizeof(size_t)); /* from the section's first */
    if (how == DEALT)
        for (size_t p = 0; p < parts; p++)
            for (size_t k = p; k < n; k += parts)
                order[o++] = k;
    else if (parts == 1)
        for (size_t k = n; k-- > 0;)
            order[o++] = k;
    else
        for (size_t b = parts; b-- > 0;)
            for (size_t k = n * b / parts; k < n * (b + 1) / parts; k++)
                order[o++] = k;
    cr_assert_eq(o, n);
    uint32_t *out = malloc(count * sizeof(uint32_t));
    memcpy(out, words, count * sizeof(uint32_t));
    size_t at = m->inst[begin];
    for (size_t k = 0; k < n; k++) {
        uint32_t wc = spvcond_inst_word_count(m, begin + order[k]);
        memcpy(out + at, spvcond_inst_words(m, begin + order[k]), wc * sizeof(uint32_t));
        at += wc;
    }
    cr_assert_eq(at, m->inst[end]);
    free(order);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    return out;
}

Test(index, decoration_rows_sorted_stably_from_any_order)
{
    size_t count, annotated_count;
    uint32_t *w = read_words("/usr/lib/clc/spirv64-mesa3d-.spv", &count);
    uint32_t *annotated = annotated_words(w, count, &annotated_count);
    /* As written: libclc's decorations are a few sorted runs, annotate appends its own as more. */
    size_t runs = check_decoration_rows(w, count), annotated_runs = check_decoration_rows(annotated, annotated_count);
    cr_assert(runs > 1 && annotated_runs > runs, "libclc %zu runs, annotated %zu", runs, annotated_runs);
    /* Blocks in reverse: a run per block, overlapping (merged), up to the most merged (24 blocks make 32
     * runs), or too many runs (25 blocks make 33; radix-sorted), to every instruction reversed. */
    const size_t blocks[] = {2, 7, 24, 25, 1};
    for (size_t k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
        uint32_t *r = reorder_annotations(annotated, annotated_count, BLOCKS_REVERSED, blocks[k]);
        runs = check_decoration_rows(r, annotated_count);
        cr_log_info("annotated libclc, %zu blocks reversed: %zu runs", blocks[k], runs);
        free(r);
    }
    /* libclc's decorations dealt into piles: runs that overlap everywhere, merged (two and three piles). */
    for (size_t piles = 2; piles <= 3; piles++) {
        uint32_t *r = reorder_annotations(w, count, DEALT, piles);
        runs = check_decoration_rows(r, count);
        cr_log_info("libclc dealt into %zu piles: %zu runs", piles, runs);
        cr_assert(runs <= 32, "%zu runs are radix-sorted, not merged", runs);
        free(r);
    }
    /* A group decoration's targets, and a target decorated many times, in the fixture. */
    size_t gcount;
    uint32_t *g = read_words(fixture("group_decorations"), &gcount);
    check_decoration_rows(g, gcount);
    free(g);
    free(annotated);
    free(w);
}
