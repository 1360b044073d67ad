/* SPDX-License-Identifier: MIT */
/* The writer: byte-identical round trips on real modules, and edits applied exactly. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "support/copy_words.h"
#include "ir/edit.h"
#include "helpers.h"

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* What spvcond_module_emit_to gives, gathered: the pieces concatenated, their count, and a piece after
 * which to stop (0: never). */
struct gathered {
    uint32_t *words;
    size_t len, cap, pieces, stop_after;
};

static int
gather(void *user, const uint32_t *words, size_t count)
{
    struct gathered *g = user;
    cr_assert(count > 0, "no empty piece");
    if (g->len + count > g->cap) {
        g->cap = (g->len + count) * 2;
        g->words = realloc(g->words, g->cap * sizeof(uint32_t));
        cr_assert_not_null(g->words);
    }
    memcpy(g->words + g->len, words, count * sizeof(uint32_t));
    g->len += count;
    return ++g->pieces == g->stop_after;
}

/* Emitted as pieces, the module is what spvcond_module_emit gives as one buffer. */
static void
check_emit_to(spvcond_module *m, const uint32_t *want, size_t want_n, const char *what)
{
    struct gathered g = {0};
    size_t n = 1;
    cr_assert_eq(spvcond_module_emit_to(m, gather, &g, &n), SPVCOND_OK, "%s", what);
    cr_assert_eq(n, want_n, "%s: %zu words given, emit gives %zu", what, n, want_n);
    cr_assert(g.len == want_n && memcmp(g.words, want, want_n * sizeof(uint32_t)) == 0,
              "%s: the pieces are not the emitted module", what);
    free(g.words);
}

/* Parse, emit without edits, compare; emitted as pieces too. */
static void
check_round_trip(const char *path, uint32_t flags)
{
    size_t n;
    uint32_t *w = read_words(path, &n);
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m;
    double t0 = now();
    spvcond_result r = spvcond_module_parse(ctx, w, n, flags, &m);
    cr_assert_eq(r, SPVCOND_OK, "%s: %s", path, spvcond_context_first_error(ctx)->message);
    uint32_t *out;
    size_t out_n;
    cr_assert_eq(spvcond_module_emit(m, &out, &out_n), SPVCOND_OK);
    double t1 = now();
    cr_assert_eq(out_n, n, "%s: %zu words out, %zu in", path, out_n, n);
    cr_assert(memcmp(out, w, n * 4) == 0, "%s: round trip is not byte-identical", path);
    check_emit_to(m, out, out_n, path);
    if (n > 100000)
        cr_log_info("%s: %zu bytes parsed+emitted in %.2f ms", path, n * 4, (t1 - t0) * 1e3);
    spvcond_free(ctx, out);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(w);
}

Test(writer, round_trip_libclc_spirv)
{
    check_round_trip("/usr/lib/clc/spirv-mesa3d-.spv", 0);
}

Test(writer, round_trip_libclc_spirv64)
{
    check_round_trip("/usr/lib/clc/spirv64-mesa3d-.spv", 0);
    check_round_trip("/usr/lib/clc/spirv64-mesa3d-.spv", SPVCOND_PARSE_BORROW);
}

Test(writer, round_trip_corpus)
{
    const char *dir = getenv("SPVCOND_CORPUS");
    cr_assert(dir != NULL);
    DIR *d = opendir(dir);
    cr_assert(d != NULL, "corpus directory %s is missing", dir);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".spv") != 0)
            continue;
        check_round_trip(corpus(e->d_name), count % 2 ? SPVCOND_PARSE_BORROW : 0);
        count++;
    }
    closedir(d);
    cr_assert_geq(count, 60, "expected the 62 corpus modules, found %d", count);
}

