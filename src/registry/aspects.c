/* SPDX-License-Identifier: MIT */
/* The aspects' rows (registry/aspect_table.h) and their names. */
#include <stdbool.h>
#include <string.h>

#include "registry/aspects.h"
#include "spvcond/spvcond.h"

#define SPVCOND_ASPECT_ROW(n, NAME, name, type_fact, capability, inferred, more, query, extensions) \
    [n] = {n, name, capability, {SPVCOND_UNPAREN more}, SPVCOND_CL_##query, extensions},
#define SPVCOND_UNPAREN(...) __VA_ARGS__
/* Indexed by number; a removed aspect's row has no name. */
static const struct spvcond_aspect_row rows[] = {SPVCOND_ASPECT_TABLE(SPVCOND_ASPECT_ROW)};
#undef SPVCOND_ASPECT_ROW
#undef SPVCOND_UNPAREN

/* Older spellings DPC++ still accepts. */
static const struct {
    const char *name;
    uint32_t aspect;
} aliases[] = {
    {"usm_system_allocator", SPVCOND_ASPECT_USM_SYSTEM_ALLOCATIONS},
    {"ext_oneapi_interop_memory_import", SPVCOND_ASPECT_EXT_ONEAPI_EXTERNAL_MEMORY_IMPORT},
    {"ext_oneapi_interop_semaphore_import", SPVCOND_ASPECT_EXT_ONEAPI_EXTERNAL_SEMAPHORE_IMPORT},
};

const struct spvcond_aspect_row *
spvcond_aspect_rows(size_t *count)
{
    *count = sizeof(rows) / sizeof(rows[0]);
    return rows;
}

const char *
spvcond_aspect_name(uint32_t aspect)
{
    return aspect < sizeof(rows) / sizeof(rows[0]) ? rows[aspect].name : NULL;
}

bool
spvcond_aspect_by_name(const char *name, uint32_t *aspect)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (rows[i].name && strcmp(rows[i].name, name) == 0) {
            *aspect = rows[i].number;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
        if (strcmp(aliases[i].name, name) == 0) {
            *aspect = aliases[i].aspect;
            return true;
        }
    }
    return false;
}
