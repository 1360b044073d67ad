# SPDX-License-Identifier: MIT
"""What the translator's consumer of SPV_INTEL_function_variants can take (spec/extension.md,
"Compatibility"), checked on an annotated module's words, independently of libspvcond:

- ConditionalINTEL decorates only what its specializeFnVariants can erase: OpFunction, OpFunctionCall,
  OpVariable, types and constants (OpUndef and function-pointer constants among them, as its
  isConstantOpCode has them); never OpExtInstImport (its eraseValue fails on one) or OpExtInst;
- every condition (of ConditionalINTEL, of the conditional capabilities, extensions and entry points and
  of OpConditionalCopyObjectINTEL) is a tree its evaluateConstant takes: OpSpecConstantOp LogicalAnd, Or,
  Not over boolean OpSpecConstantTrue/False that carry a SpecId, the extension's device constants, and
  OpConstantTrue/False."""
import struct

DECORATE, DECORATE_ID, CONDITIONAL = 71, 332, 6247
COND_CAPABILITY, COND_EXTENSION, COND_ENTRY_POINT, COND_COPY = 6250, 6248, 6249, 6254
SPEC_TRUE, SPEC_FALSE, SPEC_OP, CONST_TRUE, CONST_FALSE = 48, 49, 52, 41, 42
DEVICE_CONSTANTS = (6251, 6252, 6253)
LOGICAL_OR, LOGICAL_AND, LOGICAL_NOT = 166, 167, 168
SPEC_ID = 1
ERASABLE_OTHER = (54, 57, 59)  # OpFunction, OpFunctionCall, OpVariable
TYPES = range(19, 40)          # OpTypeVoid .. OpTypePipe, and below
CONSTANTS = list(range(41, 53)) + [5600]  # OpConstantTrue .. OpSpecConstantOp, OpConstantFunctionPointerINTEL
EXT_INST_IMPORT, EXT_INST, UNDEF = 11, 12, 1


def instructions(path):
    data = open(path, "rb").read()
    words = struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4])
    p = 5
    while p < len(words) and words[p] >> 16:
        yield words[p] & 0xffff, words[p:p + (words[p] >> 16)]
        p += words[p] >> 16


def problems(path):
    """A list of what the translator's consumer could not take; empty when it can take everything."""
    defs, spec_ids, conditions, found = {}, set(), [], []
    for op, w in instructions(path):
        if op in (DECORATE, DECORATE_ID) and len(w) >= 4 and w[2] == SPEC_ID:
            spec_ids.add(w[1])
        elif op in (DECORATE, DECORATE_ID) and len(w) >= 4 and w[2] == CONDITIONAL:
            conditions.append(("ConditionalINTEL on %%%d" % w[1], w[3], w[1]))
        elif op in (COND_CAPABILITY, COND_EXTENSION, COND_ENTRY_POINT) and len(w) >= 2:
            conditions.append(("opcode %d" % op, w[1], None))
        elif op == COND_COPY:
            conditions += [("OpConditionalCopyObjectINTEL %%%d" % w[2], w[k], None) for k in range(3, len(w) - 1, 2)]
        if (op in TYPES or op == EXT_INST_IMPORT) and len(w) >= 2:  # the result id first
            defs[w[1]] = (op, w)
        elif (op in CONSTANTS or op in DEVICE_CONSTANTS or op in ERASABLE_OTHER or op in (UNDEF, EXT_INST)) and \
                len(w) >= 3:  # a result type, then the result id
            defs[w[2]] = (op, w)
    for what, cond, target in conditions:
        if target is not None:
            op = defs.get(target, (None, None))[0]
            erasable = op in ERASABLE_OTHER or op in TYPES or op in CONSTANTS or op in DEVICE_CONSTANTS or op == UNDEF
            if not erasable:
                found.append("%s: the translator's consumer cannot erase opcode %s" % (what, op))
        stack, seen = [cond], set()
        while stack:
            c = stack.pop()
            if c in seen:
                continue
            seen.add(c)
            op, w = defs.get(c, (None, None))
            if op in (SPEC_TRUE, SPEC_FALSE):
                if c not in spec_ids:
                    found.append("%s: leaf %%%d has no SpecId" % (what, c))
            elif op == SPEC_OP and w[3] in (LOGICAL_OR, LOGICAL_AND, LOGICAL_NOT):
                stack += list(w[4:])
            elif op not in DEVICE_CONSTANTS and op not in (CONST_TRUE, CONST_FALSE):
                found.append("%s: condition node %%%d (opcode %s) is not one the translator evaluates" % (what, c, op))
    return found
