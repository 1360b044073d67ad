// SPDX-License-Identifier: MIT
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// The math built-ins on vectors, as the CTS's math_brute_force runs them (a float4 in, a float4 out, huge
// arguments among them): through the layer, element by element from libdevice, as the scalar forms are
// (tools/nvidia-run.sh, part probe; the mock driver in tests/layer.py). Run on a[i] = i.
kernel void vector_trig(global float *a)
{
    size_t i = get_global_id(0);
    float4 x = (float4)(1e30f, -1e38f, 3e37f, 0.5f) + a[0];
    float4 s = sin(x), c = cos(x), t = tan(x), sc, cc;
    sc = sincos(x, &cc);
    double2 d = (double2)(1e300, 0.25) + (double)a[0];
    double2 sd = sin(d), pd = pow(d, (double2)(0.5, 2.0));
    if (i == 0)
        printf("sin=%a %a %a %a cos=%a %a %a %a tan=%a sincos=%a %a dsin=%a %a dpow=%a %a\n", s.x, s.y, s.z, s.w,
               c.x, c.y, c.z, c.w, t.z, sc.x, cc.y, sd.x, sd.y, pd.x, pd.y);
    a[i] = s.x + c.y + t.z + sc.w + cc.x;
}

// acospi of a double NaN (libclc 15's gives 0.5; NVIDIA's compiler NaN), fmod and remainder from libdevice.
kernel void acospi_nan(global float *a)
{
    if (get_global_id(0) == 0) {
        double z = a[0];
        printf("acospi(nan)=%f acospi(-1)=%a fmod(5.5,2)=%a remainder(5.5,2)=%a fmodf(2^-140,1)=%a\n",
               acospi(nan((ulong)z)), acospi(-1.0 + z), fmod(5.5 + z, 2.0), remainder(5.5 + z, 2.0),
               fmod(0x1p-140f + (float)z, 1.0f));
    }
}
