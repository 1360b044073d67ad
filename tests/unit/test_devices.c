/* SPDX-License-Identifier: MIT */
/* Device descriptions: the built-in table, YAML configurations, values and the support check. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devices/devices.h"
#include "registry/aspects.h"
#include "helpers.h"

Test(devices, builtin_table)
{
    size_t n = spvcond_builtin_device_count();
    cr_assert_gt(n, 70);
    char buf[64];
    cr_assert_str_eq(spvcond_builtin_device_name(0, buf, sizeof(buf)), "x86_64");
    cr_assert_null(spvcond_builtin_device_name(n, buf, sizeof(buf)));
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_builtin_device_find("intel_gpu_acm_g10", &d));
    struct spvcond_requirement fp64 = {SPVCOND_REQ_ASPECT, {6, 0, 0}}, fp16 = {SPVCOND_REQ_ASPECT, {5, 0, 0}};
    struct spvcond_requirement sg16 = {SPVCOND_REQ_SUB_GROUP_SIZE, {16, 0, 0}}, sg64 = {SPVCOND_REQ_SUB_GROUP_SIZE, {64, 0, 0}};
    cr_assert(!spvcond_device_supports(&d, &fp64), "Arc has no fp64");
    cr_assert(spvcond_device_supports(&d, &fp16));
    cr_assert(spvcond_device_supports(&d, &sg16));
    cr_assert(!spvcond_device_supports(&d, &sg64));
    cr_assert(spvcond_builtin_device_find("intel_gpu_pvc", &d));
    cr_assert(spvcond_device_supports(&d, &fp64));
    cr_assert(spvcond_builtin_device_find("amd_gpu_gfx90a", &d));
    cr_assert(spvcond_device_supports(&d, &sg64) && !spvcond_device_supports(&d, &sg16));
    cr_assert(spvcond_builtin_device_find("x86_64", &d));
    cr_assert(spvcond_device_supports(&d, &fp64) && spvcond_device_supports(&d, &sg64), "may support anything");
    cr_assert(!spvcond_builtin_device_find("intel_gpu_nope", &d));
}

Test(devices, requirement_names)
{
    struct spvcond_requirement q;
    cr_assert_eq(spvcond_requirement_parse("spvcond.aspect.fp64", &q), 1);
    cr_assert(q.kind == SPVCOND_REQ_ASPECT && q.v[0] == 6);
    cr_assert_eq(spvcond_requirement_parse("spvcond.aspect.77", &q), 1);
    cr_assert_eq(q.v[0], 77);
    cr_assert_eq(spvcond_requirement_parse("spvcond.reqd_work_group_size.64.2.1", &q), 1);
    cr_assert(q.kind == SPVCOND_REQ_WORK_GROUP_SIZE && q.v[0] == 64 && q.v[1] == 2 && q.v[2] == 1);
    cr_assert_eq(spvcond_requirement_parse("spvcond.reqd_sub_group_size.16", &q), 1);
    cr_assert_eq(spvcond_requirement_parse("spvcond.reqd_sub_group_size.x", &q), -1);
    cr_assert_eq(spvcond_requirement_parse("spvcond.aspect.not_an_aspect", &q), -1);
    cr_assert_eq(spvcond_requirement_parse("spvcond.whatever", &q), -1);
    cr_assert_eq(spvcond_requirement_parse("helper", &q), 0);
    char msg[128];
    q = (struct spvcond_requirement){SPVCOND_REQ_ASPECT, {6, 0, 0}};
    spvcond_requirement_message(&q, msg, sizeof(msg));
    cr_assert_str_eq(msg, "Required aspect fp64 is not supported on the device");
    q = (struct spvcond_requirement){SPVCOND_REQ_SUB_GROUP_SIZE, {32, 0, 0}};
    spvcond_requirement_message(&q, msg, sizeof(msg));
    cr_assert_str_eq(msg, "Sub-group size 32 is not supported on the device");
    /* A shader module's capability requirements (spec/annotate.md, "Shader modules"). */
    cr_assert_eq(spvcond_requirement_parse("spvcond.capability.Int64", &q), 1);
    cr_assert(q.kind == SPVCOND_REQ_CAPABILITY && q.v[0] == 11);
    cr_assert_eq(spvcond_requirement_parse("spvcond.capability.63", &q), 1);
    cr_assert_eq(spvcond_requirement_parse("spvcond.capability.NotACapability", &q), -1);
    q = (struct spvcond_requirement){SPVCOND_REQ_CAPABILITY, {63, 0, 0}};
    spvcond_requirement_message(&q, msg, sizeof(msg));
    cr_assert_str_eq(msg, "Required capability GroupNonUniformArithmetic is not supported on the device");
    uint32_t caps[] = {1, 11};
    spvcond_device_info d = {.size = sizeof(d), .has_capabilities = true, .capabilities = caps, .capability_count = 2};
    q.v[0] = 11;
    cr_assert(spvcond_device_supports(&d, &q), "listed");
    q.v[0] = 63;
    cr_assert(!spvcond_device_supports(&d, &q), "not listed");
    d.has_capabilities = false;
    cr_assert(!spvcond_device_supports(&d, &q), "no list: as an unlisted aspect");
    d.may_support_other_aspects = true;
    cr_assert(spvcond_device_supports(&d, &q), "no list, and it may support others");
    cr_assert(spvcond_vulkan_capability_optional(11) && spvcond_vulkan_capability_optional(63));
    cr_assert(!spvcond_vulkan_capability_optional(1) && !spvcond_vulkan_capability_optional(6), "Shader, Kernel");
    cr_assert_str_eq(spvcond_capability_name(11), "Int64");
    cr_assert_null(spvcond_capability_name(123456));
}

static bool
has(const uint32_t *list, size_t n, uint32_t value)
{
    for (size_t k = 0; k < n; k++)
        if (list[k] == value)
            return true;
    return false;
}

