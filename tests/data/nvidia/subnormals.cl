// SPDX-License-Identifier: MIT
// Subnormal results and arguments, and trigonometry of huge arguments, printed exactly (%a): NVIDIA's driver
// reports CL_FP_DENORM, so its OpenCL C keeps subnormals; what the layer's PTX gives is set beside it
// (tools/nvidia-run.sh, part probe). Run on a[i] = i (a[0] = 0 keeps the compiler from folding).
kernel void subnormals(global float *a)
{
    if (get_global_id(0) == 0) {
        float z = a[0];
        printf("exp2(-130)=%a exp(-90)=%a exp10(-40)=%a ldexp(1,-140)=%a fmod(2^-140,1)=%a remainder(2^-140,1)=%a "
               "rootn(2^-140,1)=%a 2^-63*2^-70=%a\n",
               exp2(-130.0f + z), exp(-90.0f + z), exp10(-40.0f + z), ldexp(1.0f + z, -140),
               fmod(0x1p-140f + z, 1.0f), remainder(0x1p-140f + z, 1.0f), rootn(0x1p-140f + z, 1),
               (0x1p-63f + z) * 0x1p-70f);
    }
}

kernel void huge_trig(global float *a)
{
    if (get_global_id(0) == 0) {
        float z = a[0];
        printf("sin(1e30)=%a cos(-1e38)=%a tan(3e37)=%a\n", sin(1e30f + z), cos(-1e38f + z), tan(3e37f + z));
    }
}
