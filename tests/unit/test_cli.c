/* SPDX-License-Identifier: MIT */
/* The spvcond command line: exit codes, diagnostics format, info output checked against the index. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    /* The tool's help points to the manual and to the layer, which a user of the tool alone would not find. */
    cr_assert_eq(cli("--help", &out), 0);
    cr_assert(strstr(out, "man spvcond") != NULL && strstr(out, "libspvcond-opencl-layer.so") != NULL, "%s", out);
    free(out);
}

/* What a new user met: each message says plainly what it means. */
Test(cli, plain_messages)
{
    char args[1024], *out;
    /* specialize with neither a device nor values keeps everything, and says so */
    snprintf(args, sizeof(args), "specialize %s -o /dev/null 2>&1", fixture("annotate_graph"));
    cr_assert_eq(cli(args, &out), 0);
    cr_assert(strstr(out, "warning: no --device, --spec, --spec-file or device facts: every spec constant keeps its "
                          "default, so an annotated module keeps everything") != NULL, "%s", out);
    free(out);
    snprintf(args, sizeof(args), "specialize -q %s -o /dev/null 2>&1", fixture("annotate_graph"));
    cr_assert_eq(cli(args, &out), 0);
    cr_assert(strstr(out, "warning") == NULL, "-q says nothing: %s", out);
    free(out);
    /* devices says "any" or "none", never an empty list */
    cr_assert_eq(cli("devices", &out), 0);
    cr_assert(strstr(out, "x86_64                 built-in aspects: any; sub-group sizes: any; target x86_64\n") != NULL,
              "%s", out);
    cr_assert(strstr(out, "aspects:;") == NULL && strstr(out, "sizes:;") == NULL && strstr(out, "sizes:\n") == NULL &&
                  strstr(out, "(and maybe others)") == NULL,
              "%s", out);
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

/* What every command's option table gives it (cli/options.h): a message per broken rule, exit 2. */
Test(cli, option_table_rules)
{
    static const struct {
        const char *args, *said;
    } cases[] = {
        {"annotate X", "error: -o required\n"},                          /* required */
        {"filter -o t t", "error: --device required\n"},                 /* required, in the table's order */
        {"specialize --props p X -o /dev/null", "error: --props needs --device\n"}, /* needs */
        {"reqs --json --props X", "error: --json and --props exclude each other\n"}, /* excludes */
        {"annotate X X -o /dev/null", "error: More than one input file specified\n"}, /* operands */
        {"check --device x86_64", "error: no input file\n"},
        {"filter --device x86_64 -o - a b", "error: one table expected\n"},
        {"annotate --spec-id-base=12x X -o /dev/null", "error: --spec-id-base: '12x' is not a 32-bit unsigned number\n"},
        {"split --mode=nope X -o d", "error: --mode takes per-requirements or per-kernel, not 'nope'\n"},
        {"annotate --requirements", "annotate: option '--requirements' requires an argument\nUSAGE: spvcond annotate"},
        {"devices extra", "USAGE: spvcond devices"}, /* no operands, no message: the usage */
    };
    char args[1024], *out;
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        size_t n = 0; /* X: a module, each time it is named */
        for (const char *c = cases[k].args; *c && n + 300 < sizeof(args); c++)
            n += (size_t)(*c == 'X' ? sprintf(args + n, "%s", fixture("annotate_graph")) : sprintf(args + n, "%c", *c));
        snprintf(args + n, sizeof(args) - n, " 2>&1 >/dev/null");
        cr_assert_eq(cli(args, &out), 2, "%s", cases[k].args);
        cr_assert(strncmp(out, cases[k].said, strlen(cases[k].said)) == 0, "%s: %s", cases[k].args, out);
        free(out);
    }
    /* An abbreviated long option and the --name=value form are getopt_long's, as before the tables. */
    snprintf(args, sizeof(args), "specialize --device=x86_64 --no-fo --fr -q %s -o /dev/null", fixture("annotate_graph"));
    cr_assert_eq(cli(args, NULL), 0);
    /* --help ends every command's help; a row without help joins the label of the row before it. */
    cr_assert_eq(cli("check --help", &out), 0);
    cr_assert(strstr(out, "\n  --target T, --features F1,F2\n                     The device's target") != NULL, "%s", out);
    cr_assert(strstr(out, "  -h, --help         Print this help and exit.\n") == out + strlen(out) - 47, "%s", out);
    free(out);
    /* A label of 19 characters shares its help's line; one of 20 does not. */
    cr_assert_eq(cli("annotate --help", &out), 0);
    cr_assert(strstr(out, "\n  --requirements FILE  Requirements stated per function") != NULL, "%s", out);
    free(out);
    cr_assert_eq(cli("specialize --help", &out), 0);
    cr_assert(strstr(out, "\n  --device-config FILE\n                     Devices in") != NULL, "%s", out);
    free(out);
}

