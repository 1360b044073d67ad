#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Images through the layer (docs/opencl-layer.md, "Images"). tests/layer/images_host.c runs the image kernels
of tests/data/images/ (reads with constant samplers, a sampler argument and none; 1D, 1D buffer, 2D, 2D array
and 3D images; writes in two channel orders; the queries) and checks each result by value:

1. On rusticl and pocl, a program from SPIR-V through the layer gives every result that the same driver gives
   from the OpenCL C source with its own compiler (a result the driver gets wrong from OpenCL C too is the
   driver's, and is shown, not counted).
2. On the mock NVIDIA driver, which runs nothing, the PTX the layer makes is the PTX NVIDIA's own compiler
   makes of the same OpenCL C (tools/nvidia-run.sh, part `images`, runs the kernels on the GPU): image
   parameters `.texref` and `.surfref`, a sampler parameter `.samplerref`, constant samplers as module-level
   `.samplerref`s with their modes, fetches, formatted surface stores after the channel order's swizzle,
   queries; an annotated module keeps its image kernels where the driver reports images; a read-write image
   is refused with the reason."""
import os
import re
import sys
import subprocess
import tempfile

from layer_common import LAYER, MOCK_ICD, PTX, SRC, annotate, compile_cl
from platforms import one_platform
from verdicts import check, summary

HOST = os.environ.get("SPVCOND_LAYER_IMAGES_HOST", "")
IMAGES = os.path.join(SRC, "data", "images")
BASE = dict(os.environ, RUSTICL_ENABLE="llvmpipe", ASAN_OPTIONS="detect_leaks=0")  # runtimes leak by design
BASE.pop("OPENCL_LAYERS", None)
RUNTIMES = {"rusticl": "rusticl", "pocl": "Portable Computing Language"}
SOURCES = ["images.cl", "sampler_argument.cl", "array_writes.cl"]
# What a runtime's own library gets wrong through SPIR-V only, and the words that show it is that.
KNOWN = {("pocl", "write_layers"): ("pocl's kernel library cannot run _Z12write_imagei20ocl_image2d_array_woDv4_iS_",
                                    "refused at the build: pocl 3.1's kernel library defines write_imagei of a 2D "
                                    "array (clang's name) by a _cl_write_imagei it does not define, and pocl ends "
                                    "the process at the first launch; from OpenCL C pocl calls the defined one")}


def results(out):
    """Each kernel's verdict line of the host's output, by kernel (with the case in parentheses)."""
    return dict(re.findall(r"^([a-z_]+(?: \([^)]*\))?): (ok|wrong.*|not .*)$", out, re.M))


def runtime_checks(modules):
    sources = [os.path.join(IMAGES, source) for source in SOURCES]
    for runtime, platform in RUNTIMES.items():
        direct = subprocess.run([HOST, "--platform", platform, "--source", *sources], capture_output=True, text=True,
                                env=one_platform(BASE, platform), timeout=600)
        if direct.returncode == 2:
            print("skipped: %s (%s)" % (runtime, direct.stdout.strip() or direct.stderr.strip()))
            continue
        layered = subprocess.run([HOST, "--platform", platform, "--il", *modules], capture_output=True, text=True,
                                 env=one_platform(dict(BASE, OPENCL_LAYERS=LAYER), platform), timeout=600)
        want, got = results(direct.stdout), results(layered.stdout)
        check(len(want) >= 10, "%s: the host ran every image kernel from OpenCL C (%d)" % (runtime, len(want)),
              direct.stdout + direct.stderr)
        for kernel, verdict in sorted(want.items()):
            if verdict != "ok":
                print("%s: from OpenCL C the driver itself gives %s: %s" % (runtime, kernel, verdict))
                continue
            if (runtime, kernel) in KNOWN and got.get(kernel) != "ok":
                words, why = KNOWN[(runtime, kernel)]
                check(words in layered.stdout + layered.stderr, "%s: %s through the layer fails only as known: %s" % (
                    runtime, kernel, why), layered.stdout[-600:] + layered.stderr[-600:])
                continue
            check(got.get(kernel) == "ok", "%s: %s through the layer, right as from OpenCL C" % (runtime, kernel),
                  layered.stdout[-600:] + layered.stderr[-600:])


def ptx_checks(tmp, modules):
    if not MOCK_ICD or not PTX:
        print("skipped: the NVIDIA route (%s)" % ("no mock driver" if not MOCK_ICD else
                                                 "the layer was built without LLVM's NVPTX back end"))
        return
    host = os.environ["SPVCOND_LAYER_HOST"]
    prefix = os.path.join(tmp, "nv")
    env = dict(BASE, OPENCL_LAYERS=LAYER, OCL_ICD_VENDORS=MOCK_ICD, SPVCOND_MOCK_OUT=prefix, SPVCOND_MOCK_NVIDIA="1",
               SPVCOND_MOCK_IMAGES="1")

    def lower(module, *kernels, images=True):
        ptx = prefix + ".0.ptx"
        if os.path.exists(ptx):
            os.remove(ptx)
        p = subprocess.run([host, "--platform", "NVIDIA", "--create-only", module, *kernels], capture_output=True,
                           text=True, env=env if images else {k: v for k, v in env.items() if k != "SPVCOND_MOCK_IMAGES"},
                           timeout=600)
        return p.stdout + p.stderr, open(ptx).read() if os.path.exists(ptx) else ""

    out, text = lower(modules[0], "read_nearest")
    layers_out, layers = lower(modules[2], "write_layers")
    entry = lambda name: text[text.find(".entry %s(" % name):][:text[text.find(".entry %s(" % name):].find("\n}")]
    check("kernel read_nearest: created" in out and
          ".param .texref read_nearest_param_0," in text and ".param .surfref write_float_param_0\n" in text and
          ".param .surfref queries_param_2," in text,
          "mock NVIDIA: a read-only image parameter is a .texref, a write-only one a .surfref", out[-600:])
    check(".param .texref image_unused_param_0," in text,
          "mock NVIDIA: an image parameter the kernel does not read is a .texref all the same", entry("image_unused"))
    check(".global .samplerref __spvcond_sampler_2 = { addr_mode_0 = clamp_to_edge, addr_mode_1 = clamp_to_edge, "
          "addr_mode_2 = clamp_to_edge, filter_mode = nearest, force_unnormalized_coords = 1 };" in text and
          ".global .samplerref __spvcond_sampler_27 = { addr_mode_0 = wrap, addr_mode_1 = wrap, addr_mode_2 = wrap, "
          "filter_mode = linear };" in text and
          ".global .samplerref __spvcond_sampler_0 = { addr_mode_0 = wrap, addr_mode_1 = wrap, addr_mode_2 = wrap, "
          "filter_mode = nearest, force_unnormalized_coords = 1 };" in text,
          "mock NVIDIA: the constant samplers (clamp to edge + nearest + unnormalized; repeat + linear + normalized) "
          "and the one of reads without a sampler are module-level .samplerrefs with their modes", text[:900])
    fetches = {
        "read_nearest": r"tex\.2d\.v4\.f32\.s32\s+\{[^}]*\}, \[read_nearest_param_0, __spvcond_sampler_2, \{%r\d+, %r\d+\}\]",
        "read_linear": r"tex\.2d\.v4\.f32\.f32\s+\{[^}]*\}, \[read_linear_param_0, __spvcond_sampler_27, \{%f\d+, %f\d+\}\]",
        "read_without_sampler": r"tex\.2d\.v4\.s32\.s32\s+\{[^}]*\}, \[read_without_sampler_param_0, __spvcond_sampler_0,",
        "one_dimension": r"tex\.1d\.v4\.f32\.f32\s+\{[^}]*\}, \[one_dimension_param_0, __spvcond_sampler_0, \{%f\d+\}\]"
                         r"(?:.*\n)*.*tex\.1d\.v4\.f32\.s32\s+\{[^}]*\}, \[one_dimension_param_1, __spvcond_sampler_0, \{%r\d+\}\]",
        "array_and_volume": r"tex\.a2d\.v4\.f32\.s32(?:.*\n)*.*tex\.a2d\.v4\.f32\.f32(?:.*\n)*.*tex\.3d\.v4\.f32\.f32",
        "write_float": r"suq\.channel_order\.b32\s+%r\d+, \[write_float_param_0\](?:.*\n)*.*"
                       r"sust\.p\.2d\.v4\.b32\.trap\s+\[write_float_param_0, \{%r\d+, %r\d+\}\]",
        "queries": r"txq\.width(?:.*\n)*.*txq\.channel_data_type(?:.*\n)*.*txq\.array_size\.b32\s+%r\d+, "
                   r"\[queries_param_1\](?:.*\n)*.*suq\.width\.b32\s+%r\d+, \[queries_param_2\]",
    }
    for kernel, pattern in fetches.items():
        check(re.search(pattern, entry(kernel)) is not None,
              "mock NVIDIA: %s is lowered as NVIDIA's compiler lowers it" % kernel, entry(kernel)[-900:])
    check(re.search(r"sust\.p\.a2d\.v4\.b32\.trap\s+\[write_layers_param_0, \{%r\d+, %r\d+, %r\d+, %r\d+\}\]",
                    layers) is not None, "mock NVIDIA: write_layers is lowered as NVIDIA's compiler lowers it",
          layers_out[-300:] + layers[-600:])
    # The float layer of a 2D array read is rounded and clamped to the array (txq.array_size).
    check(re.search(r"txq\.array_size\.b32\s+%r\d+, \[array_and_volume_param_0\](?:.*\n)*.*min\.s32",
                    entry("array_and_volume")) is not None,
          "mock NVIDIA: a float array layer is rounded to the nearest and clamped to the array's size",
          entry("array_and_volume")[-900:])
    out, text = lower(modules[1], "read_sampler_argument")
    check(".param .samplerref read_sampler_argument_param_1," in text and
          re.search(r"tex\.2d\.v4\.s32\.f32\s+\{[^}]*\}, \[read_sampler_argument_param_0, read_sampler_argument_param_1,",
                    text) is not None, "mock NVIDIA: a sampler parameter is a .samplerref the fetch names", out + text[-600:])
    annotated = os.path.join(tmp, "images.a.spv")
    annotate(modules[0], annotated)
    out, text = lower(annotated, "queries")
    check("kernel queries: created" in out and len(re.findall(r"^\.entry ", text, re.M)) == 8,
          "mock NVIDIA reporting images: the annotated module keeps its eight image kernels", out[-600:])
    out, text = lower(annotated, "queries", images=False)
    check("kernel queries: not created" in out and "Required aspect image is not supported on the device" in out,
          "mock NVIDIA without images: the annotated module's image kernels are absent, and the log says why",
          out[-600:])
    rw = os.path.join(tmp, "read_write.spv")
    compile_cl(os.path.join(SRC, "data", "nvidia", "images_read_write.cl"), rw, tmp, "-cl-std=CL2.0")
    out, text = lower(rw, "read_and_write")
    check("program: not built" in out and "read-write image" in out and not text,
          "mock NVIDIA: a read-write image is refused with the reason, nothing handed to the driver", out[-600:])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        modules = [os.path.join(tmp, source.replace(".cl", ".spv")) for source in SOURCES]
        for source, module in zip(SOURCES, modules):
            compile_cl(os.path.join(IMAGES, source), module, tmp)
        runtime_checks(modules)
        ptx_checks(tmp, modules)
    sys.exit(summary())


main()
