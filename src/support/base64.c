/* SPDX-License-Identifier: MIT */
#include "support/base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t
spvcond_base64_encoded_size(size_t bytes)
{
    return (bytes * 8 + 5) / 6;
}

void
spvcond_base64_encode(const uint8_t *in, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t b0 = in[i], b1 = i + 1 < n ? in[i + 1] : 0, b2 = i + 2 < n ? in[i + 2] : 0;
        out[o++] = alphabet[b0 & 63];
        out[o++] = alphabet[((b0 >> 6) | (b1 << 2)) & 63];
        if (i + 1 < n)
            out[o++] = alphabet[((b1 >> 4) | (b2 << 4)) & 63];
        if (i + 2 < n)
            out[o++] = alphabet[b2 >> 2];
    }
    out[o] = 0;
}

static int
value_of(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool
spvcond_base64_decode(const char *in, size_t len, uint8_t *out, size_t *out_len)
{
    if (len % 4 == 1)
        return false;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        int c[4] = {0, 0, 0, 0};
        size_t k, have = len - i < 4 ? len - i : 4;
        for (k = 0; k < have; k++)
            if ((c[k] = value_of(in[i + k])) < 0)
                return false;
        out[o++] = (uint8_t)(c[0] | (c[1] << 6));
        if (have > 2)
            out[o++] = (uint8_t)((c[1] >> 2) | (c[2] << 4));
        if (have > 3)
            out[o++] = (uint8_t)((c[2] >> 4) | (c[3] << 2));
    }
    *out_len = o;
    return true;
}
