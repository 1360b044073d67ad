// SPDX-License-Identifier: MIT
// Image kernels of every kind an application writes: read with a constant sampler, with a sampler argument
// and without one, write, the queries, on 1D, 1D buffer, 2D, 2D array and 3D images.
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t linear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

kernel void read_constant_sampler(read_only image2d_t img, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_image_width(img) + x] = read_imagef(img, nearest, (int2)(x, y));
}

kernel void read_linear(read_only image2d_t img, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    float2 c = (float2)((x + 0.5f) / get_image_width(img), (y + 0.5f) / get_image_height(img));
    out[y * get_image_width(img) + x] = read_imagef(img, linear, c);
}

kernel void read_sampler_argument(read_only image2d_t img, sampler_t s, global int4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_image_width(img) + x] = read_imagei(img, s, (float2)(x, y));
}

kernel void read_without_sampler(read_only image2d_t img, global uint4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_image_width(img) + x] = read_imageui(img, (int2)(x, y));
}

kernel void write_float(write_only image2d_t img)
{
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), (float4)(x, y, x + y, 1.0f));
}

kernel void write_int(write_only image3d_t img)
{
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    write_imagei(img, (int4)(x, y, z, 0), (int4)(x, y, z, -1));
}

kernel void one_dimension(read_only image1d_t img, read_only image1d_buffer_t buf, global float4 *out)
{
    int x = get_global_id(0);
    out[x] = read_imagef(img, x) + read_imagef(buf, x);
}

kernel void array_and_volume(read_only image2d_array_t arr, read_only image3d_t vol, global float4 *out)
{
    int x = get_global_id(0);
    out[x] = read_imagef(arr, nearest, (int4)(x, 0, 1, 0)) + read_imagef(vol, nearest, (float4)(x, 0, 1, 0));
}

kernel void queries(read_only image3d_t vol, read_only image2d_array_t arr, write_only image1d_buffer_t buf,
                    global int *out)
{
    out[0] = get_image_width(vol);
    out[1] = get_image_height(vol);
    out[2] = get_image_depth(vol);
    out[3] = get_image_channel_data_type(vol);
    out[4] = get_image_channel_order(vol);
    out[5] = (int)get_image_array_size(arr);
    out[6] = get_image_width(buf);
    int4 d = get_image_dim(vol);
    out[7] = d.x + d.y + d.z;
}
