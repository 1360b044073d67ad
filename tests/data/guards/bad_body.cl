/* SPDX-License-Identifier: MIT */
/* Bad input: a marker with a body. */
bool __spvcond_device_has(int aspect)
{
    return aspect == 6;
}

kernel void k(global float *a)
{
    if (__spvcond_device_has(6))
        a[0] = 1.0f;
}
