/* SPDX-License-Identifier: MIT */
/* Parsing command-line values: spec-constant assignments and number lists. */
#ifndef SPVCOND_VALUES_H
#define SPVCOND_VALUES_H

#include "cli.h"

struct value_list {
    spvcond_spec_value *items;
    size_t count, cap;
};

struct u32_list {
    uint32_t *items;
    size_t count, cap;
};

/* "ID=VALUE[,ID=VALUE...]"; VALUE is true, false or an integer. Returns an exit code. */
int values_parse_list(struct value_list *list, const char *text, const char *what);
/* A file of ID=VALUE entries separated by blanks, commas or newlines; '#' starts a comment. */
int values_parse_file(struct value_list *list, const char *path);
int parse_u32(const char *text, const char *what, uint32_t *out);
/* Append v (EXIT_OK, or EXIT_NOMEM). */
int u32_list_push(struct u32_list *list, uint32_t v);
/* "A,B,C": numbers, or names through `by_name` (may be NULL). */
int u32_list_parse(struct u32_list *list, const char *text, const char *what,
                   bool (*by_name)(const char *name, uint32_t *value));
/* A capability by SPIR-V name. */
bool capability_value(const char *name, uint32_t *value);

#endif
