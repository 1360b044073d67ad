/* SPDX-License-Identifier: MIT */
/* The layer built without LLVM's NVPTX back end (or without the translator): NVIDIA's devices get no
 * route, and the driver's own answer (docs/opencl-layer.md). */
#include <stdio.h>

#include "layer.h"

bool
layer_can_lower_ptx(char *msg, size_t msg_size)
{
    snprintf(msg, msg_size, "the layer was built without LLVM's NVPTX back end and the SPIR-V/LLVM translator");
    return false;
}

bool
layer_lower_ptx(const uint32_t *words, size_t count, unsigned major, unsigned minor, unsigned arithmetic, char **ptx,
                size_t *size, char *msg, size_t msg_size)
{
    (void)arithmetic;
    (void)words;
    (void)count;
    (void)major;
    (void)minor;
    *ptx = NULL;
    *size = 0;
    layer_can_lower_ptx(msg, msg_size);
    return false;
}

void
layer_ptx_inputs(char *out, size_t size)
{
    if (size)
        out[0] = 0;
}
