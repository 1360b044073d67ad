/* SPDX-License-Identifier: MIT */
#ifdef SPVCOND_HAVE_YAML

#include "devices/yaml_util.h"

#include <stdlib.h>
#include <string.h>

#include "registry/aspects.h"

spvcond_result
spvcond_yaml_load(struct spvcond_yaml *y, const char *text, size_t size)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return spvcond_oom(y->ctx);
    yaml_parser_set_input_string(&parser, (const unsigned char *)(text ? text : ""), size);
    spvcond_result r = SPVCOND_OK;
    if (!yaml_parser_load(&parser, &y->doc))
        r = spvcond_report(y->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                           "%s:%zu: %s", y->source, parser.problem_mark.line + 1,
                           parser.problem ? parser.problem : "YAML syntax error");
    yaml_parser_delete(&parser);
    return r;
}

void
spvcond_yaml_unload(struct spvcond_yaml *y)
{
    yaml_document_delete(&y->doc);
}

spvcond_result
spvcond_yaml_fail(struct spvcond_yaml *y, const yaml_node_t *n, const char *what, const char *detail)
{
    return spvcond_report(y->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                          "%s:%zu: %s%s%s", y->source, n ? n->start_mark.line + 1 : 0, what, detail ? ": " : "",
                          detail ? detail : "");
}

const char *
spvcond_yaml_scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

bool
spvcond_yaml_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end)
        return false;
    *out = v;
    return true;
}

spvcond_result
spvcond_yaml_u32_list(struct spvcond_yaml *y, yaml_node_t *n, bool aspects, uint64_t limit, const char *what,
                      uint32_t **out, size_t *count)
{
    if (!n || n->type != YAML_SEQUENCE_NODE)
        return spvcond_yaml_fail(y, n, what, "expected a list");
    size_t len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    uint32_t *v = spvcond_alloc_array(y->ctx, len + 1, sizeof(uint32_t));
    if (!v)
        return spvcond_oom(y->ctx);
    for (size_t k = 0; k < len; k++) {
        yaml_node_t *item = yaml_document_get_node(&y->doc, n->data.sequence.items.start[k]);
        const char *s = spvcond_yaml_scalar(item);
        uint64_t num;
        if (s && spvcond_yaml_u64(s, &num) && num < limit) {
            v[k] = (uint32_t)num;
        } else if (!(aspects && s && spvcond_aspect_by_name(s, &v[k]))) {
            spvcond_dealloc(y->ctx, v);
            return spvcond_yaml_fail(y, item, aspects ? "unknown aspect" : what, s ? s : "(not a scalar)");
        }
    }
    *out = v;
    *count = len;
    return SPVCOND_OK;
}

#endif
