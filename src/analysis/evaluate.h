/* SPDX-License-Identifier: MIT */
/* Evaluating the scalar constants of a module: plain constants, spec constants with the caller's
 * values or their defaults, OpSpecConstantOp trees and the function-variants device constants. */
#ifndef SPVCOND_EVALUATE_H
#define SPVCOND_EVALUATE_H

#include "ir/module.h"

enum spvcond_value_state {
    SPVCOND_VALUE_UNKNOWN = 0, /* not a scalar integer/boolean constant, or depends on one */
    SPVCOND_VALUE_KNOWN,
    SPVCOND_VALUE_UNDEFINED,   /* an operation with undefined behaviour (see value_reason) */
};

struct spvcond_values {
    uint8_t *state;   /* per id */
    uint64_t *value;  /* per id: zero-extended to the type's width; the reason code when UNDEFINED */
    size_t missing_inst;     /* the first device constant that needs a fact not given (under ERROR), or
                                SIZE_MAX; the fact */
    const char *missing_fact;
};

/* Reasons for SPVCOND_VALUE_UNDEFINED, stored in value[]. */
enum {
    SPVCOND_UNDEF_DIVISION_BY_ZERO = 1,
    SPVCOND_UNDEF_SHIFT_TOO_WIDE,
    SPVCOND_UNDEF_OVERFLOW,  /* INT_MIN / -1 */
};

spvcond_result spvcond_evaluate(const struct spvcond_module *m, spvcond_spec_value *values, size_t value_count,
                                const spvcond_fnvar_device *device, struct spvcond_values *out);
void spvcond_values_release(const struct spvcond_module *m, struct spvcond_values *v);

/* The boolean value of a condition id, or an error naming `user` (the instruction that needs it)
 * when the id is not a boolean specialization constant with a known value. */
spvcond_result spvcond_condition_value(const struct spvcond_module *m, const struct spvcond_values *v, size_t user,
                                       uint32_t id, bool *out);

/* spvcond_evaluate for a specialization: refused when the device is not well formed or when, under
 * SPVCOND_UNSPECIFIED_ERROR, one of the module's device constants needs a fact it does not give (naming
 * the constant and the fact); *out holds nothing then. */
spvcond_result spvcond_evaluate_for_device(const struct spvcond_module *m, spvcond_spec_value *values,
                                           size_t value_count, const spvcond_fnvar_device *device,
                                           struct spvcond_values *out);

/* The value of a device constant (OpSpecConstantTargetINTEL, ...ArchitectureINTEL, ...CapabilitiesINTEL,
 * words w) for device d (NULL: nothing given), a fact not given meaning what d->unspecified says
 * (false where it is an error: spvcond_evaluate() notes the first, spvcond_evaluate_for_device() refuses). */
bool spvcond_device_constant_value(const spvcond_fnvar_device *d, const uint32_t *w);

/* Mark (per id, non-zero) everything the marked conditions reach through OpSpecConstantOp operands.
 * Operands precede their users among the constants, so one backward pass closes the set. */
void spvcond_close_condition_trees(const struct spvcond_module *m, uint8_t *mark);

#endif
