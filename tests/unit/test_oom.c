/* SPDX-License-Identifier: MIT */
/* Allocation failure: fail the N-th allocation for N = 1, 2, ... through whole passes. Each failure
 * must come back as SPVCOND_ERROR_OUT_OF_MEMORY, leak nothing, and leave the module usable. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

struct budget {
    long fail_at; /* the allocation number that fails; -1: none */
    long count;   /* allocations so far */
    long live;    /* allocated and not freed */
};

static void *
b_alloc(void *user, size_t n)
{
    struct budget *b = user;
    if (++b->count == b->fail_at)
        return NULL;
    void *p = malloc(n);
    if (p)
        b->live++;
    return p;
}

static void *
b_realloc(void *user, void *p, size_t n)
{
    struct budget *b = user;
    if (++b->count == b->fail_at)
        return NULL;
    return realloc(p, n);
}

static void
b_free(void *user, void *p)
{
    struct budget *b = user;
    b->live--;
    free(p);
}

enum pass { ANNOTATE, ANNOTATE_LISTED, SPECIALIZE, VALIDATE, REQUIREMENTS, SUPPORT, REPAIR, SPLIT, COVERAGE };

static void
ignore_coverage(void *user, const spvcond_coverage *c)
{
    (void)user;
    (void)c;
}

static void
ignore_verdict(void *user, const char *kernel, bool supported, const char *reason)
{
    (void)user;
    (void)kernel;
    (void)supported;
    (void)reason;
}

static spvcond_result
take_image(void *user, size_t index, const spvcond_split_image *image)
{
    (void)user;
    (void)index;
    cr_assert(image->word_count > 5 && image->properties[0] == '[');
    return SPVCOND_OK;
}

/* Run one pass with the N-th allocation failing; true once it ran to completion. */
static bool
run(enum pass pass, const uint32_t *words, size_t count, long fail_at)
{
    struct budget b = {fail_at, 0, 0};
    spvcond_allocator a = {b_alloc, b_realloc, b_free, &b};
    spvcond_context *ctx;
    spvcond_result r = spvcond_context_create(&a, NULL, NULL, &ctx);
    if (r != SPVCOND_OK) {
        cr_assert_eq(r, SPVCOND_ERROR_OUT_OF_MEMORY);
        return false;
    }
    spvcond_module *m = NULL;
    /* ANNOTATE_LISTED: read for annotate, the reader's item lists then grown and handed over too. */
    r = spvcond_module_parse(ctx, words, count, pass == ANNOTATE_LISTED ? SPVCOND_PARSE_FOR_ANNOTATE : 0, &m);
    bool done = false;
    if (r == SPVCOND_OK) {
        if (pass == ANNOTATE || pass == ANNOTATE_LISTED) {
            spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
            r = spvcond_annotate(m, &o, NULL);
        } else if (pass == SPECIALIZE) {
            spvcond_spec_value v[1] = {{65536, 0, false}};
            spvcond_fnvar_device unknown = {.size = sizeof(spvcond_fnvar_device), .unspecified = SPVCOND_UNSPECIFIED_UNKNOWN}; /* no device facts */
            spvcond_specialize_options o = {sizeof(spvcond_specialize_options), v, 1, &unknown, 0};
            r = spvcond_specialize(m, &o, NULL);
        } else if (pass == VALIDATE) {
            r = spvcond_validate(m, NULL);
        } else if (pass == COVERAGE) {
            r = spvcond_variant_coverage(m, ignore_coverage, NULL);
        } else if (pass == REPAIR) {
            r = spvcond_repair(m, NULL);
        } else if (pass == SPLIT) {
            size_t images = 0;
            r = spvcond_split(ctx, words, count, NULL, 0, take_image, NULL, &images);
            cr_assert(r != SPVCOND_OK || images > 1, "split makes images");
        } else if (pass == SUPPORT) {
            spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
            cr_assert(spvcond_builtin_device_find("intel_gpu_acm_g10", &d));
            bool ok;
            char reason[SPVCOND_REASON_MAX];
            r = spvcond_kernels_supported(m, &d, ignore_verdict, NULL);
            if (r == SPVCOND_OK)
                r = spvcond_kernel_supported(m, &d, "k_double", &ok, reason, sizeof(reason));
        } else {
            spvcond_requirements *q = NULL;
            char *text = NULL;
            size_t size;
            r = spvcond_requirements_from_module(m, &q);
            if (r == SPVCOND_OK)
                r = spvcond_requirements_write_props(q, &text, &size);
            spvcond_free(ctx, text);
            spvcond_requirements_destroy(q);
        }
        bool pass_failed = r != SPVCOND_OK;
        if (r == SPVCOND_OK) {
            uint32_t *w;
            size_t n;
            r = spvcond_module_emit(m, &w, &n);
            if (r == SPVCOND_OK)
                spvcond_free(ctx, w);
            done = r == SPVCOND_OK;
        }
        if (r != SPVCOND_OK) {
            /* The module is still usable; after a failed pass it emits exactly as it was read. */
            b.fail_at = -1;
            uint32_t *w;
            size_t n;
            cr_assert_eq(spvcond_module_emit(m, &w, &n), SPVCOND_OK);
            if (pass_failed)
                cr_assert(n == count && memcmp(w, words, count * 4) == 0,
                          "allocation %ld: a failed pass left edits behind", fail_at);
            spvcond_free(ctx, w);
        }
    }
    cr_assert(r == SPVCOND_OK || r == SPVCOND_ERROR_OUT_OF_MEMORY, "allocation %ld failed: got %s", fail_at,
              spvcond_result_string(r));
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    cr_assert_eq(b.live, 0, "allocation %ld failed: %ld blocks leaked", fail_at, b.live);
    return done;
}

