/* SPDX-License-Identifier: MIT */
/* Property sets: DPC++'s LSB-first base64, the [SYCL/kernel reqs] payload, and round trips. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/base64.h"
#include "helpers.h"

/* Decode a byte array value and return its uint32 payload words. */
static size_t
payload(const char *b64, uint32_t *words, size_t max)
{
    uint8_t raw[256];
    size_t n;
    cr_assert(spvcond_base64_decode(b64, strlen(b64), raw, &n), "%s does not decode", b64);
    cr_assert_geq(n, 8);
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++)
        bits |= (uint64_t)raw[i] << (8 * i);
    size_t count = (size_t)(bits / 32);
    cr_assert_leq(count, max);
    for (size_t k = 0; k < count; k++)
        words[k] = raw[8 + 4 * k] | raw[9 + 4 * k] << 8 | raw[10 + 4 * k] << 16 | (uint32_t)raw[11 + 4 * k] << 24;
    return count;
}

Test(props, dpcpp_base64_vectors)
{
    /* The decodings checked in dpcpp.md section 4. */
    uint32_t w[8];
    cr_assert_eq(payload("AAAAAAAAAAA", w, 8), 0);
    cr_assert_eq(payload("gAAAAAAAAAQBAAAA", w, 8), 1);
    cr_assert_eq(w[0], 5);
    cr_assert_eq(payload("ACAAAAAAAAQAAAAAGAAAAkAAAAADAAAA", w, 8), 4);
    cr_assert(w[0] == 1 && w[1] == 6 && w[2] == 9 && w[3] == 12);
    cr_assert_eq(payload("ABAAAAAAAAAIAAAAAAAAAA", w, 8), 2, "one uint64 = 32: two words");
    cr_assert(w[0] == 32 && w[1] == 0);
    /* Encoding gives the same text back. */
    uint8_t raw[12] = {32, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0};
    char out[32];
    spvcond_base64_encode(raw, sizeof(raw), out);
    cr_assert_str_eq(out, "gAAAAAAAAAQBAAAA");
    cr_assert_eq(spvcond_base64_encoded_size(12), 16);
    uint8_t tail[1] = {0xff};
    spvcond_base64_encode(tail, 1, out);
    cr_assert_eq(strlen(out), 2, "no padding");
    size_t n;
    cr_assert(!spvcond_base64_decode("A", 1, raw, &n), "a one-character tail is invalid");
    cr_assert(!spvcond_base64_decode("AA=A", 4, raw, &n), "'=' is not in the alphabet");
}

Test(props, round_trip_through_the_text_format)
{
    spvcond_context *ctx;
    spvcond_module *m = load_module(fixture("annotate_graph"), &ctx);
    spvcond_function_requirements req = {sizeof(spvcond_function_requirements), "k_plain", NULL, 0, false, NULL, 0, {64, 2, 1}, 0, NULL, NULL, NULL, 0};
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options), .requirements = &req, .requirement_count = 1};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK);
    uint32_t *w;
    size_t n;
    cr_assert_eq(spvcond_module_emit(m, &w, &n), SPVCOND_OK);
    spvcond_module *a = parse_or_die(ctx, w, n);
    spvcond_requirements *r;
    cr_assert_eq(spvcond_requirements_from_module(a, &r), SPVCOND_OK);
    cr_assert_eq(spvcond_requirements_kernel_count(r), 4);
    char *text;
    size_t size;
    cr_assert_eq(spvcond_requirements_write_props(r, &text, &size), SPVCOND_OK);
    cr_assert(strncmp(text, "[SYCL/kernel reqs]\nk_double=2|", 30) == 0, "%s", text);
    spvcond_requirements *back;
    cr_assert_eq(spvcond_requirements_parse_props(ctx, text, size, "t.prop", &back), SPVCOND_OK);
    cr_assert_eq(spvcond_requirements_kernel_count(back), 4);
    for (size_t k = 0; k < 4; k++) {
        cr_assert_str_eq(spvcond_requirements_kernel_name(back, k), spvcond_requirements_kernel_name(r, k));
        cr_assert_eq(spvcond_requirements_count(back, k), spvcond_requirements_count(r, k));
        for (size_t i = 0; i < spvcond_requirements_count(r, k); i++)
            cr_assert(memcmp(spvcond_requirements_get(back, k, i), spvcond_requirements_get(r, k, i),
                             sizeof(spvcond_kernel_requirement)) == 0);
    }
    /* k_plain: one work-group size 64x2x1 entry: [1][1][3][64][2][1][spec id] */
    size_t kp = 3;
    cr_assert_str_eq(spvcond_requirements_kernel_name(r, kp), "k_plain");
    const spvcond_kernel_requirement *q = spvcond_requirements_get(r, kp, 0);
    cr_assert(q->type == SPVCOND_REQUIREMENT_WORK_GROUP_SIZE && q->dims == 3 && q->values[0] == 64 && q->values[1] == 2);
    const char *line = strstr(text, "k_plain=2|");
    cr_assert_not_null(line);
    uint32_t words[16];
    char value[128];
    sscanf(line + 10, "%127s", value);
    cr_assert_eq(payload(value, words, 16), 7);
    cr_assert(words[0] == 1 && words[1] == 1 && words[2] == 3 && words[3] == 64 && words[4] == 2 && words[5] == 1 &&
              words[6] == q->spec_id);
    /* The raw value is what the text encodes. */
    uint8_t *raw;
    size_t raw_size;
    cr_assert_eq(spvcond_requirements_kernel_bytes(r, kp, &raw, &raw_size), SPVCOND_OK);
    cr_assert_eq(raw_size, 8 + 7 * 4);
    uint8_t decoded[64];
    size_t decoded_size;
    cr_assert(spvcond_base64_decode(value, strlen(value), decoded, &decoded_size));
    cr_assert(decoded_size == raw_size && memcmp(decoded, raw, raw_size) == 0);
    spvcond_free(ctx, raw);
    cr_assert_eq(spvcond_requirements_kernel_bytes(r, 99, &raw, &raw_size), SPVCOND_ERROR_INVALID_ARGUMENT);
    /* Device values from the table agree with the ones from the module's names. */
    spvcond_device_info d = {.size = sizeof(spvcond_device_info)};
    cr_assert(spvcond_builtin_device_find("intel_gpu_acm_g10", &d));
    spvcond_spec_value *v1, *v2;
    size_t n1, n2;
    cr_assert_eq(spvcond_requirements_device_values(back, &d, &v1, &n1), SPVCOND_OK);
    cr_assert_eq(spvcond_device_spec_values(a, &d, &v2, &n2), SPVCOND_OK);
    cr_assert_eq(n1, n2);
    for (size_t i = 0; i < n1; i++) {
        bool same = false;
        for (size_t j = 0; j < n2; j++)
            same |= v1[i].spec_id == v2[j].spec_id && v1[i].value == v2[j].value;
        cr_assert(same, "SpecId %u", v1[i].spec_id);
    }
    spvcond_free(ctx, v1);
    spvcond_free(ctx, v2);
    spvcond_requirements_destroy(back);
    spvcond_free(ctx, text);
    spvcond_requirements_destroy(r);
    spvcond_module_destroy(a);
    spvcond_free(ctx, w);
    destroy_module(m, ctx);
}

