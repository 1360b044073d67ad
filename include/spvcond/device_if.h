/* SPDX-License-Identifier: MIT */
/* Guarded code for OpenCL C (spec/guards.md): a branch that runs only on devices with an aspect or of an
 * architecture, in one module that `spvcond annotate` turns into one that every device can compile.
 *
 *     #include <spvcond/device_if.h>
 *
 *     if (spvcond_device_has(fp64))
 *         y = refine_fp64(x);        // refine_fp64 and what it calls may use double
 *     else
 *         y = refine_fp32(x);
 *
 * Compile as usual (clang -target spir64 ..., llvm-spirv); the calls below stay declared functions that
 * annotate replaces by spec constants. Put the code that uses a feature in a function called under the
 * guard: code inline in the guarded block cannot be removed, so the kernel would require the feature.
 * Aspect names and numbers are DPC++'s (sycl::aspect); architectures are those of the
 * SPV_INTEL_function_variants device registry, named as sycl::ext::oneapi::experimental::architecture. */
#ifndef SPVCOND_DEVICE_IF_H
#define SPVCOND_DEVICE_IF_H

/* The markers: declared, never defined. */
#ifdef __OPENCL_C_VERSION__
bool __spvcond_device_has(int aspect);
bool __spvcond_architecture_is(uint category, uint family, uint architecture, uint comparison);
#endif

/* Whether the device has aspect A (a name below without its prefix: fp64, fp16, atomic64, image...). */
#define spvcond_device_has(A) __spvcond_device_has(SPVCOND_ASPECT_##A)
/* Whether the device's architecture is ARCH (intel_gpu_pvc, nvidia_gpu_sm_80, amd_gpu_gfx90a...), or
 * within ARCH's family and before (_lt), at most (_le), after (_gt), at least (_ge) it. */
#define spvcond_architecture_is(ARCH) __spvcond_architecture_is(SPVCOND_ARCH_##ARCH, 170u)
#define spvcond_architecture_is_lt(ARCH) __spvcond_architecture_is(SPVCOND_ARCH_##ARCH, 176u)
#define spvcond_architecture_is_le(ARCH) __spvcond_architecture_is(SPVCOND_ARCH_##ARCH, 178u)
#define spvcond_architecture_is_gt(ARCH) __spvcond_architecture_is(SPVCOND_ARCH_##ARCH, 172u)
#define spvcond_architecture_is_ge(ARCH) __spvcond_architecture_is(SPVCOND_ARCH_##ARCH, 174u)
/* Whether the device belongs to a family: intel_gpu, nvidia_gpu, amd_gpu, cpu, gpu... */
#define spvcond_architecture_family_is(FAMILY) __spvcond_architecture_is(SPVCOND_ARCH_##FAMILY, 174u)

