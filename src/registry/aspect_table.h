/* SPDX-License-Identifier: MIT */
/* Every aspect the library knows, one row each: the one place an aspect is written down (docs/architecture.md,
 * "Recipes"). DPC++'s numbers and names (dpcpp.md section 1: intel-sycl-rt 2025.3.2's aspects.def; the
 * numbers missing are aspects DPC++ removed), then what the library reads as the aspect:
 *
 *   X(number, NAME, "name", type_fact, capability, inferred, (more capabilities), query, "extensions")
 *
 * - type_fact: the SPVCOND_TYPE_* fact of a SPIR-V type whose values use it (analysis/infer.c: a function
 *   naming such a value uses the aspect), 0 for none;
 * - capability: the SPIR-V capability that means it: in an OpSpecConstantCapabilitiesINTEL
 *   (annotate/condition_store.c), and among an OpenCL device's capabilities when the device has the
 *   aspect, with (more capabilities) (devices/opencl_device.c); 0 for none;
 * - inferred: 1 when an instruction needing that capability alone uses the aspect (infer.c);
 * - query and extensions: how an OpenCL device reports it: the clGetDeviceInfo answer (an
 *   spvcond_cl_query), or every one of the extensions (devices/opencl_device.c).
 *
 * Read through the X-macro: aspects.h makes SPVCOND_ASPECT_<NAME> of it, aspects.c the rows
 * (spvcond_aspect_row), the readers above their switches, tools/gen_device_if.py the names of
 * include/spvcond/device_if.h. A new aspect is a row here and its tests. */
#ifndef SPVCOND_ASPECT_TABLE_H
#define SPVCOND_ASPECT_TABLE_H

