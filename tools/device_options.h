/* SPDX-License-Identifier: MIT */
/* --device and --device-config, shared by the commands that take a device. */
#ifndef SPVCOND_DEVICE_OPTIONS_H
#define SPVCOND_DEVICE_OPTIONS_H

#include "cli.h"

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

#endif
