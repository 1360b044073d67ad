/* SPDX-License-Identifier: MIT */
/* Structs that grow (docs/releasing.md): every options, device and stats struct begins with its size; the
 * library reads an older caller's as far as it reaches, refuses a field it does not know, fills no more
 * than the caller's size, and names the struct when the size is wrong. */
#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>

#include "helpers.h"

/* Diagnostics of one context, the last kept. */
static char last_message[SPVCOND_DIAG_MESSAGE_SIZE];

static void
keep_last(void *user, const spvcond_diag *d)
{
    (void)user;
    cr_assert_eq(d->size, sizeof(spvcond_diag), "a diagnostic carries its size");
    memcpy(last_message, d->message, sizeof(last_message));
}

static spvcond_module *
kernels(spvcond_context **ctx)
{
    cr_assert_eq(spvcond_context_create(NULL, keep_last, NULL, ctx), SPVCOND_OK);
    size_t count;
    uint32_t *words = read_words(fixture("kernels_fp64"), &count);
    spvcond_module *m = parse_or_die(*ctx, words, count);
    free(words);
    return m;
}

/* Records handed to callbacks carry their size. */
static void
check_variant(void *user, const spvcond_variant *v)
{
    (void)user;
    cr_assert_eq(v->size, sizeof(*v));
}

