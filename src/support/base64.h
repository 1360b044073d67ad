/* SPDX-License-Identifier: MIT */
/* LLVM's Base64 as intel/llvm's property sets use it: the standard alphabet, bits packed LSB-first,
 * no padding (dpcpp.md section 4). Not RFC 4648. */
#ifndef SPVCOND_BASE64_H
#define SPVCOND_BASE64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

size_t spvcond_base64_encoded_size(size_t bytes);
void spvcond_base64_encode(const uint8_t *in, size_t n, char *out);
/* Decodes into out (at least len * 6 / 8 bytes); false on a bad character or a 1-character tail. */
bool spvcond_base64_decode(const char *in, size_t len, uint8_t *out, size_t *out_len);

#endif
