/* SPDX-License-Identifier: MIT */
/* Structs that grow (sized.h). */
#include <stdint.h>
#include <string.h>

#include "support/context.h"
#include "support/sized.h"

static size_t
size_of(const void *in)
{
    size_t size;
    memcpy(&size, in, sizeof(size));
    return size;
}

/* Bytes [full, size) of the caller's struct are all zero: fields this library does not know, unused. */
static bool
tail_is_zero(const void *in, size_t full, size_t size)
{
    const unsigned char *p = in;
    for (size_t k = full; k < size; k++)
        if (p[k])
            return false;
    return true;
}

bool
spvcond_sized_ok(const void *in, size_t full, size_t minimum)
{
    if (!in)
        return false;
    size_t size = size_of(in);
    return size >= minimum && (size <= full || tail_is_zero(in, full, size));
}

spvcond_result
spvcond_sized_in(spvcond_context *ctx, const void *in, size_t full, size_t minimum, void *out, const char *type)
{
    size_t size = in ? size_of(in) : 0;
    if (!in || size < minimum) {
        if (ctx && in)
            return spvcond_report(ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                  "%s: size is %zu; set it to sizeof(%s) (%zu with this library's header)", type,
                                  size, type, full);
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    }
    if (size > full && !tail_is_zero(in, full, size)) {
        if (ctx)
            return spvcond_report(ctx, SPVCOND_ERROR_UNSUPPORTED, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                                  "%s: a field past the %zu bytes this library (%s) knows is set: the caller was "
                                  "built for a newer libspvcond", type, full, SPVCOND_VERSION_STRING);
        return SPVCOND_ERROR_UNSUPPORTED;
    }
    memset(out, 0, full);
    memcpy(out, in, size < full ? size : full);
    memcpy(out, &full, sizeof(full));
    return SPVCOND_OK;
}

spvcond_result
spvcond_sized_out_check(spvcond_context *ctx, const void *out, size_t minimum, const char *type)
{
    size_t size = out ? size_of(out) : minimum;
    if (size >= minimum)
        return SPVCOND_OK;
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    return spvcond_report(ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                          "%s: size is %zu; set it to sizeof(%s)", type, size, type);
}

spvcond_result
spvcond_sized_array_in(spvcond_context *ctx, const void *in, size_t n, size_t full, size_t minimum, void **out,
                       const char *type)
{
    *out = NULL;
    if (!n)
        return SPVCOND_OK;
    size_t stride = size_of(in);
    if (stride < minimum || n > SIZE_MAX / stride)
        return spvcond_report(ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "%s[0]: size is %zu; set each one's to sizeof(%s)", type, stride, type);
    char *array = spvcond_alloc_array(ctx, n, full);
    if (!array)
        return spvcond_oom(ctx);
    for (size_t k = 0; k < n; k++) {
        const char *e = (const char *)in + k * stride;
        spvcond_result r = size_of(e) != stride
                               ? spvcond_report(ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR,
                                                SPVCOND_NOWHERE, "%s[%zu]: size is %zu, the first's %zu: one size "
                                                "for the whole array", type, k, size_of(e), stride)
                               : spvcond_sized_in(ctx, e, full, minimum, array + k * full, type);
        if (r != SPVCOND_OK) {
            spvcond_dealloc(ctx, array);
            return r;
        }
    }
    *out = array;
    return SPVCOND_OK;
}

bool
spvcond_sized_out(void *out, const void *full_struct, size_t full, size_t minimum)
{
    size_t size = out ? size_of(out) : 0;
    if (size < minimum)
        return false;
    size_t n = size < full ? size : full;
    memcpy((char *)out + sizeof(size_t), (const char *)full_struct + sizeof(size_t), n - sizeof(size_t));
    return true;
}
