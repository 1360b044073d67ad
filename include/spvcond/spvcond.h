/* SPDX-License-Identifier: MIT */
/* libspvcond: rewrite SPIR-V modules guarded by SPV_INTEL_function_variants conditions.
 *
 * Ownership rules, once for the whole API:
 *  - A context owns nothing but its allocator and diagnostic sink; every object created with it
 *    must be destroyed before the context.
 *  - Buffers the library returns (spvcond_module_emit) belong to the caller and are released with
 *    spvcond_free() on the same context.
 *  - Strings and tables the library returns by pointer stay valid until the object they came from
 *    is destroyed, unless a function says otherwise.
 *  - Objects are not internally locked: use a context, and the modules made with it, from one thread
 *    at a time (the default allocator keeps its state in the context). Separate contexts may be used
 *    concurrently; the library has no global state.
 */
#ifndef SPVCOND_H
#define SPVCOND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvcond-version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SPVCOND_BUILDING) && defined(__GNUC__)
#define SPVCOND_API __attribute__((visibility("default")))
#else
#define SPVCOND_API
#endif

/* Negative values are errors, zero is success. */
typedef enum spvcond_result {
    SPVCOND_OK = 0,
    SPVCOND_ERROR_INVALID_ARGUMENT = -1, /* the caller broke an API precondition */
    SPVCOND_ERROR_OUT_OF_MEMORY = -2,
    SPVCOND_ERROR_INVALID_BINARY = -3, /* not a well-formed SPIR-V binary */
    SPVCOND_ERROR_INVALID_ID = -4,     /* an id out of range, redefined, undefined or of the wrong kind */
    SPVCOND_ERROR_INVALID_LAYOUT = -5, /* instructions outside the logical layout order */
    SPVCOND_ERROR_UNSUPPORTED = -6,    /* valid SPIR-V this library does not handle */
    SPVCOND_ERROR_NOT_FOUND = -7,
    SPVCOND_ERROR_LIMIT = -8,          /* a resource limit of the library was exceeded */
    SPVCOND_ERROR_STOPPED = -9,        /* a callback of the caller's asked to stop */
    SPVCOND_RESULT_FORCE_32_BIT = 0x7fffffff
} spvcond_result;

typedef enum spvcond_severity {
    SPVCOND_SEVERITY_ERROR = 0,
    SPVCOND_SEVERITY_WARNING = 1,
    SPVCOND_SEVERITY_NOTE = 2
} spvcond_severity;

#define SPVCOND_NO_POSITION ((size_t)-1)
#define SPVCOND_DIAG_MESSAGE_SIZE 320

/* One diagnostic. Position fields are SPVCOND_NO_POSITION / 0 when not tied to an instruction.
 * opcode_name points to static storage and is never NULL ("" when unknown). */
typedef struct spvcond_diag {
    size_t size; /* set by the library: sizeof(spvcond_diag) of its header */
    spvcond_result code;
    spvcond_severity severity;
    size_t word_offset;       /* offset of the instruction's first word from the start of the module */
    size_t instruction_index; /* 0-based, counting from the first instruction after the header */
    uint32_t opcode;
    const char *opcode_name;
    uint32_t id;              /* the id the message is about, 0 if none */
    char message[SPVCOND_DIAG_MESSAGE_SIZE];
} spvcond_diag;

/* Called for every diagnostic, from the thread that called into the library, before the function
 * that reports it returns. The record is only valid during the call. */
typedef void (*spvcond_diag_fn)(void *user, const spvcond_diag *diag);

/* Optional allocator: all three hooks, or no allocator at all for the default one (on Linux, huge
 * pages and slabs kept in the context, src/support/heap.c; elsewhere malloc). free(NULL) is never called. */
typedef struct spvcond_allocator {
    void *(*alloc)(void *user, size_t size);
    void *(*realloc)(void *user, void *ptr, size_t size);
    void (*free)(void *user, void *ptr);
    void *user;
} spvcond_allocator;

typedef struct spvcond_context spvcond_context;
typedef struct spvcond_module spvcond_module;

/* ---- structs that grow (docs/releasing.md) ----------------------------------------------- */

/* Every options, device, requirements and stats struct begins with `size`: set it to sizeof the struct,
 * as SPVCOND_SIZED does, before passing it in or asking the library to fill it. A newer library reads an
 * older caller's struct as far as its size reaches (later fields count as zero) and fills no more of it;
 * a field set past what the library knows is refused (SPVCOND_ERROR_UNSUPPORTED). A size of 0 (a struct
 * left `= {0}`) is an invalid argument. Records the library hands to callbacks carry their size too, so a
 * caller built for a newer header can tell whether a field is there: offsetof(T, field) < record->size. */
#define SPVCOND_SIZED(type) ((type){.size = sizeof(type)})

/* Calls that only read a module take it const. A module is not safe to share between threads even then:
 * reading may build the indexes it keeps (entry points by name, items per function) the first time. */

/* ---- context ---------------------------------------------------------------------------- */

SPVCOND_API spvcond_result spvcond_context_create(const spvcond_allocator *allocator, spvcond_diag_fn diag_fn,
                                                  void *diag_user, spvcond_context **out);
SPVCOND_API void spvcond_context_destroy(spvcond_context *ctx);
/* The default allocator keeps the pages of what it freed (at most what the largest module so far
 * needed) for the modules that follow: a context kept for module after module, as a JIT compiler
 * keeps one, then faults no fresh memory. This gives them back; objects stay valid. No-op with a
 * caller's allocator. */
SPVCOND_API void spvcond_context_trim(spvcond_context *ctx);
/* The first error reported since the last spvcond_context_clear_diag(), or NULL. */
SPVCOND_API const spvcond_diag *spvcond_context_first_error(const spvcond_context *ctx);
SPVCOND_API size_t spvcond_context_warning_count(const spvcond_context *ctx);
SPVCOND_API void spvcond_context_clear_diag(spvcond_context *ctx);
SPVCOND_API void spvcond_free(spvcond_context *ctx, void *ptr);
SPVCOND_API const char *spvcond_result_string(spvcond_result result);
SPVCOND_API const char *spvcond_version_string(void);
/* The library's version as a number, MAJOR * 10000 + MINOR * 100 + PATCH: what the library loaded at run
 * time is, to compare with SPVCOND_VERSION_NUMBER, what the caller was compiled against. */
