/* SPDX-License-Identifier: MIT */
/* spvcond-synth: writes a valid OpenCL Kernel module of about a given size, shaped like what
 * clang + llvm-spirv produce (about 20 bytes an instruction, 6 to 7 words an id), for benchmarks.
 *
 *   spvcond-synth [--size BYTES[k|M|G]] [--kernels N] [--depth D] [--fanout F] [--units U] [--seed S]
 *                 [--max-ids N] [--filler tables|stores] [--library] -o OUT
 *
 * Helper functions sit in D layers; each calls F functions of the next layer, kernels call F of the first,
 * so the call graph is a DAG of depth D + 1. Each helper does U load/multiply/fmax/store units; some also
 * use fp64, fp16 or 64-bit atomics; some kernels read an image or carry LocalSize / SubgroupSize.
 * --library makes a library as libclc is one: every helper exported (LinkageAttributes), no kernels.
 * SPIR-V allows at most 4,194,303 ids: past about 100 MB, code of this density would exceed that, so the
 * generator keeps the code under an id budget (--max-ids) and fills the rest of the size with 1024-entry
 * constant tables (as crypto kernels carry), each read by one helper, or with --filler stores, with
 * OpStores in the helpers' bodies (code that defines no id, 20 bytes an instruction like the rest). The
 * output is deterministic for a seed. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/spirv_names.h"
#include "support/spirv_words.h"

#define ID_BUDGET 3900000u /* below the SPIR-V limit (0x3fffff), with room for what annotate adds */
#define TABLE_ENTRIES 1024u /* long enough that a 1 GB module stays under the id limit */
#define VALUES 256u         /* distinct uint constants the tables draw from */

struct buf {
    uint32_t *w;
    size_t len, cap;
};

static void
put(struct buf *b, uint32_t v)
{
    if (b->len == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 1024;
        b->w = realloc(b->w, b->cap * sizeof(uint32_t));
        if (!b->w) {
            fprintf(stderr, "spvcond-synth: out of memory\n");
            exit(4);
        }
    }
    b->w[b->len++] = v;
}

/* Opcode with its word count, then the operands. */
static void
inst(struct buf *b, uint32_t opcode, uint32_t n, const uint32_t *ops)
{
    put(b, spvcond_first_word(n + 1, opcode));
    for (uint32_t k = 0; k < n; k++)
        put(b, ops[k]);
}
#define I(b, op, ...) inst((b), (op), sizeof((uint32_t[]){__VA_ARGS__}) / 4, (uint32_t[]){__VA_ARGS__})

static void
string_inst(struct buf *b, uint32_t opcode, uint32_t n_before, const uint32_t *before, const char *s)
{
    uint32_t sw = (uint32_t)strlen(s) / 4 + 1;
    put(b, spvcond_first_word(1 + n_before + sw, opcode));
    for (uint32_t k = 0; k < n_before; k++)
        put(b, before[k]);
    for (uint32_t k = 0; k < sw; k++) {
        uint32_t v = 0;
        for (uint32_t c = 0; c < 4; c++) {
            size_t at = (size_t)k * 4 + c;
            if (at < strlen(s))
                v |= (uint32_t)(unsigned char)s[at] << (8 * c);
        }
        put(b, v);
    }
}

static uint64_t rng_state;

static uint32_t
rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 11) % n);
}

static uint64_t
parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*end == 'k' || *end == 'K')
        v *= 1e3;
    else if (*end == 'M')
        v *= 1e6;
    else if (*end == 'G')
        v *= 1e9;
    return (uint64_t)v;
}

/* Ids fixed for the whole module. */
enum {
    ID_OCL = 1, T_VOID, T_BOOL, T_UINT, T_ULONG, T_FLOAT, T_DOUBLE, T_HALF, T_V4FLOAT, T_V2UINT,
    T_PTR_F, T_PTR_UL, T_IMAGE, T_ARR, T_PTR_ARR, T_PTR_UCU, T_FN_HELPER, T_FN_KERNEL, T_FN_KIMG,
    C_U0, C_U1, C_TABLE_LEN, C_UL1, C_F1, C_D2, C_COORD, FIRST_FREE
};

