/* SPDX-License-Identifier: MIT */
/* A minimal streaming JSON writer: tracks commas and nesting, escapes strings. */
#ifndef SPVCOND_JSON_WRITER_H
#define SPVCOND_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json {
    FILE *out;
    int depth;
    bool need_comma[64];
    bool after_key;
};

void json_init(struct json *j, FILE *out);
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_uint(struct json *j, uint64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Shorthands for "key": value. */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_uint(struct json *j, const char *key, uint64_t v);
void json_kv_bool(struct json *j, const char *key, bool v);

#endif