SPVCOND_API uint32_t spvcond_version(void);
/* The name of a DPC++ aspect (sycl::aspect numbering: "fp64" for 6), or NULL for a number no aspect has. */
SPVCOND_API const char *spvcond_aspect_name(uint32_t aspect);
/* The value of a SPIR-V capability named as the grammar names it ("Float64"), from the library's grammar
 * tables; false for a name it does not know. */
SPVCOND_API bool spvcond_capability_value(const char *name, uint32_t *value);
/* The grammar's name of a SPIR-V capability ("Int64" for 11), or NULL for a value it does not know. */
SPVCOND_API const char *spvcond_capability_name(uint32_t value);

/* ---- modules ---------------------------------------------------------------------------- */

/* Parse flags. */
#define SPVCOND_PARSE_BORROW 0x1u /* keep a pointer to the caller's words instead of copying them; the
                                     caller keeps them alive and unchanged until the module is destroyed.
                                     Ignored (a copy is made) for byte-swapped input. */
#define SPVCOND_PARSE_FOR_ANNOTATE 0x2u /* the module is read to be annotated: the reader also lists what
                                           each function names, which spvcond_annotate would walk every
                                           id of the code again to find (a fifth of annotating libclc).
                                           Costs reading a little time and memory; results are the same
                                           with or without it. */

/* Parse and index a module given as 32-bit words in host order (or byte-swapped: the reader detects a
 * reversed magic number and swaps). On error *out is NULL and the diagnostic says where. */
SPVCOND_API spvcond_result spvcond_module_parse(spvcond_context *ctx, const uint32_t *words, size_t word_count,
                                                uint32_t flags, spvcond_module **out);
/* The same from raw file bytes in either byte order. */
SPVCOND_API spvcond_result spvcond_module_parse_bytes(spvcond_context *ctx, const void *bytes, size_t size,
                                                      spvcond_module **out);
/* The context a module was parsed in: buffers the module gives (spvcond_module_emit) go back through it
 * (spvcond_free). */
SPVCOND_API spvcond_context *spvcond_module_context(const spvcond_module *module);
SPVCOND_API void spvcond_module_destroy(spvcond_module *module);

/* Emit the module with every recorded edit applied, as little-endian words. A module without edits
 * is emitted word for word as it was read. *words is released with spvcond_free(). */
SPVCOND_API spvcond_result spvcond_module_emit(spvcond_module *module, uint32_t **words, size_t *word_count);

/* Receives the emitted module piece by piece; `words` is valid only during the call. Return 0 to go on,
 * anything else to stop the emission (spvcond_module_emit_to() then returns SPVCOND_ERROR_STOPPED). */
typedef int (*spvcond_emit_fn)(void *user, const uint32_t *words, size_t word_count);

/* The same words as spvcond_module_emit(), given to `fn` in order as pieces (the header, runs of
 * untouched instructions straight from the words read, the edits between them) instead of in one new
 * buffer: a caller that writes the module out (to a file, a pipe, a driver) needs no copy of it. On
 * success *word_count (if not NULL) is the number of words given. A failure after some pieces were
 * given leaves what the caller has received incomplete: discard it. */
SPVCOND_API spvcond_result spvcond_module_emit_to(spvcond_module *module, spvcond_emit_fn fn, void *user,
                                                  size_t *word_count);

/* Header fields and sizes. */
SPVCOND_API uint32_t spvcond_module_version(const spvcond_module *module); /* 0x00MMmm00 */
SPVCOND_API uint32_t spvcond_module_bound(const spvcond_module *module);
SPVCOND_API size_t spvcond_module_instruction_count(const spvcond_module *module);
SPVCOND_API bool spvcond_module_was_byte_swapped(const spvcond_module *module);
/* The device registry's version the module states with OpDeviceRegistryVersion (SPV_INTEL_function_variants
 * revision 0.13; spec/extension.md): SPVCOND_OK and *version, SPVCOND_ERROR_NOT_FOUND if it has none. */
SPVCOND_API spvcond_result spvcond_module_registry_version(const spvcond_module *module, uint32_t *version);

/* ---- inspection: what a module holds, read only (spvcond info is built on it) ----------------- */

/* Facts of the whole module. */
typedef struct spvcond_module_info {
    size_t size; /* sizeof(spvcond_module_info): set by the caller (SPVCOND_SIZED) */
    uint32_t generator;
    size_t word_count;
    bool has_memory_model;
    uint32_t addressing_model, memory_model;
    const char *addressing_model_name, *memory_model_name; /* the grammar's, or NULL for a number it lacks */
    size_t function_count, function_declaration_count; /* every OpFunction; those without a body */
    size_t call_edge_count;                           /* OpFunctionCall instructions */
    size_t name_count;                                /* OpName, OpMemberName */
    size_t decoration_count;                          /* every decoration instruction */
} spvcond_module_info;
SPVCOND_API spvcond_result spvcond_module_info_get(const spvcond_module *module, spvcond_module_info *info);

/* The items spvcond_module_next_item() walks, each in module order. */
typedef enum spvcond_item_kind {
    SPVCOND_ITEM_CAPABILITY = 0,             /* OpCapability, OpConditionalCapabilityINTEL: value */
    SPVCOND_ITEM_EXTENSION = 1,              /* OpExtension, OpConditionalExtensionINTEL: name */
    SPVCOND_ITEM_EXT_INST_IMPORT = 2,        /* OpExtInstImport: id, name */
    SPVCOND_ITEM_ENTRY_POINT = 3,            /* OpEntryPoint, OpConditionalEntryPointINTEL: value (the
                                                execution model), target (the function), name */
    SPVCOND_ITEM_EXECUTION_MODE = 4,         /* OpExecutionMode(Id): target (the entry point's function),
                                                value (the mode), operands (literals, or ids for ...Id) */
    SPVCOND_ITEM_SPEC_CONSTANT = 5,          /* OpSpecConstant*: id, has_spec_id/spec_id, name (its OpName),
                                                operands (the words after the result id) */
    SPVCOND_ITEM_CONDITIONAL_DECORATION = 6, /* ConditionalINTEL: target, value (the target's opcode),
                                                condition, name (the target's OpName) */
    SPVCOND_ITEM_CONDITIONAL_COPY = 7,       /* OpConditionalCopyObjectINTEL: id */
    SPVCOND_ITEM_KIND_FORCE_32_BIT = 0x7fffffff
} spvcond_item_kind;

