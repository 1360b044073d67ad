// SPDX-License-Identifier: MIT
// A double NaN from nan(0UL), printed (the CTS's test_printf double_limits): "nan" from NVIDIA's OpenCL C;
// libclc 15's nan(ulong) gave +infinity (its quiet bit unset), which the layer corrects (tools/nvidia-run.sh,
// part probe). Run on a[i] = i (a[0] = 0 keeps the compiler from folding).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void double_nan(global float *a)
{
    if (get_global_id(0) == 0) {
        ulong code = (ulong)a[0];
        double2 v = nan((ulong2)(code, code + 1));
        printf("nan(0UL)=%f %e %g %a v=%f %f isnan=%d\n", nan(code), nan(code), nan(code), nan(code), v.x, v.y,
               isnan(nan(code)));
    }
}
