// SPDX-License-Identifier: MIT
// A kernel launched with a global work offset: each item writes its global id and the offset at its place.
kernel void offset(global int *out)
{
    size_t i = get_global_id(0) - get_global_offset(0);
    out[i] = (int)get_global_id(0) * 1000 + (int)get_global_offset(0);
}