/* One item. Strings and operands point into the module and live as long as it. */
typedef struct spvcond_item {
    size_t size;             /* sizeof(spvcond_item): set by the caller (SPVCOND_SIZED) */
    spvcond_item_kind kind;
    uint32_t opcode;         /* the instruction's */
    size_t instruction;      /* its index, 0-based after the header */
    uint32_t id;             /* the result id, or 0 */
    uint32_t value;          /* see the kinds */
    const char *value_name;  /* the grammar's name of `value` ("Float64", "Kernel", "OpFunction"), or NULL */
    uint32_t target;         /* see the kinds, else 0 */
    uint32_t condition;      /* a conditional instruction's or decoration's condition, else 0 */
    const char *name;        /* see the kinds, else NULL */
    bool has_spec_id;
    uint32_t spec_id;
    const uint32_t *operands;
    size_t operand_count;
} spvcond_item;

/* The next item of `kind` from *cursor (start at 0; it is advanced past the item): true with *item
 * filled, false when there is none left (or an argument is invalid). Walking a kind costs one pass over
 * its section. */
SPVCOND_API bool spvcond_module_next_item(const spvcond_module *module, spvcond_item_kind kind, size_t *cursor,
                                          spvcond_item *item);
/* The next execution mode (an SPVCOND_ITEM_EXECUTION_MODE item) of the entry point whose function is
 * `function`, from *cursor (start at 0): as spvcond_module_next_item(), through the module's index, so
 * that walking every entry point's modes costs one pass over the modes in all. */
SPVCOND_API bool spvcond_module_next_execution_mode(const spvcond_module *module, uint32_t function, size_t *cursor,
                                                    spvcond_item *item);
/* The grammar's name of an opcode ("OpSpecConstantTrue"), "" for one it does not know. */
SPVCOND_API const char *spvcond_opcode_name(uint32_t opcode);

/* ---- specialization (the consumer) ------------------------------------------------------ */

/* A value for the spec constants carrying `spec_id`. Booleans: non-zero is true. Integers: the value's
 * low bits, as many as the constant's type has. `found` is set by the library when some spec
 * constant of the module carries the SpecId. */
typedef struct spvcond_spec_value {
    uint32_t spec_id;
    uint64_t value;
    bool found;
} spvcond_spec_value;

/* What a fact of the device that is not given means when a device constant needs it (spec/devices.md,
 * "Facts not given"). */
typedef enum spvcond_unspecified {
    SPVCOND_UNSPECIFIED_ERROR = 0, /* refuse: the diagnostic names the constant and the fact */
    SPVCOND_UNSPECIFIED_UNKNOWN = 1, /* the extension's rule for a value the consumer does not recognise: a
                                        target, feature, category, family or capability not given matches
                                        nothing; an architecture number not given (category and family given)
                                        takes the extension's table for an unrecognised architecture: IEqual,
                                        UGreaterThan(Equal) false, INotEqual, ULessThan(Equal) true */
    SPVCOND_UNSPECIFIED_ANY = 2,   /* the translator's (llvm-spirv --fnvar-*): a target, category, family or
                                      architecture not given matches any; features or capabilities not given
                                      are every one */
    SPVCOND_UNSPECIFIED_FORCE_32_BIT = 0x7fffffff
} spvcond_unspecified;

/* The device, for SPV_INTEL_function_variants' OpSpecConstant{Target,Architecture,Capabilities}INTEL.
 * Each has_* says a fact is given; `unspecified` says what a fact not given means. The architecture is
 * given whole (has_architecture: category, family and number) or in part (has_family: category and
 * family; has_category: the category alone): a constant of another category or family is then false,
 * one that needs the rest takes what `unspecified` says. The values are the device registry's
 * (spvcond_registry_*). */
typedef struct spvcond_fnvar_device {
    size_t size; /* sizeof(spvcond_fnvar_device): set by the caller (SPVCOND_SIZED) */
    bool has_target;
    uint32_t target;
    const uint32_t *features;     /* the target's features the device has: all of them, when has_features */
    size_t feature_count;
    bool has_architecture;
    uint32_t category, family, architecture;
    bool has_capabilities;
    const uint32_t *capabilities; /* SPIR-V capability values the device supports */
    size_t capability_count;
    bool has_features;
    bool has_category, has_family;
    spvcond_unspecified unspecified;
} spvcond_fnvar_device;

/* Whether a device description is well formed (`unspecified` one of the three, every list with items);
 * when not, what is wrong is written into why. */
SPVCOND_API bool spvcond_fnvar_device_check(const spvcond_fnvar_device *device, char *why, size_t why_size);

/* ---- the device registry ------------------------------------------------------------------ */

/* SPV_INTEL_function_variants' device registry, version 0 (intel/llvm
 * sycl/doc/design/spirv-extensions/targets/core.json; spec/devices.md): names and values of targets,
 * each target's features, architecture categories, families within a category and architectures within a
 * family. The lookups take a registry name or a decimal number; the *_name calls write the first name
 * of a value into buf and return buf, or NULL when the registry has none (or buf is too small). */
SPVCOND_API bool spvcond_registry_target(const char *name, uint32_t *value);
SPVCOND_API const char *spvcond_registry_target_name(uint32_t value, char *buf, size_t size);
SPVCOND_API bool spvcond_registry_feature(uint32_t target, const char *name, uint32_t *value);
SPVCOND_API const char *spvcond_registry_feature_name(uint32_t target, uint32_t value, char *buf, size_t size);
SPVCOND_API bool spvcond_registry_category(const char *name, uint32_t *value);
SPVCOND_API const char *spvcond_registry_category_name(uint32_t value, char *buf, size_t size);
SPVCOND_API bool spvcond_registry_family(uint32_t category, const char *name, uint32_t *value);
SPVCOND_API const char *spvcond_registry_family_name(uint32_t category, uint32_t family, char *buf, size_t size);
SPVCOND_API bool spvcond_registry_architecture(uint32_t category, uint32_t family, const char *name,
                                               uint32_t *value);
