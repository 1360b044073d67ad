/* SPDX-License-Identifier: MIT */
/* How a device takes SPIR-V through the layer (docs/opencl-layer.md, "Routes"). */
#ifndef SPVCOND_LAYER_ROUTE_H
#define SPVCOND_LAYER_ROUTE_H

/* How a device takes SPIR-V. */
enum layer_route {
    LAYER_ROUTE_NONE = 0,      /* it does not: programs from IL are refused as the driver would */
    LAYER_ROUTE_IL,            /* clCreateProgramWithIL: the driver reads SPIR-V itself */
    LAYER_ROUTE_SPIRV_BINARY,  /* rusticl: SPIR-V as a program binary behind its 12-byte header */
    LAYER_ROUTE_BITCODE,       /* cl_khr_spir (pocl): LLVM bitcode from the SPIR-V/LLVM translator */
    LAYER_ROUTE_PTX,           /* NVIDIA: PTX from the translator, libclc's nvptx64 built-ins, LLVM's NVPTX back end */
};

#endif
