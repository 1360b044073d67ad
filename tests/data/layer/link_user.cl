// SPDX-License-Identifier: MIT
// The other half: a kernel that calls what tests/data/layer/link_library.cl defines. a[i] = 2 a[i] + 1.
float twice(float x);

kernel void twice_plus_one(global float *a)
{
    size_t i = get_global_id(0);
    a[i] = twice(a[i]) + 1.0f;
}