#define SPVCOND_ASPECT_TABLE(X) \
    X(0, HOST, "host", 0, 0, 0, (0), NONE, NULL) \
    X(1, CPU, "cpu", 0, 0, 0, (0), TYPE_CPU, NULL) \
    X(2, GPU, "gpu", 0, 0, 0, (0), TYPE_GPU, NULL) \
    X(3, ACCELERATOR, "accelerator", 0, 0, 0, (0), TYPE_ACCELERATOR, NULL) \
    X(4, CUSTOM, "custom", 0, 0, 0, (0), TYPE_CUSTOM, NULL) \
    X(5, FP16, "fp16", SPVCOND_TYPE_FP16, 9, 0, (0), HALF_FP_CONFIG, "cl_khr_fp16") \
    X(6, FP64, "fp64", SPVCOND_TYPE_FP64, 10, 0, (0), DOUBLE_FP_CONFIG, "cl_khr_fp64") \
    X(7, INT64_BASE_ATOMICS, "int64_base_atomics", 0, 0, 0, (0), NONE, "cl_khr_int64_base_atomics") \
    X(8, INT64_EXTENDED_ATOMICS, "int64_extended_atomics", 0, 0, 0, (0), NONE, "cl_khr_int64_extended_atomics") \
    X(9, IMAGE, "image", SPVCOND_TYPE_IMAGE, 13, 0, (20, 43, 46), IMAGE_SUPPORT, NULL) \
    X(10, ONLINE_COMPILER, "online_compiler", 0, 0, 0, (0), COMPILER_AVAILABLE, NULL) \
    X(11, ONLINE_LINKER, "online_linker", 0, 0, 0, (0), LINKER_AVAILABLE, NULL) \
    X(12, QUEUE_PROFILING, "queue_profiling", 0, 0, 0, (0), QUEUE_PROFILING, NULL) \
    X(13, USM_DEVICE_ALLOCATIONS, "usm_device_allocations", 0, 0, 0, (0), NONE, NULL) \
    X(14, USM_HOST_ALLOCATIONS, "usm_host_allocations", 0, 0, 0, (0), NONE, NULL) \
    X(15, USM_SHARED_ALLOCATIONS, "usm_shared_allocations", 0, 0, 0, (0), NONE, NULL) \
    X(16, USM_RESTRICTED_SHARED_ALLOCATIONS, "usm_restricted_shared_allocations", 0, 0, 0, (0), NONE, NULL) \
    X(17, USM_SYSTEM_ALLOCATIONS, "usm_system_allocations", 0, 0, 0, (0), NONE, NULL) \
    X(18, EXT_INTEL_PCI_ADDRESS, "ext_intel_pci_address", 0, 0, 0, (0), NONE, NULL) \
    X(19, EXT_INTEL_GPU_EU_COUNT, "ext_intel_gpu_eu_count", 0, 0, 0, (0), NONE, NULL) \
    X(20, EXT_INTEL_GPU_EU_SIMD_WIDTH, "ext_intel_gpu_eu_simd_width", 0, 0, 0, (0), NONE, NULL) \
    X(21, EXT_INTEL_GPU_SLICES, "ext_intel_gpu_slices", 0, 0, 0, (0), NONE, NULL) \
    X(22, EXT_INTEL_GPU_SUBSLICES_PER_SLICE, "ext_intel_gpu_subslices_per_slice", 0, 0, 0, (0), NONE, NULL) \
    X(23, EXT_INTEL_GPU_EU_COUNT_PER_SUBSLICE, "ext_intel_gpu_eu_count_per_subslice", 0, 0, 0, (0), NONE, NULL) \
    X(24, EXT_INTEL_MAX_MEM_BANDWIDTH, "ext_intel_max_mem_bandwidth", 0, 0, 0, (0), NONE, NULL) \
    X(25, EXT_INTEL_MEM_CHANNEL, "ext_intel_mem_channel", 0, 0, 0, (0), NONE, NULL) \
    X(26, USM_ATOMIC_HOST_ALLOCATIONS, "usm_atomic_host_allocations", 0, 0, 0, (0), NONE, NULL) \
    X(27, USM_ATOMIC_SHARED_ALLOCATIONS, "usm_atomic_shared_allocations", 0, 0, 0, (0), NONE, NULL) \
    X(28, ATOMIC64, "atomic64", 0, 12, 1, (0), NONE, "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics") \
    X(29, EXT_INTEL_DEVICE_INFO_UUID, "ext_intel_device_info_uuid", 0, 0, 0, (0), NONE, NULL) \
    X(30, EXT_ONEAPI_SRGB, "ext_oneapi_srgb", 0, 0, 0, (0), NONE, NULL) \
    X(31, EXT_ONEAPI_NATIVE_ASSERT, "ext_oneapi_native_assert", 0, 0, 0, (0), NONE, NULL) \
    X(32, HOST_DEBUGGABLE, "host_debuggable", 0, 0, 0, (0), NONE, NULL) \
    X(33, EXT_INTEL_GPU_HW_THREADS_PER_EU, "ext_intel_gpu_hw_threads_per_eu", 0, 0, 0, (0), NONE, NULL) \
    X(34, EXT_ONEAPI_CUDA_ASYNC_BARRIER, "ext_oneapi_cuda_async_barrier", 0, 0, 0, (0), NONE, NULL) \
    X(36, EXT_INTEL_FREE_MEMORY, "ext_intel_free_memory", 0, 0, 0, (0), NONE, NULL) \
    X(37, EXT_INTEL_DEVICE_ID, "ext_intel_device_id", 0, 0, 0, (0), NONE, NULL) \
    X(38, EXT_INTEL_MEMORY_CLOCK_RATE, "ext_intel_memory_clock_rate", 0, 0, 0, (0), NONE, NULL) \
    X(39, EXT_INTEL_MEMORY_BUS_WIDTH, "ext_intel_memory_bus_width", 0, 0, 0, (0), NONE, NULL) \
    X(40, EMULATED, "emulated", 0, 0, 0, (0), NONE, NULL) \
    X(41, EXT_INTEL_LEGACY_IMAGE, "ext_intel_legacy_image", 0, 0, 0, (0), NONE, NULL) \
    X(42, EXT_ONEAPI_BINDLESS_IMAGES, "ext_oneapi_bindless_images", 0, 0, 0, (0), NONE, NULL) \
    X(43, EXT_ONEAPI_BINDLESS_IMAGES_SHARED_USM, "ext_oneapi_bindless_images_shared_usm", 0, 0, 0, (0), NONE, NULL) \
    X(44, EXT_ONEAPI_BINDLESS_IMAGES_1D_USM, "ext_oneapi_bindless_images_1d_usm", 0, 0, 0, (0), NONE, NULL) \
    X(45, EXT_ONEAPI_BINDLESS_IMAGES_2D_USM, "ext_oneapi_bindless_images_2d_usm", 0, 0, 0, (0), NONE, NULL) \
    X(46, EXT_ONEAPI_EXTERNAL_MEMORY_IMPORT, "ext_oneapi_external_memory_import", 0, 0, 0, (0), NONE, NULL) \
    X(48, EXT_ONEAPI_EXTERNAL_SEMAPHORE_IMPORT, "ext_oneapi_external_semaphore_import", 0, 0, 0, (0), NONE, NULL) \
    X(50, EXT_ONEAPI_MIPMAP, "ext_oneapi_mipmap", 0, 0, 0, (0), NONE, NULL) \
    X(51, EXT_ONEAPI_MIPMAP_ANISOTROPY, "ext_oneapi_mipmap_anisotropy", 0, 0, 0, (0), NONE, NULL) \
    X(52, EXT_ONEAPI_MIPMAP_LEVEL_REFERENCE, "ext_oneapi_mipmap_level_reference", 0, 0, 0, (0), NONE, NULL) \
    X(53, EXT_INTEL_ESIMD, "ext_intel_esimd", 0, 0, 0, (0), NONE, NULL) \
    X(54, EXT_ONEAPI_BALLOT_GROUP, "ext_oneapi_ballot_group", 0, 0, 0, (0), NONE, NULL) \
    X(55, EXT_ONEAPI_FIXED_SIZE_GROUP, "ext_oneapi_fixed_size_group", 0, 0, 0, (0), NONE, NULL) \
    X(56, EXT_ONEAPI_OPPORTUNISTIC_GROUP, "ext_oneapi_opportunistic_group", 0, 0, 0, (0), NONE, NULL) \
    X(57, EXT_ONEAPI_TANGLE_GROUP, "ext_oneapi_tangle_group", 0, 0, 0, (0), NONE, NULL) \
    X(58, EXT_INTEL_MATRIX, "ext_intel_matrix", 0, 0, 0, (0), NONE, NULL) \
    X(59, EXT_ONEAPI_IS_COMPOSITE, "ext_oneapi_is_composite", 0, 0, 0, (0), NONE, NULL) \
    X(60, EXT_ONEAPI_IS_COMPONENT, "ext_oneapi_is_component", 0, 0, 0, (0), NONE, NULL) \
    X(61, EXT_ONEAPI_GRAPH, "ext_oneapi_graph", 0, 0, 0, (0), NONE, NULL) \
    X(62, EXT_INTEL_FPGA_TASK_SEQUENCE, "ext_intel_fpga_task_sequence", 0, 0, 0, (0), NONE, NULL) \
    X(63, EXT_ONEAPI_LIMITED_GRAPH, "ext_oneapi_limited_graph", 0, 0, 0, (0), NONE, NULL) \
    X(64, EXT_ONEAPI_PRIVATE_ALLOCA, "ext_oneapi_private_alloca", 0, 0, 0, (0), NONE, NULL) \
    X(65, EXT_ONEAPI_CUBEMAP, "ext_oneapi_cubemap", 0, 0, 0, (0), NONE, NULL) \
    X(66, EXT_ONEAPI_CUBEMAP_SEAMLESS_FILTERING, "ext_oneapi_cubemap_seamless_filtering", 0, 0, 0, (0), NONE, NULL) \
    X(67, EXT_ONEAPI_BINDLESS_SAMPLED_IMAGE_FETCH_1D_USM, "ext_oneapi_bindless_sampled_image_fetch_1d_usm", 0, 0, 0, (0), NONE, NULL) \
    X(68, EXT_ONEAPI_BINDLESS_SAMPLED_IMAGE_FETCH_1D, "ext_oneapi_bindless_sampled_image_fetch_1d", 0, 0, 0, (0), NONE, NULL) \
    X(69, EXT_ONEAPI_BINDLESS_SAMPLED_IMAGE_FETCH_2D_USM, "ext_oneapi_bindless_sampled_image_fetch_2d_usm", 0, 0, 0, (0), NONE, NULL) \
    X(70, EXT_ONEAPI_BINDLESS_SAMPLED_IMAGE_FETCH_2D, "ext_oneapi_bindless_sampled_image_fetch_2d", 0, 0, 0, (0), NONE, NULL) \
    X(72, EXT_ONEAPI_BINDLESS_SAMPLED_IMAGE_FETCH_3D, "ext_oneapi_bindless_sampled_image_fetch_3d", 0, 0, 0, (0), NONE, NULL) \
    X(73, EXT_ONEAPI_QUEUE_PROFILING_TAG, "ext_oneapi_queue_profiling_tag", 0, 0, 0, (0), NONE, NULL) \
    X(74, EXT_ONEAPI_VIRTUAL_MEM, "ext_oneapi_virtual_mem", 0, 0, 0, (0), NONE, NULL) \
    X(75, EXT_ONEAPI_CUDA_CLUSTER_GROUP, "ext_oneapi_cuda_cluster_group", 0, 0, 0, (0), NONE, NULL) \
    X(76, EXT_ONEAPI_IMAGE_ARRAY, "ext_oneapi_image_array", 0, 0, 0, (0), NONE, NULL) \
    X(77, EXT_ONEAPI_UNIQUE_ADDRESSING_PER_DIM, "ext_oneapi_unique_addressing_per_dim", 0, 0, 0, (0), NONE, NULL) \
    X(78, EXT_ONEAPI_BINDLESS_IMAGES_SAMPLE_1D_USM, "ext_oneapi_bindless_images_sample_1d_usm", 0, 0, 0, (0), NONE, NULL) \
    X(79, EXT_ONEAPI_BINDLESS_IMAGES_SAMPLE_2D_USM, "ext_oneapi_bindless_images_sample_2d_usm", 0, 0, 0, (0), NONE, NULL) \
    X(80, EXT_ONEAPI_ATOMIC16, "ext_oneapi_atomic16", 0, 0, 0, (0), NONE, NULL) \
    X(81, EXT_ONEAPI_VIRTUAL_FUNCTIONS, "ext_oneapi_virtual_functions", 0, 0, 0, (0), NONE, NULL) \
    X(82, EXT_INTEL_SPILL_MEMORY_SIZE, "ext_intel_spill_memory_size", 0, 0, 0, (0), NONE, NULL) \
    X(83, EXT_ONEAPI_BINDLESS_IMAGES_GATHER, "ext_oneapi_bindless_images_gather", 0, 0, 0, (0), NONE, NULL) \
    X(84, EXT_INTEL_CURRENT_CLOCK_THROTTLE_REASONS, "ext_intel_current_clock_throttle_reasons", 0, 0, 0, (0), NONE, NULL) \
    X(85, EXT_INTEL_FAN_SPEED, "ext_intel_fan_speed", 0, 0, 0, (0), NONE, NULL) \
    X(86, EXT_INTEL_POWER_LIMITS, "ext_intel_power_limits", 0, 0, 0, (0), NONE, NULL) \
    X(87, EXT_ONEAPI_ASYNC_MEMORY_ALLOC, "ext_oneapi_async_memory_alloc", 0, 0, 0, (0), NONE, NULL) \
    X(88, EXT_INTEL_DEVICE_INFO_LUID, "ext_intel_device_info_luid", 0, 0, 0, (0), NONE, NULL) \
    X(89, EXT_INTEL_DEVICE_INFO_NODE_MASK, "ext_intel_device_info_node_mask", 0, 0, 0, (0), NONE, NULL) \
    X(90, EXT_ONEAPI_EXPORTABLE_DEVICE_MEM, "ext_oneapi_exportable_device_mem", 0, 0, 0, (0), NONE, NULL)

#endif
