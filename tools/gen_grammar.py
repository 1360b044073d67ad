#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate libspvcond's grammar tables from SPIR-V JSON grammars.

Inputs: the core grammar (SPIRV-Headers), our supplement for tokens the system
headers lack, and extended-instruction-set grammars given as NAME=FILE.
Outputs: a C source with const tables and a header with kind/class enums.
Standard library only, so the build needs nothing beyond python3.
"""
import argparse
import json
import re
import sys

ID_CLASSES = {
    "IdRef": "SPVCOND_OC_ID", "IdMemorySemantics": "SPVCOND_OC_ID", "IdScope": "SPVCOND_OC_ID",
    "IdResultType": "SPVCOND_OC_RESULT_TYPE", "IdResult": "SPVCOND_OC_RESULT_ID",
    "LiteralInteger": "SPVCOND_OC_LITERAL_INT", "LiteralString": "SPVCOND_OC_LITERAL_STRING",
    "LiteralFloat": "SPVCOND_OC_LITERAL_INT",
    "LiteralContextDependentNumber": "SPVCOND_OC_CONTEXT_NUMBER",
    "LiteralExtInstInteger": "SPVCOND_OC_EXTINST_NUMBER",
    "LiteralSpecConstantOpInteger": "SPVCOND_OC_SPECOP_NUMBER",
    "PairLiteralIntegerIdRef": "SPVCOND_OC_PAIR_LIT_ID",
    "PairIdRefLiteralInteger": "SPVCOND_OC_PAIR_ID_LIT",
    "PairIdRefIdRef": "SPVCOND_OC_PAIR_ID_ID",
}
QUANT = {None: "SPVCOND_Q_ONE", "?": "SPVCOND_Q_OPTIONAL", "*": "SPVCOND_Q_ANY"}


def parse_value(v):
    return int(v, 0) if isinstance(v, str) else int(v)


def parse_version(v):
    if v is None:
        return 0
    if v == "None":
        return 0xFFFFFFFF
    major, minor = v.split(".")
    return (int(major) << 16) | (int(minor) << 8)


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def ident(s):
    return re.sub(r"[^A-Za-z0-9]", "_", s)


def merge_supplement(core, supp):
    """Add the supplement's opcodes and enumerants unless the core has them; they must agree."""
    by_opcode = {i["opcode"]: i for i in core["instructions"]}
    for inst in supp.get("instructions", []):
        have = by_opcode.get(inst["opcode"])
        if have is None:
            core["instructions"].append(inst)
        elif have["opname"] != inst["opname"]:
            sys.exit("gen_grammar: opcode %d is %s in the core grammar but %s in the supplement"
                     % (inst["opcode"], have["opname"], inst["opname"]))
    kinds = {k["kind"]: k for k in core["operand_kinds"]}
    for kind in supp.get("operand_kinds", []):
        target = kinds[kind["kind"]]
        values = {parse_value(e["value"]): e for e in target["enumerants"]}
        for e in kind["enumerants"]:
            have = values.get(parse_value(e["value"]))
            if have is None:
                target["enumerants"].append(e)
            elif have["enumerant"] != e["enumerant"]:
                sys.exit("gen_grammar: %s %s is %s in the core grammar but %s in the supplement"
                         % (kind["kind"], e["value"], have["enumerant"], e["enumerant"]))


