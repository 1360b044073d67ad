// SPDX-License-Identifier: MIT
// The steps of NVIDIA's route that ptx_builtins.cpp carries out for ptx.cpp: each false with the reason in
// `error`. Call them with ptx.cpp's lowering lock held (the libraries are read once and shared).
#ifndef SPVCOND_LAYER_PTX_STEPS_H
#define SPVCOND_LAYER_PTX_STEPS_H

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Module.h>

#include <string>

namespace ptx {

// libclc's nvptx64 library read (once), and its functions indexed by canonical name.
bool load_builtins(std::string &error);
// printf calls as calls of the driver's vprintf.
bool lower_printf(llvm::Module &m, std::string &error);
// Built-ins named as libclc names them, defined from libdevice or in float where that serves, and linked.
bool link_builtins(llvm::Module &m, std::string &error);
// libclc's native_* math as the GPU's approximate instructions.
bool lower_native_math(llvm::Module &m, std::string &error);
// Single-precision divisions as the driver's OpenCL C compiler makes them (div.full.f32; ptx_precision.cpp).
void divide_as_driver(llvm::Module &m);
// get_global_id and get_global_offset as NVIDIA's driver hands a launch its offset (ptx_workitems.cpp).
void work_items_as_driver(llvm::Module &m);
// The kernels, as !nvvm.annotations names them (mark_kernels in ptx.cpp).
llvm::SmallPtrSet<const llvm::Function *, 16> kernels_of(const llvm::Module &m);
// OpenCL's image built-ins as texture fetches, surface stores and queries, kernels' image and sampler
// parameters and constant samplers named for the back end (ptx_images.cpp); before the built-ins are linked.
bool lower_images(llvm::Module &m, std::string &error);
// Every image and sampler the optimized module uses named as the back end can name it (a kernel's parameter,
// a module-level sampler, made again where used); false for one that is not (the back end would end the
// process).
bool name_image_handles(llvm::Module &m, std::string &error);
// Saturated conversions from floating point as OpenCL defines them (NaN to 0), before the built-ins are linked.
void saturate_as_opencl(llvm::Module &m);
// Whether the back end can select every call left (no C library function would be called).
bool selectable(const llvm::Module &m, std::string &error);

} // namespace ptx

#endif
