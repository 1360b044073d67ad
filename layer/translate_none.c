/* SPDX-License-Identifier: MIT */
/* The layer built without the SPIR-V/LLVM translator: no device gets LLVM bitcode (meson option
 * `translator`, docs/opencl-layer.md). */
#include <stdio.h>

#include "layer.h"

bool
layer_can_translate(void)
{
    return false;
}

bool
layer_translate(const uint32_t *words, size_t count, bool for_pocl, unsigned char **bitcode, size_t *size, char *msg,
                size_t msg_size)
{
    (void)words;
    (void)count;
    (void)for_pocl;
    *bitcode = NULL;
    *size = 0;
    snprintf(msg, msg_size, "the layer was built without the SPIR-V/LLVM translator");
    return false;
}

size_t
layer_translator_anchors(const void **anchors, size_t max)
{
    (void)anchors;
    (void)max;
    return 0;
}