class Tables:
    def __init__(self):
        self.kinds = []          # (name, class, first_enumerant, count)
        self.kind_index = {}     # qualified name -> index
        self.enumerants = []     # dicts
        self.operands = []       # (kind index, quantifier)
        self.caps = []           # capability values
        self.exts = []           # extension name strings
        self.cap_value = {}      # capability name -> value

    def operand_range(self, operands, scope):
        first = len(self.operands)
        for o in operands:
            self.operands.append((self.kind_ref(o["kind"], scope), QUANT[o.get("quantifier")]))
        return first, len(operands)

    def kind_ref(self, kind, scope):
        if scope and (scope + "/" + kind) in self.kind_index:
            return self.kind_index[scope + "/" + kind]
        return self.kind_index[kind]

    def cap_range(self, names):
        first = len(self.caps)
        self.caps.extend(self.cap_value[n] for n in names)
        return first, len(names)

    def ext_range(self, names):
        first = len(self.exts)
        self.exts.extend(names)
        return first, len(names)

    def declare_kinds(self, operand_kinds, scope):
        for k in operand_kinds:
            qualified = (scope + "/" + k["kind"]) if scope else k["kind"]
            cat = k["category"]
            if cat == "ValueEnum":
                cls = "SPVCOND_OC_VALUE_ENUM"
            elif cat == "BitEnum":
                cls = "SPVCOND_OC_BIT_ENUM"
            else:
                cls = ID_CLASSES[k["kind"]]
            self.kind_index[qualified] = len(self.kinds)
            self.kinds.append([qualified, cls, 0, 0, k])

    def fill_enumerants(self, scope):
        for entry in self.kinds:
            qualified, cls, _, _, k = entry
            if cls not in ("SPVCOND_OC_VALUE_ENUM", "SPVCOND_OC_BIT_ENUM"):
                continue
            if (scope is None) != ("/" not in qualified) or (scope and not qualified.startswith(scope + "/")):
                continue
            # Sorted by value for binary search; on aliases the first spelling wins.
            seen = set()
            ordered = []
            for e in sorted(k["enumerants"], key=lambda e: parse_value(e["value"])):
                v = parse_value(e["value"])
                if v in seen:
                    continue
                seen.add(v)
                ordered.append(e)
            entry[2] = len(self.enumerants)
            entry[3] = len(ordered)
            for e in ordered:
                pf, pc = self.operand_range(e.get("parameters", []), scope)
                cf, cc = self.cap_range(e.get("capabilities", []))
                xf, xc = self.ext_range(e.get("extensions", []))
                self.enumerants.append(dict(value=parse_value(e["value"]), name=e["enumerant"],
                                            params=(pf, pc), caps=(cf, cc), exts=(xf, xc),
                                            version=parse_version(e.get("version"))))


ONE_WORD_IDS = {"IdRef", "IdResultType", "IdScope", "IdMemorySemantics"}
TAILS = {"IdRef": 1, "LiteralInteger": 2, "PairLiteralIntegerIdRef": 3, "PairIdRefLiteralInteger": 4,
         "PairIdRefIdRef": 1}


OPTIONAL_MASK_TAIL = 5
SLOTS = 64  # SPVCOND_GRAMMAR_ENUMERANT_SLOTS: the direct slots; as many follow for hashed ones
HASHED = 256  # SPVCOND_GRAMMAR_HASHED_SLOTS


def hashed_slot(v):
    """The slot of a value enum's value >= SLOTS; must match spvcond_grammar_hashed_slot."""
    return SLOTS + (v & (HASHED - 1))
OPTIONAL_ID_TAIL = 6
ENUM_TAIL = 7
STRING_TAIL = 8


def one_word_params(t, e):
    """(count, id mask) when every parameter of enumerant e is one word (an id, a literal integer or an
    enumerant that takes no parameters); (255, 0) otherwise."""
    pf, pc = e["params"]
    ids = 0
    for n in range(pc):
        kind, q = t.operands[pf + n]
        name, cls, first, count = t.kinds[kind][:4]
        if q != "SPVCOND_Q_ONE" or n >= 8:
            return 255, 0
        if cls in ("SPVCOND_OC_ID", "SPVCOND_OC_RESULT_TYPE"):
            ids |= 1 << n
        elif cls in ("SPVCOND_OC_VALUE_ENUM", "SPVCOND_OC_BIT_ENUM"):
            if cls == "SPVCOND_OC_BIT_ENUM" or any(t.enumerants[x]["params"][1] for x in range(first, first + count)):
                return 255, 0
        elif cls != "SPVCOND_OC_LITERAL_INT":
            return 255, 0
    return pc, ids