/* Aspects (sycl::aspect numbers). */
#define SPVCOND_ASPECT_host 0
#define SPVCOND_ASPECT_cpu 1
#define SPVCOND_ASPECT_gpu 2
#define SPVCOND_ASPECT_accelerator 3
#define SPVCOND_ASPECT_custom 4
#define SPVCOND_ASPECT_fp16 5
#define SPVCOND_ASPECT_fp64 6
#define SPVCOND_ASPECT_int64_base_atomics 7
#define SPVCOND_ASPECT_int64_extended_atomics 8
#define SPVCOND_ASPECT_image 9
#define SPVCOND_ASPECT_online_compiler 10
#define SPVCOND_ASPECT_online_linker 11
#define SPVCOND_ASPECT_queue_profiling 12
#define SPVCOND_ASPECT_usm_device_allocations 13
#define SPVCOND_ASPECT_usm_host_allocations 14
#define SPVCOND_ASPECT_usm_shared_allocations 15
#define SPVCOND_ASPECT_usm_restricted_shared_allocations 16
#define SPVCOND_ASPECT_usm_system_allocations 17
#define SPVCOND_ASPECT_ext_intel_pci_address 18
#define SPVCOND_ASPECT_ext_intel_gpu_eu_count 19
#define SPVCOND_ASPECT_ext_intel_gpu_eu_simd_width 20
#define SPVCOND_ASPECT_ext_intel_gpu_slices 21
#define SPVCOND_ASPECT_ext_intel_gpu_subslices_per_slice 22
#define SPVCOND_ASPECT_ext_intel_gpu_eu_count_per_subslice 23
#define SPVCOND_ASPECT_ext_intel_max_mem_bandwidth 24
#define SPVCOND_ASPECT_ext_intel_mem_channel 25
#define SPVCOND_ASPECT_usm_atomic_host_allocations 26
#define SPVCOND_ASPECT_usm_atomic_shared_allocations 27
#define SPVCOND_ASPECT_atomic64 28
#define SPVCOND_ASPECT_ext_intel_device_info_uuid 29
#define SPVCOND_ASPECT_ext_oneapi_srgb 30
#define SPVCOND_ASPECT_ext_oneapi_native_assert 31
#define SPVCOND_ASPECT_host_debuggable 32
#define SPVCOND_ASPECT_ext_intel_gpu_hw_threads_per_eu 33
#define SPVCOND_ASPECT_ext_oneapi_cuda_async_barrier 34
#define SPVCOND_ASPECT_ext_intel_free_memory 36
#define SPVCOND_ASPECT_ext_intel_device_id 37
#define SPVCOND_ASPECT_ext_intel_memory_clock_rate 38
#define SPVCOND_ASPECT_ext_intel_memory_bus_width 39
#define SPVCOND_ASPECT_emulated 40
#define SPVCOND_ASPECT_ext_intel_legacy_image 41
#define SPVCOND_ASPECT_ext_oneapi_bindless_images 42
#define SPVCOND_ASPECT_ext_oneapi_bindless_images_shared_usm 43
#define SPVCOND_ASPECT_ext_oneapi_bindless_images_1d_usm 44
#define SPVCOND_ASPECT_ext_oneapi_bindless_images_2d_usm 45
#define SPVCOND_ASPECT_ext_oneapi_external_memory_import 46
#define SPVCOND_ASPECT_ext_oneapi_external_semaphore_import 48
#define SPVCOND_ASPECT_ext_oneapi_mipmap 50
#define SPVCOND_ASPECT_ext_oneapi_mipmap_anisotropy 51
#define SPVCOND_ASPECT_ext_oneapi_mipmap_level_reference 52
#define SPVCOND_ASPECT_ext_intel_esimd 53
#define SPVCOND_ASPECT_ext_oneapi_ballot_group 54
#define SPVCOND_ASPECT_ext_oneapi_fixed_size_group 55
#define SPVCOND_ASPECT_ext_oneapi_opportunistic_group 56
#define SPVCOND_ASPECT_ext_oneapi_tangle_group 57
#define SPVCOND_ASPECT_ext_intel_matrix 58
#define SPVCOND_ASPECT_ext_oneapi_is_composite 59
#define SPVCOND_ASPECT_ext_oneapi_is_component 60
#define SPVCOND_ASPECT_ext_oneapi_graph 61
#define SPVCOND_ASPECT_ext_intel_fpga_task_sequence 62
#define SPVCOND_ASPECT_ext_oneapi_limited_graph 63
#define SPVCOND_ASPECT_ext_oneapi_private_alloca 64
#define SPVCOND_ASPECT_ext_oneapi_cubemap 65
#define SPVCOND_ASPECT_ext_oneapi_cubemap_seamless_filtering 66
#define SPVCOND_ASPECT_ext_oneapi_bindless_sampled_image_fetch_1d_usm 67
#define SPVCOND_ASPECT_ext_oneapi_bindless_sampled_image_fetch_1d 68
#define SPVCOND_ASPECT_ext_oneapi_bindless_sampled_image_fetch_2d_usm 69
#define SPVCOND_ASPECT_ext_oneapi_bindless_sampled_image_fetch_2d 70
#define SPVCOND_ASPECT_ext_oneapi_bindless_sampled_image_fetch_3d 72
#define SPVCOND_ASPECT_ext_oneapi_queue_profiling_tag 73
#define SPVCOND_ASPECT_ext_oneapi_virtual_mem 74
#define SPVCOND_ASPECT_ext_oneapi_cuda_cluster_group 75
#define SPVCOND_ASPECT_ext_oneapi_image_array 76
#define SPVCOND_ASPECT_ext_oneapi_unique_addressing_per_dim 77
#define SPVCOND_ASPECT_ext_oneapi_bindless_images_sample_1d_usm 78
#define SPVCOND_ASPECT_ext_oneapi_bindless_images_sample_2d_usm 79
#define SPVCOND_ASPECT_ext_oneapi_atomic16 80
#define SPVCOND_ASPECT_ext_oneapi_virtual_functions 81
#define SPVCOND_ASPECT_ext_intel_spill_memory_size 82
#define SPVCOND_ASPECT_ext_oneapi_bindless_images_gather 83
#define SPVCOND_ASPECT_ext_intel_current_clock_throttle_reasons 84
#define SPVCOND_ASPECT_ext_intel_fan_speed 85
#define SPVCOND_ASPECT_ext_intel_power_limits 86
#define SPVCOND_ASPECT_ext_oneapi_async_memory_alloc 87
#define SPVCOND_ASPECT_ext_intel_device_info_luid 88
#define SPVCOND_ASPECT_ext_intel_device_info_node_mask 89
#define SPVCOND_ASPECT_ext_oneapi_exportable_device_mem 90