static void
every_allocation(enum pass pass, const char *name)
{
    size_t count;
    uint32_t *words;
    if (pass != ANNOTATE && pass != ANNOTATE_LISTED && pass != REPAIR && pass != SPLIT && pass != COVERAGE) {
        /* These passes take the annotated module (coverage, a multi-target one as it is). */
        spvcond_context *ctx;
        spvcond_module *m = load_module(fixture(name), &ctx);
        spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
        cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK);
        uint32_t *w;
        cr_assert_eq(spvcond_module_emit(m, &w, &count), SPVCOND_OK);
        words = malloc(count * 4);
        memcpy(words, w, count * 4);
        spvcond_free(ctx, w);
        destroy_module(m, ctx);
    } else {
        words = read_words(fixture(name), &count);
    }
    long n = 1;
    while (!run(pass, words, count, n))
        n++;
    cr_assert_gt(n, 20, "the pass allocates: every one of its %ld allocations was failed once", n);
    cr_log_info("%s: completed after failing each of the first %ld allocations", name, n - 1);
    free(words);
}

Test(oom, annotate) { every_allocation(ANNOTATE, "annotate_graph"); }
Test(oom, annotate_read_for_it) { every_allocation(ANNOTATE_LISTED, "annotate_graph"); }
Test(oom, specialize) { every_allocation(SPECIALIZE, "annotate_graph"); }
Test(oom, validate) { every_allocation(VALIDATE, "annotate_graph"); }
/* Guarded code (spec/guards.md): markers replaced, guarded calls merged; specialized with fp64 false, the
 * branches fold. */
