/* SPDX-License-Identifier: MIT */
/* Bad input: a marker whose argument is not a constant. */
#include <spvcond/device_if.h>

kernel void k(global float *a, int aspect)
{
    if (__spvcond_device_has(aspect))
        a[0] = 1.0f;
}
