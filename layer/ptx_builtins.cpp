// SPDX-License-Identifier: MIT
// The steps of NVIDIA's route (ptx.cpp) that bring in code the module does not have or that the NVPTX back
// end cannot take as it is: OpenCL's built-ins from libclc's nvptx64 library and NVIDIA's libdevice (half
// precision through float where libclc has none), printf as the driver's vprintf, and libclc's native_*
// math as the GPU's approximate instructions; and the last look for what the back end cannot select.
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "layer.h"
}
#include "ptx_steps.h"

using namespace llvm;

namespace ptx {

// Each function a bitcode library defines, read lazily (no body is materialized); false with LLVM's message
// in `error` when the bytes are not bitcode this LLVM reads.
template <typename Fn>
static bool
each_defined(const MemoryBuffer &bitcode, Fn fn, std::string &error)
{
    LLVMContext context;
    context.setOpaquePointers(true); // the libraries have them; typed bitcode is upgraded
    auto lazy = getLazyBitcodeModule(bitcode.getMemBufferRef(), context);
    if (!lazy) {
        error = toString(lazy.takeError());
        return false;
    }
    for (const Function &f : **lazy)
        if (!f.isDeclaration())
            fn(f.getName());
    return true;
}

// What the module uses of a library linked into it: read lazily from its bytes (kept for the process),
// given the module's target.
static bool
link_needed(Module &m, const MemoryBuffer &bitcode, const std::string &what, std::string &error)
{
    auto lazy = getOwningLazyBitcodeModule(MemoryBuffer::getMemBuffer(bitcode.getMemBufferRef(), false),
                                           m.getContext());
    if (!lazy) {
        error = what + " cannot be read: " + toString(lazy.takeError());
        return false;
    }
    (*lazy)->setTargetTriple(m.getTargetTriple());
    (*lazy)->setDataLayout(m.getDataLayout());
    if (Linker::linkModules(m, std::move(*lazy), Linker::LinkOnlyNeeded)) {
        error = "linking " + what + " failed";
        return false;
    }
    return true;
}

// libclc's nvptx64 library, read once, and its functions by canonical name (builtin_names.c).
struct builtins {
    std::string path;
    std::unique_ptr<MemoryBuffer> bitcode;
    StringMap<std::string> by_canonical;
    std::string error; // why it could not be read
    bool tried = false;
};
static builtins library;

static std::string
library_path()
{
    const char *env = getenv("SPVCOND_LAYER_LIBCLC");
    return env && *env ? env : LAYER_LIBCLC_NVPTX;
}

// Call with `lowering` held.
bool
load_builtins(std::string &error)
{
    if (library.tried) {
        error = library.error;
        return library.bitcode != nullptr;
    }
    library.tried = true;
    library.path = library_path();
    auto file = MemoryBuffer::getFile(library.path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!file) {
        library.error = "libclc's nvptx64 library " + library.path + " cannot be read (" + file.getError().message() +
                        "): install libclc-15, or name the file in SPVCOND_LAYER_LIBCLC";
        error = library.error;
        return false;
    }
    char canonical[1024];
    auto index = [&](StringRef name) {
        if (layer_builtin_canonical(name.str().c_str(), false, canonical, sizeof(canonical)))
            library.by_canonical[canonical] = name.str();
    };
    std::string why;
    if (!each_defined(**file, index, why)) {
        library.error = "libclc's nvptx64 library " + library.path + " is not LLVM 15 bitcode: " + why;
        error = library.error;
        return false;
    }
    library.bitcode = std::move(*file);
    return true;
}

// NVIDIA's libdevice (the CUDA toolkit's math library as LLVM bitcode), where the machine has it: the
// OpenCL math built-ins whose libdevice function is within OpenCL's error bound (the CUDA C++ Programming
// Guide's table of maximum ulp errors against OpenCL's, docs/opencl-layer.md) come from it rather than from
// libclc's generic code, as NVIDIA's own OpenCL compiler takes them from its library.
struct device_library {
    std::unique_ptr<MemoryBuffer> bitcode;
    std::string path;
    StringSet<> defined; // the functions it defines
    bool tried = false;
};
static device_library libdevice;

// Where libdevice is looked for, in order: SPVCOND_LAYER_LIBDEVICE (a file, or "none"), else the CUDA
// toolkit's usual places.
static std::vector<std::string>
libdevice_places()
{
    std::vector<std::string> places;
    const char *env = getenv("SPVCOND_LAYER_LIBDEVICE");
    if (env && *env) {
        places.push_back(env);
    } else {
        for (const char *var : {"CUDA_PATH", "CUDA_HOME"})
            if (const char *root = getenv(var); root && *root)
                places.push_back(std::string(root) + "/nvvm/libdevice/libdevice.10.bc");
        places.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
        places.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
    }
    return places;
}

// The files the route links, as the cache's key sees them: each place with its size and time.
extern "C" void
layer_ptx_inputs(char *out, size_t size)
{
    std::string inputs;
    std::vector<std::string> places = libdevice_places();
    places.insert(places.begin(), library_path());
    for (const std::string &place : places) {
        struct stat st;
        inputs += place;
        if (stat(place.c_str(), &st) == 0)
            inputs += ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                      std::to_string(st.st_mtim.tv_nsec);
        inputs += ";";
    }
    snprintf(out, size, "%s", inputs.c_str());
}

// Call with `lowering` held: libdevice, from the first of its places this LLVM reads.
static const MemoryBuffer *
load_libdevice()
{
    if (libdevice.tried)
        return libdevice.bitcode.get();
    libdevice.tried = true;
    for (const std::string &place : libdevice_places()) {
        if (place == "none")
            break;
        auto file = MemoryBuffer::getFile(place, false, false);
        std::string why;
        if (!file || !each_defined(**file, [](StringRef name) { libdevice.defined.insert(name); }, why)) {
            libdevice.defined.clear(); // not bitcode this LLVM reads: as if there were none
            continue;
        }
        libdevice.bitcode = std::move(*file);
        libdevice.path = place;
        break;
    }
    return libdevice.bitcode.get();
}

// OpenCL's name, its parameters as the float form's name writes them (the double form's with d for f), and
// libdevice's float and double functions (none: that form stays libclc's).
static const struct {
    const char *name, *params;
    const char *f32, *f64;
} libdevice_math[] = {
    {"sin", "f", "__nv_sinf", "__nv_sin"},       {"cos", "f", "__nv_cosf", "__nv_cos"},
    {"tan", "f", "__nv_tanf", "__nv_tan"},       {"exp", "f", "__nv_expf", "__nv_exp"},
    {"exp2", "f", "__nv_exp2f", "__nv_exp2"},    {"exp10", "f", "__nv_exp10f", "__nv_exp10"},
    {"log", "f", "__nv_logf", "__nv_log"},       {"log2", "f", "__nv_log2f", "__nv_log2"},
    {"log10", "f", "__nv_log10f", "__nv_log10"}, {"log1p", "f", "__nv_log1pf", "__nv_log1p"},
    {"expm1", "f", "__nv_expm1f", "__nv_expm1"}, {"asin", "f", "__nv_asinf", "__nv_asin"},
    {"acos", "f", "__nv_acosf", "__nv_acos"},    {"atan", "f", "__nv_atanf", "__nv_atan"},
    {"sinh", "f", "__nv_sinhf", "__nv_sinh"},    {"cosh", "f", "__nv_coshf", "__nv_cosh"},
    {"tanh", "f", "__nv_tanhf", "__nv_tanh"},    {"cbrt", "f", "__nv_cbrtf", "__nv_cbrt"},
    {"erf", "f", "__nv_erff", "__nv_erf"},       {"erfc", "f", "__nv_erfcf", "__nv_erfc"},
    {"rsqrt", "f", "__nv_rsqrtf", "__nv_rsqrt"}, {"pow", "ff", "__nv_powf", "__nv_pow"},
    // double hypot stays libclc's: libdevice's gave infinity for hypot(2^64, DBL_MAX) (the CTS's math_brute_force)
    {"atan2", "ff", "__nv_atan2f", "__nv_atan2"}, {"hypot", "ff", "__nv_hypotf", nullptr},
    {"fmod", "ff", "__nv_fmodf", "__nv_fmod"},   {"remainder", "ff", "__nv_remainderf", "__nv_remainder"},
    // ldexp: libclc's float form flushes a subnormal result to zero (its nvptx64 library is built without float
    // subnormals), NVIDIA's OpenCL C and libdevice keep it (ldexp(1, -140) is 0x1p-140 on an H100); its
    // double form gives 0 or infinity for a NaN with a large exponent (the CTS's math_brute_force).
    {"ldexp", "fi", "__nv_ldexpf", "__nv_ldexp"},
};

// The start of an OpenCL built-in's Itanium name: "_Z", the length of `name`, `name` ("_Z3sin").
static std::string
itanium(const char *name)
{
    return "_Z" + std::to_string(strlen(name)) + name;
}

// The scalar form of a function whose parameters `params` are written as the float form's name writes them
// (f the value, i an int): its parameters as its own name writes them (d for f in the double form), and its
// type.
static std::string
scalar_params(const std::string &params, bool dbl)
{
    std::string out = params;
    if (dbl)
        std::replace(out.begin(), out.end(), 'f', 'd');
    return out;
}

static FunctionType *
scalar_type(LLVMContext &c, const std::string &params, bool dbl)
{
    Type *value = dbl ? Type::getDoubleTy(c) : Type::getFloatTy(c);
    SmallVector<Type *, 3> types;
    for (char p : params)
        types.push_back(p == 'i' ? Type::getInt32Ty(c) : value);
    return FunctionType::get(value, types, false);
}

// The module's declaration `name` of type `type`, which it calls and nothing defines yet; NULL if none.
static Function *
declared(Module &m, const std::string &name, FunctionType *type)
{
    Function *f = m.getFunction(name);
    return f && f->isDeclaration() && f->getFunctionType() == type ? f : nullptr;
}

// f, a declaration, defined as a call of `callee` with f's own arguments, and made internal.
static void
define_as_call(Function *f, FunctionCallee callee)
{
    IRBuilder<> b(BasicBlock::Create(f->getContext(), "", f));
    SmallVector<Value *, 4> args;
    for (Argument &a : f->args())
        args.push_back(&a);
    Value *result = b.CreateCall(callee, args);
    if (f->getReturnType()->isVoidTy())
        b.CreateRetVoid();
    else
        b.CreateRet(result);
    f->setLinkage(GlobalValue::InternalLinkage);
}

// f, a declaration of a function on vectors, defined element by element as calls of `scalar`: each vector
// argument gives its element, any other argument (ldexp's int exponent) is passed as it is.
static void
define_element_wise(Function *f, FunctionCallee scalar)
{
    auto *type = cast<FixedVectorType>(f->getReturnType());
    IRBuilder<> b(BasicBlock::Create(f->getContext(), "", f));
    Value *result = PoisonValue::get(type);
    for (unsigned e = 0; e < type->getNumElements(); e++) {
        SmallVector<Value *, 3> args;
        for (Argument &a : f->args())
            args.push_back(a.getType()->isVectorTy() ? b.CreateExtractElement(&a, e) : static_cast<Value *>(&a));
        result = b.CreateInsertElement(result, b.CreateCall(scalar, args), e);
    }
    b.CreateRet(result);
    f->setLinkage(GlobalValue::InternalLinkage);
}

// The vector forms of `name` the module declares, `params` its scalar parameters as the float form's name
// writes them (f the value, i an int), `dbl` its double form: each defined element by element as the scalar
// function, declared if need be (the caller defines it). Mangled as Itanium does: the value's vector type
// once, then S_ for each repetition; an int parameter either a vector (ldexp(float4, int4)) or a scalar
// (ldexp(float4, int)).
static void
vectors_of(Module &m, const char *name, const std::string &params, bool dbl)
{
    LLVMContext &c = m.getContext();
    std::string prefix = itanium(name);
    FunctionType *scalar = scalar_type(c, params, dbl);
    Type *value = scalar->getReturnType();
    for (unsigned n : {2u, 3u, 4u, 8u, 16u}) {
        std::string count = "Dv" + std::to_string(n) + "_";
        for (bool vector_ints : {true, false}) {
            std::string mangled = prefix;
            bool first = true;
            for (char p : params) {
                mangled += p == 'i' ? (vector_ints ? count + "i" : "i") : first ? count + (dbl ? "d" : "f") : "S_";
                first &= p == 'i';
            }
            Function *f = m.getFunction(mangled);
            if (!f || !f->isDeclaration() || f->getReturnType() != FixedVectorType::get(value, n) ||
                f->arg_size() != params.size())
                continue;
            bool fits = true;
            for (unsigned k = 0; k < params.size(); k++) {
                Type *want = params[k] == 'i' ? Type::getInt32Ty(c) : value;
                if (params[k] != 'i' || vector_ints)
                    want = FixedVectorType::get(want, n);
                fits &= f->getArg(k)->getType() == want;
            }
            if (fits)
                define_element_wise(f, m.getOrInsertFunction(prefix + scalar_params(params, dbl), scalar));
        }
    }
}

// The vector forms of the table's functions (sin of a float4, pow of two double8, ldexp of a float2 and its
// int2...) element by element, each element by the scalar function, which the table then takes from
// libdevice: libclc's vector forms run its own scalar code, whose results differ from NVIDIA's (the CTS's
// math_brute_force runs every function on vectors too).
static void
vectors_element_wise(Module &m)
{
    for (const auto &fn : libdevice_math)
        for (bool dbl : {false, true}) {
            const char *nv = dbl ? fn.f64 : fn.f32;
            if (nv && libdevice.defined.count(nv)) /* else the scalar stays libclc's: so do its vectors */
                vectors_of(m, fn.name, fn.params, dbl);
        }
}

// Double acospi(x) as acos(x)/pi from libdevice's acos, as NVIDIA's compiler gives it: libclc 15's gives 0.5 for
// a NaN (the CTS's math_brute_force). Within OpenCL's bound (5 ulp) by one rounding more than acos's. Its
// vectors element by element.
static bool
acospi_from_acos(Module &m)
{
    LLVMContext &c = m.getContext();
    Type *d = Type::getDoubleTy(c);
    if (!libdevice.defined.count("__nv_acos"))
        return false;
    vectors_of(m, "acospi", "f", true);
    FunctionType *unary = scalar_type(c, "f", true);
    Function *f = declared(m, itanium("acospi") + "d", unary);
    if (!f)
        return false;
    IRBuilder<> b(BasicBlock::Create(c, "", f));
    Value *acos = b.CreateCall(m.getOrInsertFunction("__nv_acos", unary), {f->getArg(0)});
    b.CreateRet(b.CreateFMul(acos, ConstantFP::get(d, 0.31830988618379067154)));
    f->setLinkage(GlobalValue::InternalLinkage);
    return true;
}

// Float rootn(x, n) from libdevice's double pow: |x|^(1/n) in double, rounded once to float, its sign x's for an
// odd n; NaN for a negative x and an even n, and for n = 0 (OpenCL's rootn). libclc 15's flushes subnormal
// arguments and results (its nvptx64 library is built without float subnormals; NVIDIA reports
// CL_FP_DENORM). Its vectors element by element.
static bool
rootn_from_pow(Module &m)
{
    LLVMContext &c = m.getContext();
    Type *f32 = Type::getFloatTy(c), *f64 = Type::getDoubleTy(c);
    if (!libdevice.defined.count("__nv_pow"))
        return false;
    vectors_of(m, "rootn", "fi", false);
    Function *f = declared(m, itanium("rootn") + "fi", scalar_type(c, "fi", false));
    if (!f)
        return false;
    IRBuilder<> b(BasicBlock::Create(c, "", f));
    Value *x = b.CreateFPExt(f->getArg(0), f64), *n = f->getArg(1);
    Value *inverse = b.CreateFDiv(ConstantFP::get(f64, 1.0), b.CreateSIToFP(n, f64));
    Function *fabs = Intrinsic::getDeclaration(&m, Intrinsic::fabs, {f64});
    Function *copysign = Intrinsic::getDeclaration(&m, Intrinsic::copysign, {f64});
    Value *r = b.CreateCall(m.getOrInsertFunction("__nv_pow", FunctionType::get(f64, {f64, f64}, false)),
                            {b.CreateCall(fabs, {x}), inverse});
    Value *odd = b.CreateICmpNE(b.CreateAnd(n, 1), b.getInt32(0));
    Value *signed_r = b.CreateSelect(odd, b.CreateCall(copysign, {r, x}), r);
    Value *nan = ConstantFP::getNaN(f64);
    Value *undefined = b.CreateOr(b.CreateICmpEQ(n, b.getInt32(0)),
                                  b.CreateAnd(b.CreateFCmpOLT(x, ConstantFP::get(f64, 0.0)), b.CreateNot(odd)));
    b.CreateRet(b.CreateFPTrunc(b.CreateSelect(undefined, nan, signed_r), f32));
    f->setLinkage(GlobalValue::InternalLinkage);
    return true;
}

// Float remquo(x, y, quo): libclc 15's flushes subnormal arguments, libdevice's gives the quotient's low 3 bits
// where OpenCL asks for 7 (the CTS's math_brute_force). The remainder is libdevice's remainder(x, y), exact; the
// quotient's magnitude modulo 128 is that of |x'| / |y| rounded to nearest even, x' = fmod(|x|, 128 |y|)
// (exact, and the quotient of |x| differs from that of x' by a multiple of 128, an even one: ties round the same
// way), counted in double from x' and remainder(x', |y|); its sign is x/y's; 0 when the remainder is a NaN.
// Whatever quo's address space; a vector form element by element, its quotients stored together.
static bool
remquo_exact(Module &m)
{
    LLVMContext &c = m.getContext();
    Type *f32 = Type::getFloatTy(c), *f64 = Type::getDoubleTy(c), *i32 = Type::getInt32Ty(c);
    if (!libdevice.defined.count("__nv_remainderf") || !libdevice.defined.count("__nv_fmodf"))
        return false;
    FunctionType *binary = FunctionType::get(f32, {f32, f32}, false);
    FunctionCallee remainder = m.getOrInsertFunction("__nv_remainderf", binary),
                   fmod = m.getOrInsertFunction("__nv_fmodf", binary);
    Function *fabs = Intrinsic::getDeclaration(&m, Intrinsic::fabs, {f32});
    Function *rint = Intrinsic::getDeclaration(&m, Intrinsic::rint, {f64});
    SmallVector<Function *, 4> found;
    for (Function &f : m)
        if (f.isDeclaration() && f.getName().startswith("_Z6remquo") && f.arg_size() == 3 &&
            f.getArg(2)->getType()->isPointerTy() && f.getReturnType()->getScalarType()->isFloatTy() &&
            f.getArg(0)->getType() == f.getReturnType() && f.getArg(1)->getType() == f.getReturnType())
            found.push_back(&f);
    for (Function *f : found) {
        IRBuilder<> b(BasicBlock::Create(c, "", f));
        // One element: its remainder, and its quotient in *q.
        auto one = [&](Value *x, Value *y, Value **q) {
            Value *ax = b.CreateCall(fabs, {x}), *ay = b.CreateCall(fabs, {y});
            Value *reduced = b.CreateCall(fmod, {ax, b.CreateFMul(ay, ConstantFP::get(f32, 128.0))});
            Value *near = b.CreateCall(remainder, {reduced, ay});
            Value *count = b.CreateFDiv(b.CreateFSub(b.CreateFPExt(reduced, f64), b.CreateFPExt(near, f64)),
                                        b.CreateFPExt(ay, f64));
            // The count is an integer; the double difference may be off in its last bits where the remainder is
            // far smaller than x': rounded to the nearest integer, not truncated.
            Value *low = b.CreateAnd(b.CreateFPToSI(b.CreateCall(rint, {count}), i32), 127);
            Value *negative = b.CreateXor(b.CreateICmpSLT(b.CreateBitCast(x, i32), b.getInt32(0)),
                                          b.CreateICmpSLT(b.CreateBitCast(y, i32), b.getInt32(0)));
            Value *r = b.CreateCall(remainder, {x, y});
            Value *signed_low = b.CreateSelect(negative, b.CreateNeg(low), low);
            *q = b.CreateSelect(b.CreateFCmpUNO(r, r), b.getInt32(0), signed_low);
            return r;
        };
        auto *vector = dyn_cast<FixedVectorType>(f->getReturnType());
        if (!vector) {
            Value *q;
            Value *r = one(f->getArg(0), f->getArg(1), &q);
            b.CreateStore(q, f->getArg(2));
            b.CreateRet(r);
        } else {
            Value *result = PoisonValue::get(vector);
            Value *quotients = PoisonValue::get(FixedVectorType::get(i32, vector->getNumElements()));
            for (unsigned e = 0; e < vector->getNumElements(); e++) {
                Value *q;
                result = b.CreateInsertElement(
                    result, one(b.CreateExtractElement(f->getArg(0), e), b.CreateExtractElement(f->getArg(1), e), &q),
                    e);
                quotients = b.CreateInsertElement(quotients, q, e);
            }
            b.CreateStore(quotients, f->getArg(2));
            b.CreateRet(result);
        }
        f->setLinkage(GlobalValue::InternalLinkage);
    }
    return !found.empty();
}

// tgamma: libclc 15's gives infinity for a large negative non-integer, where |tgamma| is below the smallest
// subnormal (tgamma(-0x1.0002p+14) is -0), and is 16-38 ulp off for moderate negative arguments (the CTS's
// math_brute_force: its bound is 16); libdevice's tgammaf(-0.5) gave tgamma(0.5) on an H100. Float tgamma is
// computed in double instead: |tgamma(x)| = exp(lgamma(x)) from libdevice's double lgamma and exp, negative where
// x < 0 and floor(x) is odd, rounded once to float (lgamma's absolute error, at most ~1e-14 here, is a relative
// error far below a float ulp); a zero gives an infinity of its sign, a negative integer or -infinity NaN.
// Double tgamma is libdevice's. Vectors element by element.
static bool
tgamma_from_libdevice(Module &m)
{
    LLVMContext &c = m.getContext();
    Type *f32 = Type::getFloatTy(c), *f64 = Type::getDoubleTy(c);
    bool any = false;
    if (libdevice.defined.count("__nv_tgamma")) {
        vectors_of(m, "tgamma", "f", true);
        if (Function *f = declared(m, itanium("tgamma") + "d", scalar_type(c, "f", true))) {
            define_as_call(f, m.getOrInsertFunction("__nv_tgamma", f->getFunctionType()));
            any = true;
        }
    }
    if (!libdevice.defined.count("__nv_lgamma") || !libdevice.defined.count("__nv_exp"))
        return any;
    vectors_of(m, "tgamma", "f", false);
    Function *f = declared(m, itanium("tgamma") + "f", scalar_type(c, "f", false));
    if (!f)
        return any;
    FunctionType *unary = scalar_type(c, "f", true);
    Function *floor = Intrinsic::getDeclaration(&m, Intrinsic::floor, {f64});
    Function *copysign = Intrinsic::getDeclaration(&m, Intrinsic::copysign, {f64});
    IRBuilder<> b(BasicBlock::Create(c, "", f));
    Value *x = b.CreateFPExt(f->getArg(0), f64), *zero = ConstantFP::get(f64, 0.0);
    Value *magnitude = b.CreateCall(m.getOrInsertFunction("__nv_exp", unary),
                                    {b.CreateCall(m.getOrInsertFunction("__nv_lgamma", unary), {x})});
    Value *fl = b.CreateCall(floor, {x});
    Value *odd = b.CreateFCmpONE(b.CreateFRem(fl, ConstantFP::get(f64, 2.0)), zero);
    Value *negative = b.CreateAnd(b.CreateFCmpOLT(x, zero), odd);
    Value *value = b.CreateSelect(negative, b.CreateFNeg(magnitude), magnitude);
    Value *pole = b.CreateCall(copysign, {ConstantFP::getInfinity(f64), x});
    Value *nan = ConstantFP::getNaN(f64);
    value = b.CreateSelect(b.CreateAnd(b.CreateFCmpOLT(x, zero), b.CreateFCmpOEQ(fl, x)), nan, value);
    value = b.CreateSelect(b.CreateFCmpOEQ(x, zero), pole, value);
    b.CreateRet(b.CreateFPTrunc(value, f32));
    f->setLinkage(GlobalValue::InternalLinkage);
    return true;
}

// The Itanium name of OpenCL's `name` on values of type t (a float or double, or a vector of one).
static std::string
math_name(const char *name, Type *t)
{
    std::string out = itanium(name);
    if (auto *v = dyn_cast<FixedVectorType>(t))
        out += "Dv" + std::to_string(v->getNumElements()) + "_";
    return out + (t->getScalarType()->isDoubleTy() ? "d" : "f");
}

// sincos(x, p), whatever p's address space and x's width: *p = cos(x), sin(x), from the table's sin and cos
// (libdevice's, element by element for a vector), as NVIDIA's compiler gives both; libclc's is its own.
static void
sincos_from_sin_and_cos(Module &m)
{
    SmallVector<Function *, 4> found;
    for (Function &f : m)
        if (f.isDeclaration() && f.getName().startswith("_Z6sincos") && f.arg_size() == 2 &&
            f.getArg(1)->getType()->isPointerTy() && f.getReturnType() == f.getArg(0)->getType() &&
            (f.getReturnType()->getScalarType()->isFloatTy() || f.getReturnType()->getScalarType()->isDoubleTy()) &&
            libdevice.defined.count(f.getReturnType()->getScalarType()->isDoubleTy() ? "__nv_sin" : "__nv_sinf"))
            found.push_back(&f);
    for (Function *f : found) {
        Type *t = f->getReturnType();
        auto *type = FunctionType::get(t, {t}, false);
        FunctionCallee sin = m.getOrInsertFunction(math_name("sin", t), type),
                       cos = m.getOrInsertFunction(math_name("cos", t), type);
        IRBuilder<> b(BasicBlock::Create(m.getContext(), "", f));
        b.CreateStore(b.CreateCall(cos, {f->getArg(0)}), f->getArg(1));
        b.CreateRet(b.CreateCall(sin, {f->getArg(0)}));
        f->setLinkage(GlobalValue::InternalLinkage);
    }
}

// Each scalar math built-in the module calls defined as a call of libdevice's function, then what is used
// linked from libdevice (its __nvvm_reflect queries answered by the back end's NVVMReflect pass).
static bool
link_libdevice(Module &m, std::string &error)
{
    LLVMContext &c = m.getContext();
    sincos_from_sin_and_cos(m); // before the vectors: its vector sin and cos are among them
    bool any = acospi_from_acos(m);
    any |= rootn_from_pow(m);
    any |= remquo_exact(m);
    any |= tgamma_from_libdevice(m);
    vectors_element_wise(m);
    for (const auto &fn : libdevice_math) {
        for (bool dbl : {false, true}) {
            const char *nv = dbl ? fn.f64 : fn.f32;
            FunctionType *type = scalar_type(c, fn.params, dbl);
            Function *f = declared(m, itanium(fn.name) + scalar_params(fn.params, dbl), type);
            if (!nv || !f || !libdevice.defined.count(nv))
                continue;
            define_as_call(f, m.getOrInsertFunction(nv, type));
            any = true;
        }
    }
    return !any || link_needed(m, *libdevice.bitcode, "libdevice (" + libdevice.path + ")", error);
}

// OpenCL's printf as CUDA's: NVIDIA's driver provides `vprintf(format, arguments)`, which reads the
// arguments from a buffer where each lies at its natural alignment (what clang does for CUDA's printf).
// Scalars arrive with C's promotions made (float as double); pointers become generic ones (a %s string in
// constant memory). A vector argument (`%v4hlf`) lies in the buffer as it is, at the vector's alignment (a
// 3-vector as a 4-vector), its elements not promoted: what NVIDIA's own compiler gives vprintf, whose
// reading of the format knows OpenCL's vector conversions (the PTX the driver gives for
// tests/data/nvidia/vector_printf.cl).
//
// A string printf reads (its format, a %s argument) is a generic pointer, and NVPTX's constant space becomes
// generic with `cvta.const`, which ptxas refuses in a program where any kernel takes a `constant` pointer
// parameter ("Program using constant pointers passed as entry function parameter cannot use cvta.const",
// the CTS's test_printf address_space). A string the module defines in constant memory is therefore given
// to vprintf from a copy in global memory (as CUDA places its format strings), made once per string.
enum { nvptx_global = 1, nvptx_const = 4 };

static Value *
generic_pointer(IRBuilder<> &b, Value *v, DenseMap<GlobalVariable *, GlobalVariable *> &copies)
{
    auto *generic = PointerType::get(b.getContext(), 0);
    if (v->getType()->getPointerAddressSpace() == 0)
        return v;
    Value *base = v;
    SmallVector<Value *, 4> indices;
    Type *source = nullptr;
    if (auto *gep = dyn_cast<GEPOperator>(v); gep && gep->hasAllConstantIndices()) {
        base = gep->getPointerOperand();
        indices.append(gep->idx_begin(), gep->idx_end());
        source = gep->getSourceElementType();
    }
    auto *var = dyn_cast<GlobalVariable>(base);
    if (!var || var->getAddressSpace() != nvptx_const || !var->isConstant() || !var->hasInitializer())
        return b.CreateAddrSpaceCast(v, generic);
    GlobalVariable *&copy = copies[var];
    if (!copy) {
        copy = new GlobalVariable(*var->getParent(), var->getValueType(), true, GlobalValue::InternalLinkage,
                                  var->getInitializer(), var->getName() + ".global", nullptr,
                                  GlobalValue::NotThreadLocal, nvptx_global);
        copy->setAlignment(var->getAlign());
        copy->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    }
    Constant *p = copy;
    if (source) {
        SmallVector<Constant *, 4> constants;
        for (Value *i : indices)
            constants.push_back(cast<Constant>(i));
        p = ConstantExpr::getInBoundsGetElementPtr(source, copy, constants);
    }
    return ConstantExpr::getAddrSpaceCast(p, generic);
}

bool
lower_printf(Module &m, std::string &error)
{
    Function *printf_fn = m.getFunction("printf");
    if (!printf_fn || printf_fn->use_empty())
        return true;
    LLVMContext &c = m.getContext();
    auto *i32 = Type::getInt32Ty(c);
    auto *generic = PointerType::get(c, 0);
    FunctionCallee vprintf = m.getOrInsertFunction("vprintf", FunctionType::get(i32, {generic, generic}, false));
    SmallVector<CallInst *, 16> calls;
    DenseMap<GlobalVariable *, GlobalVariable *> copies;
    for (User *u : printf_fn->users()) {
        auto *call = dyn_cast<CallInst>(u);
        if (!call || call->getCalledOperand() != printf_fn || call->arg_size() < 1) {
            error = "printf is used other than called";
            return false;
        }
        calls.push_back(call);
    }
    for (CallInst *call : calls) {
        IRBuilder<> b(call);
        SmallVector<Value *, 8> values;
        SmallVector<Type *, 8> fields;
        for (unsigned k = 1; k < call->arg_size(); k++) {
            Value *v = call->getArgOperand(k);
            Type *t = v->getType();
            if (t->isHalfTy() || t->isFloatTy())
                v = b.CreateFPExt(v, b.getDoubleTy());
            else if (t->isIntegerTy() && t->getIntegerBitWidth() < 32)
                v = b.CreateZExt(v, i32);
            else if (t->isPointerTy() && t->getPointerAddressSpace() != 0)
                v = generic_pointer(b, v, copies);
            else if (!t->isIntegerTy() && !t->isDoubleTy() && !t->isPointerTy() && !isa<FixedVectorType>(t)) {
                error = "printf in " + call->getFunction()->getName().str() +
                        " has an argument of a type NVIDIA's printf (vprintf) does not take";
                return false;
            }
            values.push_back(v);
            fields.push_back(v->getType());
        }
        Value *buffer = ConstantPointerNull::get(generic);
        if (!values.empty()) {
            auto *layout = StructType::get(c, fields);
            IRBuilder<> entry(&*call->getFunction()->getEntryBlock().getFirstInsertionPt());
            AllocaInst *slot = entry.CreateAlloca(layout);
            for (unsigned k = 0; k < values.size(); k++)
                b.CreateStore(values[k], b.CreateStructGEP(layout, slot, k));
            buffer = slot;
        }
        Value *format = generic_pointer(b, call->getArgOperand(0), copies);
        Value *printed = b.CreateCall(vprintf, {format, buffer});
        // OpenCL's printf returns 0, or -1 when it failed.
        Value *result = b.CreateSelect(b.CreateICmpSLT(printed, ConstantInt::get(i32, 0)),
                                       ConstantInt::get(i32, -1), ConstantInt::get(i32, 0));
        if (call->getType() == i32)
            call->replaceAllUsesWith(result);
        call->eraseFromParent();
    }
    if (printf_fn->use_empty())
        printf_fn->eraseFromParent();
    return true;
}

// Half precision: libclc 15's nvptx64 library defines no built-in on half (no sin, dot or fmax of halves).
// A half function whose arguments and result are half scalars or vectors is defined as the float
// function on the widened arguments, its result narrowed. The float
// result is within a fraction of a half ulp of the exact one, well inside OpenCL's half bounds.
static void
half_through_float(Module &m, Function *f, const char *canonical)
{
    // The parameters' part of the canonical name (after "_Z" <length> <name>), half written as float.
    const char *p = canonical + 2;
    size_t length = 0;
    while (*p >= '0' && *p <= '9')
        length = length * 10 + (size_t)(*p++ - '0');
    if (length == 0 || strlen(p) < length)
        return;
    std::string prefix(canonical, (size_t)(p - canonical) + length), params(p + length), widened;
    if (params.find("Dh") == std::string::npos)
        return;
    for (size_t k = 0; k < params.size(); k++) {
        if (params.compare(k, 2, "Dh") == 0) {
            widened += 'f';
            k++;
        } else {
            widened += params[k];
        }
    }
    auto found = library.by_canonical.find(prefix + widened);
    if (found == library.by_canonical.end())
        return;
    LLVMContext &c = m.getContext();
    auto widen = [&](Type *t) -> Type * {
        if (t->isHalfTy())
            return Type::getFloatTy(c);
        if (auto *v = dyn_cast<FixedVectorType>(t); v && v->getElementType()->isHalfTy())
            return FixedVectorType::get(Type::getFloatTy(c), v->getNumElements());
        return nullptr;
    };
    FunctionType *type = f->getFunctionType();
    SmallVector<Type *, 4> params_wide;
    for (Type *t : type->params()) {
        Type *w = widen(t);
        if (!w)
            return; // a pointer, an integer: not this simple form
        params_wide.push_back(w);
    }
    Type *result_wide = type->getReturnType()->isVoidTy() ? nullptr : widen(type->getReturnType());
    if (!result_wide)
        return;
    FunctionCallee wide = m.getOrInsertFunction(found->second, FunctionType::get(result_wide, params_wide, false));
    BasicBlock *body = BasicBlock::Create(c, "", f);
    IRBuilder<> b(body);
    SmallVector<Value *, 4> args;
    for (Argument &a : f->args())
        args.push_back(b.CreateFPExt(&a, params_wide[a.getArgNo()]));
    b.CreateRet(b.CreateFPTrunc(b.CreateCall(wide, args), type->getReturnType()));
    f->setLinkage(GlobalValue::InternalLinkage);
}

// libclc 15's nvptx64 library has no 3-component forms of the asynchronous copies and of prefetch. A
// 3-component vector occupies a 4-component one's storage (OpenCL C 6.1.5), so copying or prefetching n of
// them is doing so for n of the 4-component type: such a function is defined as a call of that form, with the
// same arguments (pointers are opaque here); a prefetch without one does nothing (it is a hint).
static void
three_as_four(Module &m, Function *f, const char *canonical)
{
    std::string name(canonical);
    bool copy = name.rfind("_Z21async_work_group_copy", 0) == 0 || name.rfind("_Z29async_work_group_strided_copy", 0) == 0;
    bool prefetch = name.rfind("_Z8prefetch", 0) == 0;
    if ((!copy && !prefetch) || name.find("Dv3_") == std::string::npos)
        return;
    for (size_t at = name.find("Dv3_"); at != std::string::npos; at = name.find("Dv3_", at))
        name.replace(at, 4, "Dv4_"); // both pointers' element type, written out in the canonical name
    auto found = library.by_canonical.find(name);
    if (found != library.by_canonical.end()) {
        define_as_call(f, m.getOrInsertFunction(found->second, f->getFunctionType()));
    } else if (prefetch && f->getReturnType()->isVoidTy()) {
        IRBuilder<>(BasicBlock::Create(m.getContext(), "", f)).CreateRetVoid();
        f->setLinkage(GlobalValue::InternalLinkage);
    }
}

// libclc 15's double nan(code) is as_double(0x7FF0000000000000 | code): nan(0UL) is +infinity (the CTS's
// test_printf double_limits printed "inf"). OpenCL's nan gives a quiet NaN, as libclc's float form does: the
// double forms, scalar and vector, are defined here with the quiet bit set.
static bool
quiet_double_nan(Function *f, const char *canonical)
{
    std::string name(canonical);
    bool scalar = name == "_Z3nanm", vector = name.rfind("_Z3nanDv", 0) == 0 && name.back() == 'm';
    if ((!scalar && !vector) || f->arg_size() != 1 || !f->getReturnType()->getScalarType()->isDoubleTy() ||
        !f->getArg(0)->getType()->getScalarType()->isIntegerTy(64))
        return false;
    IRBuilder<> b(BasicBlock::Create(f->getContext(), "", f));
    Value *quiet = ConstantInt::get(f->getArg(0)->getType(), 0x7FF8000000000000ull); // a splat for a vector
    b.CreateRet(b.CreateBitCast(b.CreateOr(f->getArg(0), quiet), f->getReturnType()));
    f->setLinkage(GlobalValue::InternalLinkage);
    return true;
}

// Built-ins: each declared function that libclc defines under its NVPTX name takes that name (two
// declarations that become one merge), then what is used is linked from the library.
bool
link_builtins(Module &m, std::string &error)
{
    SmallVector<Function *, 32> declared;
    for (Function &f : m)
        if (f.isDeclaration() && !f.isIntrinsic())
            declared.push_back(&f);
    char canonical[1024];
    for (Function *f : declared) {
        if (!layer_builtin_canonical(f->getName().str().c_str(), true, canonical, sizeof(canonical)) ||
            quiet_double_nan(f, canonical))
            continue;
        auto found = library.by_canonical.find(canonical);
        if (found == library.by_canonical.end()) {
            half_through_float(m, f, canonical);
            if (f->isDeclaration())
                three_as_four(m, f, canonical);
            continue;
        }
        if (found->second == f->getName())
            continue;
        if (Function *other = m.getFunction(found->second)) {
            f->replaceAllUsesWith(other);
            f->eraseFromParent();
        } else {
            f->setName(found->second);
        }
    }
    if (load_libdevice() && !link_libdevice(m, error))
        return false;
    if (!link_needed(m, *library.bitcode, "libclc's nvptx64 library", error))
        return false;
    std::string missing;
    for (Function &f : m)
        if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty() && f.getName() != "__nvvm_reflect" &&
            f.getName() != "vprintf") // the driver's
            missing += (missing.empty() ? "" : ", ") + f.getName().str();
    if (!missing.empty()) {
        error = "neither the module nor libclc's nvptx64 library defines " + missing;
        return false;
    }
    // A call whose type is not the definition's (a built-in libclc declares otherwise) would be undefined.
    for (Function &f : m)
        for (BasicBlock &b : f)
            for (Instruction &i : b)
                if (auto *call = dyn_cast<CallBase>(&i))
                    if (Function *callee = call->getCalledFunction();
                        callee && callee->getFunctionType() != call->getFunctionType()) {
                        error = "the module calls " + callee->getName().str() +
                                " with another type than libclc's nvptx64 library defines it with";
                        return false;
                    }
    return true;
}

