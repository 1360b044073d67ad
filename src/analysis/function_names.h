/* SPDX-License-Identifier: MIT */
/* Functions by name, for requirements stated by name: entry-point names first (in their order), then
 * each function's OpName and Linkage export names, found through a hash index built once (a scan per
 * name took seconds for requirements files naming 20000 kernels). */
#ifndef SPVCOND_FUNCTION_NAMES_H
#define SPVCOND_FUNCTION_NAMES_H

#include "analysis/callgraph.h"
#include "support/index_table.h"

struct spvcond_function_names {
    const char **name;  /* into the module's words */
    uint32_t *function; /* function index, UINT32_MAX for an entry point that names none */
    uint64_t *hashes;
    size_t count, cap, function_cap, hash_cap;
    struct spvcond_index_table table;
};

spvcond_result spvcond_function_names_build(struct spvcond_module *m, const struct spvcond_callgraph *g,
                                            struct spvcond_function_names *out);
/* The function the first of the names above that equals `name` belongs to, or SIZE_MAX. */
size_t spvcond_function_names_find(const struct spvcond_function_names *n, const char *name);
void spvcond_function_names_release(struct spvcond_module *m, struct spvcond_function_names *n);

/* Room for a label: "%" and an id. */
#define SPVCOND_LABEL_SIZE 16
/* Function f for messages: its OpName (in the module's words), else "%id" written into buf. */
const char *spvcond_function_label(const struct spvcond_module *m, size_t f, char buf[SPVCOND_LABEL_SIZE]);

#endif