/* The built-in Vulkan devices: the least of each core version, as spvcond_vulkan_device_info describes them. */
Test(devices, vulkan_profiles)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    size_t n = 0;
    while (spvcond_vulkan_profile_name(n))
        n++;
    cr_assert_eq(n, 4);
    size_t previous = 0;
    for (size_t k = 0; k < n; k++) {
        spvcond_vulkan_device vk = SPVCOND_SIZED(spvcond_vulkan_device);
        cr_assert(spvcond_vulkan_profile(spvcond_vulkan_profile_name(k), &vk));
        spvcond_device_info *d;
        cr_assert_eq(spvcond_vulkan_device_info(ctx, &vk, &d), SPVCOND_OK);
        cr_assert_gt(d->capability_count, previous, "each version has more than the one before");
        previous = d->capability_count;
        uint32_t v;
        cr_assert(spvcond_capability_value("GroupNonUniform", &v));
        cr_assert_eq(has(d->capabilities, d->capability_count, v), k >= 1, "subgroups from 1.1");
        cr_assert(spvcond_capability_value("DotProduct", &v));
        cr_assert_eq(has(d->capabilities, d->capability_count, v), k == 3, "integer dot products in 1.3");
        cr_assert(spvcond_capability_value("Float64", &v) && !has(d->capabilities, d->capability_count, v));
        cr_assert_eq(d->max_work_group_size, 128);
        spvcond_free(ctx, d);
    }
    spvcond_vulkan_device vk = SPVCOND_SIZED(spvcond_vulkan_device);
    cr_assert(!spvcond_vulkan_profile("vulkan9.9", &vk) && !spvcond_vulkan_profile(NULL, &vk));
    cr_assert(!spvcond_vulkan_profile("vulkan1.1", NULL));
    spvcond_context_destroy(ctx);
}

static void expect_config_error(const char *text, const char *needle);

/* A Vulkan device in a configuration file (`vulkan:`), and what its keys refuse. */
Test(devices, vulkan_configuration)
{
    static const char text[] = "small:\n"
                               "  vulkan:\n"
                               "    api-version: 1.1\n"
                               "    type: integrated-gpu\n"
                               "    features: [shaderInt64, shaderInt8]\n"
                               "    subgroup-size: 32\n"
                               "    subgroup-operations: [basic, vote]\n"
                               "    max-compute-work-group-invocations: 1024\n"
                               "  architecture: intel_gpu_tgllp\n";
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_device_config *c;
    cr_assert_eq(spvcond_device_config_parse(ctx, text, strlen(text), "vk.yaml", &c), SPVCOND_OK);
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_device_config_find(c, "small", &d));
    cr_assert_str_eq(d.name, "small");
    cr_assert(d.has_capabilities && d.has_architecture, "Vulkan's facts and the entry's own architecture");
    uint32_t v;
    const char *with[] = {"Int64", "Int8", "GroupNonUniform", "GroupNonUniformVote", "DeviceGroup"};
    const char *without[] = {"Float64", "GroupNonUniformArithmetic", "ShaderNonUniform"};
    for (size_t k = 0; k < sizeof(with) / sizeof(with[0]); k++)
        cr_assert(spvcond_capability_value(with[k], &v) && has(d.capabilities, d.capability_count, v), "%s", with[k]);
    for (size_t k = 0; k < sizeof(without) / sizeof(without[0]); k++)
        cr_assert(spvcond_capability_value(without[k], &v) && !has(d.capabilities, d.capability_count, v), "not %s",
                  without[k]);
    cr_assert(d.sub_group_size_count == 1 && d.sub_group_sizes[0] == 32 && d.max_work_group_size == 1024);
    cr_assert(has(d.aspects, d.aspect_count, 2) && has(d.aspects, d.aspect_count, 9), "gpu, image");
    spvcond_device_config_destroy(c);
    spvcond_context_destroy(ctx);
    expect_config_error("a:\n  vulkan:\n    api-version: one\n", "bad.yaml:3: api-version must be");
    expect_config_error("a:\n  vulkan:\n    type: gpu\n", "bad.yaml:3: type must be");
    expect_config_error("a:\n  vulkan:\n    subgroup-operations: [basic, magic]\n", "unknown subgroup operation");
    expect_config_error("a:\n  vulkan:\n    features: shaderInt64\n", "bad.yaml:3: features");
    expect_config_error("a:\n  vulkan:\n    colour: red\n", "bad.yaml:3: unknown key of vulkan:");
    expect_config_error("a:\n  vulkan: [1]\n", "bad.yaml:2: vulkan: expected a mapping");
}

static const char config[] =
    "# comment\n"
    "my_gpu:\n"
    "  aspects: [fp16, atomic64, 9]\n"
    "  may_support_other_aspects: false\n"
    "  sub-group-sizes: [8, 16]\n"
    "  max-work-group-size: 256\n"
    "  aot-toolchain: ocloc\n"
    "intel_gpu_pvc:\n"
    "  aspects:\n"
    "    - fp64\n";

Test(devices, yaml_configuration)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_device_config *c;
    cr_assert_eq(spvcond_device_config_parse(ctx, config, strlen(config), "dev.yaml", &c), SPVCOND_OK);
    cr_assert_eq(spvcond_device_config_count(c), 2);
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_device_config_find(c, "my_gpu", &d));
    cr_assert_eq(d.aspect_count, 3);
    cr_assert(d.aspects[0] == 5 && d.aspects[1] == 28 && d.aspects[2] == 9);
    cr_assert(d.sub_group_size_count == 2 && d.sub_group_sizes[1] == 16);
    cr_assert_eq(d.max_work_group_size, 256);
    struct spvcond_requirement wg = {SPVCOND_REQ_WORK_GROUP_SIZE, {64, 4, 1}}, big = {SPVCOND_REQ_WORK_GROUP_SIZE, {64, 8, 1}};
    cr_assert(spvcond_device_supports(&d, &wg) && !spvcond_device_supports(&d, &big));
    cr_assert(spvcond_device_config_find(c, "intel_gpu_pvc", &d), "the file overrides the built-in entry");
    cr_assert(d.aspect_count == 1 && d.aspects[0] == 6);
    spvcond_device_config_destroy(c);
    spvcond_context_destroy(ctx);
}

