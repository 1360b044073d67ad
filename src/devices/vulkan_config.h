/* SPDX-License-Identifier: MIT */
/* A Vulkan device described in a device configuration file (vulkan_config.c). */
#ifndef SPVCOND_VULKAN_CONFIG_H
#define SPVCOND_VULKAN_CONFIG_H

#ifdef SPVCOND_HAVE_YAML

#include "devices/yaml_util.h"

/* The `vulkan:` mapping n of the device `name` (spec/devices.md): *out, one block released with
 * spvcond_free(), as spvcond_vulkan_device_info() describes the device it states. */
spvcond_result spvcond_vulkan_config_read(struct spvcond_yaml *y, yaml_node_t *n, const char *name,
                                          spvcond_device_info **out);

#endif
#endif
