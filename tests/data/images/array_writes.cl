// SPDX-License-Identifier: MIT
// Integer writes to a 2D image array, in a program of their own: pocl 3.1's kernel library defines
// write_imagei of an array by a function it does not define (its two halves mangle the name differently),
// so a program that has it cannot run on pocl at all, from OpenCL C through SPIR-V.
kernel void write_layers(write_only image2d_array_t img)
{
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    write_imagei(img, (int4)(x, y, z, 0), (int4)(x, y, z, -1));
}
