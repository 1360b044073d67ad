/* SPDX-License-Identifier: MIT */
#include "json_writer.h"

#include <inttypes.h>

void
json_init(struct json *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->need_comma[0] = false;
    j->after_key = false;
}

static void
value_prefix(struct json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->need_comma[j->depth])
        fputc(',', j->out);
    j->need_comma[j->depth] = true;
}

static void
open_scope(struct json *j, char c)
{
    value_prefix(j);
    fputc(c, j->out);
    if (j->depth < 63)
        j->depth++;
    j->need_comma[j->depth] = false;
}

static void
close_scope(struct json *j, char c)
{
    if (j->depth > 0)
        j->depth--;
    fputc(c, j->out);
    if (j->depth == 0)
        fputc('\n', j->out);
}

void json_object_begin(struct json *j) { open_scope(j, '{'); }
void json_object_end(struct json *j) { close_scope(j, '}'); }
void json_array_begin(struct json *j) { open_scope(j, '['); }
void json_array_end(struct json *j) { close_scope(j, ']'); }

static void
write_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

void
json_key(struct json *j, const char *key)
{
    value_prefix(j);
    write_string(j->out, key);
    fputc(':', j->out);
    j->after_key = true;
}

void
json_string(struct json *j, const char *s)
{
    value_prefix(j);
    write_string(j->out, s);
}

void
json_uint(struct json *j, uint64_t v)
{
    value_prefix(j);
    fprintf(j->out, "%" PRIu64, v);
}

void
json_bool(struct json *j, bool v)
{
    value_prefix(j);
    fputs(v ? "true" : "false", j->out);
}

void
json_null(struct json *j)
{
    value_prefix(j);
    fputs("null", j->out);
}

void json_kv_string(struct json *j, const char *key, const char *s) { json_key(j, key); json_string(j, s); }
void json_kv_uint(struct json *j, const char *key, uint64_t v) { json_key(j, key); json_uint(j, v); }
void json_kv_bool(struct json *j, const char *key, bool v) { json_key(j, key); json_bool(j, v); }
