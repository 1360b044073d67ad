/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *
env_or_die(const char *name)
{
    const char *v = getenv(name);
    cr_assert(v != NULL, "environment variable %s is not set (run the tests through meson test)", name);
    return v;
}

const char *
fixture(const char *name)
{
    static char buf[4096];
    snprintf(buf, sizeof(buf), "%s/%s.spv", env_or_die("SPVCOND_TEST_DATA"), name);
    return buf;
}

const char *
corpus(const char *name)
{
    static char buf[4096];
    const char *dir = env_or_die("SPVCOND_CORPUS");
    cr_assert(access(dir, R_OK) == 0,
              "the corpus is not made (%s): the test command makes it first (meson test -C BUILD corpus-modules)", dir);
    snprintf(buf, sizeof(buf), "%s/%s", dir, name);
    return buf;
}

uint32_t *
read_words(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    cr_assert(size >= 0 && size % 4 == 0, "%s: bad size %ld", path, size);
    uint32_t *w = malloc((size_t)size + 4);
    cr_assert(w != NULL);
    cr_assert(fread(w, 1, (size_t)size, f) == (size_t)size);
    fclose(f);
    *count = (size_t)size / 4;
    return w;
}

uint32_t *
synth_words(const char *size, size_t *count)
{
    char dir[] = "/tmp/spvcond-synth-XXXXXX", cmd[4200], path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/s.spv", dir);
    snprintf(cmd, sizeof(cmd), "'%s' --size %s -o %s", getenv("SPVCOND_SYNTH"), size, path);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    uint32_t *w = read_words(path, count);
    remove(path);
    rmdir(dir);
    return w;
}

struct spvcond_module *
load_module(const char *path, spvcond_context **ctx)
{
    size_t n;
    uint32_t *w = read_words(path, &n);
    cr_assert(spvcond_context_create(NULL, NULL, NULL, ctx) == SPVCOND_OK);
    spvcond_module *m = NULL;
    spvcond_result r = spvcond_module_parse(*ctx, w, n, 0, &m);
    const spvcond_diag *d = spvcond_context_first_error(*ctx);
    cr_assert(r == SPVCOND_OK, "%s: parse failed: %s", path, d ? d->message : spvcond_result_string(r));
    free(w);
    return m;
}

void
destroy_module(struct spvcond_module *m, spvcond_context *ctx)
{
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
}

int
run_capture(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    cr_assert(p != NULL, "cannot run %s", cmd);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    buf[len] = 0;
    int status = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Line by line with bounded compares: strstr over the whole text is quadratic under ASan, whose
 * interceptor measures the haystack on every call. */
size_t
count_lines_with(const char *text, const char *needle)
{
    size_t count = 0, nlen = strlen(needle);
    const char *line = text;
    while (*line) {
        const char *eol = line;
        while (*eol && *eol != '\n')
            eol++;
        for (const char *p = line; p + nlen <= eol; p++) {
            if (memcmp(p, needle, nlen) == 0) {
                count++;
                break;
            }
        }
        line = *eol ? eol + 1 : eol;
    }
    return count;
}

void
write_words(const char *path, const uint32_t *words, size_t count)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f != NULL, "cannot create %s", path);
    cr_assert(fwrite(words, 4, count, f) == count);
    fclose(f);
}

int
spirv_val(const uint32_t *words, size_t count, const char *target_env, char **out)
{
    char path[256], cmd[600];
    static int serial;
    snprintf(path, sizeof(path), "/tmp/spvcond-val-%d-%d.spv", (int)getpid(), serial++);
    write_words(path, words, count);
    snprintf(cmd, sizeof(cmd), "%s --target-env %s %s 2>&1", getenv("SPIRV_VAL"), target_env, path);
    int rc = run_capture(cmd, out);
    remove(path);
    return rc;
}