static void
expect_config_error(const char *text, const char *needle)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_device_config *c = (spvcond_device_config *)1;
    cr_assert_neq(spvcond_device_config_parse(ctx, text, strlen(text), "bad.yaml", &c), SPVCOND_OK);
    cr_assert_null(c);
    const char *msg = spvcond_context_first_error(ctx)->message;
    cr_assert(strstr(msg, needle) != NULL, "'%s' lacks '%s'", msg, needle);
    spvcond_context_destroy(ctx);
}

Test(devices, yaml_errors_name_the_line)
{
    expect_config_error("a:\n  aspects: [fp16, fp99]\n", "bad.yaml:2: unknown aspect: fp99");
    expect_config_error("a:\n  sub-group-sizes: [x]\n", "bad.yaml:2: not a sub-group size: x");
    expect_config_error("a: [1, 2]\n", "bad.yaml:1: a device must be a mapping");
    expect_config_error("- a\n- b\n", "the top level must map device names");
    expect_config_error("a:\n  aspects: [fp16\n", "bad.yaml:");
    expect_config_error("a:\n  may_support_other_aspects: maybe\n", "must be true or false");
}

Test(devices, duplicate_device_warns_and_last_wins)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    const char *text = "a:\n  aspects: [fp16]\na:\n  aspects: [fp64]\n";
    spvcond_device_config *c;
    cr_assert_eq(spvcond_device_config_parse(ctx, text, strlen(text), "dup.yaml", &c), SPVCOND_OK);
    cr_assert_eq(spvcond_context_warning_count(ctx), 1);
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_device_config_find(c, "a", &d) && d.aspects[0] == 6);
    cr_assert_eq(spvcond_device_config_count(c), 1);
    spvcond_device_config_destroy(c);
    spvcond_context_destroy(ctx);
}

struct batch {
    spvcond_module *m;
    const spvcond_device_info *d;
    size_t seen;
};

static void
compare_with_single(void *user, const char *kernel, bool supported, const char *reason)
{
    struct batch *b = user;
    bool ok;
    char single[SPVCOND_REASON_MAX];
    cr_assert_eq(spvcond_kernel_supported(b->m, b->d, kernel, &ok, single, sizeof(single)), SPVCOND_OK);
    cr_assert_eq(ok, supported, "%s", kernel);
    cr_assert_str_eq(reason, single, "%s", kernel);
    b->seen++;
}

Test(devices, values_and_support_check)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("annotate_graph"), &ctx);
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK);
    uint32_t *w;
    size_t n;
    cr_assert_eq(spvcond_module_emit(m, &w, &n), SPVCOND_OK);
    spvcond_module *a = parse_or_die(ctx, w, n);
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_builtin_device_find("intel_gpu_acm_g10", &d));
    spvcond_spec_value *v;
    size_t count;
    cr_assert_eq(spvcond_device_spec_values(a, &d, &v, &count), SPVCOND_OK);
    cr_assert_eq(count, 3);
    /* Leaves in SpecId order: fp64, fp16, reqd_sub_group_size.16 */
    cr_assert(v[0].value == 0 && v[1].value == 1 && v[2].value == 1);
    spvcond_free(ctx, v);
    bool ok;
    char reason[256];
    cr_assert_eq(spvcond_kernel_supported(a, &d, "k_double", &ok, reason, sizeof(reason)), SPVCOND_OK);
    cr_assert(!ok);
    cr_assert_str_eq(reason, "Required aspect fp64 is not supported on the device");
    cr_assert_eq(spvcond_kernel_supported(a, &d, "k_sg", &ok, reason, sizeof(reason)), SPVCOND_OK);
    cr_assert(ok);
    cr_assert_eq(spvcond_kernel_supported(a, &d, "k_plain", &ok, reason, sizeof(reason)), SPVCOND_OK);
    cr_assert(ok);
    cr_assert(spvcond_builtin_device_find("dpcpp:amd_gpu_gfx90a", &d)); /* DPC++'s: size 64 only, no fp16 */
    cr_assert_eq(spvcond_kernel_supported(a, &d, "k_sg", &ok, reason, sizeof(reason)), SPVCOND_OK);
    cr_assert(!ok);
    cr_assert_str_eq(reason, "Sub-group size 16 is not supported on the device");
    cr_assert_eq(spvcond_kernel_supported(a, &d, "k_half", &ok, reason, sizeof(reason)), SPVCOND_OK);
    cr_assert_str_eq(reason, "Required aspect fp16 is not supported on the device");
    cr_assert_eq(spvcond_kernel_supported(a, &d, "nope", &ok, reason, sizeof(reason)), SPVCOND_ERROR_NOT_FOUND);
    /* Every kernel at once gives the same verdicts and reasons as one by one. */
    struct batch b = {a, &d, 0};
    cr_assert_eq(spvcond_kernels_supported(a, &d, compare_with_single, &b), SPVCOND_OK);
    cr_assert_eq(b.seen, a->entry_point_count);
    cr_assert_gt(b.seen, 3);
    spvcond_module_destroy(a);
    spvcond_free(ctx, w);
    destroy_module(m, ctx);
}

/* 20000 devices, the first 100 described again: names are found through an index, not a scan per
 * device (1.65 s here before, quadratic in the devices). */
