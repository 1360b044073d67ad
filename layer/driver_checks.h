/* SPDX-License-Identifier: MIT */
/* What drivers and the SPIR-V/LLVM translator end the process on and the validator lets pass
 * (driver_checks.c). */
#ifndef SPVCOND_LAYER_DRIVER_CHECKS_H
#define SPVCOND_LAYER_DRIVER_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether the translator can read the module without asserting, as far as the checks above know; when
 * not, where and why in msg. */
bool layer_translator_check(const uint32_t *words, size_t count, char *msg, size_t msg_size);
/* Whether every entry point's name is UTF-8 text without control characters; when not, where in msg. */
bool layer_entry_names_check(const uint32_t *words, size_t count, char *msg, size_t msg_size);

#endif
