/* SPDX-License-Identifier: MIT */
/* Bad input: a marker naming an aspect that does not exist (35 was removed). */
#include <spvcond/device_if.h>

kernel void k(global float *a)
{
    if (__spvcond_device_has(35))
        a[0] = 1.0f;
}
