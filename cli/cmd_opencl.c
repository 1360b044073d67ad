/* SPDX-License-Identifier: MIT */
/* spvcond opencl: whether the OpenCL layer is active in this process's OpenCL, and what each device takes.
 * The ICD loader (libOpenCL.so.1) is opened at run time, so that the tool itself needs no OpenCL: what the
 * loader's platforms and devices report is what an application sees, with the layer named by OPENCL_LAYERS
 * (or --layer, or the one installed beside the library). A loader that loads no layers (the CUDA toolkit's
 * own libOpenCL.so.1) is said plainly: the layer is then never asked, and SPIR-V fails with -59. */
#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char opencl_usage[] =
    "USAGE: spvcond opencl [--layer LAYER] [--verbose]\n"
    "\n"
    "Open the OpenCL ICD loader (libOpenCL.so.1, as an application would) with the spvcond layer named\n"
    "by OPENCL_LAYERS, else by --layer, else the one installed beside the library, and say: which loader\n"
    "was found, whether it loaded the layer (CUDA's own loader loads no layers), and for each platform and\n"
    "device whether it takes SPIR-V (CL_DEVICE_IL_VERSION: through the layer, or the driver's own). Exit\n"
    "status 1 when the loader cannot be opened or did not load the layer.\n";

struct opencl_args {
    const char *layer;
    int verbose;
};

/* The loader's entries this command calls. */
struct loader {
    cl_int(CL_API_CALL *platform_ids)(cl_uint, cl_platform_id *, cl_uint *);
    cl_int(CL_API_CALL *platform_info)(cl_platform_id, cl_platform_info, size_t, void *, size_t *);
    cl_int(CL_API_CALL *device_ids)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);
    cl_int(CL_API_CALL *device_info)(cl_device_id, cl_device_info, size_t, void *, size_t *);
};

/* An entry by name (ISO C has no conversion of void * to a function pointer). */
static bool
entry(void *library, const char *name, void *out, size_t size)
{
    void *address = dlsym(library, name);
    if (address)
        memcpy(out, &address, size);
    return address != NULL;
}

/* The layer installed beside the library, if there is one there: malloc'd, or NULL. */
static char *
installed_layer(void)
{
    Dl_info info;
    uint32_t (*version)(void) = spvcond_version;
    void *address;
    memcpy(&address, &version, sizeof(address));
    if (!dladdr(address, &info) || !info.dli_fname || !strchr(info.dli_fname, '/'))
        return NULL;
    size_t dir = (size_t)(strrchr(info.dli_fname, '/') - info.dli_fname);
    char *path = malloc(dir + sizeof("/libspvcond-opencl-layer.so"));
    if (!path)
        return NULL;
    memcpy(path, info.dli_fname, dir);
    strcpy(path + dir, "/libspvcond-opencl-layer.so");
    if (access(path, R_OK) != 0) {
        free(path);
        return NULL;
    }
    return path;
}

static void
print_device(const struct loader *cl, cl_device_id d, cl_uint k)
{
    char name[256] = "?", version[256] = "?", il[512] = "";
    cl->device_info(d, CL_DEVICE_NAME, sizeof(name) - 1, name, NULL);
    cl->device_info(d, CL_DEVICE_VERSION, sizeof(version) - 1, version, NULL);
    bool has_il = cl->device_info(d, CL_DEVICE_IL_VERSION, sizeof(il) - 1, il, NULL) == CL_SUCCESS &&
                  strstr(il, "SPIR-V");
    printf("  device %u: %s (%s)\n", k, name, version);
    printf("    SPIR-V: %s\n",
           has_il ? il : "none (programs from IL fail: CL_INVALID_OPERATION, -59, or the driver's error)");
}

