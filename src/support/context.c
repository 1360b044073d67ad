/* SPDX-License-Identifier: MIT */
/* Context lifetime, allocation through the caller's hooks, and diagnostics. */
#include "support/context.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/grammar.h"

#if !SPVCOND_HAVE_HEAP || defined(SPVCOND_LIBC_ALLOCATOR)
/* The C library's allocator, for builds whose tools watch malloc and where heap.c has no mappings. */
static void *
libc_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void *
libc_calloc(void *user, size_t count, size_t size)
{
    (void)user;
    return calloc(count, size);
}

static void *
libc_realloc(void *user, void *ptr, size_t size)
{
    (void)user;
    return realloc(ptr, size);
}

static void
libc_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}
#endif

spvcond_result
spvcond_context_create(const spvcond_allocator *allocator, spvcond_diag_fn diag_fn, void *diag_user,
                       spvcond_context **out)
{
    if (!out)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    spvcond_context *ctx;
    if (!allocator) {
        /* The default allocator's state lives in the context, which itself is plain malloc's. */
        if (!(ctx = calloc(1, sizeof(*ctx))))
            return SPVCOND_ERROR_OUT_OF_MEMORY;
#if SPVCOND_HAVE_HEAP && !defined(SPVCOND_LIBC_ALLOCATOR)
        ctx->allocator = (spvcond_allocator){spvcond_heap_alloc, spvcond_heap_realloc, spvcond_heap_free, &ctx->heap};
        ctx->zeroed_alloc = spvcond_heap_calloc;
#else
        ctx->allocator = (spvcond_allocator){libc_alloc, libc_realloc, libc_free, NULL};
        ctx->zeroed_alloc = libc_calloc;
#endif
    } else {
        /* All three or none: realloc cannot be emulated without knowing the old size. */
        if (!allocator->alloc || !allocator->realloc || !allocator->free)
            return SPVCOND_ERROR_INVALID_ARGUMENT;
        if (!(ctx = allocator->alloc(allocator->user, sizeof(*ctx))))
            return SPVCOND_ERROR_OUT_OF_MEMORY;
        memset(ctx, 0, sizeof(*ctx));
        ctx->allocator = *allocator;
    }
    ctx->diag_fn = diag_fn;
    ctx->diag_user = diag_user;
    *out = ctx;
    return SPVCOND_OK;
}

void
spvcond_context_destroy(spvcond_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->zeroed_alloc) { /* the default allocator: the context is malloc's */
#if SPVCOND_HAVE_HEAP
        spvcond_heap_release(&ctx->heap);
#endif
        free(ctx);
    } else {
        ctx->allocator.free(ctx->allocator.user, ctx);
    }
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
    if (ctx->zeroed_alloc)
        return ctx->zeroed_alloc(ctx->allocator.user, count ? count : 1, size ? size : 1);
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

void
spvcond_context_trim(spvcond_context *ctx)
{
#if SPVCOND_HAVE_HEAP
    if (ctx && ctx->allocator.user == &ctx->heap)
        spvcond_heap_trim(&ctx->heap);
#else
    (void)ctx;
#endif
}

void *
spvcond_move_down(spvcond_context *ctx, void *ptr)
{
#if SPVCOND_HAVE_HEAP
    if (ctx->allocator.user == &ctx->heap)
        return spvcond_heap_move_down(&ctx->heap, ptr);
#endif
    return ptr;
}

spvcond_result
spvcond_grow_to(spvcond_context *ctx, void **data, size_t *capacity, size_t need, size_t size)
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
    d.size = sizeof(d);
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
    case SPVCOND_ERROR_STOPPED: return "stopped by the caller";
    case SPVCOND_RESULT_FORCE_32_BIT: break;
    }
    return "unknown result";
}

spvcond_result
spvcond_invalid(spvcond_context *ctx, const char *function, const char *what)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    return spvcond_report(ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE, "%s: %s",
                          function, what);
}

const char *
spvcond_version_string(void)
{
    return SPVCOND_VERSION_STRING;
}

uint32_t
spvcond_version(void)
{
    return SPVCOND_VERSION_NUMBER;
}