struct plan {
    uint32_t helpers, kernels, depth, fanout, units, tables;
    bool library; /* helpers exported (LinkageAttributes) */
    uint64_t stores; /* --filler stores: OpStores spread over the helpers instead of tables */
    uint32_t next_id;
    uint32_t first_helper, first_kernel, first_value, first_table;
};

static uint32_t
helper_in_layer(const struct plan *p, uint32_t layer)
{
    uint32_t per = p->helpers / p->depth;
    return p->first_helper + layer * per + rnd(per);
}

/* A helper: float h(global float *p, global ulong *a, float x). */
static void
write_helper(struct buf *f, struct buf *names, struct buf *decorations, struct plan *p, uint32_t index)
{
    uint32_t id = p->first_helper + index, layer = index / (p->helpers / p->depth);
    uint32_t P = p->next_id++, A = p->next_id++, X = p->next_id++;
    char name[32];
    snprintf(name, sizeof(name), "h%u", index);
    string_inst(names, SPVCOND_OP_NAME, 1, (uint32_t[]){id}, name);
    string_inst(names, SPVCOND_OP_NAME, 1, (uint32_t[]){P}, "p");
    string_inst(names, SPVCOND_OP_NAME, 1, (uint32_t[]){A}, "a");
    string_inst(names, SPVCOND_OP_NAME, 1, (uint32_t[]){X}, "x");
    I(decorations, SPVCOND_OP_DECORATE, P, SPVCOND_DECORATION_FUNC_PARAM_ATTR,
        SPVCOND_FUNCTION_PARAMETER_ATTRIBUTE_NO_CAPTURE);
    I(decorations, SPVCOND_OP_DECORATE, A, SPVCOND_DECORATION_FUNC_PARAM_ATTR,
        SPVCOND_FUNCTION_PARAMETER_ATTRIBUTE_NO_CAPTURE);
    if (p->library) {
        char link[40];
        snprintf(link, sizeof(link), "_Z2h%uPU3AS1fPU3AS1mf", index); /* mangled as clang does */
        uint32_t before[2] = {id, SPVCOND_DECORATION_LINKAGE_ATTRIBUTES};
        size_t at = decorations->len;
        string_inst(decorations, SPVCOND_OP_DECORATE, 2, before, link);
        put(decorations, SPVCOND_LINKAGE_TYPE_EXPORT);
        decorations->w[at] += 1u << 16; /* the linkage type after the name */
    }
    I(f, SPVCOND_OP_FUNCTION, T_FLOAT, id, 0, T_FN_HELPER);
    I(f, SPVCOND_OP_FUNCTION_PARAMETER, T_PTR_F, P);
    I(f, SPVCOND_OP_FUNCTION_PARAMETER, T_PTR_UL, A);
    I(f, SPVCOND_OP_FUNCTION_PARAMETER, T_FLOAT, X);
    I(f, SPVCOND_OP_LABEL, p->next_id++);
    uint32_t acc = X;
    for (uint32_t u = 0; u < p->units; u++) {
        uint32_t g = p->next_id++, v = p->next_id++, m = p->next_id++, s = p->next_id++;
        I(f, SPVCOND_OP_IN_BOUNDS_PTR_ACCESS_CHAIN, T_PTR_F, g, P, p->first_value + u % 16);
        I(f, SPVCOND_OP_LOAD, T_FLOAT, v, g, SPVCOND_MEMORY_ACCESS_ALIGNED, 4);
        I(f, SPVCOND_OP_F_MUL, T_FLOAT, m, v, acc);
        I(f, SPVCOND_OP_EXT_INST, T_FLOAT, s, ID_OCL, SPVCOND_OPENCL_STD_FMAX, m, X);
        I(f, SPVCOND_OP_STORE, g, s, SPVCOND_MEMORY_ACCESS_ALIGNED, 4);
        acc = s;
    }
    uint32_t roll = rnd(100);
    if (roll < 4) { /* fp64 */
        uint32_t d = p->next_id++, d2 = p->next_id++, back = p->next_id++;
        I(f, SPVCOND_OP_F_CONVERT, T_DOUBLE, d, acc);
        I(f, SPVCOND_OP_F_MUL, T_DOUBLE, d2, d, C_D2);
        I(f, SPVCOND_OP_F_CONVERT, T_FLOAT, back, d2);
        acc = back;
    } else if (roll < 8) { /* fp16 */
        uint32_t h = p->next_id++, h2 = p->next_id++, back = p->next_id++;
        I(f, SPVCOND_OP_F_CONVERT, T_HALF, h, acc);
        I(f, SPVCOND_OP_F_ADD, T_HALF, h2, h, h);
        I(f, SPVCOND_OP_F_CONVERT, T_FLOAT, back, h2);
        acc = back;
    } else if (roll < 11) { /* atomic64 */
        I(f, SPVCOND_OP_ATOMIC_I_ADD, T_ULONG, p->next_id++, A, C_U1, C_U0, C_UL1);
    }
    for (uint32_t t = index; t < p->tables; t += p->helpers) {
        uint32_t e = p->next_id++, v = p->next_id++, c = p->next_id++, sum = p->next_id++;
        I(f, SPVCOND_OP_IN_BOUNDS_ACCESS_CHAIN, T_PTR_UCU, e, p->first_table + 2 * t + 1, p->first_value + t % 16);
        I(f, SPVCOND_OP_LOAD, T_UINT, v, e, SPVCOND_MEMORY_ACCESS_ALIGNED, 4);
        I(f, SPVCOND_OP_CONVERT_U_TO_F, T_FLOAT, c, v);
        I(f, SPVCOND_OP_F_ADD, T_FLOAT, sum, acc, c);
        acc = sum;
    }
    for (uint64_t k = index; k < p->stores; k += p->helpers)
        /* code without ids, 20 bytes like the average */
        I(f, SPVCOND_OP_STORE, P, acc, SPVCOND_MEMORY_ACCESS_ALIGNED, 4);
    if (layer + 1 < p->depth) {
        for (uint32_t c = 0; c < p->fanout; c++) {
            uint32_t r = p->next_id++, sum = p->next_id++;
            I(f, SPVCOND_OP_FUNCTION_CALL, T_FLOAT, r, helper_in_layer(p, layer + 1), P, A, acc);
            I(f, SPVCOND_OP_F_ADD, T_FLOAT, sum, acc, r);
            acc = sum;
        }
    }
    I(f, SPVCOND_OP_RETURN_VALUE, acc);
    inst(f, 56, 0, NULL); /* OpFunctionEnd */
}

