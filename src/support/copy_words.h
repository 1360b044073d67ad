/* SPDX-License-Identifier: MIT */
/* Copying runs of words into an output that nothing reads soon. */
#ifndef SPVCOND_COPY_WORDS_H
#define SPVCOND_COPY_WORDS_H

#include <stddef.h>
#include <stdint.h>

/* Copies of at least this many bytes bypass the caches: an output of this size would not stay in
 * them anyway, and the stores then need no read of the destination first. */
#define SPVCOND_STREAM_COPY_BYTES ((size_t)16 << 20)

/* memcpy of n words; a copy of SPVCOND_STREAM_COPY_BYTES or more with non-temporal stores where the
 * target has them (SSE2). The regions must not overlap. */
void spvcond_copy_words(uint32_t *dst, const uint32_t *src, size_t n);

#endif