Test(devices, many_devices_in_a_configuration)
{
    const size_t devices = 20000, again = 100;
    size_t cap = (devices + again) * 40, len = 0;
    char *text = malloc(cap);
    for (size_t k = 0; k < devices + again; k++)
        len += (size_t)snprintf(text + len, cap - len, "d%zu:\n  aspects: [%s]\n", k % devices,
                                k < devices ? "fp16" : "fp64");
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    spvcond_device_config *c;
    cr_assert_eq(spvcond_device_config_parse(ctx, text, len, "many.yaml", &c), SPVCOND_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double t = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    cr_log_info("%zu devices: %.2f s", devices, t);
    cr_assert_lt(t, 20.0);
    cr_assert_eq(spvcond_context_warning_count(ctx), again);
    cr_assert_eq(spvcond_device_config_count(c), devices);
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_device_config_find(c, "d5", &d) && d.aspects[0] == 6, "described again: the last wins");
    cr_assert(spvcond_device_config_find(c, "d500", &d) && d.aspects[0] == 5);
    cr_assert(!spvcond_device_config_find(c, "d20000", &d));
    spvcond_device_config_destroy(c);
    spvcond_context_destroy(ctx);
    free(text);
}

/* The device registry (version 0, intel/llvm core.json): names to values and back, aliases, numbers. */
Test(devices, registry_names_and_values)
{
    uint32_t v, c, f, a;
    char buf[64];
    cr_assert(spvcond_registry_target("x86_64", &v) && v == 4);
    cr_assert(spvcond_registry_target("aarch64", &v) && v == 2, "an alias");
    cr_assert(spvcond_registry_target("arm32", &v) && v == 1);
    cr_assert(spvcond_registry_target("amdgcn", &v) && v == 9);
    cr_assert(spvcond_registry_target("17", &v) && v == 17, "a number the registry does not name");
    cr_assert(!spvcond_registry_target("x86-64", &v));
    cr_assert(!spvcond_registry_target("", &v));
    cr_assert(!spvcond_registry_target("99999999999", &v), "past 32 bits");
    cr_assert_str_eq(spvcond_registry_target_name(8, buf, sizeof(buf)), "nvptx64");
    cr_assert_str_eq(spvcond_registry_target_name(1, buf, sizeof(buf)), "arm", "the first name of a value");
    cr_assert_null(spvcond_registry_target_name(10, buf, sizeof(buf)));
    cr_assert_null(spvcond_registry_target_name(4, buf, 3), "a buffer too small");

    cr_assert(spvcond_registry_feature(4, "avx2", &v) && v == 11);
    cr_assert(spvcond_registry_feature(3, "sse4.1", &v) && v == 7);
    cr_assert(spvcond_registry_feature(2, "sve", &v) && v == 5);
    cr_assert(spvcond_registry_feature(6, "zvl8192b", &v) && v == 242, "the last RISC-V feature");
    cr_assert(spvcond_registry_feature(5, "smstateen", &v) && v == 93);
    cr_assert(!spvcond_registry_feature(8, "avx2", &v), "nvptx64 has no features");
    cr_assert_str_eq(spvcond_registry_feature_name(6, 218, buf, sizeof(buf)), "zvkg");
    cr_assert_null(spvcond_registry_feature_name(4, 13, buf, sizeof(buf)));

    cr_assert(spvcond_registry_category("npu", &v) && v == 3);
    cr_assert(spvcond_registry_family(2, "nvidia", &v) && v == 3);
    cr_assert(spvcond_registry_family(1, "sifive_s7a", &v) && v == 22);
    cr_assert(!spvcond_registry_family(3, "nvidia", &v), "families are per category");
    cr_assert(spvcond_registry_architecture(2, 1, "pvc", &v) && v == 21);
    cr_assert(spvcond_registry_architecture(2, 1, "v12_60_7", &v) && v == 21, "an alias");
    cr_assert(spvcond_registry_architecture(2, 3, "sm70", &v) && v == 6, "the registry's own sm70 = sm62");
    cr_assert(spvcond_registry_architecture(2, 2, "gfx942", &v) && v == 11);
    cr_assert(spvcond_registry_architecture(1, 10, "any", &v) && v == 0, "a family without a list has any");
    cr_assert(!spvcond_registry_architecture(1, 10, "e20", &v));
    cr_assert(!spvcond_registry_architecture(2, 1, "pvd", &v));
    cr_assert_str_eq(spvcond_registry_architecture_name(1, 3, 6, buf, sizeof(buf)), "zen4");
    cr_assert_str_eq(spvcond_registry_architecture_name(3, 1, 2, buf, sizeof(buf)), "lnl");

    cr_assert(spvcond_registry_architecture_path("gpu/intel/pvc", &c, &f, &a) && c == 2 && f == 1 && a == 21);
    cr_assert(spvcond_registry_architecture_path("intel_gpu_pvc", &c, &f, &a) && c == 2 && f == 1 && a == 21,
              "DPC++'s name");
    cr_assert(spvcond_registry_architecture_path("cpu/amd", &c, &f, &a) && c == 1 && f == 3 && a == 0);
    cr_assert(spvcond_registry_architecture_path("2/3/9", &c, &f, &a) && c == 2 && f == 3 && a == 9);
    cr_assert(spvcond_registry_architecture_path("gpu", &c, &f, &a) && c == 2 && f == 0 && a == 0,
              "DPC++'s name of any GPU");
    cr_assert(!spvcond_registry_architecture_path("gpus", &c, &f, &a));
    cr_assert(!spvcond_registry_architecture_path("gpu/intel/pvc/x", &c, &f, &a));
    cr_assert(!spvcond_registry_architecture_path("gpu//pvc", &c, &f, &a));
    spvcond_registry_describe_architecture(2, 3, 9, buf, sizeof(buf));
    cr_assert_str_eq(buf, "gpu/nvidia/sm80");
    spvcond_registry_describe_architecture(2, 3, 99, buf, sizeof(buf));
    cr_assert_str_eq(buf, "gpu/nvidia/99");
    spvcond_registry_describe_architecture(7, 1, 2, buf, sizeof(buf));
    cr_assert_str_eq(buf, "7/1/2");
}