SPVCOND_API const char *spvcond_registry_architecture_name(uint32_t category, uint32_t family,
                                                           uint32_t architecture, char *buf, size_t size);
/* An architecture as a path, "gpu/intel/pvc" or "cpu/amd/zen4" ("gpu/intel": the family's "any"), or by
 * DPC++'s name ("intel_gpu_pvc", "nvidia_gpu_sm_80", "amd_gpu_gfx90a"). */
SPVCOND_API bool spvcond_registry_architecture_path(const char *path, uint32_t *category, uint32_t *family,
                                                    uint32_t *architecture);
/* An architecture in words ("gpu/intel/pvc", or numbers where the registry has no name) into buf;
 * returns the length it needed, as snprintf. */
SPVCOND_API size_t spvcond_registry_describe_architecture(uint32_t category, uint32_t family,
                                                          uint32_t architecture, char *buf, size_t size);

#define SPVCOND_SPECIALIZE_FREEZE_ALL 0x1u /* also freeze spec constants unrelated to conditions */
#define SPVCOND_SPECIALIZE_STRICT 0x2u     /* a value whose SpecId the module lacks is an error */
#define SPVCOND_SPECIALIZE_NO_TRIM 0x4u    /* keep capabilities whose only users were stripped */
#define SPVCOND_SPECIALIZE_NO_FOLD 0x8u    /* keep branches on frozen conditions (spec/guards.md): what a
                                              consumer that does not fold them gives */

typedef struct spvcond_specialize_options {
    size_t size; /* sizeof(spvcond_specialize_options): set by the caller (SPVCOND_SIZED) */
    spvcond_spec_value *values; /* may be NULL when value_count is 0; `found` is written */
    size_t value_count;
    const spvcond_fnvar_device *device; /* may be NULL */
    uint32_t flags;
} spvcond_specialize_options;

/* What specialization did, for reports. */
typedef struct spvcond_specialize_stats {
    size_t size; /* sizeof(spvcond_specialize_stats): set by the caller (SPVCOND_SIZED) */
    size_t functions_kept, functions_removed;
    size_t entry_points_kept, entry_points_removed;
    size_t instructions_removed;
    size_t capabilities_removed;
    size_t branches_folded;   /* conditional branches on frozen conditions made unconditional */
} spvcond_specialize_stats;

/* Evaluate every condition with the given values (defaults elsewhere), strip what is false, resolve
 * the extension's conditional instructions and record the result as edits; spvcond_module_emit()
 * then writes a module without SPV_INTEL_function_variants. Fails, recording nothing usable, when the
 * result would refer to a removed id. `stats` may be NULL. A module can be specialized once. */
SPVCOND_API spvcond_result spvcond_specialize(spvcond_module *module, const spvcond_specialize_options *options,
                                              spvcond_specialize_stats *stats);

/* ---- lowering ------------------------------------------------------------------------------ */

#define SPVCOND_LOWER_SPIRV14 0x1u       /* SPIR-V 1.4's OpPtrEqual, OpPtrNotEqual, OpPtrDiff (of sized
                                            elements), OpCopyMemory[Sized] with the source's memory operands,
                                            OpDecorateString, OpMemberDecorateString and OpCopyLogical in
                                            SPIR-V 1.2's forms */
#define SPVCOND_LOWER_PRINTF_DOUBLE 0x2u /* OpenCL.std printf's scalar float arguments as double, as C's
                                            variadic promotion passes them */
#define SPVCOND_LOWER_COPY_MEMORY 0x4u   /* OpCopyMemory as an OpLoad of the source and an OpStore to the target */
#define SPVCOND_LOWER_FUNCTION_INITIALIZERS 0x8u /* a Function variable's initializer as an OpStore after
                                                    its block's variables */
#define SPVCOND_LOWER_PRINTF_FORMAT 0x10u /* printf's format, a pointer to a char array cast to a pointer to
                                             char, as the address of the array's first element */
#define SPVCOND_LOWER_PRINTF_SMALL_VECTORS 0x20u /* printf's integer vectors of four bytes or less (char2,
                                                    char3, char4, short2) as the 32-bit integer of their bytes,
                                                    as clang passes them to a variadic function on x86-64 */

/* Write what a consumer cannot read in forms it can, with the same meaning (spec/lower.md), as edits that
 * spvcond_module_emit() applies; *lowered (may be NULL) counts the instructions changed. A module with
 * edits already is refused: emit it and parse the result first. */
SPVCOND_API spvcond_result spvcond_lower(spvcond_module *module, uint32_t flags, size_t *lowered);

/* ---- validation ---------------------------------------------------------------------------- */

/* Check a module's use of SPV_INTEL_function_variants (spec/validate.md): conditions are boolean
 * spec-constant trees of allowed operations, decoration targets and counts, declarations and order,
 * conditional-instruction shapes, and that no assignment of the spec constants can leave a use of a
 * removed id (proved by enumeration up to 16 boolean leaves, structurally otherwise). Every violation is
 * reported to the diagnostic callback; the result is the first one's code. `violations` may be NULL. */
SPVCOND_API spvcond_result spvcond_validate(const spvcond_module *module, size_t *violations);

/* How a module's variants cover the devices its constants tell apart (spec/validate.md, "Over every
 * device"): per group of variants (conditional entry points that share a name and execution model, or
 * the operands of an OpConditionalCopyObjectINTEL), how many of those devices keep each variant, how
 * many keep none, and one device of each kind in words. `total` is 0 when the devices are past the
 * proof budget (not counted). Reads the module only; reports nothing (spvcond_validate() does). */
typedef struct spvcond_coverage {
    size_t size; /* set by the library */
    const char *name;              /* the entry points' name, or the copy's function's */
    bool entry_point;              /* a group of entry points; else a conditional copy */
    uint32_t id;                   /* the copy's result id; 0 for entry points */
    size_t variant_count;
    const uint32_t *variants;      /* per variant: the entry point's function id, or the copy's operand id */
    const uint64_t *devices;       /* per variant: how many devices keep it */
    const char *const *examples;   /* per variant: one such device in words, or NULL */
    uint64_t uncovered;            /* devices that keep none of them (a copy: where its function survives) */
    const char *uncovered_example;
    uint64_t total;
} spvcond_coverage;
typedef void (*spvcond_coverage_fn)(void *user, const spvcond_coverage *coverage);
SPVCOND_API spvcond_result spvcond_variant_coverage(const spvcond_module *module, spvcond_coverage_fn fn, void *user);

