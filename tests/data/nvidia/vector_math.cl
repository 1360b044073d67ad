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

// remquo, rootn and tgamma of the CTS's failing inputs (subnormals kept, libdevice's tgamma), ldexp of a float2
// with an int2, double hypot at the largest values (libclc's: libdevice's overflowed).
kernel void corrections(global float *a)
{
    if (get_global_id(0) == 0) {
        float z = a[0];
        int q;
        int2 q2;
        float r = remquo(-0x1.5b2dd8p-127f + z, -0x1.0068eap-110f, &q);
        float2 r2 = remquo((float2)(5.5f + z, -0x1.5b2dd8p-127f), (float2)(2.0f, -0x1.0068eap-110f), &q2);
        float2 l = ldexp((float2)(-0x1.a70d6cp-127f + z, 1.0f), (int2)(1302445884, -140));
        printf("remquo=%a %d remquo2=%a %a %d %d rootn=%a %a %a ldexp2=%a %a tgamma=%a hypot=%a\n", r, q, r2.x, r2.y,
               q2.x, q2.y, rootn(-0x1.000002p-126f + z, 1), rootn(27.0f + z, 3), rootn(-8.0f + z, 2), l.x, l.y,
               tgamma(-0x1.0002p+14f + z), hypot(0x1p64 + (double)z, -0x1.fffffffffffffp+1023));
    }
}
