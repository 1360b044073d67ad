/* SPDX-License-Identifier: MIT */
/* Shared test helpers: fixture paths, file loading, running commands. */
#ifndef SPVCOND_TEST_HELPERS_H
#define SPVCOND_TEST_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "ir/module.h"

/* Path of a built fixture ("name" -> $SPVCOND_TEST_DATA/name.spv). Static buffer. */
const char *fixture(const char *name);
/* $SPVCOND_CORPUS/name. Static buffer. */
const char *corpus(const char *name);
/* Read a file into malloc'd words; asserts on failure. */
uint32_t *read_words(const char *path, size_t *count);
/* A module of about `size` ("24M") from spvcond-synth (SPVCOND_SYNTH), read like read_words. */
uint32_t *synth_words(const char *size, size_t *count);
/* Parse words with a fresh context; asserts success. Free with destroy_module(). */
struct spvcond_module *load_module(const char *path, spvcond_context **ctx);
void destroy_module(struct spvcond_module *m, spvcond_context *ctx);
/* Run a shell command, capture stdout into a malloc'd string (may be NULL), return the exit status. */
int run_capture(const char *cmd, char **out);
/* Count lines of `text` that contain `needle`. */
size_t count_lines_with(const char *text, const char *needle);
/* Write words to a file. */
void write_words(const char *path, const uint32_t *words, size_t count);



/* Run $SPIRV_VAL (tests/meson.build picks it: SPIRV-Tools v2026.4 when at hand, else Debian's) on words;
 * returns its exit status, with its output in *out (may be NULL). */
int spirv_val(const uint32_t *words, size_t count, const char *target_env, char **out);
/* Whether $SPIRV_VAL reads SPV_INTEL_function_variants (SPIRV-Tools v2025.4 and later; Debian's 2023.1
 * does not), so that annotated modules can be judged too. */
bool spirv_val_knows_extension(void);
/* The id of the function named `name` by OpName, or 0. */
uint32_t function_named(const spvcond_module *m, const char *name);
/* The id an OpName names `name` (any id), or 0. */
uint32_t id_named(const spvcond_module *m, const char *name);
/* Parse words (asserting success) with the given context. */
spvcond_module *parse_or_die(spvcond_context *ctx, const uint32_t *words, size_t count);
/* Count instructions with an opcode. */
size_t count_opcode(const spvcond_module *m, uint32_t opcode);
/* `words` annotated with the default options (requirements inferred), as a malloc'd copy. */
uint32_t *annotated_words(const uint32_t *words, size_t count, size_t *out_count);
/* Mutates one word of instruction i in `mutant` (a copy of `w`, whose instructions start at
 * `offsets`, count + 1 of them), as the reader's agreement tests do, by the random bits r: an id maybe undefined there,
 * one out of range (`bound`), zero, the first operand of some code instruction in [code, count),
 * another opcode of the same length, or the word before it. */
void mutate_word(uint32_t *mutant, const uint32_t *w, const uint32_t *offsets, size_t i, size_t code, size_t count,
                 uint32_t bound, uint32_t r);
#endif
