// SPDX-License-Identifier: MIT
// SPIR-V -> LLVM bitcode in process, with the SPIR-V/LLVM translator's library (Debian's
// libllvmspirvlib-15-dev), for drivers that take SPIR-V only as cl_khr_spir's LLVM bitcode (pocl). The
// same translation as `llvm-spirv-15 -r`: OpenCL 1.2 built-in names, every SPIR-V extension read.
#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>

extern "C" {
#include "builtin_names.h"
#include "layer.h"
}

// Built-ins named as clang names them: the translator counts OpenCL's types (images, samplers, events) as
// substitution candidates, clang does not, so `write_imagei` of a 3D image and an int4 is the translator's
// `_Z12write_imagei14ocl_image3d_woDv4_iS0_` and clang's `..._woDv4_iS_`, which libraries built by clang
// define (pocl's kernel library: the first name is not found and the whole program fails to link).
static void
name_builtins_as_clang(llvm::Module &module)
{
    char name[1024];
    for (llvm::Function &f : module) {
        if (!f.isDeclaration() || f.getName().find("ocl_") == llvm::StringRef::npos ||
            !layer_builtin_clang_name(f.getName().str().c_str(), name, sizeof(name)) || f.getName() == name)
            continue;
        if (llvm::Function *other = module.getFunction(name)) {
            if (other->getFunctionType() == f.getFunctionType())
                f.replaceAllUsesWith(other);
            continue;
        }
        f.setName(name);
    }
}

// pocl 3.1's kernel library defines write_imagei of a 3D or 2D-array image, under clang's name, by a function
// it does not define: the program builds, and pocl ends the process at the first launch of any of its kernels.
static const llvm::Function *
pocl_cannot_run(const llvm::Module &module)
{
    for (const llvm::Function &f : module)
        if (f.isDeclaration() && f.getName().startswith("_Z12write_imagei") &&
            (f.getName().contains("ocl_image3d_") || f.getName().contains("ocl_image2d_array_")))
            return &f;
    return nullptr;
}

// The translator is not safe to run on two threads at once (Intel's opencl-clang serializes it for that
// reason): one translation at a time in the process.
static std::mutex translating;

extern "C" bool
layer_can_translate(void)
{
    return true;
}

// LLVM's library and the translator's, whose builds decide the bitcode (the cache's key reads them).
extern "C" size_t
layer_translator_anchors(const void **anchors, size_t max)
{
    const void *all[] = {
        reinterpret_cast<const void *>(static_cast<bool (*)(const llvm::Module &, llvm::raw_ostream *, bool *)>(
            &llvm::verifyModule)),
        reinterpret_cast<const void *>(
            static_cast<bool (*)(llvm::LLVMContext &, const SPIRV::TranslatorOpts &, std::istream &, llvm::Module *&,
                                 std::string &)>(&llvm::readSpirv)),
    };
    size_t n = 0;
    for (; n < max && n < sizeof(all) / sizeof(all[0]); n++)
        anchors[n] = all[n];
    return n;
}

extern "C" bool
layer_translate(const uint32_t *words, size_t count, bool for_pocl, unsigned char **bitcode, size_t *size, char *msg,
                size_t msg_size)
{
    *bitcode = nullptr;
    *size = 0;
    std::string error;
    std::lock_guard<std::mutex> one_at_a_time(translating);
    try {
        llvm::LLVMContext context;
        context.setOpaquePointers(false); // the translator of LLVM 15 writes typed pointers, as llvm-spirv-15 does
        std::istringstream in(std::string(reinterpret_cast<const char *>(words), count * 4));
        SPIRV::TranslatorOpts opts(SPIRV::VersionNumber::MaximumVersion);
        opts.enableAllExtensions();
        opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::OpenCL12);
        llvm::Module *raw = nullptr;
        if (!llvm::readSpirv(context, opts, in, raw, error)) {
            delete raw;
            snprintf(msg, msg_size, "the SPIR-V/LLVM translator refused the module: %s", error.c_str());
            return false;
        }
        std::unique_ptr<llvm::Module> module(raw);
        // The translator can write IR that LLVM rejects from SPIR-V that the validator accepts; a driver that
        // takes the bitcode as its own may not survive that (pocl frees the module twice on the failed build).
        std::string broken;
        llvm::raw_string_ostream why(broken);
        if (llvm::verifyModule(*module, &why)) {
            snprintf(msg, msg_size, "the SPIR-V/LLVM translator made invalid LLVM IR of the module: %s",
                     why.str().substr(0, 300).c_str());
            return false;
        }
        name_builtins_as_clang(*module);
        if (const llvm::Function *f = for_pocl ? pocl_cannot_run(*module) : nullptr) {
            snprintf(msg, msg_size, "pocl's kernel library cannot run %s (integer writes to a 3D or 2D-array image): "
                     "it defines it by a function it does not define, and pocl would end the process at the first "
                     "launch", f->getName().str().c_str());
            return false;
        }
        llvm::SmallVector<char, 0> buffer;
        llvm::raw_svector_ostream out(buffer);
        llvm::WriteBitcodeToFile(*module, out);
        *bitcode = static_cast<unsigned char *>(malloc(buffer.size()));
        if (!*bitcode) {
            snprintf(msg, msg_size, "out of memory");
            return false;
        }
        memcpy(*bitcode, buffer.data(), buffer.size());
        *size = buffer.size();
        return true;
    } catch (const std::exception &e) {
        snprintf(msg, msg_size, "the SPIR-V/LLVM translator failed: %s", e.what());
        return false;
    }
}