Test(writer, round_trip_fixtures)
{
    const char *names[] = {"kernels_fp64", "conditional_capability", "group_decorations", "switch64",
                           "spec_constant_op"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        check_round_trip(fixture(names[i]), 0);
}

static uint32_t *
emit(spvcond_module *m, size_t *n)
{
    uint32_t *out;
    cr_assert_eq(spvcond_module_emit(m, &out, n), SPVCOND_OK);
    check_emit_to(m, out, *n, "edited module");
    return out;
}

/* A caller that stops: the emission ends there with SPVCOND_ERROR_STOPPED and says so; the module can
 * be emitted again. Bad arguments are refused. */
Test(writer, emit_to_stops_when_the_caller_says)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("kernels_fp64"), &ctx);
    cr_assert_eq(spvcond_edit_delete(m, m->inst_count / 2), SPVCOND_OK);
    size_t n;
    uint32_t *out = emit(m, &n);
    for (size_t stop = 1; stop <= 3; stop++) {
        struct gathered g = {.stop_after = stop};
        size_t given = 7;
        cr_assert_eq(spvcond_module_emit_to(m, gather, &g, &given), SPVCOND_ERROR_STOPPED);
        cr_assert_eq(given, 0);
        cr_assert_eq(g.pieces, stop, "no piece after the caller stopped");
        cr_assert(strstr(spvcond_context_first_error(ctx)->message, "stopped by the caller") != NULL);
        free(g.words);
        spvcond_context_clear_diag(ctx);
    }
    check_emit_to(m, out, n, "after a stopped emission");
    cr_assert_eq(spvcond_module_emit_to(NULL, gather, NULL, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(spvcond_module_emit_to(m, NULL, NULL, &n), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(n, 0);
    spvcond_free(ctx, out);
    destroy_module(m, ctx);
}

/* Find the first instruction with `opcode` at or after `from`. */
static size_t
find(const spvcond_module *m, uint32_t opcode, size_t from)
{
    for (size_t i = from; i < m->inst_count; i++)
        if (spvcond_inst_opcode(m, i) == opcode)
            return i;
    cr_assert_fail("opcode %u not found", opcode);
    return 0;
}

static void
validate(const uint32_t *w, size_t n, const char *tag)
{
    char path[256], cmd[512];
    snprintf(path, sizeof(path), "/tmp/spvcond-writer-%s-%d.spv", tag, (int)getpid());
    write_words(path, w, n);
    snprintf(cmd, sizeof(cmd), "%s --target-env opencl2.2 %s 2>&1", getenv("SPIRV_VAL"), path);
    char *out;
    int rc = run_capture(cmd, &out);
    cr_assert_eq(rc, 0, "spirv-val rejects the edited module: %s", out);
    free(out);
    remove(path);
}

/* Copies from the size that streams past the caches on: every word lands, whatever the alignment of
 * either side and the length's remainder, and nothing around the destination changes. */
Test(writer, large_copies_are_exact)
{
    const size_t base = SPVCOND_STREAM_COPY_BYTES / 4, pad = 64;
    uint32_t *src = malloc((base + pad) * 4), *dst = malloc((base + pad) * 4);
    cr_assert(src && dst);
    for (size_t k = 0; k < base + pad; k++)
        src[k] = (uint32_t)(k * 2654435761u);
    const size_t extra[] = {0, 1, 3, 15, 16, 17, 31};
    for (size_t so = 0; so < 4; so++)
        for (size_t d = 0; d < 4; d++)
            for (size_t e = 0; e < sizeof(extra) / sizeof(extra[0]); e++) {
                size_t n = base + extra[e];
                memset(dst, 0xab, (base + pad) * 4);
                spvcond_copy_words(dst + 1 + d, src + so, n);
                cr_assert(memcmp(dst + 1 + d, src + so, n * 4) == 0, "offsets %zu/%zu, %zu words", so, d, n);
                for (size_t k = 0; k < 1 + d; k++)
                    cr_assert_eq(dst[k], 0xababababu, "word %zu before the copy", k);
                for (size_t k = 1 + d + n; k < base + pad; k++)
                    cr_assert_eq(dst[k], 0xababababu, "word %zu after the copy", k);
            }
    spvcond_copy_words(dst, src, 0); /* nothing to copy */
    free(src);
    free(dst);
}

/* A module large enough that emitting it streams the copy: the same words come back. */
Test(writer, round_trip_of_a_large_module)
{
    size_t n;
    uint32_t *w = synth_words("20M", &n);
    cr_assert_gt(n * 4, SPVCOND_STREAM_COPY_BYTES);
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, w, n);
    uint32_t *out;
    size_t on;
    cr_assert_eq(spvcond_module_emit(m, &out, &on), SPVCOND_OK);
    cr_assert(on == n && memcmp(out, w, n * 4) == 0);
    spvcond_free(ctx, out);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    free(w);
}

Test(writer, delete_replace_insert)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("kernels_fp64"), &ctx);
    size_t in_n;
    uint32_t *in = read_words(fixture("kernels_fp64"), &in_n);

    /* Delete the OpName of twice_double, rename add_float, add a name for a new type. */
    size_t name = find(m, 5, 0);
    size_t second = find(m, 5, name + 1);
    cr_assert_eq(spvcond_edit_delete(m, second), SPVCOND_OK);
    uint32_t renamed[4] = {0x00040005, spvcond_inst_words(m, name)[1], 0, 0};
    cr_assert_eq(spvcond_encode_string("add_f32", renamed + 2, 2), 2);
    cr_assert_eq(spvcond_edit_replace(m, name, renamed, 4), SPVCOND_OK);
    uint32_t id;
    cr_assert_eq(spvcond_edit_new_id(m, &id), SPVCOND_OK);
    cr_assert_eq(id, m->bound);
    uint32_t bool_type[2] = {0x00020014, id};
    cr_assert_eq(spvcond_edit_append_to_section(m, SPVCOND_SECTION_GLOBAL, bool_type, 2), SPVCOND_OK);
    uint32_t name_bool[4] = {0x00040005, id, 0, 0};
    spvcond_encode_string("bool", name_bool + 2, 2);
    cr_assert_eq(spvcond_edit_append_to_section(m, SPVCOND_SECTION_DEBUG_NAME, name_bool, 4), SPVCOND_OK);

    size_t n;
    uint32_t *out = emit(m, &n);
    uint32_t second_words = spvcond_inst_word_count(m, second);
    cr_assert_eq(n, in_n + 4 + 2 + 4 - second_words - spvcond_inst_word_count(m, name));
    cr_assert_eq(out[3], id + 1, "bound grows with new ids");
    validate(out, n, "edits");

    /* Re-read: the edits are there. */
    spvcond_module *again;
    cr_assert_eq(spvcond_module_parse(ctx, out, n, 0, &again), SPVCOND_OK);
    cr_assert_eq(spvcond_def_opcode(again, id), 20);
    cr_assert_str_eq(spvcond_inst_string(again, find(again, 5, 0), 2), "add_f32");
    spvcond_module_destroy(again);
    spvcond_free(ctx, out);
    free(in);
    destroy_module(m, ctx);
}