/* Architectures: category, family, architecture. */
#define SPVCOND_ARCH_intel_gpu 2u, 1u, 0u
#define SPVCOND_ARCH_intel_gpu_bdw 2u, 1u, 1u
#define SPVCOND_ARCH_intel_gpu_skl 2u, 1u, 2u
#define SPVCOND_ARCH_intel_gpu_kbl 2u, 1u, 3u
#define SPVCOND_ARCH_intel_gpu_cfl 2u, 1u, 4u
#define SPVCOND_ARCH_intel_gpu_apl 2u, 1u, 5u
#define SPVCOND_ARCH_intel_gpu_glk 2u, 1u, 6u
#define SPVCOND_ARCH_intel_gpu_whl 2u, 1u, 7u
#define SPVCOND_ARCH_intel_gpu_aml 2u, 1u, 8u
#define SPVCOND_ARCH_intel_gpu_cml 2u, 1u, 9u
#define SPVCOND_ARCH_intel_gpu_icllp 2u, 1u, 10u
#define SPVCOND_ARCH_intel_gpu_ehl 2u, 1u, 11u
#define SPVCOND_ARCH_intel_gpu_tgllp 2u, 1u, 12u
#define SPVCOND_ARCH_intel_gpu_rkl 2u, 1u, 13u
#define SPVCOND_ARCH_intel_gpu_adl_s 2u, 1u, 14u
#define SPVCOND_ARCH_intel_gpu_adl_p 2u, 1u, 15u
#define SPVCOND_ARCH_intel_gpu_adl_n 2u, 1u, 16u
#define SPVCOND_ARCH_intel_gpu_dg1 2u, 1u, 17u
#define SPVCOND_ARCH_intel_gpu_acm_g10 2u, 1u, 18u
#define SPVCOND_ARCH_intel_gpu_acm_g11 2u, 1u, 19u
#define SPVCOND_ARCH_intel_gpu_acm_g12 2u, 1u, 20u
#define SPVCOND_ARCH_intel_gpu_pvc 2u, 1u, 21u
#define SPVCOND_ARCH_intel_gpu_pvc_vg 2u, 1u, 22u
#define SPVCOND_ARCH_intel_gpu_mtl_u 2u, 1u, 23u
#define SPVCOND_ARCH_intel_gpu_mtl_h 2u, 1u, 24u
#define SPVCOND_ARCH_intel_gpu_arl_h 2u, 1u, 25u
#define SPVCOND_ARCH_intel_gpu_bmg_g21 2u, 1u, 26u
#define SPVCOND_ARCH_intel_gpu_lnl_m 2u, 1u, 27u
#define SPVCOND_ARCH_intel_gpu_ptl_h 2u, 1u, 28u
#define SPVCOND_ARCH_intel_gpu_ptl_u 2u, 1u, 29u
#define SPVCOND_ARCH_intel_gpu_mtl_s 2u, 1u, 23u
#define SPVCOND_ARCH_intel_gpu_arl_u 2u, 1u, 23u
#define SPVCOND_ARCH_intel_gpu_arl_s 2u, 1u, 23u
#define SPVCOND_ARCH_intel_gpu_dg2_g10 2u, 1u, 18u
#define SPVCOND_ARCH_intel_gpu_dg2_g11 2u, 1u, 19u
#define SPVCOND_ARCH_intel_gpu_dg2_g12 2u, 1u, 20u
#define SPVCOND_ARCH_intel_gpu_icl 2u, 1u, 10u
#define SPVCOND_ARCH_intel_gpu_tgl 2u, 1u, 12u
#define SPVCOND_ARCH_intel_gpu_jsl 2u, 1u, 11u
#define SPVCOND_ARCH_intel_gpu_rpl_s 2u, 1u, 14u
#define SPVCOND_ARCH_intel_gpu_bxt 2u, 1u, 5u
#define SPVCOND_ARCH_amd_gpu 2u, 2u, 0u
#define SPVCOND_ARCH_amd_gpu_gfx700 2u, 2u, 1u
#define SPVCOND_ARCH_amd_gpu_gfx701 2u, 2u, 1u
#define SPVCOND_ARCH_amd_gpu_gfx702 2u, 2u, 1u
#define SPVCOND_ARCH_amd_gpu_gfx703 2u, 2u, 1u
#define SPVCOND_ARCH_amd_gpu_gfx704 2u, 2u, 1u
#define SPVCOND_ARCH_amd_gpu_gfx705 2u, 2u, 1u
#define SPVCOND_ARCH_amd_gpu_gfx801 2u, 2u, 2u
#define SPVCOND_ARCH_amd_gpu_gfx802 2u, 2u, 2u
#define SPVCOND_ARCH_amd_gpu_gfx803 2u, 2u, 3u
#define SPVCOND_ARCH_amd_gpu_gfx805 2u, 2u, 4u
#define SPVCOND_ARCH_amd_gpu_gfx810 2u, 2u, 4u
#define SPVCOND_ARCH_amd_gpu_gfx900 2u, 2u, 5u
#define SPVCOND_ARCH_amd_gpu_gfx902 2u, 2u, 5u
#define SPVCOND_ARCH_amd_gpu_gfx904 2u, 2u, 5u
#define SPVCOND_ARCH_amd_gpu_gfx906 2u, 2u, 6u
#define SPVCOND_ARCH_amd_gpu_gfx908 2u, 2u, 7u
#define SPVCOND_ARCH_amd_gpu_gfx909 2u, 2u, 8u
#define SPVCOND_ARCH_amd_gpu_gfx90a 2u, 2u, 9u
#define SPVCOND_ARCH_amd_gpu_gfx90c 2u, 2u, 10u
#define SPVCOND_ARCH_amd_gpu_gfx940 2u, 2u, 11u
#define SPVCOND_ARCH_amd_gpu_gfx941 2u, 2u, 11u
#define SPVCOND_ARCH_amd_gpu_gfx942 2u, 2u, 11u
#define SPVCOND_ARCH_amd_gpu_gfx1010 2u, 2u, 12u
#define SPVCOND_ARCH_amd_gpu_gfx1011 2u, 2u, 12u
#define SPVCOND_ARCH_amd_gpu_gfx1012 2u, 2u, 12u
#define SPVCOND_ARCH_amd_gpu_gfx1013 2u, 2u, 12u
#define SPVCOND_ARCH_amd_gpu_gfx1030 2u, 2u, 13u
#define SPVCOND_ARCH_amd_gpu_gfx1031 2u, 2u, 13u
#define SPVCOND_ARCH_amd_gpu_gfx1032 2u, 2u, 13u
#define SPVCOND_ARCH_amd_gpu_gfx1033 2u, 2u, 13u
#define SPVCOND_ARCH_amd_gpu_gfx1034 2u, 2u, 13u
#define SPVCOND_ARCH_amd_gpu_gfx1035 2u, 2u, 13u
#define SPVCOND_ARCH_amd_gpu_gfx1036 2u, 2u, 13u
#define SPVCOND_ARCH_amd_gpu_gfx1100 2u, 2u, 14u
#define SPVCOND_ARCH_amd_gpu_gfx1101 2u, 2u, 14u
#define SPVCOND_ARCH_amd_gpu_gfx1102 2u, 2u, 14u
#define SPVCOND_ARCH_amd_gpu_gfx1103 2u, 2u, 14u
#define SPVCOND_ARCH_amd_gpu_gfx1150 2u, 2u, 15u
#define SPVCOND_ARCH_amd_gpu_gfx1151 2u, 2u, 15u
#define SPVCOND_ARCH_amd_gpu_gfx1200 2u, 2u, 16u
#define SPVCOND_ARCH_amd_gpu_gfx1201 2u, 2u, 16u
#define SPVCOND_ARCH_nvidia_gpu 2u, 3u, 0u
#define SPVCOND_ARCH_nvidia_gpu_sm_50 2u, 3u, 1u
#define SPVCOND_ARCH_nvidia_gpu_sm_52 2u, 3u, 2u
#define SPVCOND_ARCH_nvidia_gpu_sm_53 2u, 3u, 3u
#define SPVCOND_ARCH_nvidia_gpu_sm_60 2u, 3u, 4u
#define SPVCOND_ARCH_nvidia_gpu_sm_61 2u, 3u, 5u
#define SPVCOND_ARCH_nvidia_gpu_sm_62 2u, 3u, 6u
#define SPVCOND_ARCH_nvidia_gpu_sm_70 2u, 3u, 6u
#define SPVCOND_ARCH_nvidia_gpu_sm_72 2u, 3u, 7u
#define SPVCOND_ARCH_nvidia_gpu_sm_75 2u, 3u, 8u
#define SPVCOND_ARCH_nvidia_gpu_sm_80 2u, 3u, 9u
#define SPVCOND_ARCH_nvidia_gpu_sm_86 2u, 3u, 10u
#define SPVCOND_ARCH_nvidia_gpu_sm_87 2u, 3u, 11u
#define SPVCOND_ARCH_nvidia_gpu_sm_89 2u, 3u, 12u
#define SPVCOND_ARCH_nvidia_gpu_sm_90 2u, 3u, 13u
#define SPVCOND_ARCH_nvidia_gpu_sm_90a 2u, 3u, 13u
#define SPVCOND_ARCH_cpu 1u, 0u, 0u
#define SPVCOND_ARCH_intel_cpu 1u, 1u, 0u
#define SPVCOND_ARCH_gpu 2u, 0u, 0u
#define SPVCOND_ARCH_npu 3u, 0u, 0u
#define SPVCOND_ARCH_intel_npu 3u, 1u, 0u

#endif