/* ---- repair ------------------------------------------------------------------------------- */

typedef struct spvcond_repair_stats {
    size_t size; /* sizeof(spvcond_repair_stats): set by the caller (SPVCOND_SIZED) */
    size_t conditions_widened;    /* items whose condition became the Or of it and their users' */
    size_t conditions_removed;    /* items something unconditional uses: ConditionalINTEL removed */
    size_t capabilities_widened;  /* conditional capabilities that items now kept more often need */
    size_t uses_merged;           /* instructions whose use of a conditional call's result now uses its merge */
} spvcond_repair_stats;

/* Re-derive the conditions of a multi-target module's items (spec/repair.md): every use that could
 * dangle (as spvcond_validate proves) is mended by widening the used item's condition to the Or of its
 * users' (none when something unconditional uses it), and in turn the items and conditional capabilities
 * it needs; a use of a conditional call's result outside the producer's merge is pointed at the merge.
 * Conditions of functions, entry points and code are never changed: a use only such a change could mend
 * fails with a diagnostic naming it, as do the extension's other violations. Each change is reported as a
 * note. A module that validates gets no edits. `stats` may be NULL. */
SPVCOND_API spvcond_result spvcond_repair(spvcond_module *module, spvcond_repair_stats *stats);

/* One of the functions that share a name (the variants a multi-target module offers for it): entry points
 * that share an entry-point name, or other functions that share an export name or OpName. */
typedef struct spvcond_variant {
    size_t size; /* set by the library */
    const char *name;           /* the name they share */
    bool entry_point;           /* the name is an entry point's */
    uint32_t function;          /* the OpFunction's id */
    uint32_t condition;         /* its ConditionalINTEL condition, 0 if none */
    const char *condition_text; /* the condition in words: "var.spv = capabilities Addresses,Kernel,Float64 and
                                   target 4 features 12", or "always" */
    bool kept;                  /* whether a specialization with the options given keeps it */
} spvcond_variant;

/* Called for each variant, by name, then in module order; the strings live until fn returns. */
typedef void (*spvcond_variant_fn)(void *user, const spvcond_variant *variant);

/* Explain a multi-target module (spec/repair.md): every function whose name another function shares,
 * with its condition spelled out and whether a specialization with `options` (its values and device;
 * NULL: the defaults and no device) keeps it. Reads the module only. */
SPVCOND_API spvcond_result spvcond_function_variants(const spvcond_module *module,
                                                     const spvcond_specialize_options *options,
                                                     spvcond_variant_fn fn, void *user);

/* ---- devices ------------------------------------------------------------------------------ */

/* What a device supports, for requirement constants and the kernel support check. Arrays are owned by
 * whoever filled the struct (the built-in table: forever; a device configuration: until destroyed). */
typedef struct spvcond_device_info {
    size_t size; /* sizeof(spvcond_device_info): set by the caller (SPVCOND_SIZED) */
    const char *name;                /* may be NULL */
    const uint32_t *aspects;         /* DPC++ aspect numbers */
    size_t aspect_count;
    bool may_support_other_aspects;  /* unlisted aspects (and sizes, if none are listed) count as supported */
    const uint32_t *sub_group_sizes;
    size_t sub_group_size_count;
    uint64_t max_work_group_size;    /* 0: unknown, no limit checked */
    bool has_architecture;           /* the device registry's architecture below is known (built-in GPUs,
                                        a configuration's `architecture:`): spvcond specialize --device
                                        evaluates OpSpecConstantArchitectureINTEL with it */
    uint32_t category, family, architecture;
    /* The device for SPV_INTEL_function_variants' target and capability constants (spec/devices.md):
     * its registry target (0, "unknown", for a GPU whose ISA the registry does not name), that target's
     * features when known, and the SPIR-V capabilities it supports when known. */
    bool has_target;
    uint32_t target;
    bool has_features;
    const uint32_t *features;
    size_t feature_count;
    bool has_capabilities;
    const uint32_t *capabilities;
    size_t capability_count;
    /* Without has_architecture, the architecture known in part: its category (the x86_64 targets: cpu;
     * spir64_fpga: 0, none of the registry's), or its category and family (spir64_gen: gpu/intel). */
    bool has_category, has_family;
} spvcond_device_info;

/* DPC++'s targets (dpcpp.md section 2), compiled in, with the aspects the hardware has (spec/devices.md):
 * Intel GPUs as Intel's Linux driver reports them. "dpcpp:NAME" finds NAME in DPC++'s own table
 * (DeviceConfigFile.td), as DPC++'s AOT filter sees it; the listing gives the default table's names. */
SPVCOND_API size_t spvcond_builtin_device_count(void);
/* The index-th name, written into buf; NULL past the end or if buf is too small. */
SPVCOND_API const char *spvcond_builtin_device_name(size_t index, char *buf, size_t size);
SPVCOND_API bool spvcond_builtin_device_find(const char *name, spvcond_device_info *out);
/* Where the built-in device `name` (either table) gets `aspect` from ("compute-runtime shared/source/
 * xe_hpg_core/hw_info_dg2.cpp", DPC++'s table...): static text, or NULL if the device does not list it. */
SPVCOND_API const char *spvcond_builtin_device_aspect_source(const char *name, uint32_t aspect);

/* A device configuration file in DPC++'s YAML schema (spec/devices.md). Needs the library built with
 * libyaml; otherwise parsing fails with SPVCOND_ERROR_UNSUPPORTED. */
typedef struct spvcond_device_config spvcond_device_config;
SPVCOND_API spvcond_result spvcond_device_config_parse(spvcond_context *ctx, const char *text, size_t size,
                                                       const char *source_name, spvcond_device_config **out);
SPVCOND_API void spvcond_device_config_destroy(spvcond_device_config *config);
SPVCOND_API size_t spvcond_device_config_count(const spvcond_device_config *config);
SPVCOND_API bool spvcond_device_config_get(const spvcond_device_config *config, size_t index,
                                           spvcond_device_info *out);
SPVCOND_API bool spvcond_device_config_find(const spvcond_device_config *config, const char *name,
                                            spvcond_device_info *out);