Test(writer, insertions_keep_their_order)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("spec_constant_op"), &ctx);
    /* Three insertions at the end of the module and one before the first instruction. */
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t nop[1] = {0x00010000 | 0};
        (void)k;
        cr_assert_eq(spvcond_edit_insert(m, m->inst_count, nop, 1), SPVCOND_OK);
    }
    uint32_t cap[2] = {0x00020011, 11 /* Int64... any */};
    cr_assert_eq(spvcond_edit_insert(m, 0, cap, 2), SPVCOND_OK);
    size_t n;
    uint32_t *out = emit(m, &n);
    cr_assert_eq(out[5], 0x00020011);
    cr_assert_eq(out[6], 11);
    cr_assert_eq(out[n - 1], 0x00010000);
    cr_assert_eq(n, m->word_count + 5);
    spvcond_free(ctx, out);
    destroy_module(m, ctx);
}

Test(writer, rejects_malformed_edits)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("spec_constant_op"), &ctx);
    uint32_t bad[2] = {0x00030011, 5}; /* claims 3 words, has 2 */
    cr_assert_eq(spvcond_edit_insert(m, 0, bad, 2), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(spvcond_edit_replace(m, 0, bad, 0), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(spvcond_edit_delete(m, m->inst_count), SPVCOND_ERROR_INVALID_ARGUMENT);
    size_t newly;
    cr_assert_eq(spvcond_edit_delete_range(m, 1, m->inst_count + 1, &newly), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(spvcond_edit_delete_range(m, 2, 1, &newly), SPVCOND_ERROR_INVALID_ARGUMENT);
    size_t n;
    uint32_t *out = emit(m, &n);
    cr_assert_eq(n, m->word_count, "failed edits change nothing");
    spvcond_free(ctx, out);
    destroy_module(m, ctx);
}

Test(writer, new_ids_stop_at_the_limit)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("spec_constant_op"), &ctx);
    m->edits.bound = SPVCOND_MAX_BOUND;
    uint32_t id;
    cr_assert_eq(spvcond_edit_new_id(m, &id), SPVCOND_OK);
    cr_assert_eq(id, SPVCOND_MAX_BOUND);
    cr_assert_eq(spvcond_edit_new_id(m, &id), SPVCOND_ERROR_LIMIT);
    destroy_module(m, ctx);
}

