/* SPDX-License-Identifier: MIT */
/* An OpenCL library that loads no layers, as the CUDA toolkit's own libOpenCL.so.1 does not: copied as
 * libOpenCL.so.1 into a folder on LD_LIBRARY_PATH, it shows what `spvcond opencl` says of such a loader
 * (tests/layer_programs.py). It has no platform. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformIDs(cl_uint n, cl_platform_id *platforms, cl_uint *count)
{
    (void)n, (void)platforms;
    if (count)
        *count = 0;
    return -1001; /* CL_PLATFORM_NOT_FOUND_KHR */
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id p, cl_platform_info param, size_t size, void *value, size_t *size_ret)
{
    (void)p, (void)param, (void)size, (void)value, (void)size_ret;
    return CL_INVALID_PLATFORM;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n, cl_device_id *devices, cl_uint *count)
{
    (void)p, (void)type, (void)n, (void)devices, (void)count;
    return CL_INVALID_PLATFORM;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceInfo(cl_device_id d, cl_device_info param, size_t size, void *value, size_t *size_ret)
{
    (void)d, (void)param, (void)size, (void)value, (void)size_ret;
    return CL_INVALID_DEVICE;
}