def literal_mask_bits(t, entry):
    """For a bit enum: (bits whose enumerant has no parameters or one LiteralInteger, bits of the latter)."""
    allowed, one_word = 0, 0
    first, count = entry[2], entry[3]
    for e in range(first, first + count):
        en = t.enumerants[e]
        pf, pc = en["params"]
        kinds = [t.operands[k][0] for k in range(pf, pf + pc)]
        value = en["value"]
        if value == 0 or value & (value - 1) or en["caps"][1]:
            continue  # a bit that needs a capability is left to the general walker
        if pc == 0:
            allowed |= value
        elif pc == 1 and kinds[0] == t.kind_ref("LiteralInteger", None):
            allowed |= value
            one_word |= value
    return allowed, one_word


def fast_shape(t, operands, scope):
    """(simple, fixed, id_mask, result_word, tail, mask_allowed, mask_one_word): a layout the walkers can
    decode without the general machinery: one-word operands (ids, literals, enums none of whose
    enumerants take parameters), then optionally a repeated id/literal/pair tail, or a last optional bit
    mask (memory operands) whose set bits take no operand or one literal."""
    fixed, mask, result, tail = 0, 0, 0, 0
    none = (0, 0, 0, 0, 0, 0, 0)
    for n, o in enumerate(operands):
        kind, q = o["kind"], o.get("quantifier")
        last = n == len(operands) - 1
        if q == "*" and last and kind in TAILS:
            tail = TAILS[kind]
            break
        if q is None and last and kind == "LiteralContextDependentNumber":
            # OpConstant's number fills the rest of the instruction, as the general walker reads it.
            return (1, fixed, mask, result, TAILS["LiteralInteger"], 0, 0)
        if q is None and last and kind == "LiteralString":
            return (1, fixed, mask, result, STRING_TAIL, 0, 0)
        if q is None and last and t.kinds[t.kind_ref(kind, scope)][1] == "SPVCOND_OC_VALUE_ENUM":
            # The enumerant's own parameters follow; the walkers look it up (OpDecorate).
            return (1, fixed, mask, result, ENUM_TAIL, t.kind_ref(kind, scope), 0)
        if q == "?" and last and kind in ONE_WORD_IDS:
            return (1, fixed, mask, result, OPTIONAL_ID_TAIL, 0, 0)
        if q == "?" and last:
            entry = t.kinds[t.kind_ref(kind, scope)]
            if entry[1] != "SPVCOND_OC_BIT_ENUM":
                return none
            allowed, one_word = literal_mask_bits(t, entry)
            return (1, fixed, mask, result, OPTIONAL_MASK_TAIL, allowed, one_word)
        if q is not None:
            return none
        entry = t.kinds[t.kind_ref(kind, scope)]
        cls = entry[1]
        if kind in ONE_WORD_IDS:
            mask |= 1 << fixed
        elif kind == "IdResult":
            result = fixed + 1
        elif kind == "LiteralInteger":
            pass
        elif cls in ("SPVCOND_OC_VALUE_ENUM", "SPVCOND_OC_BIT_ENUM"):
            first, count = entry[2], entry[3]
            if any(t.enumerants[e]["params"][1] for e in range(first, first + count)):
                return none
        else:
            return none
        fixed += 1
        if fixed > 15:
            return none
    return (1, fixed, mask, result, tail, 0, 0)


# Where an opcode may stand in the logical layout of a module (SPIR-V 2.4): a section of enum
# spvcond_section (grammar.h), or a (first, last) pair of them. Opcodes not listed stand among the globals
# when they declare types or constants, in functions otherwise; OpNop wherever it is. Extended
# instructions have no layout of their own.
LAYOUT_BY_OPCODE = {
    17: "CAPABILITY", 6250: "CAPABILITY",            # OpCapability, OpConditionalCapabilityINTEL
    10: "EXTENSION", 6248: "EXTENSION",              # OpExtension, OpConditionalExtensionINTEL
    11: "EXTINST_IMPORT", 14: "MEMORY_MODEL",
    15: "ENTRY_POINT", 6249: "ENTRY_POINT",          # OpEntryPoint, OpConditionalEntryPointINTEL
    16: "EXECUTION_MODE", 331: "EXECUTION_MODE",
    2: "DEBUG_SOURCE", 3: "DEBUG_SOURCE", 4: "DEBUG_SOURCE", 7: "DEBUG_SOURCE",
    5: "DEBUG_NAME", 6: "DEBUG_NAME", 330: "DEBUG_PROCESSED",
    71: "ANNOTATION", 72: "ANNOTATION", 73: "ANNOTATION", 74: "ANNOTATION", 75: "ANNOTATION",
    332: "ANNOTATION", 5632: "ANNOTATION", 5633: "ANNOTATION",
    # OpUndef, OpLine, OpExtInst, OpVariable, OpNoLine: among the globals or in functions
    1: ("GLOBAL", "FUNCTION"), 8: ("GLOBAL", "FUNCTION"), 12: ("GLOBAL", "FUNCTION"), 59: ("GLOBAL", "FUNCTION"),
    317: ("GLOBAL", "FUNCTION"),
    5609: "GLOBAL", 5610: "GLOBAL", 5600: "GLOBAL",  # OpAsmTargetINTEL, OpAsmINTEL, function pointers
}


