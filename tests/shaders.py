#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compute shaders (Vulkan's Shader modules, Logical addressing, GLSL450): one module whose entry points
need different device features, annotated and specialized (tests/data/shaders/).

- annotate takes no requirement from a compute shader's LocalSize (Vulkan requires one of every GLCompute
  entry point: it is the dispatch's shape, not a feature), and makes the entry point that computes in
  double, its types and Float64 conditional on fp64;
- specialized for a device without fp64: Float64, the double type and that entry point are gone, the
  float one stays; for a device with fp64, both stay; today's validator takes both for vulkan1.1;
- the annotated module passes today's validator for vulkan1.1 with --relax-logical-pointer alone
  (spec/extension.md: its logical-pointer rule does not list OpConditionalEntryPointINTEL);
- GLSL as a user writes it (tests/data/vulkan/, glslang, merged by spirv-link): an entry point using 64-bit
  integers requires capability Int64, one with a subgroup reduction GroupNonUniformArithmetic, one with an
  image nothing (images are core in Vulkan), one that loads halves from a buffer StorageBuffer16BitAccess
  and not fp16 (the module declares Float16 for another: the capability follows the half arithmetic alone); `check` and `specialize` with the built-in Vulkan devices
  (vulkan1.1, vulkan1.3) and devices of a configuration file (`vulkan:`) keep exactly what each allows, every
  output valid for its Vulkan version; guarded GLSL (`spvcond_has(Float64)`) requires nothing and keeps one
  path per device."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import oracle
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
SPIRV_AS = os.environ.get("SPIRV_AS", "spirv-as")
SPIRV_DIS = os.environ.get("SPIRV_DIS", "spirv-dis")


