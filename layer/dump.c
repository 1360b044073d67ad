/* SPDX-License-Identifier: MIT */
/* A look inside (docs/opencl-layer.md, "What each device got"): with SPVCOND_LAYER_DUMP naming a folder, the
 * layer writes there, for every program it makes and every device, the module specialized for the device
 * and what the driver was given (SPIR-V, rusticl's binary, LLVM bitcode, PTX). */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layer.h"

static atomic_uint programs_made;

unsigned
layer_dump_program(void)
{
    const char *dir = getenv("SPVCOND_LAYER_DUMP");
    return dir && *dir ? atomic_fetch_add(&programs_made, 1) + 1 : 0;
}

/* The file name's last part: what it holds, by route. */
static const char *
suffix(enum layer_route route, bool driver_form)
{
    if (!driver_form)
        return "specialized.spv";
    switch (route) {
    case LAYER_ROUTE_IL:
        return "il.spv";
    case LAYER_ROUTE_SPIRV_BINARY:
        return "rusticl.bin";
    case LAYER_ROUTE_BITCODE:
        return "bc";
    case LAYER_ROUTE_PTX:
        return "ptx";
    default:
        return "bin";
    }
}

bool
layer_write_whole(int fd, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, p + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        done += (size_t)w;
    }
    return true;
}

void
layer_dump(unsigned program, size_t device, const struct layer_device *d, bool driver_form, const void *data,
           size_t size)
{
    const char *dir = getenv("SPVCOND_LAYER_DUMP");
    if (!program || !dir || !*dir || !data)
        return;
    const char *what = suffix(d->route, driver_form);
    if (d->route == LAYER_ROUTE_PTX && driver_form && size > 0 && ((const char *)data)[size - 1] == 0)
        size--; /* the driver's C string, written as text */
    char path[4096];
    int n = snprintf(path, sizeof(path), "%s/%ld-%u-device%zu.%s", dir, (long)getpid(), program, device, what);
    if (n < 0 || (size_t)n >= sizeof(path)) {
        fprintf(stderr, "spvcond layer: SPVCOND_LAYER_DUMP: the folder's name is too long\n");
        return;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    bool written = fd >= 0 && layer_write_whole(fd, data, size);
    if (fd >= 0 && close(fd) != 0)
        written = false;
    if (!written)
        fprintf(stderr, "spvcond layer: SPVCOND_LAYER_DUMP: cannot write %s: %s\n", path, strerror(errno));
}