def layout(instruction):
    op = instruction["opcode"]
    if op == 0:
        return "SPVCOND_LAYOUT_ANYWHERE"
    where = LAYOUT_BY_OPCODE.get(op)
    if where is None:
        declares = instruction.get("class") in ("Type-Declaration", "Constant-Creation")
        where = "GLOBAL" if declares else "FUNCTION"
    first, last = where if isinstance(where, tuple) else (where, where)
    return "SPVCOND_LAYOUT(SPVCOND_SECTION_%s, SPVCOND_SECTION_%s)" % (first, last)


# Opcodes the reader's quick path leaves to its general one wherever they stand: functions' structure
# (calls are read quickly: quick_use lets a callee be a function), debug lines, extended instructions
# (their sets decide), and vendor opcodes from function pointers up.
QUICK_EXCLUDED = {8, 12, 54, 55, 56, 248, 317}


# The tails quick_code_inst reads in code: ids, literals, an optional id or a memory-access mask.
QUICK_CODE_TAILS = (0, TAILS["IdRef"], TAILS["LiteralInteger"], OPTIONAL_MASK_TAIL, OPTIONAL_ID_TAIL)


def quick(instruction, shape, scope):
    """Where the reader may read this instruction by its fast layout alone (reader.c, quick_code_inst),
    as bits: SPVCOND_QUICK_CODE in a function's blocks (a core instruction allowed in functions and
    nowhere later, or an extended instruction whose operands' ids the masks hold once behind its four
    words, ext_inst_layout; a tail of QUICK_CODE_TAILS); SPVCOND_QUICK_GLOBAL among the globals (a
    constant with a type, a result, then ids or literals)."""
    simple, fixed, tail = shape[0], shape[1], shape[4]
    if scope is not None:
        return int(bool(simple) and fixed <= 11 and tail in QUICK_CODE_TAILS)
    op = instruction["opcode"]
    where = layout(instruction)
    if not simple or op in QUICK_EXCLUDED or op >= 5600:
        return 0
    bits = 0
    if where.endswith("SPVCOND_SECTION_FUNCTION)") and tail in QUICK_CODE_TAILS:
        bits |= 1
    kinds = [o["kind"] for o in instruction.get("operands", [])]
    if (where == "SPVCOND_LAYOUT(SPVCOND_SECTION_GLOBAL, SPVCOND_SECTION_GLOBAL)" and
            instruction.get("class") == "Constant-Creation" and kinds[:2] == ["IdResultType", "IdResult"] and
            tail in (0, TAILS["IdRef"], TAILS["LiteralInteger"])):
        bits |= 2
    return bits


# Words past the fixed ones that surely fit a tail (quick_layout); QUICK_ANY_COUNT: any number.
QUICK_ANY_COUNT = 0xFFFF
FITS_BELOW = {0: 1, TAILS["IdRef"]: QUICK_ANY_COUNT, TAILS["LiteralInteger"]: QUICK_ANY_COUNT,
              OPTIONAL_MASK_TAIL: 1, OPTIONAL_ID_TAIL: 2}


