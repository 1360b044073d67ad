/* SPDX-License-Identifier: MIT */
/* The context: allocator hooks and the diagnostic sink. Every allocation goes through here. */
#ifndef SPVCOND_CONTEXT_H
#define SPVCOND_CONTEXT_H

#include <stdarg.h>

#include "support/heap.h"
#include "spvcond/spvcond.h"

struct spvcond_context {
    spvcond_allocator allocator;
    /* Zeroed blocks from the default allocator, which knows which memory is zero already; NULL
     * exactly when the caller gave an allocator (its blocks are cleared). */
    void *(*zeroed_alloc)(void *user, size_t count, size_t size);
    spvcond_heap heap; /* the default allocator's state (heap.c) */
    spvcond_diag_fn diag_fn;
    void *diag_user;
    spvcond_diag first_error;
    bool has_error;
    size_t warnings;
    bool reader_general_only; /* tests: every instruction through the reader's general path */
};

/* Where a diagnostic points. */
struct spvcond_where {
    size_t word_offset;
    size_t instruction_index;
    uint32_t opcode;
    uint32_t id;
};

#define SPVCOND_NOWHERE ((struct spvcond_where){SPVCOND_NO_POSITION, SPVCOND_NO_POSITION, 0, 0})

void *spvcond_alloc(spvcond_context *ctx, size_t size);
/* Zeroed array allocation with overflow check. */
void *spvcond_alloc_array(spvcond_context *ctx, size_t count, size_t size);
void *spvcond_realloc(spvcond_context *ctx, void *ptr, size_t size);
void spvcond_dealloc(spvcond_context *ctx, void *ptr);
/* The block, moved to lower free space of the default heap if it has some (ptr otherwise): arrays
 * that grew while a pass's temporaries lived sit above the space those left, where a large block (the
 * output) would fit. */
void *spvcond_move_down(spvcond_context *ctx, void *ptr);
/* Grow *data so that it holds at least `need` elements of `size` bytes; amortised doubling. */
spvcond_result spvcond_grow_to(spvcond_context *ctx, void **data, size_t *capacity, size_t need, size_t size);

/* spvcond_grow_to when there is no room: inline, as hot loops append one element at a time. */
static inline spvcond_result
spvcond_grow(spvcond_context *ctx, void **data, size_t *capacity, size_t need, size_t size)
{
    return need <= *capacity ? SPVCOND_OK : spvcond_grow_to(ctx, data, capacity, need, size);
}

/* An invalid argument of a public call: "FUNCTION: WHAT" reported when there is a context to report to;
 * returns SPVCOND_ERROR_INVALID_ARGUMENT. */
spvcond_result spvcond_invalid(spvcond_context *ctx, const char *function, const char *what);
/* Record a diagnostic and return `code`, so call sites read `return spvcond_report(...)`. */
spvcond_result spvcond_report(spvcond_context *ctx, spvcond_result code, spvcond_severity severity,
                              struct spvcond_where where, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
spvcond_result spvcond_vreport(spvcond_context *ctx, spvcond_result code, spvcond_severity severity,
                               struct spvcond_where where, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
/* Report SPVCOND_ERROR_OUT_OF_MEMORY. */
spvcond_result spvcond_oom(spvcond_context *ctx);

#endif
