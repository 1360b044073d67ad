/* SPDX-License-Identifier: MIT */
/* spvcond's entry point: the command line is cli_main's (spvcond.c). */
#include "cli.h"

int
main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
