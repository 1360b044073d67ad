// SPDX-License-Identifier: MIT
// SPIR-V -> LLVM bitcode in process, with the SPIR-V/LLVM translator's library (Debian's
// libllvmspirvlib-15-dev), for drivers that take SPIR-V only as cl_khr_spir's LLVM bitcode (pocl). The
// same translation as `llvm-spirv-15 -r`: OpenCL 1.2 built-in names, every SPIR-V extension read.
#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

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

// A kernel that another kernel calls: the translator writes the call with spir_func's calling convention to the
// spir_kernel function, a mismatch whose behaviour LLVM leaves undefined (its optimizer may delete such a call).
// The call goes to a copy of the kernel as an ordinary function, as clang writes it since LLVM 18; the kernel
// itself stays an entry point.
static void
kernel_calls_as_function_calls(llvm::Module &module)
{
    std::vector<llvm::Function *> kernels;
    for (llvm::Function &f : module)
        if (!f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
            kernels.push_back(&f);
    for (llvm::Function *kernel : kernels) {
        std::vector<llvm::CallInst *> calls;
        for (llvm::User *user : kernel->users())
            if (auto *call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledFunction() == kernel)
                calls.push_back(call);
        if (calls.empty())
            continue;
        llvm::ValueToValueMapTy map;
        llvm::Function *body = llvm::CloneFunction(kernel, map);
        body->setName("__spvcond_kernel_body_" + kernel->getName());
        body->setCallingConv(llvm::CallingConv::SPIR_FUNC);
        body->setLinkage(llvm::GlobalValue::InternalLinkage);
        for (const char *kind : {"kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type",
                                 "kernel_arg_type_qual", "kernel_arg_base_type", "kernel_arg_name",
                                 "reqd_work_group_size", "work_group_size_hint", "vec_type_hint",
                                 "intel_reqd_sub_group_size"})
            body->setMetadata(kind, nullptr);
        for (llvm::CallInst *call : calls) {
            call->setCalledFunction(body);
            call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
        }
    }
}

// pocl renames some built-ins in its headers (_builtin_renames.h: mem_fence is _cl_mem_fence) and its kernel
// library defines only the new names of these: the translator's calls of the OpenCL names are renamed alike.
static void
name_builtins_as_pocl(llvm::Module &module)
{
    static const char *const renamed[] = {"mem_fence", "read_mem_fence", "write_mem_fence", "half_cos",
                                          "half_divide", "half_exp", "half_exp10", "half_exp2", "half_log",
                                          "half_log10", "half_log2", "half_powr", "half_recip", "half_rsqrt",
                                          "half_sin", "half_sqrt", "half_tan"};
    for (llvm::Function &f : module) {
        if (!f.isDeclaration())
            continue;
        for (const char *base : renamed) {
            std::string prefix = "_Z" + std::to_string(strlen(base)) + base;
            llvm::StringRef name = f.getName();
            if (!name.startswith(prefix))
                continue;
            std::string pocl = "_Z" + std::to_string(strlen(base) + 4) + "_cl_" + base + name.substr(prefix.size()).str();
            if (llvm::Function *other = module.getFunction(pocl)) {
                if (other->getFunctionType() == f.getFunctionType())
                    f.replaceAllUsesWith(other);
            } else {
                f.setName(pocl);
            }
            break;
        }
    }
}

// pocl inlines every function into its kernels to run them over a work-group (a work-item built-in in a function
// left out of line refers to pocl's work-group state, which nothing defines: the kernel library fails to load and
// pocl ends the process). SPIR-V's DontInline (clang writes it on every function at -O0) is a request, which
// this route cannot grant: the translator's noinline and optnone are dropped.
static void
inline_for_pocl(llvm::Module &module)
{
    for (llvm::Function &f : module) {
        f.removeFnAttr(llvm::Attribute::NoInline);
        f.removeFnAttr(llvm::Attribute::OptimizeNone);
        for (llvm::User *user : f.users())
            if (auto *call = llvm::dyn_cast<llvm::CallInst>(user))
                call->removeFnAttr(llvm::Attribute::NoInline);
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
        kernel_calls_as_function_calls(*module);
        if (for_pocl) {
            name_builtins_as_pocl(*module);
            inline_for_pocl(*module);
        }
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