/* Built-in devices carry their registry target and capabilities (spec/devices.md, "The device's facts"). */
Test(devices, builtin_function_variants_facts)
{
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    spvcond_fnvar_device f = {.size = sizeof(spvcond_fnvar_device)};
    cr_assert(spvcond_builtin_device_find("nvidia_gpu_sm_80", &d));
    cr_assert(d.has_target && d.target == 8 && d.has_features && d.feature_count == 0);
    cr_assert(d.has_architecture && d.category == 2 && d.family == 3 && d.architecture == 9);
    bool float16 = false, float64 = false;
    for (size_t k = 0; k < d.capability_count; k++) {
        float16 |= d.capabilities[k] == 9;
        float64 |= d.capabilities[k] == 10;
    }
    cr_assert(d.has_capabilities && float16 && float64, "fp16 and fp64 give Float16 and Float64");
    spvcond_device_info_facts(&d, SPVCOND_UNSPECIFIED_UNKNOWN, &f);
    cr_assert(f.has_target && f.target == 8 && f.has_capabilities && f.unspecified == SPVCOND_UNSPECIFIED_UNKNOWN);
    cr_assert(spvcond_builtin_device_find("intel_gpu_acm_g10", &d));
    cr_assert(d.has_target && d.target == 0, "no Intel GPU instruction set in the registry");
    for (size_t k = 0; k < d.capability_count; k++)
        cr_assert_neq(d.capabilities[k], 10, "acm_g10 has no fp64");
    cr_assert(spvcond_builtin_device_find("x86_64", &d));
    cr_assert(d.has_target && d.target == 4 && !d.has_features && !d.has_capabilities);
    cr_assert(!d.has_architecture && d.has_category && d.category == 1, "a CPU, of an unknown family");
    cr_assert(spvcond_builtin_device_find("spir64_gen", &d));
    cr_assert(d.has_family && d.category == 2 && d.family == 1 && !d.has_architecture);
    cr_assert(spvcond_builtin_device_find("spir64", &d));
    cr_assert(!d.has_target && !d.has_category && !d.has_family && !d.has_architecture);
    cr_assert(spvcond_builtin_device_find("amd_gpu_gfx942", &d));
    cr_assert(d.aspect_count > 0 && d.sub_group_size_count == 1 && d.sub_group_sizes[0] == 64);
    cr_assert(spvcond_builtin_device_find("dpcpp:amd_gpu_gfx942", &d));
    cr_assert_eq(d.aspect_count, 0, "DPC++'s own entry lists nothing");
}

/* A configuration may give the device registry's target and an architecture by path (spec/devices.md). */
Test(devices, yaml_target_and_architecture_path)
{
    static const char text[] = "cpu_box:\n  target: x86_64\n  architecture: cpu/amd/zen4\n"
                               "ptx:\n  target: 8\n  architecture: gpu/nvidia/sm80\n";
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_device_config *c;
    cr_assert_eq(spvcond_device_config_parse(ctx, text, strlen(text), "facts.yaml", &c), SPVCOND_OK);
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_device_config_find(c, "cpu_box", &d));
    cr_assert(d.has_target && d.target == 4 && d.has_architecture && d.category == 1 && d.family == 3 &&
              d.architecture == 6);
    cr_assert(spvcond_device_config_find(c, "ptx", &d));
    cr_assert(d.has_target && d.target == 8 && d.architecture == 9);
    spvcond_device_config_destroy(c);
    spvcond_context_destroy(ctx);
    expect_config_error("a:\n  target: x86-64\n", "unknown target");
    expect_config_error("a:\n  architecture: gpu/intel/pvd\n", "unknown architecture");
}

/* check's verdict per kernel name over a multi-target module's variants, decided by the device's own
 * facts; the reason names the device constants it lacks, each once. */
Test(devices, kernel_name_with_variants)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("dot_two_widths"), &ctx);
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    bool ok;
    char reason[SPVCOND_REASON_MAX];
    cr_assert(spvcond_builtin_device_find("nvidia_gpu_sm_52", &d));
    cr_assert_eq(spvcond_kernel_supported(m, &d, "dot4", &ok, reason, sizeof(reason)), SPVCOND_OK);
    cr_assert(ok && reason[0] == 0, "the float variant survives: %s", reason);
    cr_assert(spvcond_builtin_device_find("intel_gpu_pvc", &d));
    cr_assert_eq(spvcond_kernel_supported(m, &d, "dot4", &ok, reason, sizeof(reason)), SPVCOND_OK);
    cr_assert(!ok);
    cr_assert_str_eq(reason, "Not for the device: architecture UGreaterThanEqual gpu/nvidia/sm60, target nvptx, "
                             "target nvptx64, architecture UGreaterThanEqual gpu/nvidia/any");
    destroy_module(m, ctx);
}

/* The facts pocl and rusticl (llvmpipe) report, and what the library makes of them (spec/devices.md,
 * "OpenCL devices"). */

