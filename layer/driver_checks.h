/* SPDX-License-Identifier: MIT */
/* What drivers and the SPIR-V/LLVM translator end the process on and the validator lets pass
 * (driver_checks.c). */
#ifndef SPVCOND_LAYER_DRIVER_CHECKS_H
#define SPVCOND_LAYER_DRIVER_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether a driver and the translator can take the module as far as the checks of driver_checks.c know;
 * when not, where and why in msg. *address_bits: the module's pointer size from its addressing model (32,
 * 64; 0 when it states neither, or the walk stopped before it). */
bool layer_driver_check(const uint32_t *words, size_t count, unsigned *address_bits, char *msg, size_t msg_size);

#endif
