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

/* The SPV_INTEL_function_variants device: --target N, --features A,B, --category N, --family N, --arch N,
 * --capabilities C1,C2 (specialize, check). */
enum { OPT_TARGET = 300, OPT_FEATURES, OPT_CATEGORY, OPT_FAMILY, OPT_ARCH, OPT_CAPABILITIES };
#define FNVAR_LONG_OPTIONS                                                                                       \
    {"target", required_argument, NULL, OPT_TARGET}, {"features", required_argument, NULL, OPT_FEATURES},       \
        {"category", required_argument, NULL, OPT_CATEGORY}, {"family", required_argument, NULL, OPT_FAMILY},   \
        {"arch", required_argument, NULL, OPT_ARCH}, {"capabilities", required_argument, NULL, OPT_CAPABILITIES}
#define FNVAR_USAGE                                                                                             \
    "  --target N, --features A,B\n"                                                                            \
    "                     SPV_INTEL_function_variants device target and features.\n"                             \
    "  --category N, --family N, --arch N\n"                                                                    \
    "                     The device architecture (default: --device's, if known).\n"                            \
    "  --capabilities C1,C2\n"                                                                                  \
    "                     Capabilities the device supports (numbers or names).\n"

struct fnvar_options {
    spvcond_fnvar_device device;
    struct u32_list features, caps;
    bool given;
    uint8_t architecture_parts; /* bits: 1 --category, 2 --family, 4 --arch */
};

/* Option `opt` if it is one of FNVAR_LONG_OPTIONS (true), its exit code in *rc. */
bool fnvar_option(struct fnvar_options *f, int opt, const char *arg, int *rc);
/* The device once the options are read; the architecture from --device's (d, may be NULL) unless given.
 * EXIT_USAGE, said, for a part of the architecture without the rest (--category, --family and --arch go
 * together: no part is taken as 0) or --features without --target. */
int fnvar_options_finish(struct fnvar_options *f, const struct device_options *d);
void fnvar_options_fini(struct fnvar_options *f);

#endif