/* The device's facts for SPV_INTEL_function_variants' device constants (target, features, architecture,
 * capabilities, as far as `device` gives them), a fact not given meaning what `unspecified` says. The
 * arrays stay the device's. */
SPVCOND_API void spvcond_device_info_facts(const spvcond_device_info *device, spvcond_unspecified unspecified,
                                           spvcond_fnvar_device *out);

/* An OpenCL device as the caller read it with clGetDeviceInfo (the library needs no OpenCL): strings as
 * returned (NULL: not known), numbers as OpenCL's values. spec/devices.md, "OpenCL devices", gives the
 * mapping. */
typedef struct spvcond_opencl_device {
    size_t size; /* sizeof(spvcond_opencl_device): set by the caller (SPVCOND_SIZED) */
    const char *name;                /* CL_DEVICE_NAME */
    const char *version;             /* CL_DEVICE_VERSION: "OpenCL 3.0 ..." */
    const char *profile;             /* CL_DEVICE_PROFILE: "FULL_PROFILE" or "EMBEDDED_PROFILE" */
    const char *extensions;          /* CL_DEVICE_EXTENSIONS */
    uint64_t type;                   /* CL_DEVICE_TYPE */
    uint64_t half_fp_config;         /* CL_DEVICE_HALF_FP_CONFIG (0: none) */
    uint64_t double_fp_config;       /* CL_DEVICE_DOUBLE_FP_CONFIG (0: none) */
    bool image_support;              /* CL_DEVICE_IMAGE_SUPPORT */
    bool compiler_available;         /* CL_DEVICE_COMPILER_AVAILABLE */
    bool linker_available;           /* CL_DEVICE_LINKER_AVAILABLE */
    bool queue_profiling;            /* CL_QUEUE_PROFILING_ENABLE in CL_DEVICE_QUEUE_PROPERTIES */
    bool generic_address_space;      /* CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT (OpenCL 3.0) */
    uint64_t max_work_group_size;    /* CL_DEVICE_MAX_WORK_GROUP_SIZE (0: unknown) */
    const size_t *sub_group_sizes;   /* CL_DEVICE_SUB_GROUP_SIZES_INTEL (cl_intel_required_subgroup_size) */
    size_t sub_group_size_count;     /* at most 64 */
    /* cl_nv_device_attribute_query: an NVIDIA device's compute capability (0: not NVIDIA's, or unknown). */
    uint32_t compute_capability_major; /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */
    uint32_t compute_capability_minor; /* CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV */
} spvcond_opencl_device;

/* The device description of an OpenCL device: DPC++'s aspects (cpu/gpu/accelerator/custom by type, fp16,
 * fp64, int64 atomics and atomic64, image, online compiler and linker, queue profiling), its sub-group
 * sizes and maximum work-group size, and for SPV_INTEL_function_variants its SPIR-V capabilities (OpenCL's
 * SPIR-V environment), its category (cpu, gpu) and, for a CPU device, the registry target of the machine
 * the library was built for (a CPU device runs on its host). An NVIDIA device (a compute capability given)
 * also has what its built-in device nvidia_gpu_sm_XY says the hardware has and its driver does not report
 * (fp16 from 5.3), target nvptx64 and the registry's architecture for it (the highest known at or below
 * its compute capability). *out is one block, released with
 * spvcond_free(ctx, *out); it copies every string and array it needs. */
SPVCOND_API spvcond_result spvcond_opencl_device_info(spvcond_context *ctx, const spvcond_opencl_device *device,
                                                      spvcond_device_info **out);

/* A Vulkan device as the application created it (spec/devices.md, "Vulkan devices"), as the caller read it
 * (the library needs no Vulkan): what vkCreateDevice *enabled*, for Vulkan lets a shader module declare a
 * capability only when the application enabled what it needs, whatever the device could do. Features are
 * named as Vulkan's structures name their members ("shaderFloat64", "shaderFloat16", "storageBuffer8BitAccess",
 * "subgroupSizeControl"...), from VkPhysicalDeviceFeatures and every structure chained to
 * VkPhysicalDeviceFeatures2; an unknown name counts for nothing. */
typedef struct spvcond_vulkan_device {
    size_t size; /* sizeof(spvcond_vulkan_device): set by the caller (SPVCOND_SIZED) */
    const char *name;                   /* VkPhysicalDeviceProperties::deviceName (NULL: not known) */
    uint32_t api_version;               /* the version the device is used at (VK_MAKE_API_VERSION): the lower of
                                           the device's apiVersion and the application's */
    uint32_t device_type;               /* VkPhysicalDeviceType: 1-3 a GPU, 4 a CPU */
    const char *const *features;        /* the features enabled, by name (at most 256) */
    size_t feature_count;
    const char *const *extensions;      /* the device extensions enabled (at most 1024) */
    size_t extension_count;
    uint32_t subgroup_size;             /* VkPhysicalDeviceSubgroupProperties (0: not known) */
    uint32_t subgroup_stages;           /* its supportedStages (VkShaderStageFlags) */
    uint32_t subgroup_operations;       /* its supportedOperations (VkSubgroupFeatureFlags) */
    uint32_t min_subgroup_size;         /* VkPhysicalDeviceSubgroupSizeControlProperties (0: not known) */
    uint32_t max_subgroup_size;
    uint64_t max_compute_work_group_invocations; /* VkPhysicalDeviceLimits (0: unknown) */
} spvcond_vulkan_device;

/* The device description of a Vulkan device: the SPIR-V capabilities a compute shader may declare for it
 * (the Vulkan specification's "SPIR-V Environment": those every device has, those an enabled feature, its
 * API version or an enabled extension allows, the GroupNonUniform ones its subgroup operations in the
 * compute stage allow), DPC++'s aspects (gpu or cpu by type; fp16, fp64 and atomic64 from shaderFloat16,
 * shaderFloat64 and shaderBufferInt64Atomics), its sub-group sizes and largest work-group, its category.
 * *out is one block, released with spvcond_free(ctx, *out); it copies every string and array it needs. */
SPVCOND_API spvcond_result spvcond_vulkan_device_info(spvcond_context *ctx, const spvcond_vulkan_device *device,
                                                      spvcond_device_info **out);