def vulkan_val(path, *extra):
    """(ok, output) of the validator for vulkan1.1, or None where it cannot read the extension."""
    if not oracle.knows_extension and oracle.uses_extension(path):
        return None
    p = subprocess.run([oracle.VAL, "--target-env", "vulkan1.1", *extra, path], capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip()


def main():
    print(oracle.describe())
    with tempfile.TemporaryDirectory() as tmp:
        plain, ann = os.path.join(tmp, "two.spv"), os.path.join(tmp, "two.a.spv")
        subprocess.run([SPIRV_AS, "--target-env", "vulkan1.1", os.path.join(SRC, "data", "shaders",
                                                                           "two_precisions.spvasm"), "-o", plain],
                       check=True)
        ok, text = vulkan_val(plain)
        check(ok, "the plain shader module is valid for vulkan1.1", text)
        p = run([CLI, "annotate", "-q", plain, "-o", ann])
        if not check(p.returncode == 0, "annotate takes a compute shader module", p.stderr):
            return summary()
        reqs = {k["kernel"]: k["requirements"] for k in json.loads(run([CLI, "reqs", "--json", ann]).stdout)}
        check(reqs.get("f32") == [] and [r.get("aspect") for r in reqs.get("f64", [])] == ["fp64"],
              "LocalSize is no requirement; f64 requires fp64 alone", json.dumps(reqs))
        verdict = vulkan_val(ann, "--relax-logical-pointer")
        if verdict is None:
            print("skipped: the annotated module's validation (this spirv-val cannot read the extension)")
        else:
            check(verdict[0], "the annotated module passes spirv-val vulkan1.1 with --relax-logical-pointer",
                  verdict[1])
            strict = vulkan_val(ann)
            check(not strict[0] and "logical pointer operand" in strict[1] and "OpConditionalEntryPointINTEL"
                  in strict[1], "without it, the validator's rule refuses the conditional entry point "
                  "(spec/extension.md; remove this check when a validator takes it)", strict[1])
        for device, kept in (("intel_gpu_acm_g10", ["f32"]), ("intel_gpu_pvc", ["f32", "f64"])):
            out = os.path.join(tmp, device + ".spv")
            p = run([CLI, "specialize", "-q", "--device", device, ann, "-o", out])
            if not check(p.returncode == 0, "%s: specialize" % device, p.stderr):
                continue
            ok, text = vulkan_val(out)
            check(ok, "%s: the specialized module is valid for vulkan1.1" % device, text)
            dis = run([SPIRV_DIS, out]).stdout
            names = sorted(n for n in ("f32", "f64") if '"%s"' % n in dis)
            double = "OpCapability Float64" in dis or "OpTypeFloat 64" in dis
            check(names == kept and double == ("f64" in kept) and "INTEL" not in dis,
                  "%s: the entry points %s stay, Float64 and the double type only with f64, no trace of the "
                  "extension" % (device, kept), "%s, double %s" % (names, double))
        glsl(tmp)
    print(oracle.report())
    return summary()


GLSL = ["scale_float", "scale_double", "scale_half", "scale_int64", "scale_subgroup", "copy_image", "load_half"]
CONFIG = """small_gpu:
  vulkan:
    api-version: 1.1
    type: integrated-gpu
    features: [shaderInt64]
    subgroup-size: 32
    subgroup-operations: [basic, vote, ballot]
big_gpu:
  vulkan:
    api-version: 1.3.250
    type: discrete-gpu
    features: [shaderFloat64, shaderFloat16, shaderInt64, storageBuffer16BitAccess]
    subgroup-operations: [basic, vote, arithmetic, ballot, shuffle]
storage_gpu:
  vulkan:
    api-version: 1.2
    features: [storageBuffer16BitAccess]
"""
# Per device: the entry points kept, and the Vulkan version its output is judged for.
KEPT = {"vulkan1.1": (["scale_float", "copy_image"], "vulkan1.1"),
        "vulkan1.3": (["scale_float", "copy_image"], "vulkan1.3"),
        "small_gpu": (["scale_float", "scale_int64", "copy_image"], "vulkan1.1"),
        "big_gpu": (GLSL, "vulkan1.3"),
        "storage_gpu": (["scale_float", "copy_image", "load_half"], "vulkan1.2")}


def glsl(tmp):
    """The GLSL shaders: capability requirements, Vulkan devices, guarded code."""
    if not shutil.which("glslangValidator") or not shutil.which("spirv-link"):
        print("skipped: the GLSL shaders (needs glslang-tools and spirv-link)")
        return
    parts = []
    for name in GLSL:
        out = os.path.join(tmp, name + ".spv")
        subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-e", name, "--source-entrypoint",
                        "main", os.path.join(SRC, "data", "vulkan", name + ".comp"), "-o", out], check=True,
                       stdout=subprocess.DEVNULL)
        parts.append(out)
    plain, ann = os.path.join(tmp, "all.spv"), os.path.join(tmp, "all.a.spv")
    subprocess.run(["spirv-link", *parts, "-o", plain], check=True)
    p = run([CLI, "annotate", "-q", plain, "-o", ann])
    if not check(p.returncode == 0, "annotate takes the linked GLSL shaders", p.stderr):
        return
    reqs = {k["kernel"]: [r.get("aspect") or r.get("capability") for r in k["requirements"]]
            for k in json.loads(run([CLI, "reqs", "--json", ann]).stdout)}
    want = {"scale_float": [], "scale_double": ["fp64"], "scale_half": ["fp16"], "scale_int64": ["Int64"],
            "scale_subgroup": ["GroupNonUniformArithmetic"], "copy_image": [], "load_half": ["StorageBuffer16BitAccess"]}
    check(reqs == want, "each shader requires the capability (or aspect) it uses; an image shader nothing; halves "
          "only loaded 16-bit storage, not fp16",
          json.dumps(reqs))
    verdict = vulkan_val(ann, "--relax-logical-pointer")
    if verdict is not None:
        check(verdict[0], "the annotated GLSL module passes spirv-val vulkan1.1 with --relax-logical-pointer",
              verdict[1])
    config = os.path.join(tmp, "devices.yaml")
    with open(config, "w") as f:
        f.write(CONFIG)
    # The requirements as a property set (type 3, a capability: spec/props.md) serve specialize as the names do.
    props = os.path.join(tmp, "all.props")
    p = run([CLI, "reqs", "--props", ann])
    check(p.returncode == 0 and "scale_int64=2|" in p.stdout, "reqs --props writes the capability requirements",
          p.stdout + p.stderr)
    with open(props, "w") as f:
        f.write(p.stdout)
    for device, (kept, env) in KEPT.items():
        p = run([CLI, "check", "--device-config", config, "--device", device, ann])
        supported = sorted(line.split(":")[0] for line in p.stdout.splitlines() if line.endswith(": supported"))
        check(supported == sorted(kept), "check --device %s: %s supported" % (device, ", ".join(kept)), p.stdout)
        if device == "small_gpu":
            check("scale_subgroup: not supported: Required capability GroupNonUniformArithmetic is not supported"
                  in p.stdout, "small_gpu: the subgroup shader's reason names the capability", p.stdout)
        out = os.path.join(tmp, device + ".spv")
        p = run([CLI, "specialize", "-q", "--device-config", config, "--device", device, ann, "-o", out])
        if not check(p.returncode == 0, "specialize --device %s" % device, p.stderr):
            continue
        by_props = os.path.join(tmp, device + ".props.spv")
        p = run([CLI, "specialize", "-q", "--device-config", config, "--device", device, "--props", props, ann, "-o",
                 by_props])
        check(p.returncode == 0 and open(out, "rb").read() == open(by_props, "rb").read(),
              "%s: specialize with the property set writes the same module" % device, p.stderr)
        dis = run([SPIRV_DIS, out]).stdout
        names = sorted(n for n in GLSL if '"%s"' % n in dis)
        check(names == sorted(kept) and "INTEL" not in dis, "%s: the module holds %s alone" % (device, kept), names)
        caps = sorted(line.split()[1] for line in dis.splitlines() if line.strip().startswith("OpCapability"))
        check(("Float16" in caps) == ("scale_half" in kept) and
              ("StorageBuffer16BitAccess" in caps) == ("load_half" in kept),
              "%s: Float16 declared only with the half arithmetic, 16-bit storage only with its loads" % device, caps)
        p = subprocess.run([oracle.VAL, "--target-env", env, out], capture_output=True, text=True)
        check(p.returncode == 0, "%s: the specialized module passes spirv-val --target-env %s" % (device, env),
              p.stdout + p.stderr)
    # Guarded code: requires nothing; one path per device.
    refine, refine_a = os.path.join(tmp, "refine.spv"), os.path.join(tmp, "refine.a.spv")
    subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-I" + os.path.join(SRC, "..", "include"),
                    "-e", "refine", "--source-entrypoint", "main", os.path.join(SRC, "data", "vulkan", "refine.comp"),
                    "-o", refine], check=True, stdout=subprocess.DEVNULL)
    p = run([CLI, "annotate", "-q", refine, "-o", refine_a])
    reqs = run([CLI, "reqs", refine_a]).stdout
    check(p.returncode == 0 and "refine: no requirements" in reqs, "guarded GLSL: refine requires nothing",
          p.stderr + reqs)
    # 8-bit storage: bytes only loaded and converted need StorageBuffer8BitAccess alone; bytes added need Int8.
    parts = []
    for name in ("load_bytes", "add_bytes"):
        out = os.path.join(tmp, name + ".spv")
        subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-e", name, "--source-entrypoint", name,
                        os.path.join(SRC, "data", "vulkan", "bytes.comp"), "-o", out], check=True,
                       stdout=subprocess.DEVNULL)
        parts.append(out)
    plain, bytes_a = os.path.join(tmp, "bytes.spv"), os.path.join(tmp, "bytes.a.spv")
    subprocess.run(["spirv-link", *parts, "-o", plain], check=True)
    p = run([CLI, "annotate", "-q", plain, "-o", bytes_a])
    reqs = {k["kernel"]: sorted(r.get("capability") for r in k["requirements"])
            for k in json.loads(run([CLI, "reqs", "--json", bytes_a]).stdout)} if p.returncode == 0 else {}
    check(reqs == {"load_bytes": ["StorageBuffer8BitAccess"], "add_bytes": ["Int8", "StorageBuffer8BitAccess"]},
          "bytes loaded need 8-bit storage alone, bytes added Int8 too", json.dumps(reqs) + p.stderr)
    with open(config, "a") as f:
        f.write("bytes_gpu:\n  vulkan:\n    api-version: 1.2\n    features: [storageBuffer8BitAccess]\n")
    out = os.path.join(tmp, "bytes_gpu.spv")
    p = run([CLI, "specialize", "-q", "--device-config", config, "--device", "bytes_gpu", bytes_a, "-o", out])
    dis = run([SPIRV_DIS, out]).stdout if p.returncode == 0 else ""
    v = subprocess.run([oracle.VAL, "--target-env", "vulkan1.2", out], capture_output=True, text=True)
    check('"load_bytes"' in dis and '"add_bytes"' not in dis and "OpCapability Int8" not in dis and
          "OpCapability StorageBuffer8BitAccess" in dis and v.returncode == 0,
          "a device with 8-bit storage and no shaderInt8 keeps load_bytes, declares no Int8, valid for vulkan1.2",
          p.stderr + v.stdout + v.stderr)
    # Guard constants annotate refuses, each naming the instruction, writing nothing.
    errors = {"NOT_BOOLEAN": "is not a boolean OpSpecConstantTrue/False (a guard constant is the device",
              "UNKNOWN": "'Teleportation' is neither a DPC++ aspect nor a SPIR-V capability",
              "TWICE": "both stand for aspect fp64: one constant per requirement",
              "TWICE_CAPABILITY": "both stand for capability Int64: one constant per requirement"}
    for variant, message in errors.items():
        spv, out = os.path.join(tmp, "guard_%s.spv" % variant), os.path.join(tmp, "guard_%s.a.spv" % variant)
        subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-D" + variant,
                        os.path.join(SRC, "data", "vulkan", "guard_errors.comp"), "-o", spv], check=True,
                       stdout=subprocess.DEVNULL)
        if variant == "TWICE_CAPABILITY":  # two constants of one name: GLSL cannot say it, SPIR-V can
            text = run([SPIRV_DIS, spv]).stdout.replace('"spvcond_has_Int64_second"', '"spvcond_has_Int64"')
            with open(spv + ".spvasm", "w") as f:
                f.write(text)
            subprocess.run([SPIRV_AS, "--target-env", "vulkan1.1", spv + ".spvasm", "-o", spv], check=True)
        p = run([CLI, "annotate", spv, "-o", out])
        check(p.returncode == 1 and message in p.stderr and "[OpName, instruction" in p.stderr and
              not os.path.exists(out), "guard constant refused (%s): %s" % (variant, message), p.stderr)
    # HLSL through glslang: the guard constant is read, but glslang inlines the guarded function into main, so
    # main itself uses double: annotate warns and main requires fp64 (the guard's own constant stands for it).
    hlsl, hlsl_a = os.path.join(tmp, "refine_hlsl.spv"), os.path.join(tmp, "refine_hlsl.a.spv")
    subprocess.run(["glslangValidator", "-V", "-D", "--target-env", "vulkan1.1", "-S", "comp", "-e", "main",
                    os.path.join(SRC, "data", "vulkan", "refine.hlsl"), "-o", hlsl], check=True, stdout=subprocess.DEVNULL)
    p = run([CLI, "annotate", hlsl, "-o", hlsl_a])
    reqs = run([CLI, "reqs", hlsl_a]).stdout if p.returncode == 0 else ""
    check(p.returncode == 0 and "main uses fp64 inline" in p.stderr and "aspect fp64 (6), SpecId 200" in reqs,
          "HLSL (glslang inlines the guarded call): main requires fp64 through the guard's own constant, with a "
          "warning", p.stderr + reqs)
    for device, path in (("vulkan1.1", "refine_float"), ("small_gpu", "refine_float"), ("big_gpu", "refine_double")):
        out = os.path.join(tmp, "refine-%s.spv" % device)
        p = run([CLI, "specialize", "-q", "--device-config", config, "--device", device, refine_a, "-o", out])
        dis = run([SPIRV_DIS, out]).stdout if p.returncode == 0 else ""
        kept = sorted(n for n in ("refine_double", "refine_half", "refine_float") if "OpName %%%s" % n in dis or
                      ('"%s(' % n) in dis)
        v = subprocess.run([oracle.VAL, "--target-env", "vulkan1.1", out], capture_output=True, text=True)
        check(p.returncode == 0 and kept == [path] and v.returncode == 0,
              "guarded GLSL on %s: %s alone, valid for vulkan1.1" % (device, path), p.stderr + str(kept) + v.stderr)


if __name__ == "__main__":
    sys.exit(main())
