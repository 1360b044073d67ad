/* SPDX-License-Identifier: MIT */
/* The layer's built-in names (layer/builtin_names.c): any text as a mangled name, in both address-space
 * numberings and as clang numbers its substitutions. A name that parses gives a canonical text that parses again to itself (it has no
 * substitutions left), and the text is always a string within the output. */
#include <stdlib.h>
#include <string.h>

#include "../layer/builtin_names.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char name[1100], out[600], again[600];
    if (size < 1)
        return 0;
    /* The first byte: whether the name gets "_Z" before it (the mutator then works on the rest), and the
     * output's size. */
    size_t n = size - 1 < sizeof(name) - 3 ? size - 1 : sizeof(name) - 3, at = 0;
    if (data[0] & 1) {
        name[at++] = '_';
        name[at++] = 'Z';
    }
    memcpy(name + at, data + 1, n);
    name[at + n] = 0;
    size_t out_size = data[0] & 2 ? (size_t)(8 + data[0] % 64) : sizeof(out);
    for (int to_nvptx = 0; to_nvptx < 2; to_nvptx++) {
        if (layer_builtin_canonical(name, to_nvptx, out, out_size)) {
            FUZZ_ASSERT(memchr(out, 0, out_size) != NULL, "the canonical text is a string");
            FUZZ_ASSERT(layer_builtin_canonical(out, false, again, sizeof(again)), "the canonical text parses");
            FUZZ_ASSERT(strcmp(out, again) == 0, "the canonical text is its own canonical text");
        }
    }
    /* The translator's numbering written as clang's: a string within the output, which reads again. */
    if (layer_builtin_clang_name(name, out, out_size)) {
        FUZZ_ASSERT(memchr(out, 0, out_size) != NULL, "clang's name is a string");
        (void)layer_builtin_canonical(out, false, again, sizeof(again));
    }
    return 0;
}
