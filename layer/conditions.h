/* SPDX-License-Identifier: MIT */
/* Whether a module carries conditions for a layer to resolve: the capabilities `spvcond annotate` (and
 * SPV_INTEL_function_variants' producers) declare, SpecConditionalINTEL or FunctionVariantsINTEL, from the
 * parsed module (the Vulkan layer reads the same from the capability words before parsing, vk_modules.c). */
#ifndef SPVCOND_LAYER_CONDITIONS_H
#define SPVCOND_LAYER_CONDITIONS_H

#include <stdbool.h>

#include "spvcond/spvcond.h"

static inline bool
layer_has_conditions(const spvcond_module *m)
{
    spvcond_item item = SPVCOND_SIZED(spvcond_item);
    size_t cursor = 0;
    while (spvcond_module_next_item(m, SPVCOND_ITEM_CAPABILITY, &cursor, &item))
        if (item.value == 6245 /* SpecConditionalINTEL */ || item.value == 6246 /* FunctionVariantsINTEL */)
            return true;
    return false;
}

#endif
