/* SPDX-License-Identifier: MIT */
/* OpenCL built-in names across address-space numberings (docs/opencl-layer.md, "NVIDIA").
 *
 * The SPIR-V/LLVM translator names a built-in the way clang mangles it for SPIR, whose address spaces are
 * private 0, global 1, constant 2, local 3, generic 4 (`_Z6vload4mPU3AS2Kf`). libclc's nvptx64 library
 * was mangled by clang for NVPTX: global 1, local 3, constant 4, and private and generic are the plain
 * pointer (`_Z6vload4mPU3AS4Kf`, `_Z5fractfPf`). Changing a qualifier changes the Itanium substitution
 * numbering (S_, S0_, ...), so names are not rewritten as text: each is parsed into its parameter types,
 * the substitutions expanded, and written out again with the address spaces of NVPTX. Two names that
 * give the same canonical text name the same function.
 *
 * The grammar is what OpenCL built-ins use: `_Z` <length> <name> <type>*, a type being a builtin letter,
 * `Dh`, `Dv` <n> `_` <type>, `P` <type>, vendor qualifiers `U` <source-name> then `r` `V` `K`, a source
 * name (`11ocl_image2d`), or a substitution `S_` / `S` <base-36> `_`. Anything else is not a built-in
 * name this file maps: false, and the caller leaves the name alone. Untrusted input: every read is
 * bounded, nothing is allocated, the depth and the number of types are capped. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "builtin_names.h"

enum { MAX_NODES = 96, MAX_SUBSTITUTIONS = 64, MAX_QUALIFIERS = 4, MAX_DEPTH = 32 };

enum node_kind { NODE_TEXT, NODE_VECTOR, NODE_POINTER, NODE_QUALIFIED };

struct span {
    const char *at;
    size_t length;
};

struct node {
    enum node_kind kind;
    struct span text;     /* NODE_TEXT: the whole type ("f", "Dh", "11ocl_image2d"); NODE_VECTOR: the count */
    int child;            /* the element, pointee or qualified type */
    struct span vendor[MAX_QUALIFIERS]; /* NODE_QUALIFIED: each vendor qualifier's name ("AS1") */
    size_t vendor_count;
    char cv[4];           /* NODE_QUALIFIED: "r", "V", "K" in that order */
    bool candidate;       /* a substitution candidate (every type but a builtin one) */
};

struct parser {
    const char *p, *end;
    struct node nodes[MAX_NODES];
    size_t node_count;
    int subs[MAX_SUBSTITUTIONS];
    size_t sub_count;
    unsigned depth;
    bool opencl_types_substitutable; /* the translator's numbering: OpenCL's types (ocl_*) are candidates */
};

/* An OpenCL type of clang's (`14ocl_image2d_ro`, `11ocl_sampler`, `9ocl_event`): a builtin type, which clang
 * never makes a substitution candidate and the SPIR-V/LLVM translator does. */
static bool
opencl_type(struct span text)
{
    size_t k = 0;
    while (k < text.length && text.at[k] >= '0' && text.at[k] <= '9')
        k++;
    return text.length - k > 4 && memcmp(text.at + k, "ocl_", 4) == 0;
}

static int
new_node(struct parser *ps, enum node_kind kind)
{
    if (ps->node_count == MAX_NODES)
        return -1;
    struct node *n = &ps->nodes[ps->node_count];
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    n->child = -1;
    return (int)ps->node_count++;
}

static bool
substitutable(struct parser *ps, int node)
{
    if (node < 0 || ps->sub_count == MAX_SUBSTITUTIONS)
        return false;
    ps->nodes[node].candidate = true;
    ps->subs[ps->sub_count++] = node;
    return true;
}

/* A decimal number of at most 4 digits. */
static bool
number(struct parser *ps, size_t *value)
{
    size_t v = 0, digits = 0;
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9' && digits < 4) {
        v = v * 10 + (size_t)(*ps->p++ - '0');
        digits++;
    }
    *value = v;
    return digits > 0 && !(ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9');
}

/* <source-name> ::= <length> <identifier> */
static bool
source_name(struct parser *ps, struct span *name)
{
    size_t length;
    if (!number(ps, &length) || length == 0 || length > (size_t)(ps->end - ps->p))
        return false;
    name->at = ps->p;
    name->length = length;
    ps->p += length;
    return true;
}