def quick_layout(shape, has_type, where, extended):
    """A struct spvcond_grammar_quick row (grammar.h): the fast layout as the reader's quick runs read it.
    An extended instruction's row frames its operands as OpExtInst holds them: a type, a result, the set
    (word 3) and the number, then the operands from word 5."""
    simple, fixed, mask, result, tail = shape[:5]
    if not simple or tail not in FITS_BELOW:
        return "{0}"
    if extended:
        ids, has_type, result, fixed = 1 << 2 | mask << 4, True, 2, 4 + fixed
    else:
        ids = mask & ~(1 if has_type else 0)
    flags = ((1 if has_type else 0) | (2 if tail in (TAILS["IdRef"], OPTIONAL_ID_TAIL) else 0)
             | (4 if tail == OPTIONAL_MASK_TAIL else 0))
    return "{0x%x, 0x%x, %d, %d, %d, %d}" % (ids, FITS_BELOW[tail], where, 1 + fixed, result, flags)


def instruction_rows(t, instructions, scope, classes):
    """The grammar rows of a core grammar (scope None) or an extended set, sorted by opcode, and their
    quick rows: an extended set's in the same order; the core's by opcode, up to the last opcode the quick
    runs may take (or OpLabel, which later blocks' runs take)."""
    rows = []
    quick_rows = {}
    for i in sorted(instructions, key=lambda i: i["opcode"]):
        kinds = [o["kind"] for o in i.get("operands", [])]
        has_type = "IdResultType" in kinds
        has_result = "IdResult" in kinds
        of, oc = t.operand_range(i.get("operands", []), scope)
        cf, cc = t.cap_range(i.get("capabilities", []))
        xf, xc = t.ext_range(i.get("extensions", []))
        cls = i.get("class", "")
        if cls not in classes:
            classes.append(cls)
        # OpSwitch's case literals are as wide as its selector: only the general walker knows that.
        simple_ok = i["opname"] != "OpSwitch"
        shape = fast_shape(t, i.get("operands", []), scope) if simple_ok else (0,) * 7
        # A trailing optional mask of the fast layout is checked by the layout itself (no bit it allows
        # needs a capability); a trailing enumerant's capabilities are read by the capability scan from
        # the enumerant. Neither counts here.
        ops = i.get("operands", [])
        if shape[4] in (OPTIONAL_MASK_TAIL, ENUM_TAIL):
            ops = ops[:-1]
        is_enum = [t.kinds[t.kind_ref(o["kind"], scope)][1] in ("SPVCOND_OC_VALUE_ENUM", "SPVCOND_OC_BIT_ENUM")
                   for o in ops]
        enums = int(any(is_enum))
        # In a simple layout the fixed operands come first, one word each, in the grammar's order.
        enum_mask = sum(1 << n for n in range(shape[1]) if is_enum[n]) if shape[0] else 0
        rows.append("{%d, %s, %d, %d, %d, %d, %d, %d, %d, %d, 0x%x, %d, %d, %d, 0x%x, %d, %d, 0x%x, 0x%x, %d, 0x%x, %s, %d}"
                    % ((i["opcode"], c_string(i["opname"]), has_type, has_result, of, oc, cf, cc, xf, xc,
                        parse_version(i.get("version")), classes.index(cls)) + shape + (enums, enum_mask)
                       + (layout(i) if scope is None else "0", quick(i, shape, scope))))
        if scope is not None or quick(i, shape, scope) or i["opcode"] == 248:
            quick_rows[i["opcode"]] = quick_layout(shape, has_type, quick(i, shape, scope), scope is not None)
    if scope is not None:
        return rows, [quick_rows[op] for op in sorted(quick_rows)]
    return rows, [quick_rows.get(op, "{0}") for op in range(max(quick_rows) + 1)]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--core", required=True)
    ap.add_argument("--supplement", required=True)
    ap.add_argument("--extinst", action="append", default=[], metavar="NAME=FILE")
    ap.add_argument("--out-c", required=True)
    ap.add_argument("--out-h", required=True)
    args = ap.parse_args()

    with open(args.core) as f:
        core = json.load(f)
    with open(args.supplement) as f:
        merge_supplement(core, json.load(f))
    sets = []
    for spec in args.extinst:
        name, path = spec.split("=", 1)
        with open(path) as f:
            sets.append((name, json.load(f)))

    t = Tables()
    t.declare_kinds(core["operand_kinds"], None)
    for e in next(k for k in core["operand_kinds"] if k["kind"] == "Capability")["enumerants"]:
        t.cap_value.setdefault(e["enumerant"], parse_value(e["value"]))
    t.fill_enumerants(None)
    for name, g in sets:
        t.declare_kinds(g.get("operand_kinds", []), name)
        t.fill_enumerants(name)

    classes = []
    core_rows, quick_rows = instruction_rows(t, core["instructions"], None, classes)
    max_opcode = max(i["opcode"] for i in core["instructions"])
    opcode_index = [0] * (max_opcode + 1)
    for n, i in enumerate(sorted(core["instructions"], key=lambda i: i["opcode"])):
        opcode_index[i["opcode"]] = n + 1
    set_rows = []
    set_tables = []
    for name, g in sets:
        rows, set_quick_rows = instruction_rows(t, g["instructions"], name, classes)
        var = "extinst_" + ident(name)
        set_tables.append("static const struct spvcond_grammar_instruction %s[] = {\n    %s,\n};\n"
                          % (var, ",\n    ".join(rows)))
        set_tables.append("static const struct spvcond_grammar_quick %s_quick[] = {\n    %s,\n};\n"
                          % (var, ",\n    ".join(set_quick_rows)))
        # number -> row + 1, for a lookup without a search (sets number their instructions densely)
        numbers = sorted(i["opcode"] for i in g["instructions"])
        index = [0] * (numbers[-1] + 1)
        for n, number in enumerate(numbers):
            index[number] = n + 1
        set_tables.append("static const uint16_t %s_index[%d] = {%s};\n"
                          % (var, len(index), ", ".join("%d" % v for v in index)))
        set_rows.append("{%s, %s, %s_quick, %d, %s_index, %d}" % (c_string(name), var, var, len(rows), var, len(index)))

    out = []
    out.append("/* Generated by tools/gen_grammar.py from the SPIR-V JSON grammars. Do not edit. */\n")
    out.append('#include "grammar.h"\n\n')
    # Slots of the common enumerants, for a lookup without a search: a value enum's values 0..63, a bit
    # enum's single bits (slot = bit number) and its zero (slot 63). Entry = enumerant index + 1.
    slot_rows = []
    kind_rows = []
    for qualified, cls, first, count, _ in t.kinds:
        if cls not in ("SPVCOND_OC_VALUE_ENUM", "SPVCOND_OC_BIT_ENUM") or count == 0:
            kind_rows.append(0)
            continue
        row = [0] * (SLOTS + HASHED)
        for n in range(first, first + count):
            v = t.enumerants[n]["value"]
            if cls == "SPVCOND_OC_VALUE_ENUM" and v < SLOTS:
                row[v] = n + 1
            elif cls == "SPVCOND_OC_VALUE_ENUM" and not row[hashed_slot(v)]:
                row[hashed_slot(v)] = n + 1  # the first of colliding values; the others are searched
            elif cls == "SPVCOND_OC_BIT_ENUM" and v == 0:
                row[SLOTS - 1] = n + 1
            elif cls == "SPVCOND_OC_BIT_ENUM" and v & (v - 1) == 0:
                row[v.bit_length() - 1] = n + 1
        slot_rows.append(row)
        kind_rows.append(len(slot_rows))
    out.append("const struct spvcond_grammar_kind spvcond_grammar_kinds[] = {\n")
    for (qualified, cls, first, count, _), row in zip(t.kinds, kind_rows):
        out.append("    {%s, %s, %d, %d, %d},\n" % (c_string(qualified), cls, first, count, row))
    out.append("};\n\n")
    out.append("const uint16_t spvcond_grammar_enumerant_slots[][SPVCOND_GRAMMAR_ENUMERANT_SLOTS + "
               "SPVCOND_GRAMMAR_HASHED_SLOTS] = {\n")
    out.append("    {0},\n")
    for row in slot_rows:
        out.append("    {%s},\n" % ", ".join("%d" % v for v in row))
    out.append("};\n\n")
    out.append("const struct spvcond_grammar_enumerant spvcond_grammar_enumerants[] = {\n")
    for e in t.enumerants:
        fast, ids = one_word_params(t, e)
        out.append("    {0x%x, %s, %d, %d, %d, %d, %d, %d, 0x%x, %d, 0x%x},\n"
                   % (e["value"], c_string(e["name"]), e["params"][0], e["params"][1], e["caps"][0],
                      e["caps"][1], e["exts"][0], e["exts"][1], e["version"], fast, ids))
    out.append("};\n\n")
    # The values alone, for the search past the slots: 4 bytes an entry, where the structures above take
    # 40 (an annotated module's ConditionalINTEL decorations searched through them for 5% of reading).
    out.append("const uint32_t spvcond_grammar_enumerant_values[] = {\n")
    for e in t.enumerants:
        out.append("    0x%x,\n" % e["value"])
    out.append("};\n\n")
    out.append("const struct spvcond_grammar_operand spvcond_grammar_operands[] = {\n")
    for k, q in t.operands:
        out.append("    {%d, %s},\n" % (k, q))
    out.append("    {0, SPVCOND_Q_ONE}\n};\n\n")
    out.append("const uint32_t spvcond_grammar_capabilities[] = {\n    %s0\n};\n\n"
               % "".join("%d, " % c for c in t.caps))
    out.append("const char *const spvcond_grammar_extensions[] = {\n    %sNULL\n};\n\n"
               % "".join("%s, " % c_string(x) for x in t.exts))
    out.append("const char *const spvcond_grammar_classes[] = {\n    %s\n};\n\n"
               % ", ".join(c_string(c) for c in classes))
    out.append("const struct spvcond_grammar_instruction spvcond_grammar_core[] = {\n    %s,\n};\n\n"
               % ",\n    ".join(core_rows))
    out.append("const uint16_t spvcond_grammar_opcode_index[%d] = {\n" % (max_opcode + 1))
    for n in range(0, len(opcode_index), 16):
        out.append("    " + "".join("%d, " % v for v in opcode_index[n:n + 16]) + "\n")
    out.append("};\n\n")
    out.append("const struct spvcond_grammar_quick spvcond_grammar_quick[%d] = {\n" % len(quick_rows))
    out.extend("    %s,\n" % r for r in quick_rows)
    out.append("};\n\n")
    out.extend(set_tables)
    out.append("\nconst struct spvcond_grammar_extinst_set spvcond_grammar_extinst_sets[] = {\n    %s\n};\n"
               % ",\n    ".join(set_rows) if set_rows else "")

    hdr = []
    hdr.append("/* Generated by tools/gen_grammar.py from the SPIR-V JSON grammars. Do not edit. */\n")
    hdr.append("#ifndef SPVCOND_GRAMMAR_TABLES_H\n#define SPVCOND_GRAMMAR_TABLES_H\n\n")
    hdr.append("enum spvcond_grammar_kind_id {\n")
    for n, (qualified, *_rest) in enumerate(t.kinds):
        hdr.append("    SPVCOND_KIND_%s = %d,\n" % (ident(qualified), n))
    hdr.append("};\n\n")
    hdr.append("enum spvcond_grammar_class_id {\n")
    for n, c in enumerate(classes):
        hdr.append("    SPVCOND_CLASS_%s = %d,\n" % (ident(c) or "NONE", n))
    hdr.append("};\n\n")
    hdr.append("#define SPVCOND_GRAMMAR_KIND_COUNT %d\n" % len(t.kinds))
    hdr.append("#define SPVCOND_GRAMMAR_CORE_COUNT %d\n" % len(core_rows))
    hdr.append("#define SPVCOND_GRAMMAR_MAX_OPCODE %d\n" % max_opcode)
    hdr.append("#define SPVCOND_GRAMMAR_EXTINST_SET_COUNT %d\n" % len(sets))
    hdr.append("#define SPVCOND_GRAMMAR_QUICK_OPCODES %d\n" % len(quick_rows))
    hdr.append("\n#endif\n")

    with open(args.out_c, "w") as f:
        f.write("".join(out))
    with open(args.out_h, "w") as f:
        f.write("".join(hdr))


if __name__ == "__main__":
    main()