Test(cli, missing_file_exits_3)
{
    char *out;
    cr_assert_eq(cli("info /nonexistent/x.spv 2>&1", &out), 3);
    cr_assert(strstr(out, "error: file does not exist '/nonexistent/x.spv'") != NULL, "%s", out);
    free(out);
    /* A directory opens but does not read. */
    cr_assert_eq(cli("info /tmp 2>&1", &out), 3);
    cr_assert(strstr(out, "error: could not read file '/tmp': Is a directory") != NULL, "%s", out);
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

/* Too short for a header: the message names the file and says so, with no instruction position (there
 * is none), for every command that reads a module; exit 1 and no output file. */
Test(cli, empty_and_tiny_inputs)
{
    char path[256], output[256], args[1024], *out;
    snprintf(path, sizeof(path), "/tmp/spvcond-cli-tiny-%d.spv", (int)getpid());
    snprintf(output, sizeof(output), "/tmp/spvcond-cli-tiny-%d.out.spv", (int)getpid());
    const char *commands[] = {"info", "validate", "annotate -o OUT", "specialize -o OUT", "reqs",
                              "check --device intel_gpu_pvc"};
    for (size_t size = 0; size <= 4; size++) {
        FILE *f = fopen(path, "wb");
        fwrite("\x03\x02\x23\x07", 1, size, f);
        fclose(f);
        for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
            char command[64];
            snprintf(command, sizeof(command), "%s", commands[c]);
            char *o = strstr(command, "OUT");
            if (o)
                snprintf(o, sizeof(command) - (size_t)(o - command), "%s", output);
            snprintf(args, sizeof(args), "%s %s 2>&1", command, path);
            cr_assert_eq(cli(args, &out), 1, "%zu bytes, %s: %s", size, commands[c], out);
            cr_assert(strstr(out, path) != NULL && strstr(out, "instruction 18446744073709551615") == NULL &&
                          strstr(out, "OpNop") == NULL,
                      "%zu bytes, %s: %s", size, commands[c], out);
            cr_assert(size % 4 != 0 || strstr(out, "fewer than the 5 of a SPIR-V header") != NULL, "%s", out);
            cr_assert(access(output, F_OK) != 0, "%zu bytes, %s: no output written", size, commands[c]);
            free(out);
        }
    }
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
        long calls = 0;
        for (size_t i = 0; i < m->inst_count; i++)
            calls += spvcond_inst_opcode(m, i) == SPVCOND_OP_FUNCTION_CALL;
        cr_assert_eq(json_number(out, "call_edges"), calls);
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

/* A fresh temporary directory for one test. */
static const char *
temp_dir(void)
{
    static char dir[64];
    snprintf(dir, sizeof(dir), "/tmp/spvcond-cli-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    return dir;
}

static void
remove_dir(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(cli, annotate_check_specialize_chain)
{
    const char *dir = temp_dir();
    char args[2048], *out;
    snprintf(args, sizeof(args), "annotate %s -o %s/a.spv --props %s/a.prop 2>&1", fixture("annotate_graph"), dir, dir);
    cr_assert_eq(cli(args, &out), 0, "%s", out);
    cr_assert(strstr(out, "annotated: 4 roots (3 conditional), 3 requirements") != NULL, "%s", out);
    free(out);
    snprintf(args, sizeof(args), "validate %s/a.spv", dir);
    cr_assert_eq(cli(args, NULL), 0);
    snprintf(args, sizeof(args), "check --device intel_gpu_acm_g10 %s/a.spv k_double k_plain", dir);
    cr_assert_eq(cli(args, &out), 0);
    cr_assert(strstr(out, "k_double: not supported: Required aspect fp64 is not supported on the device\n"
                          "k_plain: supported\n") != NULL, "%s", out);
    free(out);
    snprintf(args, sizeof(args), "reqs --binary k_double %s/a.spv | od -A n -t x4 -w64 | tr -s ' ' 2>&1", dir);
    cr_assert_eq(cli(args, &out), 0);
    cr_assert(strstr(out, " 00000080 00000000 00000001 00000000 00000006 00010000") != NULL,
              "bit count 128, one entry: aspect 6, SpecId 0x10000: %s", out);
    free(out);
    snprintf(args, sizeof(args), "reqs --props %s/a.spv > %s/b.prop && cmp %s/a.prop %s/b.prop", dir, dir, dir, dir);
    cr_assert_eq(cli(args, NULL), 0, "annotate --props and reqs --props agree");
    snprintf(args, sizeof(args), "specialize -q --device intel_gpu_acm_g10 %s/a.spv -o %s/s.spv && %s --target-env spv1.2 %s/s.spv",
             dir, dir, getenv("SPIRV_VAL"), dir);
    cr_assert_eq(cli(args, NULL), 0);
    /* The C example does the same through the shared library. */
    snprintf(args, sizeof(args), "%s intel_gpu_acm_g10 %s/a.spv %s/e.spv && cmp %s/s.spv %s/e.spv", getenv("SPVCOND_EXAMPLE"),
             dir, dir, dir, dir);
    cr_assert_eq(run_capture(args, NULL), 0, "examples/specialize_device.c gives the CLI's output");
    remove_dir(dir);
}

Test(cli, spec_values_from_a_file_and_the_command_line)
{
    const char *dir = temp_dir();
    char path[256], args[2048], *out;
    snprintf(path, sizeof(path), "%s/values", dir);
    FILE *f = fopen(path, "w");
    fputs("# SpecId=value\n7=0x8  9=01 # trailing comment; 01 is one, not octal\n8=true\n", f);
    fclose(f);
    snprintf(args, sizeof(args), "specialize --spec-file %s %s -o %s/s.spv 2>&1 && %s info %s/s.spv", path,
             fixture("eval_conditions"), dir, getenv("SPVCOND_CLI"), dir);
    cr_assert_eq(cli(args, &out), 0, "%s", out);
    /* n = 8, d = 1, b = true: f_lt, f_slt, f_by_d and uses_app stay (test_specialize has the details). */
    cr_assert(strstr(out, "specialized: 4 functions kept, 4 removed") != NULL, "%s", out);
    free(out);
    snprintf(args, sizeof(args), "specialize --spec 7=x %s -o %s/s.spv 2>&1", fixture("eval_conditions"), dir);
    cr_assert_eq(cli(args, &out), 2);
    cr_assert(strstr(out, "value 'x' of SpecId 7 is not true, false or an unsigned integer") != NULL, "%s", out);
    free(out);
    snprintf(args, sizeof(args), "specialize --strict --spec 4242=1 %s -o %s/s.spv 2>&1", fixture("eval_conditions"), dir);
    cr_assert_eq(cli(args, &out), 1);
    cr_assert(strstr(out, "no spec constant carries SpecId 4242") != NULL, "%s", out);
    free(out);
    remove_dir(dir);
}

/* The write modes: the default, --sync (fsync of the file before the rename, of the directory after) and
 * --no-sync. */
static const char *const sync_modes[] = {"", "--sync", "--no-sync"};
#define SYNC_MODES (sizeof(sync_modes) / sizeof(sync_modes[0]))

/* The file holds "precious" and is alone in its directory with `others` other files. */
static void
assert_old_output_intact(const char *dir, const char *path, int others, const char *mode)
{
    FILE *f = fopen(path, "r");
    char buf[16] = {0}, args[512], *out;
    cr_assert(f && fread(buf, 1, sizeof(buf) - 1, f) == 8 && strcmp(buf, "precious") == 0,
              "%s: the old output is intact", mode);
    fclose(f);
    snprintf(args, sizeof(args), "ls %s | wc -l", dir);
    cr_assert_eq(run_capture(args, &out), 0);
    cr_assert_eq(atoi(out), 1 + others, "%s: no temporary file is left behind", mode);
    free(out);
}

static void
write_precious(const char *path)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("precious", f);
    fclose(f);
}

Test(cli, failure_leaves_existing_output_untouched)
{
    const char *dir = temp_dir();
    char path[256], args[2048], *out;
    snprintf(path, sizeof(path), "%s/out.spv", dir);
    write_precious(path);
    snprintf(args, sizeof(args), "specialize --target 4 %s -o %s 2>&1", fixture("fnvar_defect_b"), path);
    cr_assert_eq(cli(args, &out), 1);
    cr_assert(strstr(out, "would refer to %6 after specialization") != NULL, "%s", out);
    free(out);
    assert_old_output_intact(dir, path, 0, "a failed specialization");
    /* An unwritable directory: exit 3 and a clear message. */
    snprintf(args, sizeof(args), "specialize %s -o /proc/no-such-dir/out.spv 2>&1", fixture("eval_conditions"));
    cr_assert_eq(cli(args, &out), 3);
    cr_assert(strstr(out, "could not create a temporary file next to '/proc/no-such-dir/out.spv'") != NULL, "%s", out);
    free(out);
    remove_dir(dir);
}

/* A full disk: a 64 KB tmpfs, almost filled, and an output larger than what is left. Exit 3, a message
 * naming the file and the cause, the old output intact, no temporary file; in every write mode. Needs
 * permission to mount (root, as in CI); skipped otherwise. */
Test(cli, full_disk_leaves_existing_output_untouched)
{
    const char *dir = temp_dir();
    char args[2048], path[256], *out;
    snprintf(args, sizeof(args), "mount -t tmpfs -o size=64k spvcond-test %s 2>&1", dir);
    if (run_capture(args, &out) != 0) {
        free(out);
        remove_dir(dir);
        cr_skip("cannot mount a tmpfs here");
    }
    free(out);
    snprintf(path, sizeof(path), "%s/out.spv", dir);
    write_precious(path);
    snprintf(args, sizeof(args), "head -c 50000 /dev/zero > %s/filler", dir);
    cr_assert_eq(run_capture(args, &out), 0);
    free(out);
    for (size_t m = 0; m < SYNC_MODES; m++) {
        /* libclc annotated is about 2.6 MB: far more than the 14 KB left. */
        snprintf(args, sizeof(args), "annotate -q %s /usr/lib/clc/spirv64-mesa3d-.spv -o %s 2>&1", sync_modes[m],
                 path);
        int rc = cli(args, &out);
        cr_assert_eq(rc, 3, "%s: exit %d: %s", sync_modes[m], rc, out);
        cr_assert(strstr(out, "could not write") != NULL && strstr(out, "No space left on device") != NULL, "%s",
                  out);
        free(out);
        assert_old_output_intact(dir, path, 1, sync_modes[m]);
    }
    snprintf(args, sizeof(args), "umount %s", dir);
    cr_assert_eq(run_capture(args, &out), 0);
    free(out);
    remove_dir(dir);
}

/* The same without privileges: a file-size limit (ulimit -f, SIGXFSZ ignored, so that write fails with
 * EFBIG) stops the write part way, for every command that writes a module, in every write mode. */
Test(cli, failed_write_leaves_existing_output_untouched_in_every_mode)
{
    const char *dir = temp_dir();
    const char *commands[] = {"annotate -q", "specialize -q --device intel_gpu_pvc", "repair -q"};
    char args[2048], path[256], *out;
    snprintf(path, sizeof(path), "%s/out.spv", dir);
    write_precious(path);
    for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
        for (size_t m = 0; m < SYNC_MODES; m++) {
            snprintf(args, sizeof(args),
                     "sh -c 'trap \"\" XFSZ; ulimit -f 64; exec %s %s %s /usr/lib/clc/spirv64-mesa3d-.spv -o %s' 2>&1",
                     getenv("SPVCOND_CLI"), commands[c], sync_modes[m], path);
            int rc = run_capture(args, &out);
            cr_assert_eq(rc, 3, "%s %s: exit %d: %s", commands[c], sync_modes[m], rc, out);
            cr_assert(strstr(out, "could not write") != NULL && strstr(out, "File too large") != NULL, "%s", out);
            free(out);
            assert_old_output_intact(dir, path, 0, sync_modes[m]);
        }
    }
    remove_dir(dir);
}

/* Success in every mode gives the same bytes, with the usual permissions; --sync flushes the file and
 * then its directory, the other modes flush nothing (seen with strace when it is there and may trace). */
Test(cli, sync_flushes_the_output_and_its_directory)
{
    const char *dir = temp_dir();
    char args[2048], path[256], first[256], *out;
    snprintf(first, sizeof(first), "%s/first.spv", dir);
    snprintf(path, sizeof(path), "%s/out.spv", dir);
    snprintf(args, sizeof(args), "annotate -q %s -o %s", fixture("kernels_fp64"), first);
    cr_assert_eq(cli(args, NULL), 0);
    for (size_t m = 0; m < SYNC_MODES; m++) {
        snprintf(args, sizeof(args), "annotate -q %s %s -o %s", sync_modes[m], fixture("kernels_fp64"), path);
        cr_assert_eq(cli(args, NULL), 0, "%s", sync_modes[m]);
        snprintf(args, sizeof(args), "cmp %s %s && stat -c %%a %s", first, path, path);
        cr_assert_eq(run_capture(args, &out), 0, "%s: the same output", sync_modes[m]);
        mode_t mask = umask(0);
        umask(mask);
        cr_assert_eq(strtol(out, NULL, 8), 0666 & ~mask, "%s: mode %s", sync_modes[m], out);
        free(out);
    }
    if (run_capture("strace -o /dev/null true 2>&1", &out) != 0) {
        free(out);
        remove_dir(dir);
        cr_skip("strace cannot trace here");
    }
    free(out);
    for (size_t m = 0; m < SYNC_MODES; m++) {
        /* LeakSanitizer cannot run under ptrace. */
        snprintf(args, sizeof(args), "ASAN_OPTIONS=detect_leaks=0 strace -e trace=fsync,rename,openat -o %s/trace %s annotate -q %s %s -o %s && "
                 "grep -E 'fsync|rename|O_DIRECTORY' %s/trace", dir, getenv("SPVCOND_CLI"), sync_modes[m],
                 fixture("kernels_fp64"), path, dir);
        cr_assert_eq(run_capture(args, &out), 0, "%s", sync_modes[m]);
        char *rename = strstr(out, "rename("), *fsync_file = strstr(out, "fsync(");
        cr_assert_not_null(rename, "%s", out);
        if (strcmp(sync_modes[m], "--sync") == 0) {
            /* fsync of the file, the rename, then the directory opened and flushed. */
            cr_assert(fsync_file && fsync_file < rename, "--sync: the file flushed before the rename: %s", out);
            char *dir_open = strstr(rename, "O_DIRECTORY");
            cr_assert(dir_open && strstr(dir_open, "fsync("), "--sync: the directory flushed after: %s", out);
        } else {
            cr_assert_null(fsync_file, "'%s': nothing flushed: %s", sync_modes[m], out);
        }
        free(out);
    }
    /* split: with --sync each file of the new directory, then the directory once before it is renamed into
     * place, then the directory that holds it; otherwise nothing. */
    for (size_t m = 0; m < SYNC_MODES; m++) {
        snprintf(args, sizeof(args), "ASAN_OPTIONS=detect_leaks=0 strace -e trace=fsync,rename,openat -o %s/trace %s split "
                 "-q --force %s %s -o %s/images && echo files $(ls %s/images | wc -l) && grep -c 'fsync(' %s/trace; "
                 "grep -E 'fsync|rename|O_DIRECTORY' %s/trace", dir, getenv("SPVCOND_CLI"), sync_modes[m],
                 fixture("kernels_fp64"), dir, dir, dir, dir);
        cr_assert_eq(run_capture(args, &out), 0, "split %s: %s", sync_modes[m], out);
        int files = 0, flushes = -1;
        cr_assert_eq(sscanf(out, "files %d %d", &files, &flushes), 2, "%s", out);
        bool sync = strcmp(sync_modes[m], "--sync") == 0;
        cr_assert(files >= 4, "split wrote images and the table: %s", out);
        cr_assert_eq(flushes, sync ? files + 2 : 0, "split %s: %d flushes for %d files: %s", sync_modes[m], flushes,
                     files, out);
        char *rename = strstr(out, "rename(");
        cr_assert(!sync || (rename && strstr(rename, "O_DIRECTORY") && strstr(strstr(rename, "O_DIRECTORY"), "fsync(")),
                  "--sync: the directory that holds the images flushed after the rename: %s", out);
        free(out);
    }
    remove_dir(dir);
}

Test(cli, devices_and_validate)
{
    char args[1024], *out;
    cr_assert_eq(cli("devices", &out), 0);
    cr_assert(strstr(out, "intel_gpu_acm_g10") != NULL && strstr(out, "nvidia_gpu_sm_90") != NULL);
    free(out);
    cr_assert_eq(cli("devices --json | python3 -c 'import json,sys; assert len(json.load(sys.stdin)) > 70'", NULL), 0);
    snprintf(args, sizeof(args), "validate %s 2>&1", fixture("validate_bad"));
    cr_assert_eq(cli(args, &out), 1);
    cr_assert(strstr(out, "8 violations") != NULL, "%s", out);
    free(out);
    snprintf(args, sizeof(args), "check --device no_such_device %s 2>&1", fixture("annotate_graph"));
    cr_assert_eq(cli(args, &out), 2);
    cr_assert(strstr(out, "unknown device 'no_such_device'") != NULL, "%s", out);
    free(out);
}

/* A part of the device's architecture without the rest, or features without a target, is a usage error
 * naming what is missing: no part is taken as 0 and none is dropped without a word. */
Test(cli, device_facts_come_whole)
{
    const struct {
        const char *options, *message;
    } cases[] = {
        {"--category 1", "--family is missing"},
        {"--category 1 --family 1", "--arch is missing"},
        {"--arch 12 --family 1", "--family needs --category"},
        {"--arch 12", "a number needs --category and --family"},
        {"--features 10", "--features needs a target"},
        {"--target x86_65", "the device registry (version 0) has no 'x86_65'"},
        {"--target x86_64 --features avx3", "no 'avx3' among the features of target x86_64"},
        {"--arch intel_gpu_pvd", "no 'intel_gpu_pvd'"},
        {"--category gpu --family intel --arch pvd", "no 'pvd' in family gpu/intel"},
        {"--unspecified some", "none of error, unknown, any"},
    };
    char args[1024], *out;
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        for (int command = 0; command < 2; command++) {
            snprintf(args, sizeof(args), "%s %s %s 2>&1", command ? "check" : "specialize -o -", cases[k].options,
                     fixture("fnvar_device"));
            cr_assert_eq(cli(args, &out), 2, "%s", args);
            cr_assert(strstr(out, cases[k].message) != NULL, "%s: %s", args, out);
            free(out);
        }
    }
    /* Every fact given, by number or by name, or the rest left to --unspecified. */
    snprintf(args, sizeof(args), "specialize -q --category 1 --family 1 --arch 12 --target 4 --features 10,11 "
             "--capabilities Int64,Float64 %s -o -", fixture("fnvar_device"));
    cr_assert_eq(cli(args, NULL), 0, "%s", args);
    snprintf(args, sizeof(args), "specialize -q --category cpu --family intel --arch gdc --target x86_64 --features "
             "avx,avx2 --capabilities Int64 %s -o -", fixture("fnvar_device"));
    cr_assert_eq(cli(args, NULL), 0, "%s", args);
    snprintf(args, sizeof(args), "specialize -q --category 1 --family 1 --unspecified unknown %s -o -",
             fixture("fnvar_device"));
    cr_assert_eq(cli(args, NULL), 0, "%s", args);
    snprintf(args, sizeof(args), "specialize --target 4 %s -o - 2>&1", fixture("fnvar_device"));
    cr_assert_eq(cli(args, &out), 2, "%s", args);
    cr_assert(strstr(out, "(target x86_64 features avx/avx2) needs the device's features, which nobody gave") != NULL,
              "%s", out);
    free(out);
}

