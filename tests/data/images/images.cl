// SPDX-License-Identifier: MIT
// Image kernels as an application writes them, each checked by value by tests/layer/images_host.c: reads
// with a constant sampler (nearest and linear), without a sampler, of 1D, 1D buffer, 2D array (integer and
// float layer) and 3D images; writes of 2D images in two channel orders; the queries.
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t linear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

kernel void read_nearest(read_only image2d_t img, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_image_width(img) + x] = read_imagef(img, nearest, (int2)(x, y));
}

kernel void read_linear(read_only image2d_t img, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    float2 at = (float2)((x + 0.5f) / get_image_width(img), (y + 0.5f) / get_image_height(img));
    out[y * get_image_width(img) + x] = read_imagef(img, linear, at);
}

kernel void read_without_sampler(read_only image2d_t img, global uint4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_image_width(img) + x] = read_imageui(img, (int2)(x, y));
}

kernel void write_float(write_only image2d_t img)
{
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), (float4)(x / 8.0f, y / 8.0f, (x + y) / 16.0f, 1.0f));
}

kernel void one_dimension(read_only image1d_t img, read_only image1d_buffer_t buf, global float4 *out)
{
    int x = get_global_id(0);
    out[x] = read_imagef(img, x) + 100.0f * read_imagef(buf, x);
}

kernel void array_and_volume(read_only image2d_array_t arr, read_only image3d_t vol, global float4 *out)
{
    int x = get_global_id(0);
    out[3 * x] = read_imagef(arr, nearest, (int4)(x, 0, 1, 0));
    out[3 * x + 1] = read_imagef(arr, nearest, (float4)(x + 0.5f, 0.5f, 1.2f, 0.0f));
    out[3 * x + 2] = read_imagef(vol, nearest, (float4)(x + 0.5f, 0.5f, 1.5f, 0.0f));
}

kernel void queries(read_only image3d_t vol, read_only image2d_array_t arr, write_only image2d_t img,
                    global int *out)
{
    out[0] = get_image_width(vol);
    out[1] = get_image_height(vol);
    out[2] = get_image_depth(vol);
    out[3] = get_image_channel_data_type(vol);
    out[4] = get_image_channel_order(vol);
    out[5] = (int)get_image_array_size(arr);
    out[6] = get_image_width(img) * 100 + get_image_height(img);
    out[7] = get_image_channel_order(img);
    int4 d = get_image_dim(vol);
    out[8] = d.x * 100 + d.y * 10 + d.z;
}

// An image the kernel does not read: its parameter is still the driver's kind (a .texref on NVIDIA).
kernel void image_unused(read_only image2d_t img, global int *out)
{
    out[get_global_id(0)] = 7;
}
