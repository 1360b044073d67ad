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
};

/* Load the configuration (if any) and find the device: the file first, then the built-in table. */
int device_options_resolve(struct cli *cli, struct device_options *d);
void device_options_fini(struct device_options *d);
int device_options_load_config(struct cli *cli, struct device_options *d);

/* The SPV_INTEL_function_variants device (spec/devices.md): --target, --features, --category, --family,
 * --arch, --capabilities (registry names or numbers) and --unspecified error|unknown|any (specialize,
 * check). */
enum { OPT_TARGET = 300, OPT_FEATURES, OPT_CATEGORY, OPT_FAMILY, OPT_ARCH, OPT_CAPABILITIES, OPT_UNSPECIFIED };
#define FNVAR_LONG_OPTIONS                                                                                       \
    {"target", required_argument, NULL, OPT_TARGET}, {"features", required_argument, NULL, OPT_FEATURES},       \
        {"category", required_argument, NULL, OPT_CATEGORY}, {"family", required_argument, NULL, OPT_FAMILY},   \
        {"arch", required_argument, NULL, OPT_ARCH}, {"capabilities", required_argument, NULL, OPT_CAPABILITIES}, \
        {"unspecified", required_argument, NULL, OPT_UNSPECIFIED}
#define FNVAR_USAGE                                                                                             \
    "  --target T, --features F1,F2\n"                                                                          \
    "                     The device's target and all its features, by registry name or number\n"              \
    "                     (x86_64, avx2,avx512f; '' for none). Default: --device's.\n"                          \
    "  --arch A           Its architecture: intel_gpu_pvc, gpu/intel/pvc, cpu/amd/zen4... Default:\n"          \
    "                     --device's.\n"                                                                         \
    "  --category C, --family F\n"                                                                              \
    "                     Or its architecture part by part, --arch then naming one of the family.\n"           \
    "  --capabilities C1,C2\n"                                                                                  \
    "                     All the SPIR-V capabilities it supports (names or numbers).\n"                        \
    "  --unspecified error|unknown|any\n"                                                                       \
    "                     What a fact the module's device constants need and nobody gave means:\n"             \
    "                     refuse (default), the extension's unrecognised value, or match anything.\n"

struct fnvar_options {
    spvcond_fnvar_device device;
    const char *target, *features, *category, *family, *arch, *capabilities, *unspecified;
    struct u32_list feature_list, caps;
    bool given;
};

/* Option `opt` if it is one of FNVAR_LONG_OPTIONS (true), its exit code in *rc. */
bool fnvar_option(struct fnvar_options *f, int opt, const char *arg, int *rc);
/* The device once the options are read, each fact not given taken from --device's (d, may be NULL).
 * EXIT_USAGE, said, for a name the registry does not know, --features without a target, --family
 * without --category, a number for --arch without --category and --family, or (unless --unspecified
 * says what a missing part means) an architecture given in part. */
int fnvar_options_finish(struct fnvar_options *f, const struct device_options *d);
void fnvar_options_fini(struct fnvar_options *f);

#endif
