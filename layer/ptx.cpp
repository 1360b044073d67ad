// SPDX-License-Identifier: MIT
// SPIR-V -> PTX in process, for NVIDIA's OpenCL driver, which reads no SPIR-V and takes PTX as a program
// binary (docs/opencl-layer.md, "NVIDIA"). The steps:
//   1. the translator's LLVM bitcode (layer_translate), read into a context of opaque pointers;
//   2. SPIR's address spaces renumbered as NVPTX's (constant 2 -> 4, generic 4 -> 0: NVPTX's generic is
//      also where private data lives), the module rebuilt with every type mapped;
//   3. kernels named in !nvvm.annotations (with their required work-group size), SPIR's calling
//      conventions dropped;
//   4. OpenCL built-ins resolved against libclc's nvptx64 library (builtin_names.c maps each name across
//      the numberings) and linked from it, only what is used;
//   5. everything but the kernels internalized, LLVM's optimizer with no C library assumed (no call becomes
//      `expf`, which nothing would define), then the NVPTX back end for the device's compute capability
//      (the highest this LLVM knows when the device is newer), with the OpenCL flavour of the target:
//      kernel parameters carry `.ptr .global .align N`.
// A module that fails any step is refused with the reason; nothing is handed to the driver that LLVM's
// verifier rejects.
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

extern "C" {
#include "layer.h"
}

using namespace llvm;

