// SPDX-License-Identifier: MIT
// A kernel launched with a global work offset: each item writes its global id and the offset at its place.
kernel void offset(global int *out)
{
    size_t i = get_global_id(0) - get_global_offset(0);
    out[i] = (int)get_global_id(0) * 1000 + (int)get_global_offset(0);
}

// Each work-item function on its own, for the PTX each becomes; each item writes at its place from the offset.
#define AT out[get_global_id(0) - get_global_offset(0)]
kernel void group_id(global int *out) { AT = (int)get_group_id(0); }
kernel void num_groups(global int *out) { AT = (int)get_num_groups(0); }
kernel void global_size(global int *out) { AT = (int)get_global_size(0); }
kernel void offset_y(global int *out) { AT = (int)get_global_offset(1); }
