/* Context lifetime, allocation through the caller's hooks, and diagnostics. */
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE */
#include "context.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Blocks of 2 MB and more (the instruction table, id tables, the output of a module) are asked for as
 * transparent huge pages where Linux offers them, rounded up to whole 2 MB pages: their first touch
 * then faults once per 2 MB instead of once per 4 KB, which is most of the cost of a fresh buffer on a
 * virtual machine (a 4 KB fault costs 11 us here: 280 ms against 14 ms for 100 MB). Measured on libclc
 * and hashcat (README, Benchmark): a 4 MB threshold left libclc's 2.7 MB output in small pages, and
 * not rounding up left every block's last partial 2 MB there. free() and realloc() accept
 * aligned_alloc blocks, so nothing else changes. */
#define HUGE_BLOCK (2u << 20)

static void *
default_alloc(void *user, size_t size)
{
    (void)user;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size >= HUGE_BLOCK && size <= SIZE_MAX - HUGE_BLOCK) {
        size_t rounded = (size + HUGE_BLOCK - 1) & ~(size_t)(HUGE_BLOCK - 1);
        void *p = aligned_alloc(HUGE_BLOCK, rounded);
        if (p)
            (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice only: failure changes nothing */
        return p;
    }
#endif
    return malloc(size);
}

/* Zeroed memory: calloc hands out fresh pages without writing them, so a table that stays mostly
 * zero (ids a hostile header claims but no instruction defines) costs nothing until touched. */
static void *
default_calloc(size_t count, size_t size)
{
    void *p = calloc(count, size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t bytes = count * size;
    if (p && bytes >= HUGE_BLOCK) {
        uintptr_t begin = ((uintptr_t)p + HUGE_BLOCK - 1) & ~(uintptr_t)(HUGE_BLOCK - 1);
        uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE_BLOCK - 1);
        if (end > begin)
            (void)madvise((void *)begin, end - begin, MADV_HUGEPAGE);
    }
#endif
    return p;
}

static void *
default_realloc(void *user, void *ptr, size_t size)
{
    (void)user;
    return realloc(ptr, size);
}

static void
default_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

spvcond_result
spvcond_context_create(const spvcond_allocator *allocator, spvcond_diag_fn diag_fn, void *diag_user,
                       spvcond_context **out)
{
    if (!out)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    spvcond_allocator a = {default_alloc, default_realloc, default_free, NULL};
    if (allocator) {
        /* All three or none: realloc cannot be emulated without knowing the old size. */
        if (!allocator->alloc || !allocator->realloc || !allocator->free)
            return SPVCOND_ERROR_INVALID_ARGUMENT;
        a = *allocator;
    }
    spvcond_context *ctx = a.alloc(a.user, sizeof(*ctx));
    if (!ctx)
        return SPVCOND_ERROR_OUT_OF_MEMORY;
    memset(ctx, 0, sizeof(*ctx));
    ctx->allocator = a;
    ctx->default_allocator = allocator == NULL;
    ctx->diag_fn = diag_fn;
    ctx->diag_user = diag_user;
    *out = ctx;
    return SPVCOND_OK;
}

void
spvcond_context_destroy(spvcond_context *ctx)
{
    if (ctx)
        ctx->allocator.free(ctx->allocator.user, ctx);
}

const spvcond_diag *
spvcond_context_first_error(const spvcond_context *ctx)
{
    return ctx && ctx->has_error ? &ctx->first_error : NULL;
}

size_t
spvcond_context_warning_count(const spvcond_context *ctx)
{
    return ctx ? ctx->warnings : 0;
}

void
spvcond_context_clear_diag(spvcond_context *ctx)
{
    if (!ctx)
        return;
    ctx->has_error = false;
    ctx->warnings = 0;
}

void
spvcond_free(spvcond_context *ctx, void *ptr)
{
    if (ctx && ptr)
        ctx->allocator.free(ctx->allocator.user, ptr);
}