// The math intrinsics LLVM's NVPTX back end cannot select: it would emit a call to the C library's
// function (expf, __powisf2), which nothing defines on the device, and end the process in the back end.
// libclc's native_* functions use them for float: they become the GPU's approximate instructions, as NVIDIA's
// own compiler makes native_exp2 ex2.approx (OpenCL leaves native_*'s precision to the implementation).
// What remains (a double, a pow) refuses the module.
static bool
unselectable(Intrinsic::ID id)
{
    switch (id) {
    case Intrinsic::exp:
    case Intrinsic::exp2:
    case Intrinsic::log:
    case Intrinsic::log2:
    case Intrinsic::log10:
    case Intrinsic::sin:
    case Intrinsic::cos:
    case Intrinsic::pow:
    case Intrinsic::powi:
        return true;
    default:
        return false;
    }
}

// One lane: the approximate instruction, scaled where the function's base is not 2.
static Value *
approximate(IRBuilder<> &b, Module &m, Intrinsic::ID id, Value *x)
{
    auto call = [&](Intrinsic::ID nvvm, Value *v) { return b.CreateCall(Intrinsic::getDeclaration(&m, nvvm), {v}); };
    auto *f32 = b.getFloatTy();
    switch (id) {
    case Intrinsic::exp2:
        return call(Intrinsic::nvvm_ex2_approx_f, x);
    case Intrinsic::exp:
        return call(Intrinsic::nvvm_ex2_approx_f, b.CreateFMul(x, ConstantFP::get(f32, 1.4426950408889634)));
    case Intrinsic::log2:
        return call(Intrinsic::nvvm_lg2_approx_f, x);
    case Intrinsic::log:
        return b.CreateFMul(call(Intrinsic::nvvm_lg2_approx_f, x), ConstantFP::get(f32, 0.6931471805599453));
    case Intrinsic::log10:
        return b.CreateFMul(call(Intrinsic::nvvm_lg2_approx_f, x), ConstantFP::get(f32, 0.3010299956639812));
    case Intrinsic::sin:
        return call(Intrinsic::nvvm_sin_approx_f, x);
    case Intrinsic::cos:
        return call(Intrinsic::nvvm_cos_approx_f, x);
    default:
        return nullptr;
    }
}