static void
expect_props_error(const char *text, const char *needle)
{
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_requirements *r = (spvcond_requirements *)1;
    cr_assert_neq(spvcond_requirements_parse_props(ctx, text, strlen(text), "p.prop", &r), SPVCOND_OK);
    cr_assert_null(r);
    const char *msg = spvcond_context_first_error(ctx)->message;
    cr_assert(strstr(msg, needle) != NULL, "'%s' lacks '%s'", msg, needle);
    spvcond_context_destroy(ctx);
}

Test(props, malformed_property_files)
{
    expect_props_error("", "no [SYCL/kernel reqs] property set");
    expect_props_error("[SYCL/kernel reqs]\nk=1|5\n", "p.prop:2: expected name=2|<byte array>");
    expect_props_error("[SYCL/kernel reqs]\nk=2|@@@@\n", "p.prop:2: the byte array is not valid");
    expect_props_error("[SYCL/kernel reqs]\n=2|gAAAAAAAAAAAAAAA\n", "p.prop:2: a kernel name must be non-empty");
    expect_props_error("[SYCL/kernel reqs]\nk=2|gAAAAAAAAAAA\n", "bit length does not match");
    /* count 1, then an entry that stops short */
    expect_props_error("[SYCL/kernel reqs]\nk=2|gAAAAAAAAAQAAAAA\n", "ends inside an entry");
    /* An unrelated set before ours is skipped. */
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    const char *ok = "[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n[SYCL/kernel reqs]\r\nk=2|gAAAAAAAAAAAAAAA\r\n";
    spvcond_requirements *r;
    cr_assert_eq(spvcond_requirements_parse_props(ctx, ok, strlen(ok), "p.prop", &r), SPVCOND_OK);
    cr_assert_eq(spvcond_requirements_kernel_count(r), 1);
    cr_assert_eq(spvcond_requirements_count(r, 0), 0);
    spvcond_requirements_destroy(r);
    spvcond_context_destroy(ctx);
}

Test(props, virtual_function_sets_round_trip)
{
    /* "_ZTSv,set_fp64" (spec/virtual-functions.md): read, given back, written again byte for byte. */
    const char *text = "[SYCL/kernel reqs]\nk=2|gAAAAAAAAAAAAAAA\n"
                       "[SYCL/virtual functions]\nuses-virtual-functions-set=2|wBAAAAAAAAwXaR1U2xyclR3XmBnN0A\n";
    spvcond_context *ctx;
    cr_assert_eq(spvcond_context_create(NULL, NULL, NULL, &ctx), SPVCOND_OK);
    spvcond_requirements *r;
    cr_assert_eq(spvcond_requirements_parse_props(ctx, text, strlen(text), "p.prop", &r), SPVCOND_OK);
    cr_assert_str_eq(spvcond_requirements_virtual_sets(r), "_ZTSv,set_fp64");
    char *out;
    size_t size;
    cr_assert_eq(spvcond_requirements_write_props(r, &out, &size), SPVCOND_OK);
    cr_assert_eq(size, strlen(text));
    cr_assert_str_eq(out, text);
    spvcond_free(ctx, out);
    spvcond_requirements_destroy(r);
    /* Without the set there is none. */
    cr_assert_eq(spvcond_requirements_parse_props(ctx, text, 40, "p.prop", &r), SPVCOND_OK);
    cr_assert_null(spvcond_requirements_virtual_sets(r));
    spvcond_requirements_destroy(r);
    spvcond_context_destroy(ctx);
    expect_props_error("[SYCL/kernel reqs]\n[SYCL/virtual functions]\nuses-virtual-functions-set=1|5\n",
                       "p.prop:3: uses-virtual-functions-set must be a byte array");
    expect_props_error("[SYCL/kernel reqs]\n[SYCL/virtual functions]\nuses-virtual-functions-set=2|wBAAAAAAAAwX\n",
                       "p.prop:3: the byte array's bit length does not match its data");
    /* 8 bits of data: "\n" */
    expect_props_error("[SYCL/kernel reqs]\n[SYCL/virtual functions]\nuses-virtual-functions-set=2|IAAAAAAAAAgC\n",
                       "without NUL bytes or line ends");
}
