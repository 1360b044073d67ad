// SPDX-License-Identifier: MIT
// Each work-item function on its own (OpenCL C 2.0's too), for the PTX NVIDIA's compiler makes of each: which
// special and environment registers it reads. Each item writes at its linear place.
#define AT out[get_global_linear_id()]
kernel void work_dim(global int *out) { AT = (int)get_work_dim(); }
kernel void global_size(global int *out, uint d) { AT = (int)get_global_size(d); }
kernel void local_size(global int *out, uint d) { AT = (int)get_local_size(d); }
kernel void enqueued_local_size(global int *out, uint d) { AT = (int)get_enqueued_local_size(d); }
kernel void num_groups(global int *out, uint d) { AT = (int)get_num_groups(d); }
kernel void group_id(global int *out, uint d) { AT = (int)get_group_id(d); }
kernel void local_id(global int *out, uint d) { AT = (int)get_local_id(d); }
kernel void global_id(global int *out, uint d) { AT = (int)get_global_id(d); }
kernel void global_offset(global int *out, uint d) { AT = (int)get_global_offset(d); }
kernel void global_linear_id(global int *out) { out[get_global_id(0)] = (int)get_global_linear_id(); }
kernel void local_linear_id(global int *out) { AT = (int)get_local_linear_id(); }