static void
write_kernel(struct buf *f, struct buf *modes, struct plan *p, uint32_t k, int image)
{
    uint32_t id = p->first_kernel + k;
    uint32_t P = p->next_id++, A = p->next_id++;
    I(f, SPVCOND_OP_FUNCTION, T_VOID, id, 0, image ? T_FN_KIMG : T_FN_KERNEL);
    I(f, SPVCOND_OP_FUNCTION_PARAMETER, T_PTR_F, P);
    I(f, SPVCOND_OP_FUNCTION_PARAMETER, T_PTR_UL, A);
    uint32_t img = image ? p->next_id++ : 0;
    if (image)
        I(f, SPVCOND_OP_FUNCTION_PARAMETER, T_IMAGE, img);
    I(f, SPVCOND_OP_LABEL, p->next_id++);
    uint32_t acc = C_F1;
    for (uint32_t c = 0; c < p->fanout; c++) {
        uint32_t r = p->next_id++;
        I(f, SPVCOND_OP_FUNCTION_CALL, T_FLOAT, r, helper_in_layer(p, 0), P, A, acc);
        acc = r;
    }
    if (image) {
        uint32_t t = p->next_id++, x = p->next_id++;
        I(f, SPVCOND_OP_IMAGE_READ, T_V4FLOAT, t, img, C_COORD);
        I(f, SPVCOND_OP_COMPOSITE_EXTRACT, T_FLOAT, x, t, 0);
        I(f, SPVCOND_OP_STORE, P, x, SPVCOND_MEMORY_ACCESS_ALIGNED, 4);
    } else {
        I(f, SPVCOND_OP_STORE, P, acc, SPVCOND_MEMORY_ACCESS_ALIGNED, 4);
    }
    inst(f, 253, 0, NULL); /* OpReturn */
    inst(f, 56, 0, NULL); /* OpFunctionEnd */
    uint32_t roll = rnd(100);
    if (roll < 30) {
        static const uint32_t sizes[] = {64, 128, 256};
        I(modes, SPVCOND_OP_EXECUTION_MODE, id, SPVCOND_EXECUTION_MODE_LOCAL_SIZE, sizes[rnd(3)], 1, 1);
    } else if (roll < 40) {
        static const uint32_t sg[] = {8, 16, 32};
        I(modes, SPVCOND_OP_EXECUTION_MODE, id, SPVCOND_EXECUTION_MODE_SUBGROUP_SIZE, sg[rnd(3)]);
    }
}