/* The device registry listed: every target, feature, category, family and architecture with its value,
 * the names the device options take. */
Test(cli, devices_lists_the_registry)
{
    char *out;
    cr_assert_eq(cli("devices --registry", &out), 0);
    cr_assert(strstr(out, "target       x86_64") && strstr(out, "feature      x86_64/avx512f                       12"),
              "%s", out);
    cr_assert(strstr(out, "architecture gpu/intel/pvc                        21"));
    cr_assert(strstr(out, "feature      riscv64/zvl8192b                     242"));
    cr_assert(strstr(out, "family       npu/amd_xdna                         2"));
    free(out);
    cr_assert_eq(cli("devices --registry --json", &out), 0);
    cr_assert(strstr(out, "{\"kind\":\"architecture\",\"name\":\"gpu/amd/gfx1200\",\"value\":16}"), "%s", out);
    free(out);
    cr_assert_eq(cli("devices --registry --table dpcpp 2>/dev/null", NULL), 2);
    /* A built-in device's function-variants facts, listed. */
    cr_assert_eq(cli("devices --json", &out), 0);
    cr_assert(strstr(out, "\"architecture_name\":\"gpu/nvidia/sm80\",\"target\":\"nvptx64\",\"capabilities\":["),
              "%s", out);
    free(out);
}

