#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Vulkan layer (docs/vulkan-layer.md) on lavapipe, as an application meets it: six GLSL compute shaders
(single precision, double, half, 64-bit integers, a subgroup reduction, halves loaded from 16-bit storage)
compiled by glslang, merged into one module by spirv-link and annotated by spvcond, run by a plain Vulkan
program (tests/vulkan/compute_host.c) on devices created with fp64, fp16, int64 and 16-bit storage enabled in
four combinations; and one shader with guarded code
(refine.comp: `if (spvcond_has(Float64))`, include/spvcond/has.glsl) on devices with and without fp64 and fp16.

- Without the layer, the plain merged module on a device without shaderFloat64 and shaderFloat16 breaks
  Vulkan's rule (the validation layer reports VUID-VkShaderModuleCreateInfo-pCode-01091 for Float64 and
  Float16): the problem the layer solves.
- Through the layer, the annotated module on each combination: the entry points the enabled features allow
  give their results (y = 2x+1, 3x+1, 4x+1), the validation layer says nothing, and the others are absent
  from the module the driver got; every module the layer wrote passes spirv-val for vulkan1.1, 1.2 and 1.3.
- A plain module passes through unchanged, byte for byte."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

from verdicts import check, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
HOST = os.environ.get("SPVCOND_VULKAN_HOST", "")
OBJECTS = os.environ.get("SPVCOND_VULKAN_SHADER_OBJECTS", "")
LAYER_DIR = os.environ.get("SPVCOND_VULKAN_LAYER_DIR", "")
LAVAPIPE = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
SYSTEM_LAYERS = "/usr/share/vulkan/explicit_layer.d"
VAL = os.environ.get("SPIRV_VAL", "spirv-val")

# Each shader: its entry point, the feature it needs, and y for x = 0.5, 1.5, 2.5 and 63.5. The subgroup one
# needs GroupNonUniformArithmetic, which lavapipe has in the compute stage (no feature to enable).
SHADERS = {"scale_float": (None, "2 4 6 128"), "scale_double": ("shaderFloat64", "2.5 5.5 8.5 191.5"),
           "scale_half": ("shaderFloat16", "3 7 11 255"), "scale_int64": ("shaderInt64", "6 16 26 636"),
           "scale_subgroup": (None, "4 10 16 382"), "load_half": ("storageBuffer16BitAccess", "15 16.5 17.5 26.9688")}
# The guarded shader: y = x/2 + 64 in double, + 16 in half, + 32 in float, whichever the device allows first.
REFINE = {(): "32.25 32.75 33.25 63.75", ("shaderFloat16",): "16.25 16.75 17.25 47.75",
          ("shaderFloat64", "shaderFloat16"): "64.25 64.75 65.25 95.75"}


