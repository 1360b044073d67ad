/* SPDX-License-Identifier: MIT */
/* DPC++'s AOT "aspect filter" (spec/split.md): whether a device can take a device image, from the image's
 * "[SYCL/device requirements]" property set: every aspect listed, the required sub-group size, the
 * required work-group size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/devices.h"
#include "devices/props_text.h"
#include "support/sized.h"

#define SET "[SYCL/device requirements]"

static spvcond_result
bad(spvcond_context *ctx, const char *source, size_t line, const char *what)
{
    return spvcond_report(ctx, SPVCOND_ERROR_INVALID_ARGUMENT, SPVCOND_SEVERITY_ERROR, SPVCOND_NOWHERE, "%s:%zu: %s",
                          source, line, what);
}

/* Each unmet requirement's words into reason, "; "-separated. */
static void
unmet(const spvcond_device_info *d, const struct spvcond_requirement *q, bool *supported, char *reason, size_t size)
{
    if (spvcond_device_supports(d, q))
        return;
    char msg[160];
    spvcond_requirement_message(q, msg, sizeof(msg));
    size_t len = reason && size ? strlen(reason) : 0;
    if (reason && size > len)
        snprintf(reason + len, size - len, "%s%s", *supported ? "" : "; ", msg);
    *supported = false;
}

static uint64_t
le(const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

spvcond_result
spvcond_image_supported(spvcond_context *ctx, const char *text, size_t size, const char *source,
                        const spvcond_device_info *device, bool *supported, char *reason, size_t reason_size)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if ((!text && size) || !device || !supported)
        return spvcond_invalid(ctx, "spvcond_image_supported",
                               "`device` and `supported` must not be NULL, nor `properties` with a size");
    spvcond_device_info sized_device;
    spvcond_result sized = SPVCOND_SIZED_IN(ctx, device, &sized_device, spvcond_device_info);
    if (sized != SPVCOND_OK)
        return sized;
    device = &sized_device;
    source = source ? source : "property file";
    *supported = true;
    if (reason && reason_size)
        reason[0] = 0;
    bool in_set = false, seen_set = false, seen_aspects = false;
    size_t line = 0;
    spvcond_result r = SPVCOND_OK;
    const char *s;
    size_t n;
    for (size_t p = 0; r == SPVCOND_OK && spvcond_props_next_line(text, size, &p, &line, &s, &n);) {
        if (n == 0)
            continue;
        if (s[0] == '[') {
            in_set = n == strlen(SET) && memcmp(s, SET, n) == 0;
            seen_set |= in_set;
            continue;
        }
        if (!in_set)
            continue;
        const char *eq = memchr(s, '=', n);
        if (!eq || (size_t)(s + n - eq) < 3 || eq[2] != '|')
            return bad(ctx, source, line, "expected key=<type>|<value>");
        size_t klen = (size_t)(eq - s), vlen = (size_t)(s + n - eq - 3);
        const char *v = eq + 3;
        bool bytes = eq[1] == '2';
        uint8_t *data = NULL;
        size_t len = 0;
        const char *why;
        if (bytes && (r = spvcond_props_decode_bytes(ctx, v, vlen, 1, &data, &len, &why)) != SPVCOND_OK)
            return r == SPVCOND_ERROR_OUT_OF_MEMORY ? r : bad(ctx, source, line, why);
        if (klen == 7 && !memcmp(s, "aspects", 7)) {
            seen_aspects = true;
            if (!bytes || len % 4)
                r = bad(ctx, source, line, "aspects must be a byte array of 32-bit aspect numbers");
            for (size_t k = 0; r == SPVCOND_OK && k < len; k += 4) {
                struct spvcond_requirement q = {SPVCOND_REQ_ASPECT, {(uint32_t)le(data + k, 4), 0, 0}};
                unmet(device, &q, supported, reason, reason_size);
            }
        } else if (klen == 29 && !memcmp(s, "reqd_work_group_size_uint64_t", 29)) {
            if (!bytes || len % 8 || len == 0 || len > 24)
                r = bad(ctx, source, line, "reqd_work_group_size_uint64_t must be 1 to 3 64-bit sizes");
            struct spvcond_requirement q = {SPVCOND_REQ_WORK_GROUP_SIZE, {1, 1, 1}};
            for (size_t d = 0; r == SPVCOND_OK && d < len / 8; d++) {
                uint64_t x = le(data + 8 * d, 8);
                if (x == 0 || x > UINT32_MAX)
                    r = bad(ctx, source, line, "a required work-group size is 0 or too large");
                q.v[d] = (uint32_t)x;
            }
            if (r == SPVCOND_OK)
                unmet(device, &q, supported, reason, reason_size);
        } else if (klen == 19 && !memcmp(s, "reqd_sub_group_size", 19)) {
            char num[16];
            unsigned long long x = 0;
            if (bytes || vlen == 0 || vlen >= sizeof(num) || eq[1] != '1')
                r = bad(ctx, source, line, "reqd_sub_group_size must be a 32-bit number (1|N)");
            if (r == SPVCOND_OK) {
                memcpy(num, v, vlen);
                num[vlen] = 0;
                char *end;
                x = strtoull(num, &end, 10);
                if (*end || num[0] < '0' || num[0] > '9' || x == 0 || x > UINT32_MAX)
                    r = bad(ctx, source, line, "reqd_sub_group_size must be a positive 32-bit number");
            }
            struct spvcond_requirement q = {SPVCOND_REQ_SUB_GROUP_SIZE, {(uint32_t)x, 0, 0}};
            if (r == SPVCOND_OK)
                unmet(device, &q, supported, reason, reason_size);
        } /* other keys (work_group_num_dim, fixed_target, joint_matrix...) do not decide */
        spvcond_dealloc(ctx, data);
    }
    if (r == SPVCOND_OK && (!seen_set || !seen_aspects))
        r = bad(ctx, source, line, seen_set ? "no aspects in [SYCL/device requirements] (DPC++ always writes it)"
                                            : "no [SYCL/device requirements] property set");
    return r;
}