/* A struct left `= {0}` is an invalid argument naming the struct and what to do. */
Test(abi, size_zero_is_refused_by_name)
{
    spvcond_context *ctx;
    spvcond_module *m = kernels(&ctx);
    spvcond_annotate_options o = {0};
    last_message[0] = 0;
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(last_message, "spvcond_annotate_options: size is 0; set it to sizeof(spvcond_annotate_options)"),
              "%s", last_message);
    spvcond_specialize_options s = {0};
    cr_assert_eq(spvcond_specialize(m, &s, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(last_message, "spvcond_specialize_options: size is 0"), "%s", last_message);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

/* A caller built for a newer header: bytes past what this library knows are read when zero (the newer
 * fields unused), refused when set. */
Test(abi, newer_caller_fields_past_the_known_ones)
{
    struct {
        spvcond_annotate_options o;
        uint64_t newer_field;
    } newer;
    memset(&newer, 0, sizeof(newer));
    newer.o.size = sizeof(newer);
    spvcond_context *ctx;
    spvcond_module *m = kernels(&ctx);
    spvcond_annotate_stats stats = SPVCOND_SIZED(spvcond_annotate_stats);
    cr_assert_eq(spvcond_annotate(m, &newer.o, &stats), SPVCOND_OK, "a newer caller's unused fields are zero");
    cr_assert_gt(stats.roots, 0);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    m = kernels(&ctx);
    newer.newer_field = 1;
    cr_assert_eq(spvcond_annotate(m, &newer.o, NULL), SPVCOND_ERROR_UNSUPPORTED);
    cr_assert(strstr(last_message, "built for a newer libspvcond"), "%s", last_message);
    struct {
        spvcond_specialize_options o;
        uint64_t newer_field;
    } newer_options = {{.size = sizeof(newer_options)}, 1};
    cr_assert_eq(spvcond_function_variants(m, &newer_options.o, check_variant, NULL), SPVCOND_ERROR_UNSUPPORTED,
                 "every call refuses an unknown member the same way");
    struct {
        spvcond_opencl_device d;
        uint64_t newer_field;
    } newer_device = {{.size = sizeof(newer_device), .type = 2}, 0};
    spvcond_device_info *device;
    cr_assert_eq(spvcond_opencl_device_info(ctx, &newer_device.d, &device), SPVCOND_OK);
    cr_assert_eq(device->size, sizeof(spvcond_device_info), "the library's own struct, of its size");
    spvcond_free(ctx, device);
    newer_device.newer_field = 1;
    cr_assert_eq(spvcond_opencl_device_info(ctx, &newer_device.d, &device), SPVCOND_ERROR_UNSUPPORTED);
    cr_assert(strstr(last_message, "spvcond_opencl_device"), "%s", last_message);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

/* Stats: the library fills what the caller's size reaches, no further, and refuses a size below the first
 * sized version's. */
Test(abi, stats_filled_as_far_as_the_caller_size)
{
    struct {
        spvcond_annotate_stats stats;
        uint64_t guard;
    } out;
    memset(&out, 0xAB, sizeof(out));
    out.stats.size = sizeof(out); /* a newer caller's struct: the rest is theirs */
    spvcond_context *ctx;
    spvcond_module *m = kernels(&ctx);
    spvcond_annotate_options o = SPVCOND_SIZED(spvcond_annotate_options);
    cr_assert_eq(spvcond_annotate(m, &o, &out.stats), SPVCOND_OK);
    cr_assert_eq(out.stats.size, sizeof(out), "the caller's size stays");
    cr_assert_gt(out.stats.roots, 0);
    cr_assert_eq(out.guard, UINT64_C(0xABABABABABABABAB), "nothing past this library's struct is written");
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    m = kernels(&ctx);
    spvcond_annotate_stats small = {.size = sizeof(size_t)};
    cr_assert_eq(spvcond_annotate(m, &o, &small), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(last_message, "spvcond_annotate_stats: size is 8"), "%s", last_message);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

/* An array of requirements: one size for all, the first's. */
Test(abi, requirement_array_sizes_agree)
{
    static const uint32_t fp64[1] = {6};
    spvcond_function_requirements req[2] = {
        {.size = sizeof(spvcond_function_requirements), .function = "add_double", .uses = fp64, .use_count = 1},
        {.size = 0, .function = "add_float"}};
    spvcond_annotate_options o = {.size = sizeof(o), .requirements = req, .requirement_count = 2};
    spvcond_context *ctx;
    spvcond_module *m = kernels(&ctx);
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(last_message, "spvcond_function_requirements[1]: size is 0"), "%s", last_message);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

/* Device structs the library fills and reads. */
Test(abi, device_info_in_and_out)
{
    spvcond_device_info d = {0};
    cr_assert_not(spvcond_builtin_device_find("intel_gpu_pvc", &d), "size 0: nothing filled");
    d = SPVCOND_SIZED(spvcond_device_info);
    cr_assert(spvcond_builtin_device_find("intel_gpu_pvc", &d));
    cr_assert_eq(d.size, sizeof(d));
    cr_assert(d.aspect_count > 0 && d.has_architecture);
    spvcond_fnvar_device f = SPVCOND_SIZED(spvcond_fnvar_device);
    spvcond_device_info_facts(&d, SPVCOND_UNSPECIFIED_ANY, &f);
    cr_assert_eq(f.size, sizeof(f));
    cr_assert(f.has_architecture && f.unspecified == SPVCOND_UNSPECIFIED_ANY);
    char why[128];
    cr_assert(spvcond_fnvar_device_check(&f, why, sizeof(why)), "%s", why);
    f.size = 0;
    cr_assert_not(spvcond_fnvar_device_check(&f, why, sizeof(why)));
    cr_assert(strstr(why, "`size` is 0"), "%s", why);
    spvcond_context *ctx;
    spvcond_module *m = kernels(&ctx);
    spvcond_device_info unsized = d;
    unsized.size = 3;
    bool supported;
    cr_assert_eq(spvcond_kernel_supported(m, &unsized, "add_double", &supported, NULL, 0), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(last_message, "spvcond_device_info: size is 3"), "%s", last_message);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

Test(abi, callback_records_carry_their_size)
{
    spvcond_context *ctx;
    spvcond_module *m = kernels(&ctx);
    cr_assert_eq(spvcond_function_variants(m, NULL, check_variant, NULL), SPVCOND_OK);
    spvcond_annotate_options o = {0};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_ERROR_INVALID_ARGUMENT); /* a diagnostic: keep_last checks */
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

/* An invalid argument of a call that has a context is reported, naming the call and the argument. */
Test(abi, invalid_arguments_are_reported)
{
    spvcond_context *ctx;
    spvcond_module *m = kernels(&ctx);
    last_message[0] = 0;
    cr_assert_eq(spvcond_specialize(m, NULL, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_str_eq(last_message, "spvcond_specialize: `options` is NULL");
    cr_assert_eq(spvcond_annotate(m, NULL, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_str_eq(last_message, "spvcond_annotate: `options` is NULL");
    spvcond_annotate_options o = {.size = sizeof(o), .requirement_count = 1};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(last_message, "`requirement_count` is not 0 but `requirements` is NULL"), "%s", last_message);
    cr_assert_eq(spvcond_variant_coverage(m, NULL, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_str_eq(last_message, "spvcond_variant_coverage: `fn` is NULL");
    cr_assert_eq(spvcond_module_emit(m, NULL, NULL), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(last_message, "spvcond_module_emit:"), "%s", last_message);
    spvcond_module *none = NULL;
    cr_assert_eq(spvcond_module_parse(ctx, NULL, 4, 0, &none), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(last_message, "spvcond_module_parse:"), "%s", last_message);
    cr_assert_eq(spvcond_specialize(NULL, NULL, NULL), SPVCOND_ERROR_INVALID_ARGUMENT, "no context: no report, no crash");
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}