/* The loader and its entries; false, said, when it cannot be opened. */
static bool
open_loader(struct loader *cl)
{
    void *library = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        cli_error("no OpenCL ICD loader: %s (install ocl-icd-libopencl1)", dlerror());
        return false;
    }
    /* the loader stays open: its drivers may have handlers that run at exit */
    if (!entry(library, "clGetPlatformIDs", &cl->platform_ids, sizeof(cl->platform_ids)) ||
        !entry(library, "clGetPlatformInfo", &cl->platform_info, sizeof(cl->platform_info)) ||
        !entry(library, "clGetDeviceIDs", &cl->device_ids, sizeof(cl->device_ids)) ||
        !entry(library, "clGetDeviceInfo", &cl->device_info, sizeof(cl->device_info))) {
        cli_error("libOpenCL.so.1 lacks an entry of OpenCL 1.0");
        return false;
    }
    Dl_info where;
    void *address;
    memcpy(&address, &cl->platform_ids, sizeof(address));
    printf("ICD loader: %s\n", dladdr(address, &where) && where.dli_fname ? where.dli_fname : "libOpenCL.so.1");
    return true;
}

/* Whether the loader loaded the layer: it loads its layers before it answers clGetPlatformIDs, so the layer is
 * in the process now, or never will be. */
static bool
layer_loaded(const char *layer)
{
    void *loaded = layer ? dlopen(layer, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (loaded) {
        printf("the layer: loaded by the ICD loader\n");
        dlclose(loaded);
    } else if (layer) {
        printf("the layer: NOT loaded. This libOpenCL.so.1 loads no layers (the CUDA toolkit's own does not: put\n"
               "ocl-icd's first, LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu), or OPENCL_LAYERS names no file it finds.\n");
    }
    return loaded != NULL;
}

static void
print_platforms(const struct loader *cl, const cl_platform_id *platforms, cl_uint n)
{
    printf("platforms: %u\n", n);
    for (cl_uint p = 0; p < n; p++) {
        char name[256] = "?";
        cl->platform_info(platforms[p], CL_PLATFORM_NAME, sizeof(name) - 1, name, NULL);
        printf("platform %u: %s\n", p, name);
        cl_device_id devices[16];
        cl_uint count = 0;
        if (cl->device_ids(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &count) != CL_SUCCESS)
            count = 0;
        for (cl_uint k = 0; k < count && k < 16; k++)
            print_device(cl, devices[k], k);
    }
}

static int
run_opencl(struct cli *cli, void *args)
{
    (void)cli;
    const struct opencl_args *a = args;
    char *installed = NULL;
    const char *layer = getenv("OPENCL_LAYERS");
    if (!layer || !*layer)
        layer = a->layer ? a->layer : (installed = installed_layer());
    if (layer && !getenv("OPENCL_LAYERS"))
        setenv("OPENCL_LAYERS", layer, 1);
    if (a->verbose)
        setenv("SPVCOND_LAYER_DEBUG", "1", 1);
    printf("OPENCL_LAYERS: %s\n", layer ? layer : "(not set, and no layer installed beside the library)");
    struct loader cl;
    if (!open_loader(&cl)) {
        free(installed);
        return EXIT_INVALID;
    }
    cl_uint n = 0;
    cl_platform_id platforms[32];
    if (cl.platform_ids(32, platforms, &n) != CL_SUCCESS)
        n = 0;
    int rc = layer_loaded(layer) ? EXIT_OK : EXIT_INVALID;
    print_platforms(&cl, platforms, n < 32 ? n : 32);
    free(installed);
    return rc;
}

static const struct cli_opt opencl_options[] = {
    CLI_STRING("layer", 0, "LAYER", struct opencl_args, layer,
               "The layer to load when OPENCL_LAYERS is not set (default: the one installed\n"
               "beside the library)."),
    CLI_FLAG("verbose", 'v', struct opencl_args, verbose,
             "SPVCOND_LAYER_DEBUG=1: the layer says each device's route and facts on\nstandard error."),
    CLI_END,
};

const struct cli_command cli_opencl = {
    .name = "opencl",
    .summary = "Whether the OpenCL layer is active, and what each OpenCL device takes.",
    .usage = opencl_usage,
    .options = opencl_options,
    .args_size = sizeof(struct opencl_args),
    .min_inputs = 0,
    .max_inputs = 0,
    .run = run_opencl,
};
