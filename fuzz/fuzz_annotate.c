/* SPDX-License-Identifier: MIT */
/* annotate: never crashes; its output parses and passes our own validate (the producer's promise); the
 * module read for annotate (SPVCOND_PARSE_FOR_ANNOTATE, the reader's item lists) annotates the same.
 * Requirements are also stated by name for the strings the input holds (entry points, OpNames), with
 * uses, declared sets and sizes drawn from the name's bytes; with the generator word's bit 2 also
 * virtual-function sets (indirectly_callable, calls_indirectly: spec/virtual-functions.md); and, with
 * its bit 1, one guard SpecId (its third byte) said to mean an aspect (its fourth) (spec/guards.md).
 * With bit 3, split (spec/split.md): every image parses, has no condition left, and its property file is
 * one the aspect filter reads. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "structure_mutator.h"

enum { MAX_NAMES = 8 };

static const char *const set_names[3] = {"", "set_a", "set_b"};

struct stated {
    spvcond_function_requirements q[MAX_NAMES];
    uint32_t aspects[MAX_NAMES][4];
    size_t count;
};

/* Word-aligned nul-terminated printable runs, as SPIR-V literal strings are laid out; the header's
 * generator word (free for any value) picks: its low bit states requirements at all, its second byte
 * which of the first eight strings (names of things other than functions make annotate refuse). */
static void
state_requirements(const uint8_t *data, size_t size, struct stated *s)
{
    s->count = 0;
    if (size < 20 || !(data[8] & 1))
        return;
    for (size_t at = 20, seen = 0; at + 1 < size && s->count < MAX_NAMES && seen < MAX_NAMES; at += 4) {
        size_t n = 0;
        while (at + n < size && n < 64 && data[at + n] > 0x20 && data[at + n] < 0x7f)
            n++;
        if (n == 0 || at + n >= size || data[at + n] != 0)
            continue;
        if (!((data[9] >> seen++) & 1)) {
            at += n & ~(size_t)3;
            continue;
        }
        const char *name = (const char *)data + at;
        const uint8_t *b = data + at;
        uint32_t *asp = s->aspects[s->count];
        for (int k = 0; k < 4; k++)
            asp[k] = b[k % n] % 128u;
        s->q[s->count] = (spvcond_function_requirements){.size = sizeof(spvcond_function_requirements), .function = name,
            .uses = asp,
            .use_count = b[0] % 3u,
            .has_declared = (b[n - 1] & 1) != 0,
            .declared = asp + 2,
            .declared_count = b[n - 1] % 3u,
            .reqd_work_group_size = {b[0] & 4 ? (uint32_t)n : 0, b[0] & 4 ? 2u : 0, 0},
            .reqd_sub_group_size = b[0] & 8 ? 16u : 0,
        };
        if (data[8] & 4) { /* virtual functions: a set of three, and up to the rest of them called */
            size_t first = b[n - 1] % 3u;
            s->q[s->count].indirectly_callable = b[n - 1] & 2 ? set_names[first] : NULL;
            s->q[s->count].calls_indirectly = set_names + first;
            s->q[s->count].calls_indirectly_count = b[n - 1] & 4 ? (b[0] % (3u - first)) + 1 : 0;
        }
        s->count++;
        at += n & ~(size_t)3; /* the next string starts after this one */
    }
}

/* The same input read for annotate and annotated: the same verdict and output as `r`, `w`, `n`. */
static void
annotate_read_for_it(spvcond_context *ctx, const uint8_t *data, size_t size, const spvcond_annotate_options *o,
                     spvcond_result r, const uint32_t *w, size_t n)
{
    uint32_t *words = malloc(size + 4);
    if (!words)
        return;
    memcpy(words, data, size);
    spvcond_module *m;
    spvcond_result got = spvcond_module_parse(ctx, words, size / 4, SPVCOND_PARSE_FOR_ANNOTATE, &m);
    FUZZ_ASSERT(got == SPVCOND_OK, "a module read plainly is read for annotate too");
    got = spvcond_annotate(m, o, NULL);
    FUZZ_ASSERT(got == r, "annotate agrees with the reader's lists and without them");
    uint32_t *lw;
    size_t ln;
    if (got == SPVCOND_OK) {
        FUZZ_ASSERT(spvcond_module_emit(m, &lw, &ln) == SPVCOND_OK, "emit after annotate");
        fuzz_check_emit_to(m, lw, ln);
        FUZZ_ASSERT(ln == n && !memcmp(lw, w, n * 4), "the same output with the reader's lists and without them");
        spvcond_free(ctx, lw);
    }
    spvcond_module_destroy(m);
    free(words);
}