def run_host(args, layer, dump=None):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0",  # the loader and the drivers leak by design
               VK_ICD_FILENAMES=LAVAPIPE, XDG_RUNTIME_DIR=os.environ.get("XDG_RUNTIME_DIR", "/tmp"),
               VK_LAYER_PATH=LAYER_DIR + ":" + SYSTEM_LAYERS)
    env.pop("VK_INSTANCE_LAYERS", None)
    if layer:
        env["VK_INSTANCE_LAYERS"] = "VK_LAYER_SPVCOND_specialize"
    if dump:
        env["SPVCOND_LAYER_DUMP"] = dump
    p = subprocess.run([HOST, *args], capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    missing = [t for t in ("glslangValidator", "spirv-link") if not shutil.which(t)]
    if missing or not HOST or not os.path.exists(LAVAPIPE) or \
            not os.path.exists(os.path.join(SYSTEM_LAYERS, "VkLayer_khronos_validation.json")):
        print("skipped: needs glslang-tools, spirv-tools, the Vulkan layer and host (libvulkan-dev), lavapipe "
              "(mesa-vulkan-drivers) and vulkan-validationlayers; missing: %s" %
              ", ".join(missing + [p for p in (LAVAPIPE, HOST or "the host") if not os.path.exists(p)]))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for name in SHADERS:
            out = os.path.join(tmp, name + ".spv")
            subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-e", name,
                            "--source-entrypoint", "main", os.path.join(SRC, "data", "vulkan", name + ".comp"),
                            "-o", out], check=True, stdout=subprocess.DEVNULL)
            parts.append(out)
        plain, annotated = os.path.join(tmp, "all.spv"), os.path.join(tmp, "all.a.spv")
        subprocess.run(["spirv-link", *parts, "-o", plain], check=True)
        subprocess.run([CLI, "annotate", "-q", plain, "-o", annotated], check=True)

        rc, out, err = run_host(["--validation", plain, "scale_float"], layer=False)
        check("pCode-01091" in out and "(Float64)" in out and "(Float16)" in out,
              "without the layer, the plain module on a device without fp64 and fp16 breaks Vulkan's rule "
              "(the validation layer: Float64 and Float16 declared, not enabled)", out + err)

        dumps = os.path.join(tmp, "dumps")
        os.makedirs(dumps)
        for enabled in ([], ["shaderFloat64", "storageBuffer16BitAccess"], ["shaderFloat16", "shaderInt64"],
                        ["shaderFloat64", "shaderFloat16", "shaderInt64", "storageBuffer16BitAccess"]):
            wanted = [n for n, (f, _) in SHADERS.items() if f is None or f in enabled]
            absent = [n for n in SHADERS if n not in wanted]
            flags = [w for f in enabled for w in ("--enable", f)]
            shown = "+".join(enabled) or "nothing"
            rc, out, err = run_host([*flags, "--validation", annotated, *wanted], layer=True, dump=dumps)
            results = all("%s: %s" % (n, SHADERS[n][1]) in out for n in wanted)
            check(rc == 0 and results, "through the layer, %s enabled: %s give their results" %
                  (shown, ", ".join(wanted)), out + err)
            check("validation messages: 0" in out,
                  "through the layer, %s enabled: the validation layer says nothing" % shown, out)
            for name in absent:
                rc, out, err = run_host([*flags, annotated, name], layer=True)
                check(rc == 1 and "%s: VkResult" % name in out,
                      "through the layer, %s enabled: %s is not in the module the driver got" % (shown, name),
                      out + err)
        written = sorted(glob.glob(os.path.join(dumps, "vulkan-*.spv")))
        check(len(written) == 4, "the layer wrote one module for each of the four devices", " ".join(written))
        for path in written:
            for env in ("vulkan1.1", "vulkan1.2", "vulkan1.3"):
                p = subprocess.run([VAL, "--target-env", env, path], capture_output=True, text=True)
                check(p.returncode == 0, "%s passes spirv-val --target-env %s" % (os.path.basename(path), env),
                      p.stdout + p.stderr)

        # The module chained into each compute pipeline's stage (VK_EXT_graphics_pipeline_library), first in the
        # chain or behind a required subgroup size (a structure the layer copies to give the driver a new chain).
        rc, out, err = run_host(["--chained", "--validation", annotated, "scale_float"], layer=False)
        check("scale_float: VkResult" in out and "6245" in out,
              "without the layer, an annotated module chained into a pipeline is refused (SpecConditionalINTEL, "
              "capability 6245, is no Vulkan capability)", out + err)
        for how in ("--chained", "--chained-behind-subgroup-size"):
            for enabled in ([], ["shaderFloat64", "shaderFloat16"]):
                wanted = [n for n, (f, _) in SHADERS.items() if f is None or f in enabled]
                flags = [w for f in enabled for w in ("--enable", f)]
                shown = "+".join(enabled) or "nothing"
                rc, out, err = run_host([*flags, how, "--validation", annotated, *wanted], layer=True)
                check(rc == 0 and "module: chained" in out and all("%s: %s" % (n, SHADERS[n][1]) in out
                                                                   for n in wanted) and "validation messages: 0" in out,
                      "through the layer, %s, %s enabled: %s give their results, the validation layer says nothing"
                      % (how, shown, ", ".join(wanted)), out + err)
                # (The validation layer of Debian's 1.3.239 ends the process on an entry point the module lacks,
                # with or without this layer: absent entries are checked without it.)
                for name in (n for n in SHADERS if n not in wanted):
                    rc, out, err = run_host([*flags, how, annotated, name], layer=True)
                    check(rc == 1 and "%s: VkResult" % name in out,
                          "through the layer, %s, %s enabled: %s is not in the module the driver got" % (how, shown, name),
                          out + err)

        # Guarded code: one entry point, three paths; the module keeps the one the device allows first.
        refine, refine_a = os.path.join(tmp, "refine.spv"), os.path.join(tmp, "refine.a.spv")
        subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-I" + os.path.join(SRC, "..", "include"),
                        "-e", "refine", "--source-entrypoint", "main", os.path.join(SRC, "data", "vulkan", "refine.comp"),
                        "-o", refine], check=True, stdout=subprocess.DEVNULL)
        p = subprocess.run([CLI, "annotate", "-q", refine, "-o", refine_a], capture_output=True, text=True)
        check(p.returncode == 0, "the guarded shader is annotated", p.stderr)
        guarded_dumps = os.path.join(tmp, "guarded-dumps")
        os.makedirs(guarded_dumps)
        for enabled, result in REFINE.items():
            flags = [w for f in enabled for w in ("--enable", f)]
            rc, out, err = run_host([*flags, "--validation", refine_a, "refine"], layer=True, dump=guarded_dumps)
            check(rc == 0 and "refine: %s" % result in out and "validation messages: 0" in out,
                  "guarded code through the layer, %s enabled: refine gives %s, the validation layer says nothing" %
                  ("+".join(enabled) or "nothing", result), out + err)
        for path in sorted(glob.glob(os.path.join(guarded_dumps, "vulkan-*.spv"))):
            p = subprocess.run([VAL, "--target-env", "vulkan1.1", path], capture_output=True, text=True)
            check(p.returncode == 0, "guarded code: %s passes spirv-val --target-env vulkan1.1" % os.path.basename(path),
                  p.stdout + p.stderr)
        rc, out, err = run_host(["--validation", refine, "refine"], layer=False)
        check("pCode-01091" in out and "(Float64)" in out,
              "without the layer, the guarded module on a device without fp64 breaks Vulkan's rule", out + err)

        # Shader objects (VK_EXT_shader_object, which lavapipe 22.3 lacks): the layer loaded as the loader loads it,
        # the next link a driver that prints what reaches its vkCreateShadersEXT (tests/vulkan/shader_objects_driver.c).
        if OBJECTS:
            layer_so = os.path.join(LAYER_DIR, "libVkLayer_spvcond_specialize.so")
            for enabled in ([], ["shaderFloat64"]):
                p = subprocess.run([OBJECTS, layer_so, annotated, "scale_float", *enabled], capture_output=True,
                                   text=True, timeout=60, env=dict(os.environ, ASAN_OPTIONS="detect_leaks=1"))
                lines = p.stdout.splitlines()
                spirv = [line for line in lines if line.startswith("shader ") and " spirv " in line]
                binary = [line for line in lines if line.startswith("shader 1: binary")]
                want_double = bool(enabled)
                check(p.returncode == 0 and len(spirv) == 2 and
                      all("conditions no" in line and ("Float64 yes" in line) == want_double and
                          (" scale_double" in line) == want_double and " scale_float" in line for line in spirv),
                      "shader objects through the layer, %s enabled: each SPIR-V shader reaches the driver specialized "
                      "(scale_double %s)" % ("+".join(enabled) or "nothing", "kept" if want_double else "gone"),
                      p.stdout + p.stderr)
                check(len(binary) == 1 and "conditions yes" in binary[0] and
                      "the application's array untouched" in p.stdout,
                      "shader objects, %s enabled: a binary shader goes as it came; the application's array is "
                      "untouched" % ("+".join(enabled) or "nothing"), p.stdout)
                check("without the driver's: vkCreateShadersEXT not given" in p.stdout,
                      "shader objects: where the driver has none, the layer gives no vkCreateShadersEXT", p.stdout)
            rc, out, err = run_host(["--shader-objects", annotated, "scale_float"], layer=True)
            check(rc == 3 and "shader objects: not supported" in out,
                  "lavapipe has no shader objects: the host says so (the GPU machine runs them, docs/vulkan-layer.md)",
                  out + err)

        plain_dumps = os.path.join(tmp, "plain-dumps")
        os.makedirs(plain_dumps)
        rc, out, err = run_host(["--enable", "shaderFloat64", "--enable", "shaderFloat16", "--enable", "shaderInt64",
                                 "--enable", "storageBuffer16BitAccess", "--validation", plain,
                                 *SHADERS], layer=True, dump=plain_dumps)
        check(rc == 0 and all("%s: %s" % (n, r) in out for n, (_, r) in SHADERS.items()) and
              "validation messages: 0" in out and not os.listdir(plain_dumps),
              "a plain module passes through the layer unchanged (nothing specialized) and runs", out + err)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