namespace {

const char triple[] = "nvptx64-nvidia-nvcl";

// One lowering at a time: the library below is read once and shared.
std::mutex lowering;

// libclc's nvptx64 library, read once, and its functions by canonical name (builtin_names.c).
struct builtins {
    std::string path;
    std::unique_ptr<MemoryBuffer> bitcode;
    StringMap<std::string> by_canonical;
    std::string error; // why it could not be read
    bool tried = false;
};
builtins library;

std::string
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
    LLVMContext context;
    context.setOpaquePointers(true);
    auto lazy = getLazyBitcodeModule((*file)->getMemBufferRef(), context);
    if (!lazy) {
        library.error = "libclc's nvptx64 library " + library.path + " is not LLVM 15 bitcode: " +
                        toString(lazy.takeError());
        error = library.error;
        return false;
    }
    char canonical[1024];
    for (const Function &f : **lazy)
        if (!f.isDeclaration() && layer_builtin_canonical(f.getName().str().c_str(), false, canonical,
                                                          sizeof(canonical)))
            library.by_canonical[canonical] = f.getName().str();
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
device_library libdevice;

// Call with `lowering` held: libdevice, from SPVCOND_LAYER_LIBDEVICE (a file, or "none"), else the CUDA
// toolkit's usual places.
const MemoryBuffer *
load_libdevice()
{
    if (libdevice.tried)
        return libdevice.bitcode.get();
    libdevice.tried = true;
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
    for (const std::string &place : places) {
        if (place == "none")
            break;
        auto file = MemoryBuffer::getFile(place, false, false);
        if (!file)
            continue;
        LLVMContext context;
        context.setOpaquePointers(true);
        auto lazy = getLazyBitcodeModule((*file)->getMemBufferRef(), context);
        if (!lazy) { // not bitcode this LLVM reads: as if there were none
            consumeError(lazy.takeError());
            continue;
        }
        for (const Function &f : **lazy)
            if (!f.isDeclaration())
                libdevice.defined.insert(f.getName());
        libdevice.bitcode = std::move(*file);
        libdevice.path = place;
        break;
    }
    return libdevice.bitcode.get();
}

// OpenCL's name, its arity, and libdevice's float and double functions.
const struct {
    const char *name;
    unsigned arity;
    const char *f32, *f64;
} libdevice_math[] = {
    {"sin", 1, "__nv_sinf", "__nv_sin"},       {"cos", 1, "__nv_cosf", "__nv_cos"},
    {"tan", 1, "__nv_tanf", "__nv_tan"},       {"exp", 1, "__nv_expf", "__nv_exp"},
    {"exp2", 1, "__nv_exp2f", "__nv_exp2"},    {"exp10", 1, "__nv_exp10f", "__nv_exp10"},
    {"log", 1, "__nv_logf", "__nv_log"},       {"log2", 1, "__nv_log2f", "__nv_log2"},
    {"log10", 1, "__nv_log10f", "__nv_log10"}, {"log1p", 1, "__nv_log1pf", "__nv_log1p"},
    {"expm1", 1, "__nv_expm1f", "__nv_expm1"}, {"asin", 1, "__nv_asinf", "__nv_asin"},
    {"acos", 1, "__nv_acosf", "__nv_acos"},    {"atan", 1, "__nv_atanf", "__nv_atan"},
    {"sinh", 1, "__nv_sinhf", "__nv_sinh"},    {"cosh", 1, "__nv_coshf", "__nv_cosh"},
    {"tanh", 1, "__nv_tanhf", "__nv_tanh"},    {"cbrt", 1, "__nv_cbrtf", "__nv_cbrt"},
    {"erf", 1, "__nv_erff", "__nv_erf"},       {"erfc", 1, "__nv_erfcf", "__nv_erfc"},
    {"rsqrt", 1, "__nv_rsqrtf", "__nv_rsqrt"}, {"pow", 2, "__nv_powf", "__nv_pow"},
    {"atan2", 2, "__nv_atan2f", "__nv_atan2"}, {"hypot", 2, "__nv_hypotf", "__nv_hypot"},
};

// Each scalar math built-in the module calls defined as a call of libdevice's function, then what is used
// linked from libdevice (its __nvvm_reflect queries answered by the back end's NVVMReflect pass).
bool
link_libdevice(Module &m, std::string &error)
{
    LLVMContext &c = m.getContext();
    bool any = false;
    for (const auto &fn : libdevice_math) {
        for (bool dbl : {false, true}) {
            std::string name = "_Z" + std::to_string(strlen(fn.name)) + fn.name + std::string(fn.arity, dbl ? 'd' : 'f');
            Function *f = m.getFunction(name);
            if (!f || !f->isDeclaration() || !libdevice.defined.count(dbl ? fn.f64 : fn.f32))
                continue;
            Type *t = dbl ? Type::getDoubleTy(c) : Type::getFloatTy(c);
            SmallVector<Type *, 2> params(fn.arity, t);
            auto *type = FunctionType::get(t, params, false);
            if (f->getFunctionType() != type)
                continue;
            FunctionCallee nv = m.getOrInsertFunction(dbl ? fn.f64 : fn.f32, type);
            BasicBlock *body = BasicBlock::Create(c, "", f);
            IRBuilder<> b(body);
            SmallVector<Value *, 2> args;
            for (Argument &a : f->args())
                args.push_back(&a);
            b.CreateRet(b.CreateCall(nv, args));
            f->setLinkage(GlobalValue::InternalLinkage);
            any = true;
        }
    }
    if (!any)
        return true;
    auto lazy = getOwningLazyBitcodeModule(MemoryBuffer::getMemBuffer(libdevice.bitcode->getMemBufferRef(), false),
                                           c);
    if (!lazy) {
        error = "libdevice (" + libdevice.path + ") cannot be read: " + toString(lazy.takeError());
        return false;
    }
    (*lazy)->setTargetTriple(m.getTargetTriple());
    (*lazy)->setDataLayout(m.getDataLayout());
    if (Linker::linkModules(m, std::move(*lazy), Linker::LinkOnlyNeeded)) {
        error = "linking libdevice (" + libdevice.path + ") failed";
        return false;
    }
    return true;
}

unsigned
nvptx_address_space(unsigned as, bool &known)
{
    static const unsigned map[] = {0, 1, 4, 3, 0}; // private, global, constant, local, generic
    known = as < sizeof(map) / sizeof(map[0]);
    return known ? map[as] : as;
}

// Every type with SPIR's address spaces in NVPTX's.
class address_spaces : public ValueMapTypeRemapper {
  public:
    explicit address_spaces(LLVMContext &c) : context(c) {}
    bool unknown = false;