/* ---- random edits against a model of the output ---- */

struct model_insert {
    uint32_t before, section, seq, tag;
};

static uint32_t
next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*state >> 33);
}

/* An edit's words: one instruction of 2 to 4 words carrying its tag, so the output shows which edit
 * each came from (the writer only needs whole instructions). */
static uint32_t
tagged(uint32_t *w, uint32_t tag)
{
    uint32_t n = 2 + tag % 3;
    w[0] = n << 16; /* OpNop's opcode */
    for (uint32_t k = 1; k < n; k++)
        w[k] = tag;
    return n;
}

/* Deletions (one or a range), repeated replacements, deletions of replaced instructions and the
 * reverse, and insertions in any order (so the writer's count of output words and its sorting of
 * insertions are both needed), compared word for word with a model of the result. */
Test(writer, random_edits_match_a_model)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(corpus("darktable__basecurve.spv"), &ctx);
    size_t n = m->inst_count;
    uint32_t *state = calloc(n, sizeof(uint32_t)); /* 0 kept, 1 deleted, 2 + tag replaced */
    struct model_insert *ins = calloc(400, sizeof(*ins));
    size_t nins = 0;
    uint64_t seed = 12345;
    for (uint32_t step = 0; step < 1200; step++) {
        uint32_t what = next_random(&seed) % 5, tag = step, words[4];
        uint32_t count = tagged(words, tag);
        size_t i = next_random(&seed) % n;
        if (what == 0) {
            cr_assert_eq(spvcond_edit_delete(m, i), SPVCOND_OK);
            state[i] = 1;
        } else if (what == 4) { /* a range: kept, deleted and replaced instructions alike */
            size_t end = i + 1 + next_random(&seed) % 16, newly, expected = 0;
            end = end < n ? end : n;
            for (size_t k = i; k < end; k++)
                expected += state[k] != 1;
            cr_assert_eq(spvcond_edit_delete_range(m, i, end, &newly), SPVCOND_OK);
            cr_assert_eq(newly, expected);
            for (size_t k = i; k < end; k++)
                state[k] = 1;
        } else if (what == 1) {
            cr_assert_eq(spvcond_edit_replace(m, i, words, count), SPVCOND_OK);
            state[i] = 2 + tag;
        } else if (nins < 400) {
            uint32_t section = next_random(&seed) % SPVCOND_SECTION_COUNT;
            bool append = what == 3;
            uint32_t before = append ? m->section[section + 1] : m->section[section];
            cr_assert_eq(append ? spvcond_edit_append_to_section(m, (int)section, words, count)
                                : spvcond_edit_prepend_to_section(m, (int)section, words, count),
                         SPVCOND_OK);
            ins[nins] = (struct model_insert){before, section, (uint32_t)nins, tag};
            nins++;
        }
    }
    /* The model: insertions by place, then section, then creation (a stable insertion sort). */
    for (size_t a = 1; a < nins; a++)
        for (size_t b = a; b > 0 && (ins[b - 1].before > ins[b].before ||
                                     (ins[b - 1].before == ins[b].before && ins[b - 1].section > ins[b].section));
             b--) {
            struct model_insert t = ins[b];
            ins[b] = ins[b - 1];
            ins[b - 1] = t;
        }
    size_t cap = m->word_count + 4 * 1200, len = 5, next = 0;
    uint32_t *expect = malloc(cap * sizeof(uint32_t));
    for (size_t i = 0; i <= n; i++) {
        for (; next < nins && ins[next].before == i; next++)
            len += tagged(expect + len, ins[next].tag);
        if (i == n)
            break;
        if (state[i] >= 2)
            len += tagged(expect + len, state[i] - 2);
        else if (state[i] == 0)
            for (uint32_t k = m->inst[i]; k < m->inst[i + 1]; k++)
                expect[len++] = m->words[k];
    }
    size_t out_n;
    uint32_t *out = emit(m, &out_n);
    cr_assert_eq(out_n, len, "%zu words emitted, the model has %zu", out_n, len);
    cr_assert(memcmp(out + 5, expect + 5, (len - 5) * sizeof(uint32_t)) == 0, "the output differs from the model");
    spvcond_free(ctx, out);
    free(expect);
    free(ins);
    free(state);
    destroy_module(m, ctx);
}
