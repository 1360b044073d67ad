/* SPDX-License-Identifier: MIT */
/* Small helpers over libyaml's document API, shared by the YAML readers. libyaml is opened (dlopen) when a
 * document is read and closed when it is let go: a program that reads no YAML never loads it, and the
 * library links nothing beyond the C library (docs/performance.md, "Start-up"). */
#ifndef SPVCOND_YAML_UTIL_H
#define SPVCOND_YAML_UTIL_H

#ifdef SPVCOND_HAVE_YAML

#include <yaml.h>

#include "support/context.h"

struct spvcond_yaml {
    spvcond_context *ctx;
    yaml_document_t doc;
    const char *source;
    void *libyaml; /* the library, open while the document lives */
    void (*document_delete)(yaml_document_t *); /* libyaml's, for spvcond_yaml_unload */
};

/* Load a document; reports syntax errors with the line, and a libyaml that cannot be opened by name. */
spvcond_result spvcond_yaml_load(struct spvcond_yaml *y, const char *text, size_t size);
void spvcond_yaml_unload(struct spvcond_yaml *y);
/* Report "source:line: what: detail" and return SPVCOND_ERROR_INVALID_ARGUMENT. */
spvcond_result spvcond_yaml_fail(struct spvcond_yaml *y, const yaml_node_t *n, const char *what, const char *detail);
const char *spvcond_yaml_scalar(const yaml_node_t *n);
/* The document's node `index` (1-based, as libyaml numbers them) or its root, NULL when there is none:
 * what libyaml's yaml_document_get_node and _get_root_node say, read from the document itself. */
static inline yaml_node_t *
spvcond_yaml_node(struct spvcond_yaml *y, int index)
{
    return index > 0 && y->doc.nodes.start + index <= y->doc.nodes.top ? y->doc.nodes.start + index - 1 : NULL;
}
static inline yaml_node_t *
spvcond_yaml_root(struct spvcond_yaml *y)
{
    return y->doc.nodes.top != y->doc.nodes.start ? y->doc.nodes.start : NULL;
}
bool spvcond_yaml_u64(const char *s, uint64_t *out);
/* A sequence of numbers below `limit`, or of aspect names when `aspects` is set; a fresh array. */
spvcond_result spvcond_yaml_u32_list(struct spvcond_yaml *y, yaml_node_t *n, bool aspects, uint64_t limit,
                                     const char *what, uint32_t **out, size_t *count);

#endif
#endif