/* info says how a multi-target module's variants cover the devices its constants tell apart. */
Test(cli, info_tells_coverage)
{
    char args[1024], *out;
    snprintf(args, sizeof(args), "info %s", fixture("dot_two_widths"));
    cr_assert_eq(cli(args, &out), 0);
    cr_assert(strstr(out, "coverage (devices its constants tell apart") && strstr(out, "entry point dot4: %3 for 36 (") &&
              strstr(out, "; none for 2264 (a device with"), "%s", out);
    free(out);
    snprintf(args, sizeof(args), "info --json %s", fixture("three_ops"));
    cr_assert_eq(cli(args, &out), 0);
    cr_assert(strstr(out, "\"coverage\":[{\"name\":\"apply\",\"entry_point\":false,\"copy\":41,\"devices\":512,"),
              "%s", out);
    free(out);
}

/* An output that is no regular file (a pipe here; /dev/null likewise) is written in place: a rename
 * would put a regular file where the pipe or device was. */
Test(cli, an_output_pipe_stays_a_pipe)
{
    const char *dir = temp_dir();
    char cmd[2048], *out = NULL;
    snprintf(cmd, sizeof(cmd),
             "cd %s && mkfifo p && { cat p > got & } && %s specialize -q %s -o p && wait && test -p p && "
             "%s specialize -q %s -o want && cmp got want 2>&1",
             dir, getenv("SPVCOND_CLI"), fixture("kernels_fp64"), getenv("SPVCOND_CLI"), fixture("kernels_fp64"));
    cr_assert_eq(run_capture(cmd, &out), 0, "%s", out ? out : "");
    free(out);
    remove_dir(dir);
}
