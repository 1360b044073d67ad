/* SPDX-License-Identifier: MIT */
/* spvcond opencl in a tool built without the OpenCL headers: it says so. */
#include "cli.h"

static int
run_opencl(struct cli *cli, void *args)
{
    (void)cli, (void)args;
    cli_error("this spvcond was built without the OpenCL headers (opencl-headers): no opencl command");
    return EXIT_USAGE;
}

static const struct cli_opt opencl_options[] = {CLI_END};

const struct cli_command cli_opencl = {
    .name = "opencl",
    .summary = "Whether the OpenCL layer is active, and what each OpenCL device takes.",
    .usage = "USAGE: spvcond opencl\n\nThis build has no OpenCL headers: the command only says so.\n",
    .options = opencl_options,
    .args_size = 1,
    .min_inputs = 0,
    .max_inputs = 0,
    .run = run_opencl,
};
