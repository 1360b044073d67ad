/* SPDX-License-Identifier: MIT */
#include "values.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


static bool
parse_u64(const char *s, uint64_t *out)
{
    if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    /* Decimal, or hexadecimal with 0x; a leading zero does not mean octal. */
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    unsigned long long v = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
    if (hex && end == s + 2)
        return false;
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

int
parse_u32(const char *text, const char *what, uint32_t *out)
{
    uint64_t v;
    if (!parse_u64(text, &v) || v > UINT32_MAX) {
        cli_error("%s: '%s' is not a 32-bit unsigned number", what, text);
        return EXIT_USAGE;
    }
    *out = (uint32_t)v;
    return EXIT_OK;
}

static int
add_value(struct value_list *list, const char *item, const char *what)
{
    const char *eq = strchr(item, '=');
    char id_text[32];
    if (!eq || (size_t)(eq - item) >= sizeof(id_text)) {
        cli_error("%s: '%s' is not ID=VALUE", what, item);
        return EXIT_USAGE;
    }
    memcpy(id_text, item, (size_t)(eq - item));
    id_text[eq - item] = 0;
    uint64_t id, value;
    const char *v = eq + 1;
    if (!parse_u64(id_text, &id) || id > UINT32_MAX) {
        cli_error("%s: SpecId '%s' is not a 32-bit unsigned number", what, id_text);
        return EXIT_USAGE;
    }
    if (strcasecmp(v, "true") == 0)
        value = 1;
    else if (strcasecmp(v, "false") == 0)
        value = 0;
    else if (!parse_u64(v, &value)) {
        cli_error("%s: value '%s' of SpecId %s is not true, false or an unsigned integer", what, v, id_text);
        return EXIT_USAGE;
    }
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        spvcond_spec_value *p = realloc(list->items, cap * sizeof(*p));
        if (!p)
            return EXIT_NOMEM;
        list->items = p;
        list->cap = cap;
    }
    list->items[list->count++] = (spvcond_spec_value){(uint32_t)id, value, false};
    return EXIT_OK;
}

/* Split on any of `seps`, calling add_value for each non-empty item. */
static int
split(struct value_list *list, char *text, const char *seps, const char *what)
{
    int rc = EXIT_OK;
    for (char *save = NULL, *tok = strtok_r(text, seps, &save); tok && rc == EXIT_OK; tok = strtok_r(NULL, seps, &save))
        rc = add_value(list, tok, what);
    return rc;
}

int
values_parse_list(struct value_list *list, const char *text, const char *what)
{
    char *copy = strdup(text);
    if (!copy)
        return EXIT_NOMEM;
    int rc = split(list, copy, ",", what);
    free(copy);
    return rc;
}

int
values_parse_file(struct value_list *list, const char *path)
{
    void *data;
    size_t size;
    int rc = cli_read_file(path, &data, &size);
    if (rc != EXIT_OK)
        return rc;
    char *text = realloc(data, size + 1);
    if (!text) {
        free(data);
        return EXIT_NOMEM;
    }
    text[size] = 0;
    /* Blank out comments, then split on blanks and commas. */
    for (char *p = text; *p; p++) {
        if (*p == '#')
            while (*p && *p != '\n')
                *p++ = ' ';
        if (!*p)
            break;
    }
    rc = split(list, text, " \t\r\n,", path);
    free(text);
    return rc;
}

int
u32_list_push(struct u32_list *list, uint32_t v)
{
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        uint32_t *p = realloc(list->items, cap * sizeof(*p));
        if (!p)
            return EXIT_NOMEM;
        list->items = p;
        list->cap = cap;
    }
    list->items[list->count++] = v;
    return EXIT_OK;
}

int
u32_list_parse(struct u32_list *list, const char *text, const char *what,
               bool (*by_name)(const char *name, uint32_t *value))
{
    char *copy = strdup(text);
    if (!copy)
        return EXIT_NOMEM;
    int rc = EXIT_OK;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && rc == EXIT_OK; tok = strtok_r(NULL, ",", &save)) {
        uint64_t v;
        uint32_t named;
        if (parse_u64(tok, &v) && v <= UINT32_MAX) {
            named = (uint32_t)v;
        } else if (!by_name || !by_name(tok, &named)) {
            cli_error("%s: '%s' is not a number%s", what, tok, by_name ? " or a known name" : "");
            rc = EXIT_USAGE;
            break;
        }
        rc = u32_list_push(list, named);
    }
    free(copy);
    return rc;
}

bool
capability_value(const char *name, uint32_t *value)
{
    return spvcond_capability_value(name, value);
}
