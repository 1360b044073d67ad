# SPDX-License-Identifier: MIT
"""What the OpenCL layer's tests share: what the test suite gives them (tests/meson.build's layer_env) and
OpenCL C compiled as a user would (clang-15 for spir64, then llvm-spirv-15)."""
import os
import subprocess

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
DATA = os.environ.get("SPVCOND_TEST_DATA", "")
HOST = os.environ.get("SPVCOND_LAYER_HOST", "")  # tests/layer/host.c, a plain OpenCL host program
LAYER = os.environ["SPVCOND_LAYER"]
MOCK_ICD = os.environ.get("SPVCOND_MOCK_ICD")  # tests/layer/mock_icd.c
BITCODE = os.environ.get("SPVCOND_LAYER_BITCODE", "1") == "1"  # the layer was built with the translator
PTX = os.environ.get("SPVCOND_LAYER_PTX", "1") == "1"  # ... and with LLVM's NVPTX back end
CACHE = os.environ.get("SPVCOND_LAYER_CACHE_BUILT", "1") == "1"  # ... and with its cache (nettle, libxxhash)
INCLUDE = os.path.join(SRC, "..", "include")


def compile_cl(source, out, tmp, *flags):
    """OpenCL C to SPIR-V 1.2, as a user would compile it."""
    bc = os.path.join(tmp, "module.bc")
    subprocess.run(["clang-15", "-c", "-target", "spir64", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                    *flags, "-emit-llvm", "-O0", source, "-o", bc], check=True)
    subprocess.run(["llvm-spirv-15", "--spirv-max-version=1.2", bc, "-o", out], check=True)


def annotate(module, out):
    subprocess.run([CLI, "annotate", "-q", module, "-o", out], check=True)
