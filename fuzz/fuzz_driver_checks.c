/* SPDX-License-Identifier: MIT */
/* The layer's checks of what drivers and the SPIR-V/LLVM translator end the process on
 * (layer/driver_checks.c), of what each route's consumer takes (layer/profiles.c), and its reading of a
 * module's specialization constants (layer/spec_constants.c): any words, as the module a driver would be
 * given. Nothing may read or write outside them; a refusal says where. */
#include <stdlib.h>
#include <string.h>

#include "../layer/driver_checks.h"
#include "../layer/profiles.h"
#include "../layer/spec_constants.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t count;
    uint32_t *words = fuzz_words(data, size, &count);
    char msg[512];
    unsigned bits;
    msg[0] = 0;
    if (!layer_driver_check(words, count, &bits, msg, sizeof(msg)))
        FUZZ_ASSERT(strstr(msg, "word ") != NULL, "a refusal names the word");
    FUZZ_ASSERT(bits == 0 || bits == 32 || bits == 64, "a pointer size is 32 or 64 bits, or unknown");
    for (int route = LAYER_ROUTE_NONE; route <= LAYER_ROUTE_PTX; route++) {
        msg[0] = 0;
        if (!layer_profile_check((enum layer_route)route, words, count, msg, sizeof(msg)))
            FUZZ_ASSERT(strstr(msg, "word ") != NULL, "a route's refusal names the word");
    }
    struct layer_spec_constant *table = NULL;
    size_t n = 0;
    if (count && layer_spec_constants(words, count, &table, &n)) {
        for (size_t k = 0; k < n; k++)
            FUZZ_ASSERT(table[k].word < count && (table[k].size == 1 || table[k].size * 8 == table[k].width),
                        "a constant's instruction is in the module and its size its type's");
        spvcond_spec_value values[2] = {{n ? table[0].spec_id : 1, ~0ull, false}, {2, 0, false}};
        uint32_t *copy = layer_spec_defaults(words, count, table, n, values, 2);
        free(copy);
        free(table);
    }
    free(words);
    return 0;
}
