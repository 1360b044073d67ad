/* SPDX-License-Identifier: MIT */
/* The layer's checks of what drivers and the SPIR-V/LLVM translator end the process on
 * (layer/driver_checks.c): any words, as the module a driver would be given. Nothing may read outside them;
 * a refusal says where. */
#include <stdlib.h>
#include <string.h>

#include "../layer/driver_checks.h"
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
    free(words);
    return 0;
}