bool
spirv_val_knows_extension(void)
{
    static int known = -1;
    if (known < 0) {
        char cmd[600], *out = NULL;
        snprintf(cmd, sizeof(cmd), "%s --version 2>&1", getenv("SPIRV_VAL"));
        known = 0;
        if (run_capture(cmd, &out) == 0 && out) {
            const char *v = strstr(out, "SPIRV-Tools v");
            known = v && atoi(v + strlen("SPIRV-Tools v")) >= 2025;
        }
        free(out);
    }
    return known;
}

uint32_t
function_named(const spvcond_module *m, const char *name)
{
    for (size_t f = 0; f < m->function_count; f++) {
        uint32_t b, e;
        spvcond_refs_range(&m->names, m->functions[f].id, &b, &e);
        for (uint32_t k = b; k < e; k++)
            if (spvcond_inst_opcode(m, m->names.inst[k]) == 5 && strcmp(spvcond_inst_string(m, m->names.inst[k], 2), name) == 0)
                return m->functions[f].id;
    }
    return 0;
}

uint32_t
id_named(const spvcond_module *m, const char *name)
{
    for (size_t i = m->section[SPVCOND_SECTION_DEBUG_NAME]; i < m->section[SPVCOND_SECTION_DEBUG_NAME + 1]; i++)
        if (spvcond_inst_opcode(m, i) == 5 && strcmp(spvcond_inst_string(m, i, 2), name) == 0)
            return spvcond_inst_words(m, i)[1];
    return 0;
}

spvcond_module *
parse_or_die(spvcond_context *ctx, const uint32_t *words, size_t count)
{
    spvcond_module *m = NULL;
    spvcond_result r = spvcond_module_parse(ctx, words, count, 0, &m);
    const spvcond_diag *d = spvcond_context_first_error(ctx);
    cr_assert_eq(r, SPVCOND_OK, "parse failed: %s", d ? d->message : "?");
    return m;
}

size_t
count_opcode(const spvcond_module *m, uint32_t opcode)
{
    size_t n = 0;
    for (size_t i = 0; i < m->inst_count; i++)
        n += spvcond_inst_opcode(m, i) == opcode;
    return n;
}

void
mutate_word(uint32_t *mutant, const uint32_t *w, const uint32_t *offsets, size_t i, size_t code, size_t count,
            uint32_t bound, uint32_t r)
{
    uint32_t wc = w[offsets[i]] >> 16, word = wc > 1 ? 1 + (r >> 8) % (wc - 1) : 0;
    uint32_t *at = &mutant[offsets[i] + word];
    switch ((r >> 20) % 6) {
    case 0: *at = (r >> 4) % bound; break;     /* some id, maybe undefined here */
    case 1: *at = bound + (r >> 4) % 3; break; /* out of range */
    case 2: *at = 0; break;
    case 3: { /* another's first operand (its opcode word if it has none) */
        size_t j = code + (r >> 3) % (count - code);
        *at = w[offsets[j] + (offsets[j + 1] - offsets[j] > 1)];
        break;
    }
    case 4: /* another opcode, the same length */
        mutant[offsets[i]] = (w[offsets[i]] & 0xffff0000u) | (r >> 4) % 400;
        break;
    default: *at = w[offsets[i] + (word > 1 ? word - 1 : word)]; break;
    }
}

uint32_t *
annotated_words(const uint32_t *words, size_t count, size_t *out_count)
{
    spvcond_context *ctx;
    cr_assert(spvcond_context_create(NULL, NULL, NULL, &ctx) == SPVCOND_OK);
    spvcond_module *m = parse_or_die(ctx, words, count);
    spvcond_annotate_options o = {.size = sizeof(spvcond_annotate_options)};
    cr_assert_eq(spvcond_annotate(m, &o, NULL), SPVCOND_OK);
    uint32_t *w;
    cr_assert_eq(spvcond_module_emit(m, &w, out_count), SPVCOND_OK);
    uint32_t *copy = malloc(*out_count * sizeof(uint32_t));
    memcpy(copy, w, *out_count * sizeof(uint32_t));
    spvcond_free(ctx, w);
    spvcond_module_destroy(m);
    spvcond_context_destroy(ctx);
    return copy;
}
