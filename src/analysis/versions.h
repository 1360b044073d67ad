/* SPDX-License-Identifier: MIT */
/* SPIR-V's version rules, as SPIRV-Tools' validator applies them from the grammar: every instruction
 * and every enumerant operand (capability, decoration, execution mode, storage class, built-in, a mask's
 * bits...) against the module's version, the grammar's first and last version of it, and the extensions
 * and capabilities that enable it without the version (spec/validate.md, "Versions"). */
#ifndef SPVCOND_VERSIONS_H
#define SPVCOND_VERSIONS_H

#include "ir/module.h"

/* One broken rule: instruction `inst`, and the message (without the instruction, which the caller's
 * diagnostic names). Return SPVCOND_OK to go on. */
typedef spvcond_result (*spvcond_version_fn)(void *user, size_t inst, const char *message);

/* Every broken rule of the module to fn, in module order; the first result other than SPVCOND_OK stops
 * the walk and is returned (the walker's own errors too, reported). */
spvcond_result spvcond_check_versions(const struct spvcond_module *m, spvcond_version_fn fn, void *user);

#endif
