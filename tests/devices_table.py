#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The built-in devices (spec/devices.md) against a copy of what they should say, written here from the
sources, not from the library: for the default table, Intel GPUs as compute-runtime's capability
tables have them (fp64 = ftrSupportsFP64, atomic64 = ftrSupportsInteger64BitAtomics, image and
ext_intel_legacy_image = supportsImages, USM with OpenCL 2.1 features, system USM where the platform
sets sharedSystemMemCapabilities) plus what its OpenCL device reports on every platform; for "dpcpp:"
names, DPC++'s DeviceConfigFile.td snapshot (dpcpp.md section 2). Every aspect of a built-in device says
where it comes from (devices --json). Then the corpus, annotated, checked for acm_g10 and pvc in both
tables: the darktable kernels (images) are supported on acm_g10 as the hardware is, not as DPC++ lists it."""
import glob
import json
import os
import re
import sys
import tempfile

from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
CORPUS = os.environ.get("SPVCOND_CORPUS")

DRIVER = {"gpu", "online_compiler", "online_linker", "queue_profiling", "ext_intel_esimd", "fp16"}
USM = {"usm_device_allocations", "usm_host_allocations", "usm_shared_allocations"}
IMAGES = {"image", "ext_intel_legacy_image"}
HARDWARE_INTEL = {
    # target: (compute-runtime file, fp64, atomic64, images, OpenCL 2.1 features (USM), extra)
    "pvc": ("xe_hpc_core/hw_info_pvc.cpp", True, True, False, True, {"usm_system_allocations"}),
    "pvc_vg": ("xe_hpc_core/hw_info_pvc.cpp", True, True, False, True, {"usm_system_allocations"}),
    "arl_h": ("xe_hpg_core/hw_info_arl.cpp", True, True, True, True, set()),
    "mtl_h": ("xe_hpg_core/hw_info_mtl.cpp", True, True, True, True, set()),
    "mtl_u": ("xe_hpg_core/hw_info_mtl.cpp", True, True, True, True, set()),
    "acm_g10": ("xe_hpg_core/hw_info_dg2.cpp", False, True, True, True, set()),
    "acm_g11": ("xe_hpg_core/hw_info_dg2.cpp", False, True, True, True, set()),
    "acm_g12": ("xe_hpg_core/hw_info_dg2.cpp", False, True, True, True, set()),
    "dg1": ("gen12lp/hw_info_dg1.cpp", False, True, True, True, set()),
    "adl_n": ("gen12lp/hw_info_adln.cpp", False, True, True, True, set()),
    "adl_p": ("gen12lp/hw_info_adlp.cpp", False, True, True, True, set()),
    "adl_s": ("gen12lp/hw_info_adls.cpp", False, True, True, True, set()),
    "rkl": ("gen12lp/hw_info_rkl.cpp", False, True, True, True, set()),
    "tgllp": ("gen12lp/hw_info_tgllp.cpp", False, True, True, True, set()),
    "icllp": ("gen11/hw_info_icllp.cpp", False, True, True, True, set()),
    "ehl": ("gen11/hw_info_ehl.cpp", False, False, True, False, set()),
    "cml": ("gen9/hw_info_cfl.cpp", True, True, True, True, set()),
    "whl": ("gen9/hw_info_cfl.cpp", True, True, True, True, set()),
    "cfl": ("gen9/hw_info_cfl.cpp", True, True, True, True, set()),
    "aml": ("gen9/hw_info_kbl.cpp", True, True, True, True, set()),
    "kbl": ("gen9/hw_info_kbl.cpp", True, True, True, True, set()),
    "skl": ("gen9/hw_info_skl.cpp", True, True, True, True, set()),
    "glk": ("gen9/hw_info_glk.cpp", True, False, True, False, set()),
    "apl": ("gen9/hw_info_bxt.cpp", True, False, True, False, set()),
    "bdw": ("gen8/hw_info_bdw.cpp", True, True, True, True, set()),
}
DPCPP_FP64 = {"pvc", "pvc_vg", "arl_h", "mtl_h", "mtl_u", "cml", "aml", "whl", "glk", "apl", "cfl", "kbl", "skl", "bdw"}

ALL_USM = USM | {"usm_system_allocations", "usm_atomic_host_allocations", "usm_atomic_shared_allocations"}
CUDA_MIN = ALL_USM | {"gpu", "fp64", "online_compiler", "online_linker", "queue_profiling", "ext_intel_pci_address",
                      "ext_intel_max_mem_bandwidth", "ext_intel_memory_bus_width", "ext_intel_device_info_uuid",
                      "ext_oneapi_native_assert", "ext_intel_free_memory", "ext_intel_device_id",
                      "ext_intel_memory_clock_rate", "ext_oneapi_ballot_group", "ext_oneapi_fixed_size_group",
                      "ext_oneapi_opportunistic_group", "ext_oneapi_graph", "ext_oneapi_limited_graph"}
CUDA_BINDLESS = {"ext_oneapi_bindless_images", "ext_oneapi_bindless_images_shared_usm",
                 "ext_oneapi_bindless_images_1d_usm", "ext_oneapi_bindless_images_2d_usm",
                 "ext_oneapi_external_memory_import", "ext_oneapi_external_semaphore_import", "ext_oneapi_mipmap",
                 "ext_oneapi_mipmap_anisotropy", "ext_oneapi_mipmap_level_reference", "ext_oneapi_cubemap",
                 "ext_oneapi_cubemap_seamless_filtering"}
HIP_MIN = {"gpu", "fp64", "online_compiler", "online_linker", "queue_profiling", "ext_intel_pci_address",
           "ext_intel_max_mem_bandwidth", "ext_intel_device_id", "ext_intel_memory_clock_rate",
           "ext_intel_memory_bus_width", "ext_intel_free_memory"}
HIP_GRAPH = HIP_MIN | ALL_USM | {"ext_intel_device_info_uuid", "ext_oneapi_graph", "ext_oneapi_limited_graph"}
OTHERS = {}
for sm, extra in (("50 52", set()), ("53", {"fp16"}), ("60 61 62 70 72 75", {"fp16", "atomic64"}),
                  ("80 86 87 89", {"fp16", "atomic64", "ext_oneapi_cuda_async_barrier"}),
                  ("90 90a", {"fp16", "atomic64", "ext_oneapi_cuda_async_barrier", "ext_oneapi_cuda_cluster_group"})):
    for n in sm.split():
        OTHERS["nvidia_gpu_sm_" + n] = (CUDA_MIN | CUDA_BINDLESS | extra, [32], True)
for gfx, aspects, sg in (("908 940 1030 1100", HIP_GRAPH, None), ("90a", HIP_GRAPH | {"ext_oneapi_native_assert"}, [64]),
                         ("906 90c 1010 1011 1012 1013 1032 1033 1034 1035 1036 1101 1102 1103 1150 1151",
                          HIP_MIN | ALL_USM, None),
                         ("1031", (HIP_MIN - {"ext_intel_free_memory"}) | ALL_USM, [32, 64]),
                         ("700 701 702 801 802 803 805 810", HIP_MIN, [16]), ("900 902 904 909", HIP_MIN, [64]),
                         ("941 942 1200 1201", set(), [])):
    for n in gfx.split():
        sizes = sg if sg is not None else ([32, 64] if n.startswith(("10", "11")) else [64])
        OTHERS["amd_gpu_gfx" + n] = (aspects, sizes, False)
# The hardware table (spec/devices.md): NVIDIA's lists are whole; AMD adds fp16 from gfx8 on and atomic64
# everywhere (AMD's LLVM backend), gfx941/942 take gfx940's entry and gfx1200/1201 the RDNA ones.
HARDWARE_OTHERS = {}
for name, (aspects, sizes, others) in OTHERS.items():
    if name.startswith("nvidia_gpu_"):
        HARDWARE_OTHERS[name] = (aspects, sizes, False)
    elif name.startswith("amd_gpu_"):
        if name in ("amd_gpu_gfx941", "amd_gpu_gfx942"):
            aspects, sizes = OTHERS["amd_gpu_gfx940"][:2]
        elif name in ("amd_gpu_gfx1200", "amd_gpu_gfx1201"):
            aspects, sizes = OTHERS["amd_gpu_gfx1101"][:2]
        gfx7 = name[len("amd_gpu_gfx"):] in ("700", "701", "702")
        HARDWARE_OTHERS[name] = (aspects | {"atomic64"} | (set() if gfx7 else {"fp16"}), sizes, False)
for n in ("x86_64", "spir64", "spir64_gen", "spir64_x86_64", "spir64_fpga"):
    OTHERS[n] = (set(), [], True)


def expected(name):
    """(aspects, sub-group sizes, may support others) of a built-in device."""
    dpcpp = name.startswith("dpcpp:")
    bare = name[len("dpcpp:"):] if dpcpp else name
    if bare.startswith("intel_gpu_"):
        target = bare[len("intel_gpu_"):]
        sizes = [16, 32] if target.startswith("pvc") else [8, 16, 32]
        if dpcpp:
            return {"ext_intel_esimd", "fp16", "atomic64"} | ({"fp64"} if target in DPCPP_FP64 else set()), sizes, False
        _, fp64, atomic64, images, ocl21, extra = HARDWARE_INTEL[target]
        return (DRIVER | (USM if ocl21 else set()) | (IMAGES if images else set()) | ({"fp64"} if fp64 else set()) |
                ({"atomic64"} if atomic64 else set()) | extra), sizes, False
    if dpcpp:
        return OTHERS[bare]
    return HARDWARE_OTHERS.get(bare, OTHERS[bare])


def main():
    for table in ([], ["--table", "dpcpp"]):
        listed = json.loads(run([CLI, "devices", "--json", *table], check=True).stdout)
        devices = [d for d in listed if d["source"] == "built-in"]
        names = [d["name"] for d in devices]
        vulkan = [d["name"] for d in listed if d["source"] == "vulkan"]
        check(vulkan == ([] if table else ["vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3"]),
              "%s table: the built-in Vulkan devices follow" % (table[-1] if table else "default"), str(vulkan))
        want_names = ["%s%s" % ("dpcpp:" if table else "", n) for n in
                      list(OTHERS)[-5:] + ["intel_gpu_" + t for t in HARDWARE_INTEL] + list(OTHERS)[:-5]]
        check(sorted(names) == sorted(want_names), "%s table: the devices" % (table[-1] if table else "default"),
              str(sorted(set(names) ^ set(want_names))))
        for d in devices:
            if d["name"] not in want_names:
                continue
            aspects, sizes, others = expected(d["name"])
            got = (set(d["aspects"]), d["sub_group_sizes"], d["may_support_other_aspects"])
            check(got == (aspects, sizes, others), "%s: aspects, sub-group sizes, may support others" % d["name"],
                  "extra %s, missing %s; %s" % (sorted(got[0] - aspects), sorted(aspects - got[0]), got[1:]))
            sources = d.get("aspect_sources", {})
            check(set(sources) == set(d["aspects"]) and all(sources.values()),
                  "%s: every aspect says where it comes from" % d["name"])
            bare = d["name"].replace("dpcpp:", "")
            if bare.startswith("intel_gpu_") and not table:
                file = HARDWARE_INTEL[bare[len("intel_gpu_"):]][0]
                for aspect in ("fp64", "atomic64", "image"):
                    if aspect in sources:
                        check(sources[aspect].endswith(file), "%s: %s from %s" % (d["name"], aspect, file),
                              sources[aspect])

    # The corpus on acm_g10 and pvc, as the hardware is and as DPC++'s table says.
    modules = sorted(glob.glob(os.path.join(CORPUS or "", "*.spv")))
    if not check(len(modules) >= 60, "the corpus is there", str(len(modules))):
        return summary()
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in modules:
            ann = os.path.join(tmp, "a.spv")
            run([CLI, "annotate", "-q", path, "-o", ann], check=True)
            for dev in ("intel_gpu_acm_g10", "dpcpp:intel_gpu_acm_g10", "intel_gpu_pvc", "dpcpp:intel_gpu_pvc"):
                said = run([CLI, "check", "--device", dev, ann]).stdout
                kernels = re.findall(r"^\S+: (supported|not supported)", said, re.M)
                c = counts.setdefault(dev, [0, 0, 0, 0])
                c[0] += kernels.count("supported")
                c[1] += len(kernels)
                if "darktable" in path:
                    c[2] += kernels.count("supported")
                    c[3] += len(kernels)
    for dev, (kept, total, dt_kept, dt_total) in counts.items():
        print("%s: corpus %d of %d kernels supported; darktable %d of %d" % (dev, kept, total, dt_kept, dt_total))
    check(counts["intel_gpu_acm_g10"][2] == counts["intel_gpu_acm_g10"][3] > 0,
          "darktable on acm_g10 keeps every kernel", str(counts["intel_gpu_acm_g10"]))
    check(counts["dpcpp:intel_gpu_acm_g10"][2] < counts["dpcpp:intel_gpu_acm_g10"][3],
          "DPC++'s table drops darktable's image kernels on acm_g10", str(counts["dpcpp:intel_gpu_acm_g10"]))
    check(counts["intel_gpu_acm_g10"][0] > counts["dpcpp:intel_gpu_acm_g10"][0],
          "the hardware table keeps more of the corpus on acm_g10")
    check(counts["intel_gpu_pvc"] == counts["dpcpp:intel_gpu_pvc"],
          "pvc: the same either way (compute-runtime reports no images on it)")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