Test(devices, opencl_device_mapping)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    size_t sizes[2] = {8, 16};
    spvcond_opencl_device pocl = SPVCOND_SIZED(spvcond_opencl_device);
    pocl.name = "pthread-haswell";
    pocl.version = "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-haswell";
    pocl.profile = "FULL_PROFILE";
    pocl.extensions = "cl_khr_byte_addressable_store  cl_khr_spir cl_khr_int64_base_atomics "
                      "cl_khr_int64_extended_atomics cl_khr_fp64 cl_khr_fp16_extra";
    pocl.type = 2; /* CL_DEVICE_TYPE_CPU */
    pocl.double_fp_config = 0x3f;
    pocl.image_support = true;
    pocl.compiler_available = pocl.linker_available = true;
    pocl.max_work_group_size = 4096;
    pocl.generic_address_space = true;
    pocl.sub_group_sizes = sizes;
    pocl.sub_group_size_count = 2;
    spvcond_device_info *d;
    cr_assert_eq(spvcond_opencl_device_info(ctx, &pocl, &d), SPVCOND_OK);
    pocl.name = NULL; /* the result is a copy */
    cr_assert_str_eq(d->name, "pthread-haswell");
    uint32_t want[] = {1 /* cpu */, 6 /* fp64 */, 7, 8, 28 /* atomic64 */, 9 /* image */, 10, 11};
    for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
        cr_assert(has(d->aspects, d->aspect_count, want[k]), "aspect %u", want[k]);
    cr_assert(!has(d->aspects, d->aspect_count, 5), "cl_khr_fp16_extra is not cl_khr_fp16");
    cr_assert(!has(d->aspects, d->aspect_count, 2) && !has(d->aspects, d->aspect_count, 12));
    cr_assert_eq(d->aspect_count, 8);
    cr_assert_eq(d->max_work_group_size, 4096);
    cr_assert(d->sub_group_size_count == 2 && d->sub_group_sizes[0] == 8 && d->sub_group_sizes[1] == 16);
    cr_assert(!d->may_support_other_aspects);
    cr_assert(d->has_capabilities);
    uint32_t caps[] = {4, 5, 6, 7, 8, 10 /* Float64 */, 11, 12 /* Int64Atomics */, 13, 20, 22, 39, 43, 46, 38 /* GenericPointer */};
    for (size_t k = 0; k < sizeof(caps) / sizeof(caps[0]); k++)
        cr_assert(has(d->capabilities, d->capability_count, caps[k]), "capability %u", caps[k]);
    cr_assert(!has(d->capabilities, d->capability_count, 9), "no Float16");
    uint32_t in_order[] = {4, 5, 6, 7, 8, 11, 22, 39, 10, 12, 13, 20, 43, 46, 38};
    cr_assert_eq(d->capability_count, sizeof(in_order) / sizeof(in_order[0]));
    for (size_t k = 0; k < d->capability_count; k++)
        cr_assert_eq(d->capabilities[k], in_order[k], "capability %zu: the aspects' in ascending order", k);
    cr_assert(!has(d->capabilities, d->capability_count, 18), "no Groups without cl_khr_subgroups");
    cr_assert(d->has_category && d->category == 1, "a CPU");
#if defined(__x86_64__)
    cr_assert(d->has_target && d->target == 4, "a CPU device is its host: x86_64");
