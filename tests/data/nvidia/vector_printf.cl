// SPDX-License-Identifier: MIT
// printf with vector arguments, as OpenCL C 1.2 defines them (6.12.13.2).
kernel void vector_printf(global const float *in)
{
    if (get_global_id(0) == 0) {
        float4 f = (float4)(in[0], 1.5f, -2.25f, 1e10f);
        printf("f=%v4hlf|hl=%v2hld|c=%v3hhx|g=%#v2hlg\n", f, (int2)(7, -9), (uchar3)(1, 0xab, 255), (float2)(0.5f, 2.0f));
    }
}
