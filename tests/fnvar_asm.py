#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Assemble a fixture written with SPV_INTEL_function_variants' (and SPV_INTEL_inline_assembly's target)
mnemonics with any spirv-as, Debian's 2023.1 among them, which knows neither: those instructions are
rewritten as raw words ("!0x0004186b %bool %x !4"), which every spirv-as takes, and the rest is left as
written. Usage: fnvar_asm.py SPIRV_AS INPUT OUTPUT."""
import os
import re
import subprocess
import sys
import tempfile

OPCODES = {"OpConditionalExtensionINTEL": 6248, "OpConditionalEntryPointINTEL": 6249,
           "OpConditionalCapabilityINTEL": 6250, "OpSpecConstantTargetINTEL": 6251,
           "OpSpecConstantArchitectureINTEL": 6252, "OpSpecConstantCapabilitiesINTEL": 6253,
           "OpConditionalCopyObjectINTEL": 6254, "OpAsmTargetINTEL": 5609}
CAPABILITIES = {"Addresses": 4, "Linkage": 5, "Kernel": 6, "Vector16": 7, "Float16Buffer": 8, "Float16": 9,
                "Float64": 10, "Int64": 11, "Int64Atomics": 12, "Int16": 22, "Int8": 39, "AsmINTEL": 5606,
                "SpecConditionalINTEL": 6245, "FunctionVariantsINTEL": 6246}
MODELS = {"Kernel": 6, "GLCompute": 5}
ARCH_OPS = {"IEqual": 170, "INotEqual": 171, "UGreaterThan": 172, "UGreaterThanEqual": 174, "ULessThan": 176,
            "ULessThanEqual": 178}


def string_words(text):
    data = text.encode() + b"\0"
    data += b"\0" * (-len(data) % 4)
    return ["!%d" % int.from_bytes(data[k:k + 4], "little") for k in range(0, len(data), 4)]


def operand(token):
    if token.startswith("%") or token.startswith("!"):
        return [token]
    if token.startswith('"'):
        return string_words(token[1:-1])
    for table in (CAPABILITIES, ARCH_OPS):
        if token in table:
            return ["!%d" % table[token]]
    return ["!%d" % int(token, 0)]


def rewrite(line):
    code, _, comment = line.partition(";")
    tokens = re.findall(r'"[^"]*"|\S+', code)
    result = None
    if len(tokens) >= 3 and tokens[1] == "=":
        result, tokens = tokens[0], tokens[2:]
    if not tokens:
        return line
    op = tokens[0]
    if op == "OpCapability" and tokens[1] in ("SpecConditionalINTEL", "FunctionVariantsINTEL"):
        return "!0x00020011 !%d" % CAPABILITIES[tokens[1]]
    if op == "OpDecorate" and len(tokens) >= 3 and tokens[2] == "ConditionalINTEL":
        return "OpDecorate %s !6247 %s" % (tokens[1], tokens[3])
    if op not in OPCODES:
        return line
    args = tokens[1:]
    if op == "OpConditionalEntryPointINTEL":
        args[1] = "!%d" % MODELS[args[1]]
    words = []
    if result and op != "OpAsmTargetINTEL":  # a result type first, then the result
        words += operand(args[0]) + [result]
        args = args[1:]
    elif result:
        words.append(result)
    for a in args:
        words += operand(a)
    return "!0x%08x %s" % ((len(words) + 1) << 16 | OPCODES[op], " ".join(words))


def main():
    spirv_as, src, out = sys.argv[1:4]
    text = "\n".join(rewrite(line) for line in open(src).read().splitlines()) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".spvasm", delete=False) as f:
        f.write(text)
    try:
        p = subprocess.run([spirv_as, "--preserve-numeric-ids", "--target-env", "spv1.2", f.name, "-o", out],
                           capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    sys.stderr.write(p.stderr)
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())