static int parse_type(struct parser *ps);

static int
parse_substitution(struct parser *ps)
{
    size_t index = 0;
    ps->p++; /* 'S' */
    if (ps->p < ps->end && *ps->p == '_') {
        ps->p++;
    } else {
        size_t value = 0, digits = 0;
        for (; ps->p < ps->end && *ps->p != '_' && digits < 3; digits++, ps->p++) {
            char c = *ps->p;
            if (c >= '0' && c <= '9')
                value = value * 36 + (size_t)(c - '0');
            else if (c >= 'A' && c <= 'Z')
                value = value * 36 + (size_t)(c - 'A' + 10);
            else
                return -1;
        }
        if (digits == 0 || ps->p == ps->end || *ps->p != '_')
            return -1;
        ps->p++;
        index = value + 1;
    }
    return index < ps->sub_count ? ps->subs[index] : -1;
}

static int
parse_qualified(struct parser *ps)
{
    int q = new_node(ps, NODE_QUALIFIED);
    if (q < 0)
        return -1;
    while (ps->p < ps->end && *ps->p == 'U') {
        ps->p++;
        if (ps->nodes[q].vendor_count == MAX_QUALIFIERS ||
            !source_name(ps, &ps->nodes[q].vendor[ps->nodes[q].vendor_count++]))
            return -1;
    }
    size_t n = 0;
    for (const char *cv = "rVK"; *cv; cv++)
        if (ps->p < ps->end && *ps->p == *cv) {
            ps->nodes[q].cv[n++] = *cv;
            ps->p++;
        }
    int child = parse_type(ps);
    if (child < 0)
        return -1;
    ps->nodes[q].child = child;
    return substitutable(ps, q) ? q : -1;
}

static int
parse_type_at(struct parser *ps)
{
    if (ps->p == ps->end)
        return -1;
    const char *start = ps->p;
    char c = *ps->p;
    if (c && strchr("vwbcahstijlmxynofdegz", c)) {
        int n = new_node(ps, NODE_TEXT);
        if (n >= 0)
            ps->nodes[n].text = (struct span){start, 1};
        ps->p++;
        return n;
    }
    if (c == 'D' && ps->end - ps->p >= 2 && ps->p[1] == 'h') {
        int n = new_node(ps, NODE_TEXT);
        if (n >= 0)
            ps->nodes[n].text = (struct span){start, 2};
        ps->p += 2;
        return n;
    }
    if (c == 'D' && ps->end - ps->p >= 2 && ps->p[1] == 'v') {
        ps->p += 2;
        const char *count = ps->p;
        size_t lanes;
        if (!number(ps, &lanes) || ps->p == ps->end || *ps->p != '_')
            return -1;
        struct span text = {count, (size_t)(ps->p - count)};
        ps->p++;
        int child = parse_type(ps);
        int n = child >= 0 ? new_node(ps, NODE_VECTOR) : -1;
        if (n < 0)
            return -1;
        ps->nodes[n].text = text;
        ps->nodes[n].child = child;
        return substitutable(ps, n) ? n : -1;
    }
    if (c == 'P') {
        ps->p++;
        int child = parse_type(ps);
        int n = child >= 0 ? new_node(ps, NODE_POINTER) : -1;
        if (n < 0)
            return -1;
        ps->nodes[n].child = child;
        return substitutable(ps, n) ? n : -1;
    }
    if (c == 'U' || c == 'r' || c == 'V' || c == 'K')
        return parse_qualified(ps);
    if (c >= '1' && c <= '9') {
        struct span name;
        int n = source_name(ps, &name) ? new_node(ps, NODE_TEXT) : -1;
        if (n < 0)
            return -1;
        ps->nodes[n].text = (struct span){start, (size_t)(ps->p - start)};
        if (!ps->opencl_types_substitutable && opencl_type(ps->nodes[n].text))
            return n;
        return substitutable(ps, n) ? n : -1;
    }
    if (c == 'S')
        return parse_substitution(ps);
    return -1;
}

static int
parse_type(struct parser *ps)
{
    if (ps->depth == MAX_DEPTH)
        return -1;
    ps->depth++;
    int n = parse_type_at(ps);
    ps->depth--;
    return n;
}

