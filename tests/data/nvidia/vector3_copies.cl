// SPDX-License-Identifier: MIT
// Asynchronous copies and prefetch of 3-component vectors, which libclc 15's nvptx64 library lacks (the CTS's
// async_copy_* and prefetch tests use every vector size): each element of `in` reaches `out` through local memory.
kernel void copy3(global const uchar3 *in, global uchar3 *out, local uchar3 *scratch)
{
    size_t n = get_local_size(0), base = get_group_id(0) * n;
    prefetch(in + base, n);
    event_t e = async_work_group_copy(scratch, in + base, n, 0);
    wait_group_events(1, &e);
    e = async_work_group_strided_copy(out + base, scratch, n, 1, 0);
    wait_group_events(1, &e);
}