/* Built-in Vulkan devices, the least a conformant device of a core version has (spec/devices.md): "vulkan1.0",
 * "vulkan1.1" (subgroups with the basic operations in the compute stage), "vulkan1.2", "vulkan1.3" (its
 * required features: bufferDeviceAddress, the Vulkan memory model, integer dot products, subgroup size
 * control), none of the optional features enabled. Fills *out (out->size set by the caller) with static
 * strings, to give to spvcond_vulkan_device_info(); false for a name it does not know. */
SPVCOND_API bool spvcond_vulkan_profile(const char *name, spvcond_vulkan_device *out);
/* The index-th built-in Vulkan device's name, or NULL past the last. */
SPVCOND_API const char *spvcond_vulkan_profile_name(size_t index);

/* Values for every requirement constant of an annotated module (recognised by its spvcond.* OpName):
 * true iff the device supports it. *values is released with spvcond_free(). */
SPVCOND_API spvcond_result spvcond_device_spec_values(const spvcond_module *module, const spvcond_device_info *device,
                                                      spvcond_spec_value **values, size_t *count);

/* DPC++'s kernel_not_supported check: whether `device` supports the entry point named `kernel` of an
 * annotated module, and if not, why ("Required aspect fp64 is not supported on the device"). The reason
 * lists every unmet requirement, separated by "; ". A name that several conditional entry points share
 * (a multi-target module's variants) is supported when one of them survives for the device, its
 * function-variants facts (spvcond_device_info_facts(), UNKNOWN) deciding the device constants; the
 * reason then also names the device constants that are false ("not for the device: target nvptx64").
 * SPVCOND_ERROR_NOT_FOUND if there is no such kernel. */
SPVCOND_API spvcond_result spvcond_kernel_supported(const spvcond_module *module, const spvcond_device_info *device,
                                                    const char *kernel, bool *supported, char *reason,
                                                    size_t reason_size);

/* The same for every kernel name of the module, in module order, for the cost of one call above (which
 * evaluates the module's conditions each time: asking it about each of n kernels costs n times that).
 * fn gets each kernel's name and verdict, and the reason ("" when supported; at most
 * SPVCOND_REASON_MAX - 1 bytes, cut at the end); the strings live until fn returns. */
#define SPVCOND_REASON_MAX 1024
typedef void (*spvcond_kernel_verdict_fn)(void *user, const char *kernel, bool supported, const char *reason);
SPVCOND_API spvcond_result spvcond_kernels_supported(const spvcond_module *module, const spvcond_device_info *device,
                                                     spvcond_kernel_verdict_fn fn, void *user);

/* ---- requirement tables ("SYCL/kernel reqs") --------------------------------------------------- */

typedef enum spvcond_requirement_type {
    SPVCOND_REQUIREMENT_ASPECT = 0,               /* values[0]: the aspect */
    SPVCOND_REQUIREMENT_WORK_GROUP_SIZE = 1,      /* values[0..dims): the sizes */
    SPVCOND_REQUIREMENT_SUB_GROUP_SIZE = 2,       /* values[0]: the size */
    SPVCOND_REQUIREMENT_CAPABILITY = 3,           /* values[0]: a SPIR-V capability (a shader module's) */
    SPVCOND_REQUIREMENT_TYPE_FORCE_32_BIT = 0x7fffffff
} spvcond_requirement_type;

typedef struct spvcond_kernel_requirement {
    spvcond_requirement_type type;
    uint32_t dims;       /* 1, or 1..3 for a work-group size */
    uint32_t values[3];
    uint32_t spec_id;    /* the spec constant that stands for it */
} spvcond_kernel_requirement;

/* What each kernel requires and which SpecId stands for each requirement: read from an annotated
 * module's named spec constants, or from a property file's "[SYCL/kernel reqs]" set (spec/props.md). */
typedef struct spvcond_requirements spvcond_requirements;
SPVCOND_API spvcond_result spvcond_requirements_from_module(const spvcond_module *module, spvcond_requirements **out);
SPVCOND_API spvcond_result spvcond_requirements_parse_props(spvcond_context *ctx, const char *text, size_t size,
                                                            const char *source_name, spvcond_requirements **out);
/* The "[SYCL/kernel reqs]" property set in DPC++'s text format; *text is NUL-terminated, released with
 * spvcond_free(). */
SPVCOND_API spvcond_result spvcond_requirements_write_props(const spvcond_requirements *reqs, char **text,
                                                            size_t *size);
/* One kernel's property value as raw bytes: an 8-byte little-endian bit count, then the uint32 words
 * (spec/props.md). *bytes is released with spvcond_free(). */
SPVCOND_API spvcond_result spvcond_requirements_kernel_bytes(const spvcond_requirements *reqs, size_t kernel,
                                                             uint8_t **bytes, size_t *size);
SPVCOND_API size_t spvcond_requirements_kernel_count(const spvcond_requirements *reqs);
SPVCOND_API const char *spvcond_requirements_kernel_name(const spvcond_requirements *reqs, size_t kernel);
SPVCOND_API size_t spvcond_requirements_count(const spvcond_requirements *reqs, size_t kernel);
SPVCOND_API const spvcond_kernel_requirement *spvcond_requirements_get(const spvcond_requirements *reqs,
                                                                       size_t kernel, size_t index);
/* Values for every SpecId in the table, once each, in the order the SpecIds first appear: true iff the
 * device supports the requirement (the first one stated, should a SpecId stand for two). The caller frees
 * *values with spvcond_free. */
SPVCOND_API spvcond_result spvcond_requirements_device_values(const spvcond_requirements *reqs,
                                                              const spvcond_device_info *device,
                                                              spvcond_spec_value **values, size_t *count);
/* The virtual-function sets the module's kernels call or whose functions their vtables name, comma-separated
 * in name order (DPC++'s "uses-virtual-functions-set"; the default set is written _ZTSv, DPC++'s name for
 * it), as annotate recorded them; NULL if none. */
SPVCOND_API const char *spvcond_requirements_virtual_sets(const spvcond_requirements *reqs);
SPVCOND_API void spvcond_requirements_destroy(spvcond_requirements *reqs);

/* ---- annotation (the producer) ---------------------------------------------------------- */

#define SPVCOND_ASPECT_MAX 128 /* aspect numbers are below this */

/* Requirements a caller states for one function, named by entry-point name, OpName or Linkage
 * export name. `uses` adds to what the function is inferred to use (like sycl uses_aspects);
 * `declared`, when has_declared is set, replaces a root's requirement set (like [[sycl::device_has]]). */
