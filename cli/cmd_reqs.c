/* SPDX-License-Identifier: MIT */
/* spvcond reqs: what each kernel of an annotated module requires, as text, JSON or a property set. */
#include <string.h>

#include "cli.h"
#include "json_writer.h"

static const char reqs_usage[] =
    "USAGE: spvcond reqs [--json | --props | --binary KERNEL [-o FILE]] [<input>]\n"
    "\n"
    "Print what each kernel of an annotated module requires, read from its named spec constants\n"
    "(spvcond.aspect.*, spvcond.reqd_*, spvcond.capability.*), with the SpecId that stands for each requirement.\n";

static void
describe_requirement(const spvcond_kernel_requirement *q, char *buf, size_t size)
{
    const char *name;
    switch (q->type) {
    case SPVCOND_REQUIREMENT_ASPECT:
        name = spvcond_aspect_name(q->values[0]);
        if (name)
            snprintf(buf, size, "aspect %s (%u)", name, q->values[0]);
        else
            snprintf(buf, size, "aspect %u", q->values[0]);
        break;
    case SPVCOND_REQUIREMENT_WORK_GROUP_SIZE:
        snprintf(buf, size, "reqd_work_group_size %u %u %u", q->values[0], q->dims > 1 ? q->values[1] : 1,
                 q->dims > 2 ? q->values[2] : 1);
        break;
    case SPVCOND_REQUIREMENT_CAPABILITY:
        name = spvcond_capability_name(q->values[0]);
        if (name)
            snprintf(buf, size, "capability %s (%u)", name, q->values[0]);
        else
            snprintf(buf, size, "capability %u", q->values[0]);
        break;
    default:
        snprintf(buf, size, "reqd_sub_group_size %u", q->values[0]);
        break;
    }
}

struct reqs_args {
    bool json, props;
    const char *binary, *output;
};

/* --binary KERNEL: its property value, into -o's file. */
static spvcond_result
write_binary(struct cli *cli, const spvcond_requirements *r, const char *kernel, const char *output, int *rc)
{
    size_t k = 0;
    while (k < spvcond_requirements_kernel_count(r) && strcmp(spvcond_requirements_kernel_name(r, k), kernel))
        k++;
    if (k == spvcond_requirements_kernel_count(r)) {
        cli_error("the module has no kernel named '%s'", kernel);
        return SPVCOND_ERROR_NOT_FOUND;
    }
    uint8_t *bytes;
    size_t size;
    spvcond_result res = spvcond_requirements_kernel_bytes(r, k, &bytes, &size);
    if (res == SPVCOND_OK) {
        *rc = cli_write_file(cli, output ? output : "-", bytes, size);
        spvcond_free(cli->ctx, bytes);
    }
    return res;
}

/* One requirement of a kernel, in JSON. */
static void
json_requirement(struct json *j, const spvcond_kernel_requirement *q)
{
    static const char *const types[] = {"aspect", "reqd_work_group_size", "reqd_sub_group_size", "capability"};
    json_object_begin(j);
    json_kv_string(j, "type", types[q->type <= 3 ? q->type : 0]);
    json_key(j, "values");
    json_array_begin(j);
    for (uint32_t d = 0; d < q->dims; d++)
        json_uint(j, q->values[d]);
    json_array_end(j);
    if (q->type == SPVCOND_REQUIREMENT_ASPECT && spvcond_aspect_name(q->values[0]))
        json_kv_string(j, "aspect", spvcond_aspect_name(q->values[0]));
    if (q->type == SPVCOND_REQUIREMENT_CAPABILITY && spvcond_capability_name(q->values[0]))
        json_kv_string(j, "capability", spvcond_capability_name(q->values[0]));
    json_kv_uint(j, "spec_id", q->spec_id);
    json_object_end(j);
}

/* Each kernel and its requirements, as text or (json) JSON. */
static void
print_kernels(const spvcond_requirements *r, bool json)
{
    struct json j;
    json_init(&j, stdout);
    if (json)
        json_array_begin(&j);
    for (size_t k = 0; k < spvcond_requirements_kernel_count(r); k++) {
        size_t n = spvcond_requirements_count(r, k);
        if (json) {
            json_object_begin(&j);
            json_kv_string(&j, "kernel", spvcond_requirements_kernel_name(r, k));
            json_key(&j, "requirements");
            json_array_begin(&j);
        } else {
            printf("%s:%s\n", spvcond_requirements_kernel_name(r, k), n ? "" : " no requirements");
        }
        for (size_t i = 0; i < n; i++) {
            const spvcond_kernel_requirement *q = spvcond_requirements_get(r, k, i);
            char text[96];
            describe_requirement(q, text, sizeof(text));
            if (json)
                json_requirement(&j, q);
            else
                printf("  %s, SpecId %u\n", text, q->spec_id);
        }
        if (json) {
            json_array_end(&j);
            json_object_end(&j);
        }
    }
    if (json)
        json_array_end(&j);
    else if (spvcond_requirements_virtual_sets(r))
        printf("virtual-function sets used: %s\n", spvcond_requirements_virtual_sets(r));
}

static int
run_reqs(struct cli *cli, void *args)
{
    const struct reqs_args *a = args;
    spvcond_module *m;
    int rc = cli_load_module(cli, cli_input(cli), &m);
    if (rc != EXIT_OK)
        return rc;
    spvcond_requirements *r;
    spvcond_result res = spvcond_requirements_from_module(m, &r);
    if (res == SPVCOND_OK && a->binary) {
        res = write_binary(cli, r, a->binary, a->output, &rc);
    } else if (res == SPVCOND_OK && a->props) {
        char *text;
        size_t size;
        if ((res = spvcond_requirements_write_props(r, &text, &size)) == SPVCOND_OK) {
            fwrite(text, 1, size, stdout);
            spvcond_free(cli->ctx, text);
        }
    } else if (res == SPVCOND_OK) {
        print_kernels(r, a->json);
    }
    spvcond_requirements_destroy(r);
    spvcond_module_destroy(m);
    return res != SPVCOND_OK ? cli_exit_code(res) : rc;
}

static const struct cli_opt reqs_options[] = {
    {.name = "json", .kind = CLI_OPT_FLAG, .offset = offsetof(struct reqs_args, json), .excludes = "props",
     .help = "The same as JSON."},
    CLI_FLAG("props", 0, struct reqs_args, props,
             "DPC++'s property-file text: [SYCL/kernel reqs], name=2|<byte array>\n"
             "(spec/props.md)."),
    CLI_STRING("binary", 0, "KERNEL", struct reqs_args, binary,
               "The raw property value of one kernel (8-byte bit count, then uint32 words)."),
    CLI_STRING(NULL, 'o', "FILE", struct reqs_args, output, "Where --binary writes (default: standard output)."),
    CLI_SYNC,
    CLI_END,
};

const struct cli_command cli_reqs = {
    .name = "reqs",
    .summary = "Print what each kernel of an annotated module requires (text, JSON, property set).",
    .usage = reqs_usage,
    .options = reqs_options,
    .args_size = sizeof(struct reqs_args),
    CLI_ONE_INPUT,
    .run = run_reqs,
};
