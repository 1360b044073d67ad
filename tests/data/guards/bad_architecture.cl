/* SPDX-License-Identifier: MIT */
/* Bad input: an architecture the registry does not have. */
#include <spvcond/device_if.h>

kernel void k(global float *a)
{
    if (__spvcond_architecture_is(2u, 1u, 999u, 170u))
        a[0] = 1.0f;
}
