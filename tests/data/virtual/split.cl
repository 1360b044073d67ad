// SPDX-License-Identifier: MIT
// The second example of DPC++'s design: Foo::foo (double) is in fp64_set, Foo::bar in regular_set; a
// kernel that is not declared to call any set builds the object; the application calls foo where the
// device has fp64 and bar elsewhere.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    float (*foo)(float);
    float (*bar)(float);
} Foo;

float foo_foo(float x)
{
    double d = 3.14;
    return (float)(x * d);
}

float foo_bar(float x) { return x - 1.0f; }

kernel void build(global float *a)
{
    global Foo *obj = (global Foo *)(a + 8);
    obj->foo = foo_foo;
    obj->bar = foo_bar;
}

kernel void call_foo(global float *a)
{
    global Foo *obj = (global Foo *)(a + 8);
    a[0] = obj->foo(a[1]);
}

kernel void call_bar(global float *a)
{
    global Foo *obj = (global Foo *)(a + 8);
    a[2] = obj->bar(a[3]);
}
