/* SPDX-License-Identifier: MIT */
/* Writing and reading DPC++'s property-file text (llvm/Support/PropertySetIO): a growing text buffer,
 * byte arrays (an 8-byte little-endian bit count, then the data, in property-set base64). */
#ifndef SPVCOND_PROPS_TEXT_H
#define SPVCOND_PROPS_TEXT_H

#include <string.h>

#include "support/context.h"

struct props_text {
    spvcond_context *ctx;
    char *data; /* NUL-terminated */
    size_t len, cap;
};

spvcond_result spvcond_props_put(struct props_text *t, const char *s, size_t n);
spvcond_result spvcond_props_put_str(struct props_text *t, const char *s);
/* A byte array's value (after "2|"). */
spvcond_result spvcond_props_put_bytes(struct props_text *t, const uint8_t *data, size_t len);
/* The data of a byte array's value (after "2|"): a fresh buffer (spvcond_dealloc), *len its bytes.
 * SPVCOND_ERROR_OUT_OF_MEMORY is reported; for SPVCOND_ERROR_INVALID_ARGUMENT nothing is, and *why says
 * what is wrong, for the caller to report with the place: the text is not property-set base64, or its
 * bit count is not a whole number of `unit`-byte values within the data. */
spvcond_result spvcond_props_decode_bytes(spvcond_context *ctx, const char *v, size_t n, size_t unit, uint8_t **data,
                                          size_t *len, const char **why);

/* The next line of text[0..size) from *pos (advanced past it), without its CR LF or LF: false at the
 * end. *number counts lines from 1. */
static inline bool
spvcond_props_next_line(const char *text, size_t size, size_t *pos, size_t *number, const char **line, size_t *len)
{
    if (*pos >= size)
        return false;
    const char *s = text + *pos;
    const char *nl = (const char *)memchr(s, '\n', size - *pos);
    size_t n = nl ? (size_t)(nl - s) : size - *pos;
    *pos += n + 1;
    ++*number;
    if (n && s[n - 1] == '\r')
        n--;
    *line = s;
    *len = n;
    return true;
}

#endif
