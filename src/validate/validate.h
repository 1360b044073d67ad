/* SPDX-License-Identifier: MIT */
/* validate.c's entry for the other passes (the public ones are in spvcond.h). */
#ifndef SPVCOND_VALIDATE_H
#define SPVCOND_VALIDATE_H

#include "validate/validate_check.h"

/* spvcond_validate, but every use that could dangle goes to `fn` (each one, not one per pair of guards)
 * instead of being reported; other violations are reported as usual and counted in *violations. For
 * repair.c. */
spvcond_result spvcond_validate_dangling(struct spvcond_module *m, spvcond_dangling_fn fn, void *user,
                                         size_t *violations);

#endif
