// SPDX-License-Identifier: MIT
// A read-write image (OpenCL C 2.0; optional in 3.0: CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS).
kernel void read_and_write(read_write image2d_t img)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(img, p, read_imagef(img, p) * 2.0f);
}