Test(oom, annotate_guards) { every_allocation(ANNOTATE, "guard_markers"); }
Test(oom, specialize_guards) { every_allocation(SPECIALIZE, "guard_markers"); }
Test(oom, validate_guards) { every_allocation(VALIDATE, "guard_markers"); }
Test(oom, annotate_virtual_functions) { every_allocation(ANNOTATE, "virtual_stub"); }
Test(oom, validate_virtual_functions) { every_allocation(VALIDATE, "virtual_stub"); }
Test(oom, requirements) { every_allocation(REQUIREMENTS, "annotate_graph"); }
Test(oom, support_check) { every_allocation(SUPPORT, "annotate_graph"); }
Test(oom, specialize_linker_output) { every_allocation(ANNOTATE, "kernels_fp64"); }
/* Repair (spec/repair.md): spirv-link's defects B (conditions removed, capabilities) and C (uses merged). */
Test(oom, repair_defect_b) { every_allocation(REPAIR, "fnvar_defect_b"); }
Test(oom, repair_defect_c) { every_allocation(REPAIR, "fnvar_defect_c"); }
/* Split (spec/split.md): annotate in split mode, one specialization per image. */
Test(oom, split) { every_allocation(SPLIT, "kernels_fp64"); }
/* Coverage (validate's device enumeration, counted): variants of entry points and of a copy. */
Test(oom, coverage_entry_points) { every_allocation(COVERAGE, "dot_two_widths"); }
Test(oom, coverage_copies) { every_allocation(COVERAGE, "three_ops"); }

/* The property-file readers, each allocation failed in turn: DPC++'s aspect filter on an image's
 * [SYCL/device requirements] and the [SYCL/kernel reqs] + [SYCL/virtual functions] reader. A byte array
 * that cannot be decoded for want of memory is out of memory, not a malformed file. */
Test(oom, property_file_readers)
{
    /* aspects [6] (fp64); reqd_work_group_size_uint64_t [64, 1, 1] */
    const char *image = "[SYCL/device requirements]\naspects=2|gAAAAAAAAAgBAAAA\n"
                        "reqd_work_group_size_uint64_t=2|ADAAAAAAAAAQAAAAAAAAAEAAAAAAAAAABAAAAAAAAAA\n";
    const char *kernels = "[SYCL/kernel reqs]\nk=2|gAAAAAAAAAAAAAAA\n"
                          "[SYCL/virtual functions]\nuses-virtual-functions-set=2|wBAAAAAAAAwXaR1U2xyclR3XmBnN0A\n";
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_builtin_device_find("intel_gpu_acm_g10", &d));
    long n = 1;
    for (bool done = false; !done; n++) {
        struct budget b = {n, 0, 0};
        spvcond_allocator a = {b_alloc, b_realloc, b_free, &b};
        spvcond_context *ctx;
        spvcond_result r = spvcond_context_create(&a, NULL, NULL, &ctx);
        if (r != SPVCOND_OK) {
            cr_assert_eq(r, SPVCOND_ERROR_OUT_OF_MEMORY);
            continue;
        }
        bool supported;
        char reason[SPVCOND_REASON_MAX];
        r = spvcond_image_supported(ctx, image, strlen(image), "i.prop", &d, &supported, reason, sizeof(reason));
        cr_assert(r == SPVCOND_OK || r == SPVCOND_ERROR_OUT_OF_MEMORY, "allocation %ld failed: the filter gave %s",
                  n, spvcond_result_string(r));
        cr_assert(r != SPVCOND_OK || (!supported && strstr(reason, "fp64") != NULL), "acm_g10 lacks fp64: %s", reason);
        spvcond_requirements *q = NULL;
        spvcond_result rq = spvcond_requirements_parse_props(ctx, kernels, strlen(kernels), "k.prop", &q);
        cr_assert(rq == SPVCOND_OK || rq == SPVCOND_ERROR_OUT_OF_MEMORY,
                  "allocation %ld failed: the kernel-reqs reader gave %s", n, spvcond_result_string(rq));
        cr_assert(rq != SPVCOND_OK || strcmp(spvcond_requirements_virtual_sets(q), "_ZTSv,set_fp64") == 0);
        spvcond_requirements_destroy(q);
        spvcond_context_destroy(ctx);
        cr_assert_eq(b.live, 0, "allocation %ld failed: %ld blocks leaked", n, b.live);
        done = r == SPVCOND_OK && rq == SPVCOND_OK;
    }
    cr_assert_gt(n, 4, "the readers allocate: each of their %ld allocations was failed once", n - 1);
}
