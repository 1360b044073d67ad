/* SPDX-License-Identifier: MIT */
#ifdef SPVCOND_HAVE_YAML

#include "devices/yaml_util.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "registry/aspects.h"

/* libyaml's soname (libyaml-0-2), and the functions used of it. */
#define LIBYAML "libyaml-0.so.2"

struct libyaml_calls {
    int (*parser_initialize)(yaml_parser_t *);
    void (*parser_set_input_string)(yaml_parser_t *, const unsigned char *, size_t);
    int (*parser_load)(yaml_parser_t *, yaml_document_t *);
    void (*parser_delete)(yaml_parser_t *);
    void (*document_delete)(yaml_document_t *);
};

/* Each function of the open library by name (ISO C has no cast from void * to a function pointer). */
static bool
libyaml_calls(void *lib, struct libyaml_calls *c)
{
    static const char *const names[] = {"yaml_parser_initialize", "yaml_parser_set_input_string",
                                        "yaml_parser_load", "yaml_parser_delete", "yaml_document_delete"};
    void (**slots[])(void) = {(void (**)(void))&c->parser_initialize, (void (**)(void))&c->parser_set_input_string,
                              (void (**)(void))&c->parser_load, (void (**)(void))&c->parser_delete,
                              (void (**)(void))&c->document_delete};
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        void *address = dlsym(lib, names[k]);
        if (!address)
            return false;
        memcpy(slots[k], &address, sizeof(address));
    }
    return true;
}

/* The library let go (when no document of it lives). */
static void
close_libyaml(struct spvcond_yaml *y)
{
    if (y->libyaml)
        dlclose(y->libyaml);
    y->libyaml = NULL;
    y->document_delete = NULL;
}

spvcond_result
spvcond_yaml_load(struct spvcond_yaml *y, const char *text, size_t size)
{
    struct libyaml_calls yaml;
    y->libyaml = dlopen(LIBYAML, RTLD_NOW | RTLD_LOCAL);
    if (!y->libyaml || !libyaml_calls(y->libyaml, &yaml)) {
        const char *why = dlerror();
        close_libyaml(y);
        return spvcond_report(y->ctx, SPVCOND_ERROR_UNSUPPORTED, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                              "%s: reading YAML needs libyaml (%s, Debian's libyaml-0-2), which cannot be loaded: %s",
                              y->source, LIBYAML, why ? why : "no such library");
    }
    yaml_parser_t parser;
    if (!yaml.parser_initialize(&parser)) {
        close_libyaml(y);
        return spvcond_oom(y->ctx);
    }
    yaml.parser_set_input_string(&parser, (const unsigned char *)(text ? text : ""), size);
    spvcond_result r = SPVCOND_OK;
    if (!yaml.parser_load(&parser, &y->doc))
        r = spvcond_report(y->ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE,
                           "%s:%zu: %s", y->source, parser.problem_mark.line + 1,
                           parser.problem ? parser.problem : "YAML syntax error");
    yaml.parser_delete(&parser);
    if (r != SPVCOND_OK)
        close_libyaml(y);
    else
        y->document_delete = yaml.document_delete;
    return r;
}

void
spvcond_yaml_unload(struct spvcond_yaml *y)
{
    if (y->document_delete)
        y->document_delete(&y->doc);
    close_libyaml(y);
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
        yaml_node_t *item = spvcond_yaml_node(y, n->data.sequence.items.start[k]);
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