#endif
    cr_assert(!d->has_architecture && !d->has_features);
    spvcond_free(ctx, d);

    /* rusticl on llvmpipe: OpenCL 3.0 without the generic address space, no fp64, no fp16, no int64
     * atomics; an embedded profile without cles_khr_int64 has no Int64. */
    spvcond_opencl_device llvmpipe = SPVCOND_SIZED(spvcond_opencl_device);
    llvmpipe.version = "OpenCL 3.0";
    llvmpipe.profile = "EMBEDDED_PROFILE";
    llvmpipe.extensions = "cl_khr_byte_addressable_store cl_khr_3d_image_writes";
    llvmpipe.type = 4; /* CL_DEVICE_TYPE_GPU */
    llvmpipe.half_fp_config = 0x6;
    cr_assert_eq(spvcond_opencl_device_info(ctx, &llvmpipe, &d), SPVCOND_OK);
    cr_assert_null(d->name);
    cr_assert(has(d->aspects, d->aspect_count, 2) && has(d->aspects, d->aspect_count, 5));
    cr_assert_eq(d->aspect_count, 2, "gpu and fp16 (from CL_DEVICE_HALF_FP_CONFIG)");
    cr_assert(has(d->capabilities, d->capability_count, 9) && !has(d->capabilities, d->capability_count, 10));
    cr_assert(!has(d->capabilities, d->capability_count, 11), "no Int64 on an embedded profile");
    cr_assert(!has(d->capabilities, d->capability_count, 38), "no GenericPointer");
    cr_assert(d->has_category && d->category == 2 && !d->has_target);
    cr_assert_eq(d->sub_group_size_count, 0);
    spvcond_free(ctx, d);

    /* Bad arguments are refused by name; nothing is written. */
    d = (spvcond_device_info *)&ctx;
    cr_assert_eq(spvcond_opencl_device_info(ctx, NULL, &d), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(spvcond_opencl_device_info(NULL, &llvmpipe, &d), SPVCOND_ERROR_INVALID_ARGUMENT);
    llvmpipe.sub_group_size_count = 3;
    cr_assert_eq(spvcond_opencl_device_info(ctx, &llvmpipe, &d), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_null(d);
    cr_assert(strstr(spvcond_context_first_error(ctx)->message, "spvcond_opencl_device_info"));
    llvmpipe.sub_group_size_count = 0;
    llvmpipe.size = 0;
    cr_assert_eq(spvcond_opencl_device_info(ctx, &llvmpipe, &d), SPVCOND_ERROR_INVALID_ARGUMENT);
    spvcond_context_destroy(ctx);
}

/* Vulkan devices (spec/devices.md, "Vulkan devices"): what the application enabled decides, not what the
 * device could do. lavapipe (Mesa 22.3) with shaderFloat64, shaderInt64 and the 16-bit storage enabled, its
 * subgroup operations in the compute stage; the same device with nothing enabled. */
Test(devices, vulkan_device_mapping)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    const char *features[] = {"shaderFloat64", "shaderInt64", "storageBuffer16BitAccess", "subgroupSizeControl",
                              "notAFeature"};
    const char *extensions[] = {"VK_KHR_16bit_storage"};
    spvcond_vulkan_device lvp = SPVCOND_SIZED(spvcond_vulkan_device);
    lvp.name = "llvmpipe (LLVM 15.0.6, 256 bits)";
    lvp.api_version = (1u << 22) | (3u << 12);
    lvp.device_type = 4; /* VK_PHYSICAL_DEVICE_TYPE_CPU */
    lvp.features = features;
    lvp.feature_count = 5;
    lvp.extensions = extensions;
    lvp.extension_count = 1;
    lvp.subgroup_size = 8;
    lvp.subgroup_stages = 0x20 | 0x10; /* compute, fragment */
    lvp.subgroup_operations = 0x01 | 0x02 | 0x08; /* basic, vote, ballot */
    lvp.min_subgroup_size = 4;
    lvp.max_subgroup_size = 8;
    lvp.max_compute_work_group_invocations = 1024;
    spvcond_device_info *d;
    cr_assert_eq(spvcond_vulkan_device_info(ctx, &lvp, &d), SPVCOND_OK);
    lvp.name = NULL;
    cr_assert_str_eq(d->name, "llvmpipe (LLVM 15.0.6, 256 bits)");
    cr_assert_eq(d->aspect_count, 3);
    cr_assert(has(d->aspects, d->aspect_count, 1) && has(d->aspects, d->aspect_count, 6) &&
                  has(d->aspects, d->aspect_count, 9), "cpu, fp64, image (every Vulkan device's)");
    cr_assert(d->has_category && d->category == 1 && !d->has_target && !d->has_architecture);
    cr_assert_eq(d->max_work_group_size, 1024);
    cr_assert(d->sub_group_size_count == 2 && d->sub_group_sizes[0] == 4 && d->sub_group_sizes[1] == 8,
              "subgroupSizeControl: the powers of two from the smallest size to the largest");
    cr_assert(d->has_capabilities);
    const char *with[] = {"Shader", "Matrix", "ImageQuery", "Float64", "Int64", "StorageBuffer16BitAccess",
                          "GroupNonUniform", "GroupNonUniformVote", "GroupNonUniformBallot",
                          "ShaderNonUniform" /* Vulkan 1.2 */};
    const char *without[] = {"Float16", "Int8", "Int16", "Int64Atomics", "Kernel", "Addresses",
                             "GroupNonUniformArithmetic", "UniformAndStorageBuffer16BitAccess", "VulkanMemoryModel",
                             "DotProduct"};
    uint32_t v;
    for (size_t k = 0; k < sizeof(with) / sizeof(with[0]); k++)
        cr_assert(spvcond_capability_value(with[k], &v) && has(d->capabilities, d->capability_count, v), "%s",
                  with[k]);
    for (size_t k = 0; k < sizeof(without) / sizeof(without[0]); k++)
        cr_assert(spvcond_capability_value(without[k], &v) && !has(d->capabilities, d->capability_count, v),
                  "not %s", without[k]);
    for (size_t k = 1; k < d->capability_count; k++)
        cr_assert_lt(d->capabilities[k - 1], d->capabilities[k], "ascending, each once");
    size_t enabled = d->capability_count;
    spvcond_free(ctx, d);

    /* Nothing enabled, Vulkan 1.0, subgroups outside the compute stage: the capabilities every device has
     * alone; fp16 and atomic64 come from their features. */
    lvp.feature_count = lvp.extension_count = 0;
    lvp.api_version = 1u << 22;
    lvp.subgroup_stages = 0x10;
    lvp.device_type = 2; /* a discrete GPU */
    cr_assert_eq(spvcond_vulkan_device_info(ctx, &lvp, &d), SPVCOND_OK);
    cr_assert_null(d->name);
    cr_assert_eq(d->aspect_count, 2);
    cr_assert(has(d->aspects, d->aspect_count, 2) && d->category == 2, "a GPU (and image)");
    cr_assert(d->sub_group_size_count == 1 && d->sub_group_sizes[0] == 8, "the one size it runs at");
    cr_assert_eq(d->capability_count, 8, "Matrix, Shader, Sampled1D, Image1D, SampledBuffer, ImageBuffer, "
                                          "ImageQuery, DerivativeControl");
    cr_assert(spvcond_capability_value("GroupNonUniform", &v) && !has(d->capabilities, d->capability_count, v));
    cr_assert_lt(d->capability_count, enabled);
    spvcond_free(ctx, d);
    const char *half[] = {"shaderFloat16", "shaderInt8", "shaderBufferInt64Atomics", "vulkanMemoryModel"};
    lvp.features = half;
    lvp.feature_count = 4;
    lvp.api_version = (1u << 22) | (2u << 12);
    cr_assert_eq(spvcond_vulkan_device_info(ctx, &lvp, &d), SPVCOND_OK);
    cr_assert(has(d->aspects, d->aspect_count, 5) && has(d->aspects, d->aspect_count, 28), "fp16, atomic64");
    const char *now[] = {"Float16", "Int8", "Int64Atomics", "VulkanMemoryModel", "ShaderNonUniform"};
    for (size_t k = 0; k < sizeof(now) / sizeof(now[0]); k++)
        cr_assert(spvcond_capability_value(now[k], &v) && has(d->capabilities, d->capability_count, v), "%s", now[k]);
    spvcond_free(ctx, d);

    /* Bad arguments are refused by name; nothing is written. */
    d = (spvcond_device_info *)&ctx;
    cr_assert_eq(spvcond_vulkan_device_info(ctx, NULL, &d), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(spvcond_vulkan_device_info(NULL, &lvp, &d), SPVCOND_ERROR_INVALID_ARGUMENT);
    const char *holed[] = {"shaderFloat64", NULL};
    lvp.features = holed;
    lvp.feature_count = 2;
    cr_assert_eq(spvcond_vulkan_device_info(ctx, &lvp, &d), SPVCOND_ERROR_INVALID_ARGUMENT);
    cr_assert_null(d);
    cr_assert(strstr(spvcond_context_first_error(ctx)->message, "spvcond_vulkan_device_info"));
    lvp.features = NULL;
    lvp.feature_count = 0;
    lvp.extensions = NULL;
    lvp.extension_count = 1;
    cr_assert_eq(spvcond_vulkan_device_info(ctx, &lvp, &d), SPVCOND_ERROR_INVALID_ARGUMENT);
    lvp.extension_count = 0;
    lvp.size = 0;
    cr_assert_eq(spvcond_vulkan_device_info(ctx, &lvp, &d), SPVCOND_ERROR_INVALID_ARGUMENT);
    spvcond_context_destroy(ctx);
}

/* NVIDIA's OpenCL driver as the H100/H200 report it: fp64, int64 atomics, images, no fp16 in its
 * extensions or CL_DEVICE_HALF_FP_CONFIG. The compute capability adds what the hardware has (fp16 from
 * 5.3), target nvptx64 and the architecture; a device newer than the table takes its newest entry. */
Test(devices, opencl_nvidia_compute_capability)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_opencl_device nv = SPVCOND_SIZED(spvcond_opencl_device);
    nv.name = "NVIDIA H200";
    nv.version = "OpenCL 3.0 CUDA";
    nv.profile = "FULL_PROFILE";
    nv.extensions = "cl_khr_global_int32_base_atomics cl_khr_fp64 cl_khr_3d_image_writes cl_khr_byte_addressable_store "
                    "cl_khr_icd cl_nv_compiler_options cl_nv_device_attribute_query cl_khr_int64_base_atomics "
                    "cl_khr_int64_extended_atomics";
    nv.type = 4; /* CL_DEVICE_TYPE_GPU */
    nv.double_fp_config = 0x3f;
    nv.image_support = true;
    nv.max_work_group_size = 1024;
    struct {
        uint32_t major, minor;
        bool fp16;
        const char *architecture;
    } cases[] = {{9, 0, true, "nvidia_gpu_sm_90"}, {5, 2, false, "nvidia_gpu_sm_52"}, {5, 3, true, "nvidia_gpu_sm_53"},
                 {8, 9, true, "nvidia_gpu_sm_89"}, {12, 0, true, "nvidia_gpu_sm_90"}, {0, 0, false, NULL}};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        nv.compute_capability_major = cases[c].major;
        nv.compute_capability_minor = cases[c].minor;
        spvcond_device_info *d;
        cr_assert_eq(spvcond_opencl_device_info(ctx, &nv, &d), SPVCOND_OK);
        cr_assert_eq(has(d->aspects, d->aspect_count, 5), cases[c].fp16, "fp16 on %u.%u", cases[c].major,
                     cases[c].minor);
        cr_assert_eq(has(d->capabilities, d->capability_count, 9), cases[c].fp16, "Float16 on %u.%u", cases[c].major,
                     cases[c].minor);
        cr_assert(has(d->aspects, d->aspect_count, 6) && has(d->aspects, d->aspect_count, 28) &&
                  has(d->aspects, d->aspect_count, 9), "fp64, atomic64 and image as the driver reports them");
        cr_assert(d->has_category && d->category == 2, "a GPU");
        if (cases[c].architecture) {
            spvcond_device_info builtin = SPVCOND_SIZED(spvcond_device_info);
            cr_assert(spvcond_builtin_device_find(cases[c].architecture, &builtin));
            cr_assert(d->has_target && d->target == 8, "target nvptx64 on %u.%u", cases[c].major, cases[c].minor);
            cr_assert(d->has_architecture && d->architecture == builtin.architecture && d->family == builtin.family,
                      "%u.%u is %s", cases[c].major, cases[c].minor, cases[c].architecture);
        } else {
            cr_assert(!d->has_target && !d->has_architecture, "no compute capability: nothing of NVIDIA's");
        }
        spvcond_free(ctx, d);
    }
    spvcond_context_destroy(ctx);
}

