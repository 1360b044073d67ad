/* SPDX-License-Identifier: MIT */
/* Large copies with non-temporal stores. glibc's memcpy switches to them only above a threshold it
 * derives from the last-level cache's size as the processor reports it, which a virtual machine may
 * report far too large; so the switch is made here, at a size no cache keeps (copy_words.h).
 * docs/performance.md has the measurements. */
#include "support/copy_words.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

static void
stream_copy(uint32_t *dst, const uint32_t *src, size_t n)
{
    /* Words up to a 16-byte boundary of the destination, then 64 bytes a step, then the rest. */
    while (n && ((uintptr_t)dst & 15u)) {
        *dst++ = *src++;
        n--;
    }
    __m128i *d = (__m128i *)(void *)dst;
    const __m128i *s = (const __m128i *)(const void *)src;
    size_t blocks = n / 16;
    for (size_t k = 0; k < blocks; k++, d += 4, s += 4) {
        __m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1), c = _mm_loadu_si128(s + 2),
                e = _mm_loadu_si128(s + 3);
        _mm_stream_si128(d, a);
        _mm_stream_si128(d + 1, b);
        _mm_stream_si128(d + 2, c);
        _mm_stream_si128(d + 3, e);
    }
    _mm_sfence(); /* the streamed stores are ordered before whatever the caller does next */
    memcpy(dst + blocks * 16, src + blocks * 16, (n - blocks * 16) * sizeof(uint32_t));
}
#endif

void
spvcond_copy_words(uint32_t *dst, const uint32_t *src, size_t n)
{
#if defined(__SSE2__)
    if (n >= SPVCOND_STREAM_COPY_BYTES / sizeof(uint32_t)) {
        stream_copy(dst, src, n);
        return;
    }
#endif
    if (n)
        memcpy(dst, src, n * sizeof(uint32_t));
}
