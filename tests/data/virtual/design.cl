// SPDX-License-Identifier: MIT
// The first example of DPC++'s virtual-functions design, in OpenCL C: Base::foo is in the default set,
// Base::bar uses double and is in set_fp64. The constructor kernel builds the object (its "vtable": the
// two function pointers) and must run on any device; `use` calls the default set, `use_fp64` set_fp64.
// One float buffer a[i] = i: the object lives at a + 8, results go to a[0] and a[2].
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    float (*foo)(float);
    float (*bar)(float);
} Base;

float base_foo(float x) { return x + 1.0f; }

float base_bar(float x)
{
    double d = x;
    return (float)(d * 2.0 + 0.5);
}

kernel void construct(global float *a)
{
    global Base *obj = (global Base *)(a + 8);
    obj->foo = base_foo;
    obj->bar = base_bar;
}

kernel void use(global float *a)
{
    global Base *obj = (global Base *)(a + 8);
    a[0] = obj->foo(a[1]);
}

kernel void use_fp64(global float *a)
{
    global Base *obj = (global Base *)(a + 8);
    a[2] = obj->bar(a[3]);
}
