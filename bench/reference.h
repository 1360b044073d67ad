/* SPDX-License-Identifier: MIT */
/* The benchmark's like-for-like reference: SPIRV-Tools in process, given the same words in memory as our
 * stages (bench/reference.cpp, built when the `reference` option finds a C++ compiler and SPIRV-Tools). */
#ifndef SPVCOND_BENCH_REFERENCE_H
#define SPVCOND_BENCH_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum bench_reference {
    BENCH_REFERENCE_LOAD_STORE, /* the optimizer with no pass: the module built into its IR and written back */
    BENCH_REFERENCE_SPECIALIZE, /* --freeze-spec-const --fold-spec-const-op-composite --eliminate-dead-functions */
    BENCH_REFERENCE_VALIDATE,   /* the validator */
    BENCH_REFERENCES
};

typedef struct bench_reference_state bench_reference_state;

/* Set up once, as spirv-opt and spirv-val do before reading their input (the passes registered, no
 * validation before the passes: spirv-opt --skip-validation); NULL if out of memory. */
bench_reference_state *bench_reference_create(enum bench_reference which);
/* One run on `count` words; 0 if SPIRV-Tools succeeded (for the optimizer, the module written back). */
int bench_reference_run(bench_reference_state *state, const uint32_t *words, size_t count);
void bench_reference_destroy(bench_reference_state *state);

#ifdef __cplusplus
}
#endif

#endif