bool
lower_native_math(Module &m, std::string &error)
{
    SmallVector<CallInst *, 16> calls;
    for (Function &f : m)
        for (BasicBlock &b : f)
            for (Instruction &i : b)
                if (auto *call = dyn_cast<CallInst>(&i))
                    if (Function *callee = call->getCalledFunction(); callee && unselectable(callee->getIntrinsicID()))
                        calls.push_back(call);
    for (CallInst *call : calls) {
        Intrinsic::ID id = call->getCalledFunction()->getIntrinsicID();
        Type *type = call->getType();
        if (id == Intrinsic::powi && isa<ConstantInt>(call->getArgOperand(1)))
            continue; // the back end multiplies
        if (!type->getScalarType()->isFloatTy() || id == Intrinsic::pow || id == Intrinsic::powi) {
            error = "the module calls " + call->getCalledFunction()->getName().str() + " in " +
                    call->getFunction()->getName().str() + ", which NVPTX has no instruction for";
            return false;
        }
        IRBuilder<> b(call);
        Value *x = call->getArgOperand(0), *result;
        if (auto *v = dyn_cast<FixedVectorType>(type)) {
            result = PoisonValue::get(v);
            for (unsigned lane = 0; lane < v->getNumElements(); lane++)
                result = b.CreateInsertElement(result, approximate(b, m, id, b.CreateExtractElement(x, lane)), lane);
        } else {
            result = approximate(b, m, id, x);
        }
        call->replaceAllUsesWith(result);
        call->eraseFromParent();
    }
    return true;
}

// The last look before the back end: no call it could not select.
bool
selectable(const Module &m, std::string &error)
{
    for (const Function &f : m)
        if (f.isIntrinsic() && unselectable(f.getIntrinsicID()))
            for (const User *u : f.users())
                if (auto *call = dyn_cast<CallInst>(u);
                    call && !(f.getIntrinsicID() == Intrinsic::powi && isa<ConstantInt>(call->getArgOperand(1)))) {
                    error = "the optimized module calls " + f.getName().str() + ", which NVPTX has no instruction for";
                    return false;
                }
    return true;
}

} // namespace ptx