/* What split's images are checked against: the input's own violations (SPIR-V's version rules, which
 * neither annotate nor split is there to mend). */
struct image_check {
    spvcond_context *ctx;
    size_t input_violations;
};

static spvcond_result
check_image(void *user, size_t index, const spvcond_split_image *img)
{
    struct image_check *k = user;
    spvcond_context *ctx = k->ctx;
    spvcond_module *m;
    (void)index;
    FUZZ_ASSERT(spvcond_module_parse(ctx, img->words, img->word_count, 0, &m) == SPVCOND_OK, "an image parses");
    size_t violations = 0;
    spvcond_validate(m, &violations);
    FUZZ_ASSERT(violations <= k->input_violations, "an image is consistent (split adds no violation)");
    spvcond_module_destroy(m);
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    bool supported;
    spvcond_builtin_device_find("intel_gpu_pvc", &d);
    FUZZ_ASSERT(spvcond_image_supported(ctx, img->properties, strlen(img->properties), "image", &d, &supported, NULL,
                                        0) == SPVCOND_OK,
                "the filter reads an image's property file");
    return SPVCOND_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    spvcond_context *ctx;
    if (spvcond_context_create(NULL, NULL, NULL, &ctx) != SPVCOND_OK)
        return 0;
    spvcond_module *m;
    fuzz_keep_input(data, size);
    if (spvcond_module_parse_bytes(ctx, data, size, &m) == SPVCOND_OK) {
        /* A module that breaks SPIR-V's version rules still breaks them annotated: what annotate must not
         * do is add a violation. */
        size_t input_violations = 0;
        spvcond_result input_valid = spvcond_validate(m, &input_violations);
        struct stated stated;
        state_requirements(data, size, &stated);
        spvcond_guard_spec_id guard = {data[10], data[11] % 128u, NULL};
        spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .requirements = stated.q, .requirement_count = stated.count,
                                      .guard_spec_ids = &guard, .guard_spec_id_count = (data[8] >> 1) & 1};
        spvcond_result r = spvcond_annotate(m, &o, NULL);
        if (r != SPVCOND_OK)
            annotate_read_for_it(ctx, data, size, &o, r, NULL, 0);
        if (r == SPVCOND_OK) {
            uint32_t *w;
            size_t n;
            FUZZ_ASSERT(spvcond_module_emit(m, &w, &n) == SPVCOND_OK, "emit after annotate");
            fuzz_keep("annotated", w, n);
            annotate_read_for_it(ctx, data, size, &o, r, w, n);
            spvcond_module *a;
            FUZZ_ASSERT(spvcond_module_parse(ctx, w, n, 0, &a) == SPVCOND_OK, "annotated output parses");
            size_t violations = 0;
            spvcond_validate(a, &violations);
            FUZZ_ASSERT(violations == 0 || (input_valid != SPVCOND_ERROR_LIMIT && violations <= input_violations),
                        "annotated output passes spvcond validate (or has no violation its input had not)");
            spvcond_module_destroy(a);
            spvcond_free(ctx, w);
        }
        spvcond_module_destroy(m);
        if (size >= 12 && (data[8] & 8) && size % 4 == 0) {
            uint32_t *words = malloc(size);
            if (words) {
                memcpy(words, data, size);
                struct image_check k = {ctx, input_violations};
                spvcond_split(ctx, words, size / 4, &o, data[9] & 1 ? SPVCOND_SPLIT_PER_KERNEL : 0, check_image, &k,
                              NULL);
                free(words);
            }
        }
    }
    spvcond_context_destroy(ctx);
    return 0;
}