/* The output, bounded: in size, and in the types and candidates that reading it again makes (the
 * substitutions written out make more of both than the name had), so that what is written always reads
 * again within the same bounds. */
struct out {
    char *at;
    size_t length, size;
    size_t nodes, candidates;
    bool overflow;
};

static void
put(struct out *o, const char *s, size_t n)
{
    if (o->overflow || n >= o->size - o->length) {
        o->overflow = true;
        return;
    }
    memcpy(o->at + o->length, s, n);
    o->length += n;
    o->at[o->length] = 0;
}

/* `U` <length> <name>: a vendor qualifier written out. */
static void
put_vendor_qualifier(struct out *o, struct span q)
{
    char length[8];
    size_t digits = 0;
    for (size_t v = q.length; v && digits < sizeof(length); v /= 10)
        length[sizeof(length) - 1 - digits++] = (char)('0' + v % 10);
    put(o, "U", 1);
    put(o, length + sizeof(length) - digits, digits);
    put(o, q.at, q.length);
}

int
layer_nvptx_address_space(unsigned as)
{
    static const int map[] = {0, 1, 4, 3, 0}; /* private, global, constant, local, generic */
    return as < sizeof(map) / sizeof(map[0]) ? map[as] : -1;
}

/* "AS<n>" -> n; false for another vendor qualifier. */
static bool
address_space_qualifier(struct span q, unsigned *as)
{
    if (q.length < 3 || q.length > 5 || memcmp(q.at, "AS", 2) != 0)
        return false;
    unsigned v = 0;
    for (size_t k = 2; k < q.length; k++) {
        if (q.at[k] < '0' || q.at[k] > '9')
            return false;
        v = v * 10 + (unsigned)(q.at[k] - '0');
    }
    *as = v;
    return true;
}

/* `run`: how many vendor qualifiers were written just before this type with nothing between (a qualified
 * type that a substitution makes the child of another reads back as one list, which has a bound too). */
static bool
render(const struct parser *ps, int node, bool to_nvptx, struct out *o, unsigned depth, size_t run)
{
    if (node < 0 || depth >= MAX_DEPTH || ++o->nodes > MAX_NODES)
        return false;
    const struct node *n = &ps->nodes[node];
    if (n->candidate && ++o->candidates > MAX_SUBSTITUTIONS)
        return false;
    switch (n->kind) {
    case NODE_TEXT:
        put(o, n->text.at, n->text.length);
        return true;
    case NODE_VECTOR:
        put(o, "Dv", 2);
        put(o, n->text.at, n->text.length);
        put(o, "_", 1);
        return render(ps, n->child, to_nvptx, o, depth + 1, 0);
    case NODE_POINTER:
        put(o, "P", 1);
        return render(ps, n->child, to_nvptx, o, depth + 1, 0);
    case NODE_QUALIFIED:
        for (size_t k = 0; k < n->vendor_count; k++) {
            unsigned as;
            if (to_nvptx && address_space_qualifier(n->vendor[k], &as)) {
                int mapped = layer_nvptx_address_space(as);
                if (mapped < 0)
                    return false;
                if (mapped > 0) {
                    char q[8] = {'3', 'A', 'S', (char)('0' + mapped), 0};
                    put(o, "U", 1);
                    put(o, q, 4);
                    run++;
                }
                continue;
            }
            run++;
            put_vendor_qualifier(o, n->vendor[k]);
        }
        if (run > MAX_QUALIFIERS)
            return false;
        put(o, n->cv, strlen(n->cv));
        return render(ps, n->child, to_nvptx, o, depth + 1, n->cv[0] ? 0 : run);
    }
    return false;
}

bool
layer_builtin_canonical(const char *name, bool spir_to_nvptx, char *out, size_t out_size)
{
    if (!name || !out || out_size == 0)
        return false;
    out[0] = 0;
    size_t length = strnlen(name, 1024);
    if (length == 1024 || length < 3 || memcmp(name, "_Z", 2) != 0)
        return false;
    struct parser ps = {.p = name + 2, .end = name + length};
    struct span function;
    if (!source_name(&ps, &function))
        return false;
    struct out o = {out, 0, out_size, 0, 0, false};
    put(&o, name, (size_t)(ps.p - name)); /* "_Z" <length> <name> */
    if (ps.p == ps.end)
        return false; /* a function has at least one parameter type ("v") */
    while (ps.p < ps.end) {
        int type = parse_type(&ps);
        if (type < 0 || !render(&ps, type, spir_to_nvptx, &o, 0, 0))
            return false;
    }
    return !o.overflow;
}