    Type *
    remapType(Type *type) override
    {
        auto found = cache.find(type);
        if (found != cache.end())
            return found->second;
        Type *mapped = map(type);
        cache[type] = mapped;
        return mapped;
    }

  private:
    LLVMContext &context;
    DenseMap<Type *, Type *> cache;

    Type *
    map(Type *type)
    {
        if (auto *p = dyn_cast<PointerType>(type)) {
            bool known;
            unsigned as = nvptx_address_space(p->getAddressSpace(), known);
            unknown |= !known;
            return PointerType::get(context, as);
        }
        if (auto *a = dyn_cast<ArrayType>(type))
            return ArrayType::get(remapType(a->getElementType()), a->getNumElements());
        if (auto *v = dyn_cast<FixedVectorType>(type))
            return FixedVectorType::get(remapType(v->getElementType()), v->getNumElements());
        if (auto *f = dyn_cast<FunctionType>(type)) {
            SmallVector<Type *, 8> params;
            for (Type *t : f->params())
                params.push_back(remapType(t));
            return FunctionType::get(remapType(f->getReturnType()), params, f->isVarArg());
        }
        if (auto *s = dyn_cast<StructType>(type)) {
            if (s->isOpaque())
                return s;
            SmallVector<Type *, 8> elements;
            bool changed = false;
            for (Type *t : s->elements()) {
                elements.push_back(remapType(t));
                changed |= elements.back() != t;
            }
            if (!changed)
                return s;
            if (s->isLiteral())
                return StructType::get(context, elements, s->isPacked());
            return StructType::create(context, elements, s->getName(), s->isPacked());
        }
        return type;
    }
};

// The types that attributes carry (byval, sret, elementtype...) mapped too.
AttributeList
map_attribute_types(LLVMContext &c, AttributeList attrs, ValueMapTypeRemapper &types)
{
    for (unsigned i = 0; i < attrs.getNumAttrSets(); ++i)
        for (int kind = Attribute::FirstTypeAttr; kind <= Attribute::LastTypeAttr; kind++)
            if (Type *t = attrs.getAttributeAtIndex(i, (Attribute::AttrKind)kind).getValueAsType())
                attrs = attrs.replaceAttributeTypeAtIndex(c, i, (Attribute::AttrKind)kind, types.remapType(t));
    return attrs;
}

// Whether a constant anywhere below `c` casts between two address spaces that become one.
bool
merged_cast(const Constant *c, unsigned depth = 0)
{
    if (depth > 64)
        return true;
    if (auto *e = dyn_cast<ConstantExpr>(c)) {
        if (e->getOpcode() == Instruction::AddrSpaceCast) {
            bool known;
            unsigned from = nvptx_address_space(e->getOperand(0)->getType()->getPointerAddressSpace(), known);
            unsigned to = nvptx_address_space(e->getType()->getPointerAddressSpace(), known);
            if (from == to)
                return true;
        }
    }
    for (const Use &u : c->operands())
        if (auto *op = dyn_cast<Constant>(u.get()); op && !isa<GlobalValue>(op) && merged_cast(op, depth + 1))
            return true;
    return false;
}

// The module again, in NVPTX's address spaces; nullptr with the reason in `error`.
std::unique_ptr<Module>
renumber(Module &m, std::string &error)
{
    LLVMContext &c = m.getContext();
    if (!m.alias_empty() || !m.ifunc_empty()) {
        error = "the module has global aliases, which the NVPTX route does not map";
        return nullptr;
    }
    for (const GlobalVariable &g : m.globals())
        if (g.hasInitializer() && merged_cast(g.getInitializer())) {
            error = "the initializer of " + g.getName().str() +
                    " casts between private and generic pointers, which NVPTX cannot tell apart";
            return nullptr;
        }
    for (const Function &f : m)
        for (const BasicBlock &b : f)
            for (const Instruction &i : b)
                for (const Use &u : i.operands())
                    if (auto *k = dyn_cast<Constant>(u.get()); k && !isa<GlobalValue>(k) && merged_cast(k)) {
                        error = "a constant in " + f.getName().str() +
                                " casts between private and generic pointers, which NVPTX cannot tell apart";
                        return nullptr;
                    }

    auto out = std::make_unique<Module>(m.getModuleIdentifier(), c);
    out->setSourceFileName(m.getSourceFileName());
    address_spaces types(c);
    ValueToValueMapTy values;
    for (GlobalVariable &g : m.globals()) {
        bool known;
        unsigned as = nvptx_address_space(g.getAddressSpace(), known);
        auto *ng = new GlobalVariable(*out, types.remapType(g.getValueType()), g.isConstant(), g.getLinkage(), nullptr,
                                      g.getName(), nullptr, g.getThreadLocalMode(), as);
        ng->copyAttributesFrom(&g);
        values[&g] = ng;
        if (!known) {
            error = "the variable " + g.getName().str() + " is in an address space that NVPTX has no match for";
            return nullptr;
        }
    }
    for (Function &f : m) {
        auto *type = cast<FunctionType>(types.remapType(f.getFunctionType()));
        Function *nf = Function::Create(type, f.getLinkage(), f.getAddressSpace(), f.getName(), out.get());
        nf->copyAttributesFrom(&f);
        nf->setAttributes(map_attribute_types(c, f.getAttributes(), types));
        values[&f] = nf;
    }
    for (GlobalVariable &g : m.globals())
        if (g.hasInitializer())
            cast<GlobalVariable>(values[&g])->setInitializer(MapValue(g.getInitializer(), values, RF_None, &types));
    for (Function &f : m) {
        if (f.isDeclaration())
            continue;
        auto *nf = cast<Function>(values[&f]);
        auto arg = nf->arg_begin();
        for (const Argument &a : f.args()) {
            arg->setName(a.getName());
            values[&a] = &*arg++;
        }
        SmallVector<ReturnInst *, 4> returns;
        CloneFunctionInto(nf, &f, values, CloneFunctionChangeType::DifferentModule, returns, "", nullptr, &types);
        nf->setAttributes(map_attribute_types(c, f.getAttributes(), types));
    }
    // Named metadata the cloning did not carry (llvm.dbg.cu is).
    for (const NamedMDNode &md : m.named_metadata()) {
        if (md.getName() == "llvm.dbg.cu")
            continue;
        NamedMDNode *nmd = out->getOrInsertNamedMetadata(md.getName());
        for (const MDNode *op : md.operands())
            nmd->addOperand(MapMetadata(op, values, RF_None, &types));
    }
    if (types.unknown) {
        error = "the module uses an address space that NVPTX has no match for";
        return nullptr;
    }
    // Casts between private and generic pointers are one space now: no casts at all.
    for (Function &f : *out)
        for (BasicBlock &b : f)
            for (auto i = b.begin(); i != b.end();) {
                Instruction &inst = *i++;
                if (auto *cast = dyn_cast<AddrSpaceCastInst>(&inst);
                    cast && cast->getSrcTy() == cast->getDestTy()) {
                    cast->replaceAllUsesWith(cast->getOperand(0));
                    cast->eraseFromParent();
                }
            }
    // Intrinsics named after the old address spaces (llvm.memcpy.p0.p1.i64) named after the new ones.
    SmallVector<Function *, 16> intrinsics;
    for (Function &f : *out)
        if (f.isIntrinsic())
            intrinsics.push_back(&f);
    for (Function *f : intrinsics)
        if (Optional<Function *> renamed = Intrinsic::remangleIntrinsicFunction(f)) {
            f->replaceAllUsesWith(*renamed);
            f->eraseFromParent();
        }
    return out;
}

// Kernels as NVPTX knows them: the C calling convention everywhere, each kernel in !nvvm.annotations with
// its required work-group size; every function open to the optimizer.
void
mark_kernels(Module &m)
{
    LLVMContext &c = m.getContext();
    NamedMDNode *annotations = m.getOrInsertNamedMetadata("nvvm.annotations");
    auto *i32 = Type::getInt32Ty(c);
    for (Function &f : m) {
        if (f.getCallingConv() == CallingConv::SPIR_KERNEL && !f.isDeclaration()) {
            auto annotate = [&](const char *what, uint64_t value) {
                Metadata *ops[] = {ValueAsMetadata::get(&f), MDString::get(c, what),
                                   ConstantAsMetadata::get(ConstantInt::get(i32, value))};
                annotations->addOperand(MDNode::get(c, ops));
            };
            annotate("kernel", 1);
            if (MDNode *size = f.getMetadata("reqd_work_group_size"); size && size->getNumOperands() == 3) {
                static const char *const dims[] = {"reqntidx", "reqntidy", "reqntidz"};
                for (unsigned d = 0; d < 3; d++)
                    if (auto *v = mdconst::dyn_extract<ConstantInt>(size->getOperand(d)))
                        annotate(dims[d], v->getZExtValue());
            }
        }
        f.setCallingConv(CallingConv::C);
        // clang -O0 marks every function so; the driver's own compiler would inline and optimize them.
        f.removeFnAttr(Attribute::OptimizeNone);
        f.removeFnAttr(Attribute::NoInline);
        for (BasicBlock &b : f)
            for (Instruction &i : b)
                if (auto *call = dyn_cast<CallBase>(&i))
                    call->setCallingConv(CallingConv::C);
    }
}

// OpenCL's printf as CUDA's: NVIDIA's driver provides `vprintf(format, arguments)`, which reads the
// arguments from a buffer where each lies at its natural alignment (what clang does for CUDA's printf).
// Arguments arrive with C's promotions already made (float as double); pointers become generic ones (a %s
// string in constant memory). A vector argument (%v4f) has no vprintf form: the module is refused.
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
                v = b.CreateAddrSpaceCast(v, generic);
            else if (!t->isIntegerTy() && !t->isDoubleTy() && !t->isPointerTy()) {
                error = "printf in " + call->getFunction()->getName().str() +
                        " has a vector argument, which NVIDIA's printf (vprintf) does not take";
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
        Value *format = call->getArgOperand(0);
        if (format->getType()->getPointerAddressSpace() != 0)
            format = b.CreateAddrSpaceCast(format, generic);
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
void
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
        if (!layer_builtin_canonical(f->getName().str().c_str(), true, canonical, sizeof(canonical)))
            continue;
        auto found = library.by_canonical.find(canonical);
        if (found == library.by_canonical.end()) {
            half_through_float(m, f, canonical);
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
    auto lazy = getOwningLazyBitcodeModule(MemoryBuffer::getMemBuffer(library.bitcode->getMemBufferRef(), false),
                                           m.getContext());
    if (!lazy) {
        error = "libclc's nvptx64 library cannot be read: " + toString(lazy.takeError());
        return false;
    }
    (*lazy)->setTargetTriple(m.getTargetTriple());
    (*lazy)->setDataLayout(m.getDataLayout());
    if (Linker::linkModules(m, std::move(*lazy), Linker::LinkOnlyNeeded)) {
        error = "linking libclc's nvptx64 library failed";
        return false;
    }
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
bool
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
Value *
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

// The processor: the device's compute capability, or the highest below it that this LLVM knows. The PTX
// version: the lowest that the processor needs (any driver for the device reads it).
bool
processor(const MCSubtargetInfo &sti, unsigned major, unsigned minor, std::string &cpu, std::string &features)
{
    static const struct {
        unsigned sm, ptx;
    } versions[] = {{20, 32}, {21, 32}, {30, 32}, {32, 40}, {35, 32}, {37, 41}, {50, 40}, {52, 41}, {53, 42},
                    {60, 50}, {61, 50}, {62, 50}, {70, 60}, {72, 61}, {75, 63}, {80, 70}, {86, 71}};
    unsigned want = major * 10 + minor;
    for (size_t k = sizeof(versions) / sizeof(versions[0]); k-- > 0;) {
        if (versions[k].sm > want)
            continue;
        std::string name = "sm_" + std::to_string(versions[k].sm);
        if (!sti.isCPUStringValid(name))
            continue;
        cpu = name;
        features = "+ptx" + std::to_string(versions[k].ptx);
        return true;
    }
    return false;
}

void
initialize_nvptx()
{
    static std::once_flag once;
    std::call_once(once, [] {
        LLVMInitializeNVPTXTargetInfo();
        LLVMInitializeNVPTXTarget();
        LLVMInitializeNVPTXTargetMC();
        LLVMInitializeNVPTXAsmPrinter();
    });
}

// LLVM's diagnostics (warnings, and errors that would otherwise end the process) collected.
struct diagnostics {
    std::string errors;
};

void
collect(const DiagnosticInfo &d, void *user)
{
    if (d.getSeverity() != DS_Error)
        return;
    std::string text;
    raw_string_ostream out(text);
    DiagnosticPrinterRawOStream printer(out);
    d.print(printer);
    auto *diags = static_cast<diagnostics *>(user);
    diags->errors += (diags->errors.empty() ? "" : "; ") + out.str();
}

bool
lower(const unsigned char *bitcode, size_t size, unsigned major, unsigned minor, std::string &ptx, std::string &cpu,
      std::string &error)
{
    initialize_nvptx();
    std::string lookup_error;
    const Target *target = TargetRegistry::lookupTarget(triple, lookup_error);
    if (!target) {
        error = "this LLVM has no NVPTX back end: " + lookup_error;
        return false;
    }
    std::unique_ptr<TargetMachine> probe(target->createTargetMachine(triple, "", "", TargetOptions(), None));
    std::string features;
    if (!probe || !processor(*probe->getMCSubtargetInfo(), major, minor, cpu, features)) {
        error = "this LLVM knows no NVPTX processor for compute capability " + std::to_string(major) + "." +
                std::to_string(minor);
        return false;
    }
    TargetOptions options;
    std::unique_ptr<TargetMachine> machine(
        target->createTargetMachine(triple, cpu, features, options, None, None, CodeGenOpt::Aggressive));

    LLVMContext context;
    context.setOpaquePointers(true); // libclc's bitcode has them; the translator's typed bitcode is upgraded
    diagnostics diags;
    context.setDiagnosticHandlerCallBack(collect, &diags);
    auto parsed = parseBitcodeFile(MemoryBufferRef(StringRef(reinterpret_cast<const char *>(bitcode), size), "spirv"),
                                   context);
    if (!parsed) {
        error = "the translator's bitcode cannot be read: " + toString(parsed.takeError());
        return false;
    }
    if ((*parsed)->getDataLayout().getPointerSizeInBits(0) != 64) {
        error = "the module is 32-bit (Physical32); NVIDIA's devices take 64-bit modules";
        return false;
    }
    std::unique_ptr<Module> m = renumber(**parsed, error);
    if (!m)
        return false;
    parsed->reset();
    m->setTargetTriple(triple);
    m->setDataLayout(machine->createDataLayout());
    mark_kernels(*m);
    std::string verify;
    raw_string_ostream verify_out(verify);
    if (verifyModule(*m, &verify_out)) {
        error = "the module in NVPTX's address spaces is not valid LLVM IR: " + verify_out.str().substr(0, 400);
        return false;
    }
    if (!lower_printf(*m, error) || !link_builtins(*m, error) || !lower_native_math(*m, error))
        return false;
    NamedMDNode *annotations = m->getNamedMetadata("nvvm.annotations");
    SmallPtrSet<const GlobalValue *, 16> kernels;
    for (const MDNode *op : annotations->operands())
        if (op->getNumOperands() == 3)
            if (auto *v = dyn_cast_or_null<ValueAsMetadata>(op->getOperand(0).get()))
                if (auto *f = dyn_cast<Function>(v->getValue()))
                    kernels.insert(f);
    for (Function &f : *m)
        if (!f.isDeclaration() && !kernels.count(&f))
            f.setLinkage(GlobalValue::InternalLinkage);
    for (GlobalVariable &g : m->globals())
        if (!g.isDeclaration())
            g.setLinkage(GlobalValue::InternalLinkage);

    PassBuilder builder(machine.get());
    LoopAnalysisManager lam;
    FunctionAnalysisManager fam;
    CGSCCAnalysisManager cgam;
    ModuleAnalysisManager mam;
    TargetLibraryInfoImpl library_info(Triple(m->getTargetTriple()));
    library_info.disableAllFunctions(); // no C library on the device: no call becomes expf
    fam.registerPass([&] { return TargetLibraryAnalysis(library_info); });
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    ModulePassManager passes = builder.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
    passes.run(*m, mam);
    if (verifyModule(*m, &verify_out)) {
        error = "the optimized module is not valid LLVM IR: " + verify_out.str().substr(0, 400);
        return false;
    }
    if (!selectable(*m, error))
        return false;

    SmallVector<char, 0> text;
    raw_svector_ostream out(text);
    legacy::PassManager codegen;
    codegen.add(createTargetTransformInfoWrapperPass(machine->getTargetIRAnalysis()));
    if (machine->addPassesToEmitFile(codegen, out, nullptr, CGFT_AssemblyFile)) {
        error = "the NVPTX back end cannot emit PTX";
        return false;
    }
    codegen.run(*m);
    if (!diags.errors.empty()) {
        error = "the NVPTX back end: " + diags.errors.substr(0, 600);
        return false;
    }
    ptx.assign(text.data(), text.size());
    // The back end's OpenCL flavour writes no linkage directives: the driver's vprintf, declared and not
    // defined here, needs `.extern`.
    const std::string declared = "\n.func  (.param .b32 func_retval0) vprintf\n";
    if (size_t at = ptx.find(declared); at != std::string::npos)
        ptx.insert(at + 1, ".extern ");
    return true;
}

} // namespace

extern "C" bool
layer_can_lower_ptx(char *msg, size_t msg_size)
{
    std::lock_guard<std::mutex> one_at_a_time(lowering);
    std::string error;
    if (load_builtins(error))
        return true;
    snprintf(msg, msg_size, "%s", error.c_str());
    return false;
}

extern "C" bool
layer_lower_ptx(const uint32_t *words, size_t count, unsigned major, unsigned minor, char **ptx, size_t *size,
                char *msg, size_t msg_size)
{
    *ptx = nullptr;
    *size = 0;
    unsigned char *bitcode = nullptr;
    size_t bitcode_size = 0;
    if (!layer_translate(words, count, &bitcode, &bitcode_size, msg, msg_size))
        return false;
    std::string text, cpu, error;
    bool ok;
    try {
        std::lock_guard<std::mutex> one_at_a_time(lowering);
        ok = load_builtins(error) && lower(bitcode, bitcode_size, major, minor, text, cpu, error);
    } catch (const std::exception &e) {
        ok = false;
        error = e.what();
    }
    free(bitcode);
    if (!ok) {
        snprintf(msg, msg_size, "lowering to PTX failed: %s", error.c_str());
        return false;
    }
    *ptx = static_cast<char *>(malloc(text.size() + 1));
    if (!*ptx) {
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    memcpy(*ptx, text.c_str(), text.size() + 1);
    *size = text.size() + 1; // NVIDIA's driver reads the PTX as a C string
    return true;
}
