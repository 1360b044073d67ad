/* SPDX-License-Identifier: MIT */
/* Property-file text (props_text.h). */
#include "devices/props_text.h"

#include <string.h>

#include "support/base64.h"

spvcond_result
spvcond_props_put(struct props_text *t, const char *s, size_t n)
{
    spvcond_result r = spvcond_grow(t->ctx, (void **)&t->data, &t->cap, t->len + n + 1, 1);
    if (r == SPVCOND_OK) {
        memcpy(t->data + t->len, s, n);
        t->len += n;
        t->data[t->len] = 0;
    }
    return r;
}

spvcond_result
spvcond_props_put_str(struct props_text *t, const char *s)
{
    return spvcond_props_put(t, s, strlen(s));
}

spvcond_result
spvcond_props_put_bytes(struct props_text *t, const uint8_t *data, size_t len)
{
    uint8_t *raw = spvcond_alloc(t->ctx, len + 8);
    char *b64 = raw ? spvcond_alloc(t->ctx, spvcond_base64_encoded_size(len + 8) + 1) : NULL;
    spvcond_result res = raw && b64 ? SPVCOND_OK : spvcond_oom(t->ctx);
    if (res == SPVCOND_OK) {
        for (int i = 0; i < 8; i++)
            raw[i] = (uint8_t)((uint64_t)len * 8 >> (8 * i));
        if (len)
            memcpy(raw + 8, data, len);
        spvcond_base64_encode(raw, len + 8, b64);
        res = spvcond_props_put(t, b64, strlen(b64));
    }
    spvcond_dealloc(t->ctx, raw);
    spvcond_dealloc(t->ctx, b64);
    return res;
}

spvcond_result
spvcond_props_decode_bytes(spvcond_context *ctx, const char *v, size_t n, size_t unit, uint8_t **data, size_t *len,
                           const char **why)
{
    *data = NULL;
    *len = 0;
    uint8_t *raw = spvcond_alloc(ctx, n * 6 / 8 + 4);
    if (!raw)
        return spvcond_oom(ctx);
    size_t bytes;
    uint64_t bits = 0;
    if (!spvcond_base64_decode(v, n, raw, &bytes) || bytes < 8) {
        *why = "the byte array is not valid property-set base64";
        spvcond_dealloc(ctx, raw);
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 8; i++)
        bits |= (uint64_t)raw[i] << (8 * i);
    if (bits % (8 * unit) != 0 || bits / 8 > bytes - 8) {
        *why = "the byte array's bit length does not match its data";
        spvcond_dealloc(ctx, raw);
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    }
    *len = (size_t)(bits / 8);
    memmove(raw, raw + 8, *len);
    *data = raw;
    return SPVCOND_OK;
}
