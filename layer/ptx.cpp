// SPDX-License-Identifier: MIT
// SPIR-V -> PTX in process, for NVIDIA's OpenCL driver, which reads no SPIR-V and takes PTX as a program
// binary (docs/opencl-layer.md, "NVIDIA"). The steps:
//   1. the translator's LLVM bitcode (layer_translate), read into a context of opaque pointers;
//   2. SPIR's address spaces renumbered as NVPTX's (constant 2 -> 4, generic 4 -> 0: NVPTX's generic is
//      also where private data lives), the module rebuilt with every type mapped;
//   3. kernels named in !nvvm.annotations (with their required work-group size), SPIR's calling
//      conventions dropped, clang -O0's optnone and noinline removed;
//   4. images as NVIDIA's compiler makes them (ptx_images.cpp), printf as the driver's vprintf, OpenCL
//      built-ins from libdevice and libclc's nvptx64 library, libclc's native_* math as approximate
//      instructions (ptx_builtins.cpp);
//   5. everything but the kernels internalized, LLVM's optimizer with no C library assumed (no call becomes
//      `expf`, which nothing would define), then the NVPTX back end for the device's compute capability
//      (the highest this LLVM knows when the device is newer), with the OpenCL flavour of the target:
//      kernel parameters carry `.ptr .global .align N`.
// A module that fails any step is refused with the reason; nothing is handed to the driver that LLVM's
// verifier rejects, and the back end's errors are collected rather than fatal.
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/FileSystem.h>
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

extern "C" {
#include "layer.h"
}
#include "ptx_steps.h"

using namespace llvm;

namespace {

const char triple[] = "nvptx64-nvidia-nvcl";

// One lowering at a time: the library below is read once and shared.
std::mutex lowering;

// NVPTX's address space for SPIR's `as` (builtin_names.c's table); one SPIR lacks stays as it was, unknown.
unsigned
nvptx_address_space(unsigned as, bool &known)
{
    int mapped = layer_nvptx_address_space(as);
    known = mapped >= 0;
    return known ? (unsigned)mapped : as;
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
lower(const unsigned char *bitcode, size_t size, unsigned major, unsigned minor, unsigned arithmetic, std::string &ptx,
      std::string &cpu, std::string &error)
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
    ptx::saturate_as_opencl(*m);
    ptx::work_items_as_driver(*m);
    if (!ptx::lower_images(*m, error) || !ptx::lower_printf(*m, error) || !ptx::link_builtins(*m, error) ||
        !ptx::lower_native_math(*m, error))
        return false;
    SmallPtrSet<const Function *, 16> kernels = ptx::kernels_of(*m);
    for (Function &f : *m)
        if (!f.isDeclaration() && !kernels.count(&f))
            f.setLinkage(GlobalValue::InternalLinkage);
    for (GlobalVariable &g : m->globals())
        if (!g.isDeclaration())
            g.setLinkage(GlobalValue::InternalLinkage);
    // PTX names are identifiers (the back end ends the process on another): an internal one that is not, or
    // has none (a function the module leaves unnamed), is given one (the back end writes an unnamed function's
    // parameters as `_param_0`, which ptxas refuses), a kernel's refuses the module.
    auto identifier = [](StringRef name) {
        if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
            return false;
        for (char ch : name)
            if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                  ch == '$' || ch == '.'))
                return false;
        return true;
    };
    for (GlobalValue &g : m->global_values()) {
        if (!g.hasName() && g.hasLocalLinkage()) {
            g.setName("__spvcond_unnamed"); // LLVM makes each such name unique
        } else if (g.hasName() && !identifier(g.getName())) {
            if (!g.hasLocalLinkage()) {
                std::string shown = g.getName().str().substr(0, 80);
                for (char &ch : shown)
                    if (ch < 0x20 || ch > 0x7e)
                        ch = '?';
                bool kernel = kernels.count(dyn_cast<Function>(&g));
                error = "the name of " + std::string(kernel ? "kernel" : "function") + " '" + shown +
                        "' is not an identifier PTX takes";
                return false;
            }
            g.setName("__spvcond_unnamed");
        }
    }

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
    if (!(arithmetic & LAYER_CORRECTLY_ROUNDED_DIVIDE))
        ptx::divide_as_driver(*m);
    if (verifyModule(*m, &verify_out)) {
        error = "the optimized module is not valid LLVM IR: " + verify_out.str().substr(0, 400);
        return false;
    }
    if (!ptx::selectable(*m, error) || !ptx::name_image_handles(*m, error))
        return false;
    // A measuring aid (docs/opencl-layer.md, "Another LLVM's back end"): the module as the back end takes it,
    // for another LLVM's llc to lower.
    if (const char *path = getenv("SPVCOND_LAYER_NVPTX_IR")) {
        std::error_code failed;
        raw_fd_ostream file(path, failed, sys::fs::OF_None);
        if (!failed)
            WriteBitcodeToFile(*m, file);
        else
            fprintf(stderr, "spvcond layer: SPVCOND_LAYER_NVPTX_IR: cannot write %s: %s\n", path,
                    failed.message().c_str());
    }

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
    if (ptx::load_builtins(error))
        return true;
    snprintf(msg, msg_size, "%s", error.c_str());
    return false;
}

extern "C" bool
layer_lower_ptx(const uint32_t *words, size_t count, unsigned major, unsigned minor, unsigned arithmetic, char **ptx,
                size_t *size, char *msg, size_t msg_size)
{
    *ptx = nullptr;
    *size = 0;
    unsigned char *bitcode = nullptr;
    size_t bitcode_size = 0;
    if (!layer_translate(words, count, false, &bitcode, &bitcode_size, msg, msg_size))
        return false;
    std::string text, cpu, error;
    bool ok;
    try {
        std::lock_guard<std::mutex> one_at_a_time(lowering);
        ok = ptx::load_builtins(error) && lower(bitcode, bitcode_size, major, minor, arithmetic, text, cpu, error);
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