int
main(int argc, char **argv)
{
    uint64_t size = 1000000;
    uint32_t kernels = 0, depth = 4, fanout = 3, units = 8;
    uint64_t seed = 1, max_ids = ID_BUDGET;
    const char *out = NULL, *filler = "tables";
    bool library = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--library"))
            library = true;
        else if (!v)
            out = NULL, i = argc;
        else if (!strcmp(a, "--size"))
            size = parse_size(v), i++;
        else if (!strcmp(a, "--kernels"))
            kernels = (uint32_t)atoi(v), i++;
        else if (!strcmp(a, "--depth"))
            depth = (uint32_t)atoi(v), i++;
        else if (!strcmp(a, "--fanout"))
            fanout = (uint32_t)atoi(v), i++;
        else if (!strcmp(a, "--units"))
            units = (uint32_t)atoi(v), i++;
        else if (!strcmp(a, "--max-ids"))
            max_ids = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--filler"))
            filler = v, i++;
        else if (!strcmp(a, "-o"))
            out = v, i++;
        else
            out = NULL, i = argc;
    }
    bool stores = !strcmp(filler, "stores");
    if (!out || depth < 1 || fanout < 1 || units < 1 || size < 1000 || (!stores && strcmp(filler, "tables"))) {
        fprintf(stderr, "usage: %s [--size BYTES[k|M|G]] [--kernels N] [--depth D] [--fanout F] [--units U] "
                        "[--seed S] [--max-ids N] [--filler tables|stores] [--library] -o OUT.spv\n", argv[0]);
        return 2;
    }
    rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
    /* A helper is about 27 words and 4 ids a unit, 11 words and 2 ids a call, 39 words and 6 ids besides;
     * a table 1032 words and 2 ids, and 4 instructions (19 words, 4 ids) to read it. */
    uint64_t helper_words = 27ull * units + 11ull * fanout + 39, helper_ids = 4ull * units + 2ull * fanout + 6;
    uint64_t words = size / 4, helpers = words / helper_words, tables = 0, store_count = 0;
    if (helpers * helper_ids > max_ids) {
        /* Too many ids for code alone: as many helpers as the budget allows, filler for the rest. */
        if (stores) {
            helpers = max_ids / helper_ids;
            helpers = helpers > depth ? helpers : depth;
            store_count = words > helpers * helper_words ? (words - helpers * helper_words) / 5 : 0;
        } else { /* tables take ids too: the budget is shared */
            double table_words = TABLE_ENTRIES + 8 + 19, table_ids = 6;
            double h = ((double)max_ids - table_ids * (double)words / table_words) /
                       ((double)helper_ids - table_ids * (double)helper_words / table_words);
            helpers = h > depth ? (uint64_t)h : depth;
            tables = (words - helpers * helper_words) / (uint64_t)table_words;
        }
    }
    helpers = helpers < depth ? depth : helpers - helpers % depth;
    if (!kernels && !library)
        kernels = (uint32_t)(helpers / 20 + 1);
    struct plan p = {.helpers = (uint32_t)helpers, .kernels = kernels, .depth = depth, .fanout = fanout,
                     .units = units, .tables = (uint32_t)tables, .library = library, .stores = store_count};
    uint32_t id = FIRST_FREE;
    p.first_value = id, id += VALUES; /* uint constants; the first 16 double as indices */
    p.first_table = id, id += 2 * p.tables;
    p.first_helper = id, id += p.helpers;
    p.first_kernel = id, id += p.kernels;
    p.next_id = id;

    struct buf head = {0}, modes = {0}, names = {0}, decorations = {0}, globals = {0}, funcs = {0};
    static const uint32_t caps[] = {
        SPVCOND_CAPABILITY_ADDRESSES, SPVCOND_CAPABILITY_KERNEL, SPVCOND_CAPABILITY_FLOAT16,
        SPVCOND_CAPABILITY_FLOAT64, SPVCOND_CAPABILITY_INT64, SPVCOND_CAPABILITY_INT64_ATOMICS,
        SPVCOND_CAPABILITY_IMAGE_BASIC, SPVCOND_CAPABILITY_SUBGROUP_DISPATCH};
    for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
        I(&head, SPVCOND_OP_CAPABILITY, caps[c]);
    if (library)
        I(&head, SPVCOND_OP_CAPABILITY, SPVCOND_CAPABILITY_LINKAGE);
    string_inst(&head, SPVCOND_OP_EXT_INST_IMPORT, 1, (uint32_t[]){ID_OCL}, "OpenCL.std");
    I(&head, SPVCOND_OP_MEMORY_MODEL, SPVCOND_ADDRESSING_MODEL_PHYSICAL64, SPVCOND_MEMORY_MODEL_OPENCL);
    char name[32];
    for (uint32_t k = 0; k < p.kernels; k++) {
        snprintf(name, sizeof(name), "k%u", k);
        string_inst(&head, SPVCOND_OP_ENTRY_POINT, 2, (uint32_t[]){6 /* Kernel */, p.first_kernel + k}, name);
    }
    I(&globals, SPVCOND_OP_TYPE_VOID, T_VOID);
    I(&globals, SPVCOND_OP_TYPE_BOOL, T_BOOL);
    I(&globals, SPVCOND_OP_TYPE_INT, T_UINT, 32, 0);
    I(&globals, SPVCOND_OP_TYPE_INT, T_ULONG, 64, 0);
    I(&globals, SPVCOND_OP_TYPE_FLOAT, T_FLOAT, 32);
    I(&globals, SPVCOND_OP_TYPE_FLOAT, T_DOUBLE, 64);
    I(&globals, SPVCOND_OP_TYPE_FLOAT, T_HALF, 16);
    I(&globals, SPVCOND_OP_TYPE_VECTOR, T_V4FLOAT, T_FLOAT, 4);
    I(&globals, SPVCOND_OP_TYPE_VECTOR, T_V2UINT, T_UINT, 2);
    I(&globals, SPVCOND_OP_TYPE_POINTER, T_PTR_F, SPVCOND_STORAGE_CLASS_CROSS_WORKGROUP, T_FLOAT);
    I(&globals, SPVCOND_OP_TYPE_POINTER, T_PTR_UL, SPVCOND_STORAGE_CLASS_CROSS_WORKGROUP, T_ULONG);
    I(&globals, SPVCOND_OP_TYPE_IMAGE, T_IMAGE, T_VOID, SPVCOND_DIM_2D, 0, 0, 0, 0, SPVCOND_IMAGE_FORMAT_UNKNOWN,
      SPVCOND_ACCESS_QUALIFIER_READ_ONLY);
    I(&globals, SPVCOND_OP_CONSTANT, T_UINT, C_TABLE_LEN, TABLE_ENTRIES);
    I(&globals, SPVCOND_OP_TYPE_ARRAY, T_ARR, T_UINT, C_TABLE_LEN);
    I(&globals, SPVCOND_OP_TYPE_POINTER, T_PTR_ARR, SPVCOND_STORAGE_CLASS_UNIFORM_CONSTANT, T_ARR);
    I(&globals, SPVCOND_OP_TYPE_POINTER, T_PTR_UCU, SPVCOND_STORAGE_CLASS_UNIFORM_CONSTANT, T_UINT);
    I(&globals, SPVCOND_OP_TYPE_FUNCTION, T_FN_HELPER, T_FLOAT, T_PTR_F, T_PTR_UL, T_FLOAT);
    I(&globals, SPVCOND_OP_TYPE_FUNCTION, T_FN_KERNEL, T_VOID, T_PTR_F, T_PTR_UL);
    I(&globals, SPVCOND_OP_TYPE_FUNCTION, T_FN_KIMG, T_VOID, T_PTR_F, T_PTR_UL, T_IMAGE);
    I(&globals, SPVCOND_OP_CONSTANT, T_UINT, C_U0, 0);
    I(&globals, SPVCOND_OP_CONSTANT, T_UINT, C_U1, 1);
    I(&globals, SPVCOND_OP_CONSTANT, T_ULONG, C_UL1, 1, 0);
    I(&globals, SPVCOND_OP_CONSTANT, T_FLOAT, C_F1, 0x3f800000u);
    I(&globals, SPVCOND_OP_CONSTANT, T_DOUBLE, C_D2, 0, 0x40000000u);
    I(&globals, SPVCOND_OP_CONSTANT_COMPOSITE, T_V2UINT, C_COORD, C_U1, C_U1);
    for (uint32_t v = 0; v < VALUES; v++)
        I(&globals, SPVCOND_OP_CONSTANT, T_UINT, p.first_value + v, v == 0 ? 1000u : v); /* 0 and 1 are taken */
    for (uint32_t t = 0; t < p.tables; t++) {
        uint32_t comp = p.first_table + 2 * t;
        put(&globals, spvcond_first_word(3 + TABLE_ENTRIES, SPVCOND_OP_CONSTANT_COMPOSITE));
        put(&globals, T_ARR);
        put(&globals, comp);
        for (uint32_t e = 0; e < TABLE_ENTRIES; e++)
            put(&globals, p.first_value + rnd(VALUES));
        I(&globals, SPVCOND_OP_VARIABLE, T_PTR_ARR, comp + 1, SPVCOND_STORAGE_CLASS_UNIFORM_CONSTANT,
            comp); /* initialized */
    }
    for (uint32_t h = 0; h < p.helpers; h++)
        write_helper(&funcs, &names, &decorations, &p, h);
    for (uint32_t k = 0; k < p.kernels; k++)
        write_kernel(&funcs, &modes, &p, k, rnd(100) < 5);

    uint32_t header[5] = {0x07230203u, 0x00010200u, 0, p.next_id, 0};
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.tmp", out);
    FILE *fp = fopen(tmp, "wb");
    int ok = fp != NULL && fwrite(header, 4, 5, fp) == 5;
    struct buf *parts[] = {&head, &modes, &names, &decorations, &globals, &funcs};
    for (size_t k = 0; ok && k < 6; k++) {
        ok = !parts[k]->len || fwrite(parts[k]->w, 4, parts[k]->len, fp) == parts[k]->len; /* an empty part has no buffer */
        free(parts[k]->w);
    }
    if (fp)
        ok = fclose(fp) == 0 && ok;
    if (!ok || rename(tmp, out) != 0) {
        fprintf(stderr, "spvcond-synth: cannot write %s\n", out);
        remove(tmp);
        return 3;
    }
    fprintf(stderr, "%s: %u kernels, %u helpers in %u layers, fan-out %u, %u tables, %llu filler stores, bound %u\n",
            out, p.kernels, p.helpers, p.depth, p.fanout, p.tables, (unsigned long long)p.stores, p.next_id);
    return 0;
}
