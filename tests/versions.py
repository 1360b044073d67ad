#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SPIR-V's version rules (spec/validate.md, "Versions"): fixtures with version-gated instructions and
enumerants, each at every version 1.0-1.6, judged by `spvcond validate` against the verdicts SPIRV-Tools
v2026.4 gives (written below, and checked against the validator itself when tests/oracle.py has one that
knows the rules). The fixture is assembled at SPIR-V 1.6 and its version word set afterwards, as an
assembler refuses what the version does not allow. The message names the instruction and the version."""
import os
import struct
import sys
import tempfile

import oracle
from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
AS = os.environ.get("SPIRV_AS", "spirv-as")
DATA = os.path.join(SRC, "data", "versions")

# OpCapability SpecConditionalINTEL in raw words: Debian's assembler does not know the token.
SPEC_CONDITIONAL = "!0x00020011 !0x00001865"
# name: (template, {placeholder: text}, verdicts for 1.0..1.6 (V valid, I invalid), words the message has)
CASES = {
    "OpModuleProcessed": ("kernel", {"DEBUG": 'OpModuleProcessed "made by hand"'}, "IVVVVVV",
                          "OpModuleProcessed requires SPIR-V version 1.1"),
    "OpExecutionModeId LocalSizeId": ("kernel", {"MODES": "OpExecutionModeId %k LocalSizeId %c1 %c1 %c1"}, "IIVVVVV",
                                      "OpExecutionModeId requires SPIR-V version 1.2"),
    "OpDecorateId AlignmentId": ("kernel", {"DECOR": "OpDecorateId %p AlignmentId %c8"}, "IIVVVVV",
                                 "OpDecorateId requires SPIR-V version 1.2 at minimum or one of the following "
                                 "extensions: SPV_GOOGLE_hlsl_functionality1"),
    "OpCopyLogical": ("kernel", {"CODE": "%a = OpCompositeConstruct %A %sum\n%b = OpCopyLogical %B %a"}, "IIIIVVV",
                      "OpCopyLogical requires SPIR-V version 1.4"),
    "OpAtomicCompareExchangeWeak": ("kernel", {"CODE": "%w = OpAtomicCompareExchangeWeak %uint %p %scope %sem %sem %c1 %c0"},
                                    "VVVVIII", "OpAtomicCompareExchangeWeak requires SPIR-V version 1.3 or earlier"),
    "NoSignedWrap": ("kernel", {"DECOR": "OpDecorate %sum NoSignedWrap"}, "IIIIVVV",
                     "Decoration NoSignedWrap requires one of these extensions: SPV_KHR_no_integer_wrap_decoration"),
    "NoSignedWrap with its extension": ("kernel", {"DECOR": "OpDecorate %sum NoSignedWrap",
                                                   "EXTS": 'OpExtension "SPV_KHR_no_integer_wrap_decoration"'},
                                        "VVVVVVV", ""),
    "Nontemporal (an optional mask)": ("kernel", {"CODE": "%y = OpLoad %uint %p Nontemporal"}, "VVVVVVV", ""),
    "GroupNonUniform": ("kernel", {"CAPS": "OpCapability GroupNonUniform"}, "IIIVVVV",
                        "Capability GroupNonUniform requires SPIR-V version 1.3 or later"),
    "SubgroupSize": ("kernel", {"CAPS": "OpCapability SubgroupDispatch",
                                "MODES": "OpExecutionMode %k SubgroupSize 16"}, "IVVVVVV",
                     "requires SPIR-V version 1.1 or later"),
    "BufferBlock": ("shader", {"DECOR": "OpDecorate %S BufferBlock"}, "VVVVIII",
                    "Decoration BufferBlock requires SPIR-V version 1.3 or earlier"),
    "SpecConditionalINTEL without its extension": ("kernel", {"CAPS": SPEC_CONDITIONAL}, "IIIIIII",
                                                   "requires one of these extensions: SPV_INTEL_function_variants"),
    "SpecConditionalINTEL": ("kernel", {"CAPS": SPEC_CONDITIONAL,
                                        "EXTS": 'OpExtension "SPV_INTEL_function_variants"'}, "VVVVVVV", ""),
}
PLACES = ("CAPS", "EXTS", "MODES", "DEBUG", "DECOR", "CODE")


def assemble(template, fill, out):
    with open(os.path.join(DATA, template + ".spvasm")) as f:
        text = f.read()
    for place in PLACES:
        text = text.replace("@%s@" % place, fill.get(place, ""))
    src = out + ".spvasm"
    with open(src, "w") as f:
        f.write(text)
    p = run([AS, "--target-env", "spv1.6", src, "-o", out])
    return p.returncode == 0, p.stderr


def set_version(path, minor, out):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    struct.pack_into("<I", data, 4, 0x00010000 | minor << 8)
    with open(out, "wb") as f:
        f.write(data)


def main():
    judge = oracle.knows_extension
    print(oracle.describe())
    print("verdicts checked against %s" % (oracle.VAL_NAME if judge else
                                            "the table of SPIRV-Tools v2026.4's verdicts (no such validator here)"))
    agreed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (template, fill, verdicts, words) in CASES.items():
            base = os.path.join(tmp, "case.spv")
            ok, err = assemble(template, fill, base)
            if not check(ok, "%s: assembles" % name, err):
                continue
            for minor, expected in enumerate(verdicts):
                path = os.path.join(tmp, "case-1.%d.spv" % minor)
                set_version(base, minor, path)
                p = run([CLI, "validate", path])
                ours = "V" if p.returncode == 0 else "I"
                check(ours == expected, "%s at SPIR-V 1.%d: spvcond validate says %s, expected %s" %
                      (name, minor, ours, expected), p.stderr.strip())
                if expected == "I" and words:
                    check(words in p.stderr, "%s at 1.%d: the message names the rule" % (name, minor), p.stderr.strip())
                if judge:
                    v = run([oracle.VAL, "--target-env", "spv1.6", path])
                    theirs = "V" if v.returncode == 0 else "I"
                    if check(theirs == expected, "%s at SPIR-V 1.%d: %s says %s, the table %s" %
                             (name, minor, oracle.VAL, theirs, expected), (v.stdout + v.stderr).strip()):
                        agreed += 1
    if judge:
        print("%d verdicts the same as %s" % (agreed, oracle.VAL_NAME))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
