/* SPDX-License-Identifier: MIT */
/* --device and --device-config, shared by the commands that take a device. */
#ifndef SPVCOND_DEVICE_OPTIONS_H
#define SPVCOND_DEVICE_OPTIONS_H

#include "cli.h"
#include "values.h"

struct device_options {
    const char *name;
    const char *config_path;
    spvcond_device_config *config;
    spvcond_device_info info;
    spvcond_device_info *vulkan; /* a built-in Vulkan device's description (spvcond_vulkan_profile), owned */
    spvcond_context *vulkan_ctx; /* what it was allocated in */
};

/* Load the configuration (if any) and find the device: the file first, then the built-in tables (DPC++'s
 * targets, then the Vulkan devices). */
int device_options_resolve(struct cli *cli, struct device_options *d);
void device_options_fini(struct device_options *d);
/* The built-in Vulkan device `name` (spvcond_vulkan_profile) as spvcond_vulkan_device_info describes it, in *out
 * (spvcond_free with ctx); SPVCOND_ERROR_NOT_FOUND for a name that is none. */
spvcond_result device_options_vulkan_info(spvcond_context *ctx, const char *name, spvcond_device_info **out);
int device_options_load_config(struct cli *cli, struct device_options *d);

/* The SPV_INTEL_function_variants device (spec/devices.md): --target, --features, --category, --family,
 * --arch, --capabilities (registry names or numbers) and --unspecified error|unknown|any (specialize,
 * check), kept as given and resolved by fnvar_options_finish. */
struct fnvar_options {
    spvcond_fnvar_device device;
    const char *target, *features, *category, *family, *arch, *capabilities, *unspecified;
    struct u32_list feature_list, caps;
};

/* Their rows of a command's option table, for a struct fnvar_options FIELD of the command's TYPE. */
#define FNVAR_ROWS(TYPE, FIELD)                                                                                      \
    CLI_STRING("target", 0, "T", TYPE, FIELD.target,                                                                 \
               "The device's target and all its features, by registry name or number\n"                             \
               "(x86_64, avx2,avx512f; '' for none). Default: --device's."),                                         \
        CLI_STRING("features", 0, "F1,F2", TYPE, FIELD.features, NULL),                                              \
        CLI_STRING("arch", 0, "A", TYPE, FIELD.arch,                                                                 \
                   "Its architecture: intel_gpu_pvc, gpu/intel/pvc, cpu/amd/zen4... Default:\n"                     \
                   "--device's."),                                                                                   \
        CLI_STRING("category", 0, "C", TYPE, FIELD.category,                                                         \
                   "Or its architecture part by part, --arch then naming one of the family."),                      \
        CLI_STRING("family", 0, "F", TYPE, FIELD.family, NULL),                                                      \
        CLI_STRING("capabilities", 0, "C1,C2", TYPE, FIELD.capabilities,                                             \
                   "All the SPIR-V capabilities it supports (names or numbers)."),                                  \
        CLI_STRING("unspecified", 0, "error|unknown|any", TYPE, FIELD.unspecified,                                   \
                   "What a fact the module's device constants need and nobody gave means:\n"                        \
                   "refuse (default), the extension's unrecognised value, or match anything.")

/* Whether any of them was given. */
bool fnvar_options_given(const struct fnvar_options *f);
/* The device once the options are read, each fact not given taken from --device's (d, may be NULL).
 * EXIT_USAGE, said, for a name the registry does not know, --features without a target, --family
 * without --category, a number for --arch without --category and --family, or (unless --unspecified
 * says what a missing part means) an architecture given in part. */
int fnvar_options_finish(struct fnvar_options *f, const struct device_options *d);
void fnvar_options_fini(struct fnvar_options *f);

#endif
