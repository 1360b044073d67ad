/* The spvcond command line: exit codes, diagnostics format, info output checked against the index. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static int
cli(const char *args, char **out)
{
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "%s %s", getenv("SPVCOND_CLI"), args);
    return run_capture(cmd, out);
}

/* The unsigned number after "key": in a JSON text. */
static long
json_number(const char *json, const char *key)
{
    char pat[128];
    snprintf(pat, sizeof(pat), "\"%s\":", key);
    const char *p = strstr(json, pat);
    cr_assert_not_null(p, "key %s missing in %s", key, json);
    return strtol(p + strlen(pat), NULL, 10);
}

Test(cli, help_and_version)
{
    char *out;
    cr_assert_eq(cli("--help", &out), 0);
    cr_assert(strstr(out, "USAGE: spvcond") != NULL);
    free(out);
    cr_assert_eq(cli("info --help", &out), 0);
    cr_assert(strstr(out, "--json") != NULL);
    free(out);
    cr_assert_eq(cli("--version", &out), 0);
    cr_assert(strstr(out, "spvcond 0.") != NULL);
    free(out);
}

Test(cli, usage_errors_exit_2)
{
    cr_assert_eq(cli("2>/dev/null", NULL), 2);
    cr_assert_eq(cli("frobnicate 2>/dev/null", NULL), 2);
    cr_assert_eq(cli("info --bogus 2>/dev/null", NULL), 2);
    char args[1024];
    snprintf(args, sizeof(args), "info %s %s 2>/dev/null", fixture("switch64"), fixture("switch64"));
    cr_assert_eq(cli(args, NULL), 2);
}

Test(cli, missing_file_exits_3)
{
    char *out;
    cr_assert_eq(cli("info /nonexistent/x.spv 2>&1", &out), 3);
    cr_assert(strstr(out, "error: file does not exist '/nonexistent/x.spv'") != NULL, "%s", out);
    free(out);
}

Test(cli, invalid_module_exits_1_with_position)
{
    char path[256], args[512], *out;
    snprintf(path, sizeof(path), "/tmp/spvcond-cli-bad-%d.spv", (int)getpid());
    uint32_t w[8] = {0x07230203, 0x00010000, 0, 5, 0, 0x00030011, 6, 0};
    write_words(path, w, 7);
    snprintf(args, sizeof(args), "info %s 2>&1", path);
    cr_assert_eq(cli(args, &out), 1);
    char want[512];
    snprintf(want, sizeof(want), "error: %s:5: instruction of 3 words runs past the end", path);
    cr_assert(strstr(out, want) != NULL, "%s", out);
    free(out);
    /* Size not a multiple of 4. */
    FILE *f = fopen(path, "wb");
    fwrite("\x03\x02\x23\x07\x00", 1, 5, f);
    fclose(f);
    cr_assert_eq(cli(args, &out), 1);
    cr_assert(strstr(out, "multiple of 4") != NULL, "%s", out);
    free(out);
    remove(path);
}

Test(cli, info_reads_stdin)
{
    char args[1024], *out;
    snprintf(args, sizeof(args), "info - < %s", fixture("kernels_fp64"));
    cr_assert_eq(cli(args, &out), 0);
    cr_assert(strstr(out, "Kernel %10 \"add_float\"; modes: LocalSize 64 1 1") != NULL, "%s", out);
    cr_assert(strstr(out, "functions: 4 (4 definitions, 0 declarations)") != NULL, "%s", out);
    cr_assert(strstr(out, "call edges: 3") != NULL, "%s", out);
    free(out);
}

Test(cli, info_shows_conditions)
{
    char args[1024], *out;
    snprintf(args, sizeof(args), "info %s", fixture("conditional_capability"));
    cr_assert_eq(cli(args, &out), 0);
    cr_assert(strstr(out, "conditional capabilities (1): Int8 if %5") != NULL, "%s", out);
    cr_assert(strstr(out, "Kernel %4 \"kernel\" if %9; modes: ContractionOff") != NULL, "%s", out);
    cr_assert(strstr(out, "%5 SpecId 1 = true \"cond_a\"") != NULL, "%s", out);
    cr_assert(strstr(out, "%9 = OpLogicalAnd %5 %7 \"cond_ab\"") != NULL, "%s", out);
    cr_assert(strstr(out, "OpFunctionCall %16 if %5") != NULL, "%s", out);
    cr_assert(strstr(out, "1 capabilities, 1 extensions, 1 entry points, 1 copy-objects") != NULL, "%s", out);
    free(out);
}

Test(cli, info_json_is_valid_and_matches_the_index)
{
    const char *paths[] = {"/usr/lib/clc/spirv64-mesa3d-.spv", "/usr/lib/clc/spirv-mesa3d-.spv"};
    for (size_t k = 0; k < 2; k++) {
        char args[1024], *out;
        snprintf(args, sizeof(args), "info --json %s", paths[k]);
        cr_assert_eq(cli(args, &out), 0);
        spvcond_context *ctx;
        spvcond_module *m = load_module(paths[k], &ctx);
        cr_assert_eq(json_number(out, "functions"), (long)m->function_count);
        cr_assert_eq(json_number(out, "call_edges"), (long)m->call_count);
        cr_assert_eq(json_number(out, "bound"), (long)m->bound);
        cr_assert_eq(json_number(out, "functions"), 2166);
        destroy_module(m, ctx);
        free(out);
        /* Well-formed JSON, checked by Python's parser. */
        snprintf(args, sizeof(args), "info --json %s | python3 -c 'import json,sys; json.load(sys.stdin)'", paths[k]);
        cr_assert_eq(cli(args, NULL), 0);
    }
    char args[1024];
    snprintf(args, sizeof(args), "info --json %s | python3 -c 'import json,sys; d=json.load(sys.stdin); "
             "assert d[\"entry_points\"][0][\"condition\"] == 9; assert d[\"spec_constants\"][0][\"spec_id\"] == 1'",
             fixture("conditional_capability"));
    cr_assert_eq(cli(args, NULL), 0);
}