typedef struct spvcond_function_requirements {
    size_t size; /* sizeof(spvcond_function_requirements): set by the caller (SPVCOND_SIZED) */
    const char *function;
    const uint32_t *uses;
    size_t use_count;
    bool has_declared;
    const uint32_t *declared;
    size_t declared_count;
    uint32_t reqd_work_group_size[3]; /* all zero: none */
    uint32_t reqd_sub_group_size;     /* zero: none */
    const char *origin;               /* where it was stated, for messages ("reqs.yaml:3"); may be NULL */
    /* Virtual functions (spec/virtual-functions.md). The set this function belongs to, like
     * indirectly_callable<Set> ("" is the default set; NULL: none stated, and then a function whose
     * address is taken is in the default set); and the sets it may call through function pointers, like
     * calls_indirectly<Set...>. Set names hold no ',' (DPC++'s property lists them comma-separated). */
    const char *indirectly_callable;
    const char *const *calls_indirectly;
    size_t calls_indirectly_count;
} spvcond_function_requirements;

/* A requirements file (YAML, spec/requirements.md): its entries feed spvcond_annotate_options. Needs
 * libyaml, like device configurations. */
typedef struct spvcond_requirements_file spvcond_requirements_file;
SPVCOND_API spvcond_result spvcond_requirements_file_parse(spvcond_context *ctx, const char *text, size_t size,
                                                           const char *source_name, spvcond_requirements_file **out);
/* Valid until the file object is destroyed. */
SPVCOND_API const spvcond_function_requirements *spvcond_requirements_file_entries(const spvcond_requirements_file *f,
                                                                                 size_t *count);
SPVCOND_API void spvcond_requirements_file_destroy(spvcond_requirements_file *f);

/* A boolean spec constant of the module that means "the device has this aspect": a front end's guard
 * (spec/guards.md). Annotate uses it as the aspect's leaf instead of making one. */
typedef struct spvcond_guard_spec_id {
    uint32_t spec_id;
    uint32_t aspect;
    const char *origin; /* where it was stated, for messages; may be NULL */
} spvcond_guard_spec_id;

/* Valid until the file object is destroyed. */
SPVCOND_API const spvcond_guard_spec_id *spvcond_requirements_file_guard_spec_ids(const spvcond_requirements_file *f,
                                                                                  size_t *count);

#define SPVCOND_ANNOTATE_NO_INFERENCE 0x1u /* only stated requirements and execution modes count */

typedef struct spvcond_annotate_options {
    size_t size; /* sizeof(spvcond_annotate_options): set by the caller (SPVCOND_SIZED) */
    uint32_t spec_id_base; /* first SpecId to use; 0 means the default, 0x10000 */
    const spvcond_function_requirements *requirements;
    size_t requirement_count;
    uint32_t flags;
    const spvcond_guard_spec_id *guard_spec_ids; /* may be NULL when guard_spec_id_count is 0 */
    size_t guard_spec_id_count;
} spvcond_annotate_options;

typedef struct spvcond_annotate_stats {
    size_t size; /* sizeof(spvcond_annotate_stats): set by the caller (SPVCOND_SIZED) */
    size_t roots;                 /* kernels and exported functions */
    size_t conditional_roots;
    size_t conditional_functions; /* functions given ConditionalINTEL */
    size_t requirements;          /* distinct requirements, one spec constant each */
    size_t spec_constants;        /* all spec constants emitted (leaves and And/Or nodes) */
    size_t decorations;           /* ConditionalINTEL decorations emitted */
    size_t conditional_globals;   /* types, constants, variables, imports given ConditionalINTEL */
    size_t conditional_capabilities;
    size_t conditional_entry_points;
    size_t virtual_stubs;         /* virtual functions whose body moved behind their set's condition */
} spvcond_annotate_stats;

/* Infer what each kernel and exported function requires, and record as edits the spec constants,
 * condition trees, ConditionalINTEL decorations, conditional entry points and conditional
 * capabilities that make the module safe to compile for any device (spec/annotate.md). A module
 * that already uses SPV_INTEL_function_variants is refused. `stats` may be NULL. */
SPVCOND_API spvcond_result spvcond_annotate(spvcond_module *module, const spvcond_annotate_options *options,
                                            spvcond_annotate_stats *stats);

/* ---- splitting into device images (DPC++'s design) ---------------------------------------- */

/* One device image (spec/split.md). The strings and words live until the callback returns. */
typedef struct spvcond_split_image {
    size_t size; /* set by the library */
    const uint32_t *words;   /* a plain module: its roots, what they call and what they use */
    size_t word_count;
    const char *properties;  /* its property file: "[SYCL/device requirements]", DPC++'s text format */
    const char *symbols;     /* its symbol file: its kernels' names, then its exported functions', a line each */
    size_t root_count;       /* kernels and exported functions in it */
} spvcond_split_image;

typedef spvcond_result (*spvcond_split_fn)(void *user, size_t index, const spvcond_split_image *image);

#define SPVCOND_SPLIT_PER_KERNEL 0x1u /* one image per kernel or exported function */

/* Split a module into device images as DPC++'s post-link tool does: kernels and exported functions with
 * the same used aspects, required work-group size and required sub-group size share an image (the
 * requirements as annotate infers or is told them, `options` may be NULL). Images come in module order of
 * their first root; fn is called for each, and a failure it returns stops the split. */
SPVCOND_API spvcond_result spvcond_split(spvcond_context *ctx, const uint32_t *words, size_t word_count,
                                         const spvcond_annotate_options *options, uint32_t flags, spvcond_split_fn fn,
                                         void *user, size_t *image_count);

/* DPC++'s AOT aspect filter for one image: whether `device` has every aspect, the sub-group size and the
 * work-group size its property file's "[SYCL/device requirements]" lists; if not, why (kernel_not_supported
 * wording, "; "-separated). A malformed file is an error naming the line. */
SPVCOND_API spvcond_result spvcond_image_supported(spvcond_context *ctx, const char *properties, size_t size,
                                                   const char *source, const spvcond_device_info *device,
                                                   bool *supported, char *reason, size_t reason_size);

#ifdef __cplusplus
}
#endif

#endif
