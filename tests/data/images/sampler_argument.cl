// SPDX-License-Identifier: MIT
// A sampler passed by the application (clCreateSampler), read with float coordinates. In a file of its own:
// llvm-spirv-15 writes OpTypeSampler twice for a module with a constant sampler and a sampler argument.
kernel void read_sampler_argument(read_only image2d_t img, sampler_t s, global int4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_image_width(img) + x] = read_imagei(img, s, (float2)(x + 0.5f, y + 0.5f));
}
