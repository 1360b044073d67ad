/* SPDX-License-Identifier: MIT */
/* Structs that can grow (docs/releasing.md, "What the ABI promises"): every options, device and stats struct
 * of the public API begins with `size`, which the caller sets to the sizeof it was compiled with. At each
 * entry point the library copies the caller's struct into one of its own size (what an older caller's
 * lacks reads as zero; what a newer caller's adds must be zero, or the call is refused) and copies what it
 * fills back as far as the caller's size reaches. Internal code sees only full structs. */
#ifndef SPVCOND_SUPPORT_SIZED_H
#define SPVCOND_SUPPORT_SIZED_H

#include <stddef.h>

#include "spvcond/spvcond.h"

/* The caller's struct `in` (whose first member is its size) into `out` of this library's size `full`;
 * `minimum` is the size of the struct's first sized version. On a size below it, or bytes past `full`
 * that are not zero, reports (when ctx is not NULL) naming `type` and returns SPVCOND_ERROR_INVALID_ARGUMENT
 * (SPVCOND_ERROR_UNSUPPORTED for the latter). `out`'s size is then `full`: a struct of this library. */
spvcond_result spvcond_sized_in(spvcond_context *ctx, const void *in, size_t full, size_t minimum, void *out,
                                const char *type);
/* Whether the caller's struct `in` can be read (the same test, without a report). */
bool spvcond_sized_ok(const void *in, size_t full, size_t minimum);
/* Whether the caller's struct `out`, which the library is to fill, has a size it can fill (at least
 * `minimum`); if not, reports naming `type`. NULL is fine (nothing asked). */
spvcond_result spvcond_sized_out_check(spvcond_context *ctx, const void *out, size_t minimum, const char *type);
/* The caller's array of n sized structs (each the size of the first, at least `minimum`) as an array of
 * this library's size `full`, allocated in ctx (*out NULL when n is 0). */
spvcond_result spvcond_sized_array_in(spvcond_context *ctx, const void *in, size_t n, size_t full, size_t minimum,
                                      void **out, const char *type);
/* What the library filled (`full`, this library's size) into the caller's `out`, as far as its size reaches;
 * its size stays the caller's. False when that size is below `minimum`. */
bool spvcond_sized_out(void *out, const void *full_struct, size_t full, size_t minimum);

/* The first sized version (0.2) of each struct: when a struct grows, its minimum stays the end of its
 * last 0.2 field. */
#define SPVCOND_SIZE_0_2(type) sizeof(type)

/* The same, for a public struct type by name. */
#define SPVCOND_SIZED_IN(ctx, in, out, type) spvcond_sized_in(ctx, in, sizeof(type), SPVCOND_SIZE_0_2(type), out, #type)
#define SPVCOND_SIZED_OK(in, type) spvcond_sized_ok(in, sizeof(type), SPVCOND_SIZE_0_2(type))
#define SPVCOND_SIZED_OUT(out, full, type) spvcond_sized_out(out, full, sizeof(type), SPVCOND_SIZE_0_2(type))
#define SPVCOND_SIZED_OUT_CHECK(ctx, out, type) spvcond_sized_out_check(ctx, out, SPVCOND_SIZE_0_2(type), #type)

#endif