void *
spvcond_alloc(spvcond_context *ctx, size_t size)
{
    return ctx->allocator.alloc(ctx->allocator.user, size ? size : 1);
}

void *
spvcond_alloc_array(spvcond_context *ctx, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    if (ctx->default_allocator)
        return default_calloc(count ? count : 1, size ? size : 1);
    void *p = spvcond_alloc(ctx, count * size);
    if (p)
        memset(p, 0, count * size > 0 ? count * size : 1);
    return p;
}

void *
spvcond_realloc(spvcond_context *ctx, void *ptr, size_t size)
{
    if (!ptr)
        return spvcond_alloc(ctx, size);
    return ctx->allocator.realloc(ctx->allocator.user, ptr, size ? size : 1);
}

void
spvcond_dealloc(spvcond_context *ctx, void *ptr)
{
    if (ptr)
        ctx->allocator.free(ctx->allocator.user, ptr);
}

spvcond_result
spvcond_grow(spvcond_context *ctx, void **data, size_t *capacity, size_t need, size_t size)
{
    if (need <= *capacity)
        return SPVCOND_OK;
    size_t cap = *capacity ? *capacity : 16;
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return spvcond_oom(ctx);
        cap *= 2;
    }
    if (cap > SIZE_MAX / size)
        return spvcond_oom(ctx);
    void *p = spvcond_realloc(ctx, *data, cap * size);
    if (!p)
        return spvcond_oom(ctx);
    *data = p;
    *capacity = cap;
    return SPVCOND_OK;
}

spvcond_result
spvcond_vreport(spvcond_context *ctx, spvcond_result code, spvcond_severity severity, struct spvcond_where where,
                const char *fmt, va_list ap)
{
    spvcond_diag d;
    d.code = code;
    d.severity = severity;
    d.word_offset = where.word_offset;
    d.instruction_index = where.instruction_index;
    d.opcode = where.opcode;
    d.opcode_name = where.word_offset == SPVCOND_NO_POSITION ? "" : spvcond_grammar_opcode_name(where.opcode);
    d.id = where.id;
    vsnprintf(d.message, sizeof(d.message), fmt, ap);
    if (severity == SPVCOND_SEVERITY_ERROR) {
        /* Keep the first error: later ones are usually consequences of it. */
        if (!ctx->has_error) {
            ctx->first_error = d;
            ctx->has_error = true;
        }
    } else if (severity == SPVCOND_SEVERITY_WARNING) {
        ctx->warnings++;
    }
    if (ctx->diag_fn)
        ctx->diag_fn(ctx->diag_user, &d);
    return code;
}

spvcond_result
spvcond_report(spvcond_context *ctx, spvcond_result code, spvcond_severity severity, struct spvcond_where where,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    spvcond_result r = spvcond_vreport(ctx, code, severity, where, fmt, ap);
    va_end(ap);
    return r;
}

spvcond_result
spvcond_oom(spvcond_context *ctx)
{
    return spvcond_report(ctx, SPVCOND_ERROR_OUT_OF_MEMORY, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                          "out of memory");
}

const char *
spvcond_result_string(spvcond_result result)
{
    switch (result) {
    case SPVCOND_OK: return "success";
    case SPVCOND_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case SPVCOND_ERROR_OUT_OF_MEMORY: return "out of memory";
    case SPVCOND_ERROR_INVALID_BINARY: return "invalid SPIR-V binary";
    case SPVCOND_ERROR_INVALID_ID: return "invalid id";
    case SPVCOND_ERROR_INVALID_LAYOUT: return "invalid module layout";
    case SPVCOND_ERROR_UNSUPPORTED: return "unsupported";
    case SPVCOND_ERROR_NOT_FOUND: return "not found";
    case SPVCOND_ERROR_LIMIT: return "limit exceeded";
    case SPVCOND_RESULT_FORCE_32_BIT: break;
    }
    return "unknown result";
}

const char *
spvcond_version_string(void)
{
    return SPVCOND_VERSION_STRING;
}