/* Clang's numbering written back: the substitution candidates seen so far, as their texts written out. */
struct candidates {
    char pool[2048];
    size_t used;
    struct span seen[MAX_SUBSTITUTIONS];
    size_t count;
};

static void
put_substitution(struct out *o, size_t index)
{
    char text[8] = "S";
    size_t n = 1;
    if (index > 0) {
        char digits[4];
        size_t d = 0;
        for (size_t v = index - 1; d == 0 || v; v /= 36)
            digits[d++] = (char)(v % 36 < 10 ? '0' + v % 36 : 'A' + v % 36 - 10);
        while (d)
            text[n++] = digits[--d];
    }
    text[n++] = '_';
    put(o, text, n);
}

/* `node` as clang mangles it: a type already seen as a candidate is its substitution. */
static bool
render_compressed(const struct parser *ps, int node, struct out *o, struct candidates *c, unsigned depth)
{
    if (node < 0 || depth >= MAX_DEPTH)
        return false;
    const struct node *n = &ps->nodes[node];
    bool candidate = n->kind != NODE_TEXT || (n->candidate && !opencl_type(n->text));
    char text[1024];
    struct out whole = {text, 0, sizeof(text), 0, 0, false};
    if (candidate) {
        text[0] = 0;
        if (!render(ps, node, false, &whole, 0, 0) || whole.overflow)
            return false;
        for (size_t k = 0; k < c->count; k++)
            if (c->seen[k].length == whole.length && memcmp(c->seen[k].at, text, whole.length) == 0) {
                put_substitution(o, k);
                return true;
            }
    }
    bool ok = true;
    switch (n->kind) {
    case NODE_TEXT:
        put(o, n->text.at, n->text.length);
        break;
    case NODE_VECTOR:
        put(o, "Dv", 2);
        put(o, n->text.at, n->text.length);
        put(o, "_", 1);
        ok = render_compressed(ps, n->child, o, c, depth + 1);
        break;
    case NODE_POINTER:
        put(o, "P", 1);
        ok = render_compressed(ps, n->child, o, c, depth + 1);
        break;
    case NODE_QUALIFIED:
        for (size_t k = 0; k < n->vendor_count; k++)
            put_vendor_qualifier(o, n->vendor[k]);
        put(o, n->cv, strlen(n->cv));
        ok = render_compressed(ps, n->child, o, c, depth + 1);
        break;
    }
    if (!ok || !candidate)
        return ok;
    if (c->count == MAX_SUBSTITUTIONS || whole.length > sizeof(c->pool) - c->used)
        return false;
    memcpy(c->pool + c->used, text, whole.length);
    c->seen[c->count++] = (struct span){c->pool + c->used, whole.length};
    c->used += whole.length;
    return true;
}

bool
layer_builtin_clang_name(const char *name, char *out, size_t out_size)
{
    if (!name || !out || out_size == 0)
        return false;
    out[0] = 0;
    size_t length = strnlen(name, 1024);
    if (length == 1024 || length < 3 || memcmp(name, "_Z", 2) != 0)
        return false;
    struct parser ps = {.p = name + 2, .end = name + length, .opencl_types_substitutable = true};
    struct span function;
    if (!source_name(&ps, &function) || ps.p == ps.end)
        return false;
    int types[MAX_NODES];
    size_t count = 0;
    while (ps.p < ps.end) {
        int type = parse_type(&ps);
        if (type < 0 || count == MAX_NODES)
            return false;
        types[count++] = type;
    }
    struct out o = {out, 0, out_size, 0, 0, false};
    put(&o, name, (size_t)(function.at + function.length - name)); /* "_Z" <length> <name> */
    struct candidates c = {.used = 0, .count = 0};
    for (size_t k = 0; k < count; k++)
        if (!render_compressed(&ps, types[k], &o, &c, 0))
            return false;
    return !o.overflow;
}