/* The aspect table (registry/aspect_table.h) is indexed by number, its names unique and found again by
 * name; its SPIR-V columns say what the library reads as each aspect. */
Test(devices, aspect_table)
{
    size_t count, named = 0;
    const struct spvcond_aspect_row *rows = spvcond_aspect_rows(&count);
    cr_assert(count > SPVCOND_ASPECT_EXT_ONEAPI_EXPORTABLE_DEVICE_MEM && count <= SPVCOND_ASPECT_MAX);
    for (size_t k = 0; k < count; k++) {
        if (!rows[k].name)
            continue;
        named++;
        uint32_t back = UINT32_MAX;
        cr_assert_eq(rows[k].number, k);
        cr_assert(spvcond_aspect_by_name(rows[k].name, &back) && back == k, "%s", rows[k].name);
        cr_assert_str_eq(spvcond_aspect_name((uint32_t)k), rows[k].name);
    }
    cr_assert_eq(named, 87, "DPC++'s 91 numbers less the 4 removed");
    cr_assert_null(spvcond_aspect_name(35));
    cr_assert_eq(SPVCOND_ASPECT_FP64, 6);
    cr_assert_eq(SPVCOND_ASPECT_ATOMIC64, 28);
    cr_assert_eq(spvcond_aspect_of_capability(10 /* Float64 */, false), SPVCOND_ASPECT_FP64);
    cr_assert_eq(spvcond_aspect_of_capability(9 /* Float16 */, false), SPVCOND_ASPECT_FP16);
    cr_assert_eq(spvcond_aspect_of_capability(13 /* ImageBasic */, false), SPVCOND_ASPECT_IMAGE);
    cr_assert_eq(spvcond_aspect_of_capability(12 /* Int64Atomics */, true), SPVCOND_ASPECT_ATOMIC64);
    cr_assert_eq(spvcond_aspect_of_capability(10, true), SPVCOND_ASPECT_MAX, "fp64 is inferred from types");
    cr_assert_eq(spvcond_aspect_of_capability(6 /* Kernel */, false), SPVCOND_ASPECT_MAX);
    cr_assert_eq(spvcond_aspect_of_capability(0, false), SPVCOND_ASPECT_MAX);
}
