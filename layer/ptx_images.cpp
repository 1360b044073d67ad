// SPDX-License-Identifier: MIT
// The step of NVIDIA's route (ptx.cpp) that gives OpenCL's image built-ins, which libclc's nvptx64 library
// lacks, as NVIDIA's own OpenCL C compiler makes them (the PTX its driver gives for OpenCL C image kernels,
// tools/opencl-binary.c; docs/opencl-layer.md, "Images"):
//   - a kernel's read-only image parameter is a `.texref`, a write-only one a `.surfref`, a sampler parameter
//     a `.samplerref` (LLVM's NVPTX back end writes them so for parameters named in !nvvm.annotations);
//   - a constant sampler is a module-level `.samplerref` with its addressing, filter and coordinates; a read
//     without a sampler uses one with unnormalized coordinates, nearest filtering and no addressing;
//   - a read is a texture fetch (`tex`; a 1D image's integer coordinate as a float, as the driver's compiler
//     does), a write a formatted surface store (`sust.p`) of the components put in the memory order of the
//     image's channel order (read with `suq`), a query `txq` or `suq`.
// Read-write images (which the driver's compiler reads by decoding each format in software), mipmaps and
// multisampled images are refused with the reason. A handle the back end cannot name (an image chosen at run
// time, or one passed to a function left out of line) is refused after optimization, before the back end,
// which would otherwise end the process.
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include <cstring>
#include <string>

extern "C" {
#include "builtin_names.h"
}
#include "ptx_steps.h"

using namespace llvm;

namespace ptx {

namespace {

// OpenCL's channel orders that a formatted surface store does not put in memory order itself.
enum : unsigned { CL_A_ = 0x10B1, CL_RA_ = 0x10B3, CL_BGRA_ = 0x10B6, CL_ARGB_ = 0x10B7 };

enum class geometry { d1, d1_buffer, d1_array, d2, d2_array, d3 };
enum class access { read, write, read_write };

struct image_type {
    geometry shape;
    access mode;
    bool depth;
};

// `ocl_image2d_array_ro` and the like; false for what this route does not take (msaa, unknown names).
bool
parse_image_type(const std::string &name, image_type &t)
{
    static const struct {
        const char *name;
        geometry shape;
        bool depth;
    } shapes[] = {{"1d_buffer", geometry::d1_buffer, false},    {"1d_array", geometry::d1_array, false},
                  {"1d", geometry::d1, false},                  {"2d_array_depth", geometry::d2_array, true},
                  {"2d_array", geometry::d2_array, false},      {"2d_depth", geometry::d2, true},
                  {"2d", geometry::d2, false},                  {"3d", geometry::d3, false}};
    const std::string prefix = "ocl_image";
    if (name.compare(0, prefix.size(), prefix) != 0 || name.size() < prefix.size() + 3)
        return false;
    std::string shape = name.substr(prefix.size(), name.size() - prefix.size() - 3);
    std::string suffix = name.substr(name.size() - 3);
    if (suffix == "_ro")
        t.mode = access::read;
    else if (suffix == "_wo")
        t.mode = access::write;
    else if (suffix == "_rw")
        t.mode = access::read_write;
    else
        return false;
    for (const auto &s : shapes)
        if (shape == s.name) {
            t.shape = s.shape;
            t.depth = s.depth;
            return true;
        }
    return false;
}

// An image built-in's name, image type and whether a sampler follows, from its canonical mangled name
// (`_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i`); false for any other function.
bool
parse_builtin(const char *mangled, std::string &name, image_type &t, bool &sampler)
{
    char canonical[512];
    if (!layer_builtin_canonical(mangled, false, canonical, sizeof(canonical)))
        return false;
    const char *p = canonical + 2;
    auto source_name = [&p](std::string &out) {
        size_t n = 0;
        if (*p < '1' || *p > '9')
            return false;
        while (*p >= '0' && *p <= '9')
            n = n * 10 + (size_t)(*p++ - '0');
        if (strlen(p) < n)
            return false;
        out.assign(p, n);
        p += n;
        return true;
    };
    std::string image;
    if (!source_name(name) || !source_name(image) || !parse_image_type(image, t))
        return false;
    std::string next;
    const char *rest = p;
    sampler = source_name(next) && next == "ocl_sampler";
    if (!sampler)
        p = rest;
    return true;
}

// The handles: a kernel's image or sampler parameter as an integer, which the back end names by parameter.
Value *
handle(IRBuilder<> &b, Value *v)
{
    return b.CreatePtrToInt(v, b.getInt64Ty());
}

// The module-level sampler of NVPTX's encoding `code` (cl_common_defines.h of LLVM's NVPTX back end:
// addressing in bits 0-2, normalized coordinates bit 3, filter bits 4-5), made once.
GlobalVariable *
sampler_variable(Module &m, uint64_t code)
{
    std::string name = "__spvcond_sampler_" + std::to_string(code);
    if (GlobalVariable *g = m.getGlobalVariable(name, true))
        return g;
    LLVMContext &c = m.getContext();
    auto *i64 = Type::getInt64Ty(c);
    auto *g = new GlobalVariable(m, i64, false, GlobalValue::InternalLinkage, ConstantInt::get(i64, code), name,
                                 nullptr, GlobalValue::NotThreadLocal, 1);
    g->setAlignment(Align(8));
    Metadata *ops[] = {ValueAsMetadata::get(g), MDString::get(c, "sampler"),
                       ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(c), 1))};
    m.getOrInsertNamedMetadata("nvvm.annotations")->addOperand(MDNode::get(c, ops));
    return g;
}

Value *
sampler_handle(IRBuilder<> &b, Module &m, GlobalVariable *g)
{
    Function *f = Intrinsic::getDeclaration(&m, Intrinsic::nvvm_texsurf_handle_internal, {g->getType()});
    return b.CreateCall(f, {g});
}

Value *
sampler_handle(IRBuilder<> &b, Module &m, uint64_t code)
{
    return sampler_handle(b, m, sampler_variable(m, code));
}

// SPIR's sampler value (OpenCL C's CLK_* constants: addressing 0/2/4/6/8 for none, clamp to edge, clamp,
// repeat, mirrored repeat; normalized coordinates 1; nearest 0x10, linear 0x20) in NVPTX's encoding.
bool
nvptx_sampler(uint64_t spir, uint64_t &code)
{
    static const unsigned addressing[] = {0 /* none */, 2 /* clamp to edge */, 1 /* clamp (to border) */,
                                          3 /* repeat */, 4 /* mirrored repeat */};
    unsigned mode = (unsigned)(spir >> 1) & 7, filter = (unsigned)(spir >> 4) & 3;
    if (mode > 4 || filter == 0 || filter == 3 || (spir & ~(uint64_t)0x3f))
        return false;
    code = addressing[mode] | (spir & 1) << 3 | (uint64_t)(filter - 1) << 4;
    return true;
}

// Constant samplers (the translator's `__translate_sampler_initializer(i32)`) as module-level samplers.
bool
constant_samplers(Module &m, std::string &error)
{
    Function *init = m.getFunction("__translate_sampler_initializer");
    if (!init)
        return true;
    for (User *u : make_early_inc_range(init->users())) {
        auto *call = dyn_cast<CallInst>(u);
        auto *value = call && call->arg_size() == 1 ? dyn_cast<ConstantInt>(call->getArgOperand(0)) : nullptr;
        uint64_t code;
        if (!value || !nvptx_sampler(value->getZExtValue(), code)) {
            error = "a sampler that is not a constant OpenCL defines (the NVPTX route makes each a .samplerref)";
            return false;
        }
        IRBuilder<> b(call);
        call->replaceAllUsesWith(b.CreateIntToPtr(sampler_handle(b, m, code), call->getType()));
        call->eraseFromParent();
    }
    if (init->use_empty())
        init->eraseFromParent();
    return true;
}

// A texture fetch's intrinsic for the image's geometry, its result (float or, as the driver's compiler reads
// read_imagei and read_imageui alike, signed integers) and its coordinates.
Intrinsic::ID
fetch_intrinsic(geometry shape, bool float_result, bool float_coordinates)
{
#define FETCH(G)                                                                                                   \
    (float_result ? (float_coordinates ? Intrinsic::nvvm_tex_##G##_v4f32_f32 : Intrinsic::nvvm_tex_##G##_v4f32_s32) \
                  : (float_coordinates ? Intrinsic::nvvm_tex_##G##_v4s32_f32 : Intrinsic::nvvm_tex_##G##_v4s32_s32))
    switch (shape) {
    case geometry::d1:
    case geometry::d1_buffer:
        return FETCH(1d);
    case geometry::d1_array:
        return FETCH(1d_array);
    case geometry::d2:
        return FETCH(2d);
    case geometry::d2_array:
        return FETCH(2d_array);
    case geometry::d3:
        return FETCH(3d);
    }
#undef FETCH
    return Intrinsic::not_intrinsic;
}

Intrinsic::ID
store_intrinsic(geometry shape)
{
    switch (shape) {
    case geometry::d1:
    case geometry::d1_buffer:
        return Intrinsic::nvvm_sust_p_1d_v4i32_trap;
    case geometry::d1_array:
        return Intrinsic::nvvm_sust_p_1d_array_v4i32_trap;
    case geometry::d2:
        return Intrinsic::nvvm_sust_p_2d_v4i32_trap;
    case geometry::d2_array:
        return Intrinsic::nvvm_sust_p_2d_array_v4i32_trap;
    case geometry::d3:
        return Intrinsic::nvvm_sust_p_3d_v4i32_trap;
    }
    return Intrinsic::not_intrinsic;
}

unsigned
dimensions(geometry shape)
{
    return shape == geometry::d3 ? 3 : shape == geometry::d2 || shape == geometry::d2_array ? 2 : 1;
}

bool
arrayed(geometry shape)
{
    return shape == geometry::d1_array || shape == geometry::d2_array;
}

// A query of the image (txq for a texture, suq for a surface), as a 32-bit integer.
enum class query { width, height, depth, array_size, channel_data_type, channel_order };

Value *
ask(IRBuilder<> &b, Module &m, const image_type &t, Value *image, query q)
{
    static const Intrinsic::ID texture[] = {Intrinsic::nvvm_txq_width,      Intrinsic::nvvm_txq_height,
                                            Intrinsic::nvvm_txq_depth,      Intrinsic::nvvm_txq_array_size,
                                            Intrinsic::nvvm_txq_channel_data_type,
                                            Intrinsic::nvvm_txq_channel_order};
    static const Intrinsic::ID surface[] = {Intrinsic::nvvm_suq_width,      Intrinsic::nvvm_suq_height,
                                            Intrinsic::nvvm_suq_depth,      Intrinsic::nvvm_suq_array_size,
                                            Intrinsic::nvvm_suq_channel_data_type,
                                            Intrinsic::nvvm_suq_channel_order};
    Intrinsic::ID id = (t.mode == access::read ? texture : surface)[(unsigned)q];
    return b.CreateCall(Intrinsic::getDeclaration(&m, id), {handle(b, image)});
}

// The coordinates of a fetch or store: x (y, z) as the intrinsic takes them, the layer first for an array
// (a float layer rounded to the nearest and clamped to the array, as OpenCL reads it).
void
coordinates(IRBuilder<> &b, Module &m, const image_type &t, Value *image, Value *coord, bool as_float,
            SmallVectorImpl<Value *> &out)
{
    auto component = [&](unsigned k) -> Value * {
        return coord->getType()->isVectorTy() ? b.CreateExtractElement(coord, k) : coord;
    };
    unsigned n = dimensions(t.shape);
    if (arrayed(t.shape)) {
        Value *layer = component(n);
        if (layer->getType()->isFloatingPointTy()) {
            Value *rounded = b.CreateUnaryIntrinsic(Intrinsic::rint, layer);
            Value *last = b.CreateSub(ask(b, m, t, image, query::array_size), b.getInt32(1));
            Value *index = b.CreateFPToSI(rounded, b.getInt32Ty());
            index = b.CreateSelect(b.CreateICmpSLT(index, b.getInt32(0)), b.getInt32(0), index);
            layer = b.CreateSelect(b.CreateICmpSGT(index, last), last, index);
        }
        out.push_back(layer);
    }
    for (unsigned k = 0; k < n; k++) {
        Value *x = component(k);
        if (as_float && x->getType()->isIntegerTy())
            x = b.CreateSIToFP(x, b.getFloatTy());
        out.push_back(x);
    }
}

// read_image{f,i,ui,h}(image[, sampler], coord).
bool
define_read(Module &m, Function &f, const image_type &t, bool sampler, char result)
{
    if (t.mode != access::read || f.arg_size() != (sampler ? 3u : 2u))
        return false;
    LLVMContext &c = m.getContext();
    IRBuilder<> b(BasicBlock::Create(c, "", &f));
    Value *image = f.getArg(0), *coord = f.getArg(sampler ? 2 : 1);
    Type *element = coord->getType()->getScalarType();
    if (!element->isIntegerTy(32) && !element->isFloatTy())
        return false;
    // A 1D image (not a buffer) with an integer coordinate is fetched at that coordinate as a float.
    bool as_float = element->isFloatTy() || t.shape == geometry::d1 || t.shape == geometry::d1_array;
    Value *s = sampler ? handle(b, f.getArg(1)) : sampler_handle(b, m, uint64_t(0)); // none, unnormalized, nearest
    SmallVector<Value *, 6> args = {handle(b, image), s};
    coordinates(b, m, t, image, coord, as_float, args);
    Intrinsic::ID fetch = fetch_intrinsic(t.shape, result != 'i', as_float);
    Value *texel = b.CreateCall(Intrinsic::getDeclaration(&m, fetch), args);
    Type *want = f.getReturnType();
    if (t.depth) {
        if (!want->isFloatTy())
            return false;
        b.CreateRet(b.CreateExtractValue(texel, 0));
        return true;
    }
    auto *vector = dyn_cast<FixedVectorType>(want);
    if (!vector || vector->getNumElements() != 4)
        return false;
    Value *out = UndefValue::get(FixedVectorType::get(texel->getType()->getStructElementType(0), 4));
    for (unsigned k = 0; k < 4; k++)
        out = b.CreateInsertElement(out, b.CreateExtractValue(texel, k), k);
    if (result == 'h')
        out = b.CreateFPTrunc(out, want);
    if (out->getType() != want)
        return false;
    b.CreateRet(out);
    return true;
}

// write_image{f,i,ui,h}(image, coord, color).
bool
define_write(Module &m, Function &f, const image_type &t)
{
    if (t.mode != access::write || f.arg_size() != 3)
        return false;
    LLVMContext &c = m.getContext();
    IRBuilder<> b(BasicBlock::Create(c, "", &f));
    Value *image = f.getArg(0), *coord = f.getArg(1), *color = f.getArg(2);
    if (!coord->getType()->getScalarType()->isIntegerTy(32))
        return false;
    Type *i32 = b.getInt32Ty();
    auto bits = [&](Value *v) -> Value * {
        if (v->getType()->isHalfTy())
            v = b.CreateFPExt(v, b.getFloatTy());
        return v->getType()->isFloatTy() ? b.CreateBitCast(v, i32) : v;
    };
    Value *x[4];
    if (t.depth) {
        if (!color->getType()->isFloatTy())
            return false;
        x[0] = bits(color);
        x[1] = x[2] = x[3] = b.getInt32(0);
    } else {
        auto *vector = dyn_cast<FixedVectorType>(color->getType());
        if (!vector || vector->getNumElements() != 4)
            return false;
        for (unsigned k = 0; k < 4; k++)
            x[k] = bits(b.CreateExtractElement(color, k));
        if (!x[0]->getType()->isIntegerTy(32))
            return false;
        // The components in the memory order of the channel order: CL_A (a), CL_RA (r, a), CL_BGRA, CL_ARGB.
        Value *order = ask(b, m, t, image, query::channel_order), *zero = b.getInt32(0);
        const struct {
            unsigned order;
            Value *v[4];
        } swizzles[] = {{CL_A_, {x[3], zero, zero, zero}},
                        {CL_RA_, {x[0], x[3], zero, zero}},
                        {CL_BGRA_, {x[2], x[1], x[0], x[3]}},
                        {CL_ARGB_, {x[3], x[0], x[1], x[2]}}};
        Value *y[4] = {x[0], x[1], x[2], x[3]};
        for (const auto &s : swizzles) {
            Value *is = b.CreateICmpEQ(order, b.getInt32(s.order));
            for (unsigned k = 0; k < 4; k++)
                y[k] = b.CreateSelect(is, s.v[k], y[k]);
        }
        for (unsigned k = 0; k < 4; k++)
            x[k] = y[k];
    }
    SmallVector<Value *, 9> args = {handle(b, image)};
    coordinates(b, m, t, image, coord, false, args);
    args.append(x, x + 4);
    b.CreateCall(Intrinsic::getDeclaration(&m, store_intrinsic(t.shape)), args);
    b.CreateRetVoid();
    return true;
}

// get_image_{width,height,depth,dim,array_size,channel_data_type,channel_order}(image).
bool
define_query(Module &m, Function &f, const image_type &t, const std::string &name)
{
    if (t.mode == access::read_write || f.arg_size() != 1)
        return false;
    static const struct {
        const char *name;
        query q;
    } scalars[] = {{"get_image_width", query::width},
                   {"get_image_height", query::height},
                   {"get_image_depth", query::depth},
                   {"get_image_array_size", query::array_size},
                   {"get_image_channel_data_type", query::channel_data_type},
                   {"get_image_channel_order", query::channel_order}};
    LLVMContext &c = m.getContext();
    IRBuilder<> b(BasicBlock::Create(c, "", &f));
    Value *image = f.getArg(0);
    Type *want = f.getReturnType();
    for (const auto &s : scalars)
        if (name == s.name) {
            if (!want->isIntegerTy())
                return false;
            b.CreateRet(b.CreateZExtOrTrunc(ask(b, m, t, image, s.q), want));
            return true;
        }
    auto *vector = dyn_cast<FixedVectorType>(want);
    if (name != "get_image_dim" || !vector || !vector->getElementType()->isIntegerTy(32))
        return false;
    static const query sizes[] = {query::width, query::height, query::depth};
    Value *out = Constant::getNullValue(want);
    for (unsigned k = 0; k < vector->getNumElements() && k < dimensions(t.shape); k++)
        out = b.CreateInsertElement(out, ask(b, m, t, image, sizes[k]), k);
    b.CreateRet(out);
    return true;
}

// The built-in declared as `f`, defined; false when it is not one this route gives (left undefined, it is
// named in the refusal) or its body could not be made (then removed again).
bool
define(Module &m, Function &f, std::string &refused)
{
    std::string name;
    image_type t;
    bool sampler = false;
    if (!parse_builtin(f.getName().str().c_str(), name, t, sampler))
        return false;
    if (t.mode == access::read_write) {
        refused = "read-write images (" + f.getName().str() + ")";
        return false;
    }
    static const struct {
        const char *name;
        char result; // f (float), i (integers), h (half)
    } reads[] = {{"read_imagef", 'f'}, {"read_imagei", 'i'}, {"read_imageui", 'i'}, {"read_imageh", 'h'}};
    static const char *const writes[] = {"write_imagef", "write_imagei", "write_imageui", "write_imageh"};
    bool made = false;
    for (const auto &r : reads)
        if (name == r.name)
            made = define_read(m, f, t, sampler, r.result);
    for (const char *w : writes)
        if (name == w && !sampler)
            made = define_write(m, f, t);
    if (!made && name.compare(0, 10, "get_image_") == 0 && !sampler)
        made = define_query(m, f, t, name);
    if (!made) {
        f.deleteBody();
        return false;
    }
    f.setLinkage(GlobalValue::InternalLinkage);
    f.addFnAttr(Attribute::AlwaysInline);
    return true;
}

// Every function on the way from a kernel to an image built-in inlined: the back end names a handle only
// as the kernel's parameter or a module-level sampler.
void
inline_callers(SmallVectorImpl<Function *> &work, const SmallPtrSetImpl<const Function *> &kernels)
{
    SmallPtrSet<Function *, 16> seen(work.begin(), work.end());
    while (!work.empty()) {
        Function *f = work.pop_back_val();
        for (User *u : f->users())
            if (auto *call = dyn_cast<CallBase>(u)) {
                call->removeFnAttr(Attribute::NoInline); // the translator marks calls too
                if (Function *caller = call->getFunction(); caller && !kernels.count(caller) && seen.insert(caller).second) {
                    caller->removeFnAttr(Attribute::NoInline);
                    caller->addFnAttr(Attribute::AlwaysInline);
                    work.push_back(caller);
                }
            }
    }
}

// Each kernel's image and sampler parameters named in !nvvm.annotations from the kernel's argument
// metadata (kernel_arg_type, kernel_arg_access_qual, which the translator writes for every kernel).
bool
annotate_parameters(Module &m, const SmallPtrSetImpl<const Function *> &kernels, std::string &error)
{
    LLVMContext &c = m.getContext();
    NamedMDNode *annotations = m.getOrInsertNamedMetadata("nvvm.annotations");
    for (const Function *k : kernels) {
        MDNode *types = k->getMetadata("kernel_arg_type"), *quals = k->getMetadata("kernel_arg_access_qual");
        if (!types)
            continue;
        for (unsigned i = 0; i < types->getNumOperands() && i < k->arg_size(); i++) {
            auto *type = dyn_cast<MDString>(types->getOperand(i));
            auto *qual = quals && i < quals->getNumOperands() ? dyn_cast<MDString>(quals->getOperand(i)) : nullptr;
            if (!type)
                continue;
            StringRef what = type->getString();
            const char *kind = nullptr;
            if (what == "sampler_t") {
                kind = "sampler";
            } else if (what.startswith("image")) {
                StringRef q = qual ? qual->getString() : "read_only";
                if (q == "read_write") {
                    error = "kernel " + k->getName().str() + " takes a read-write image, which the NVPTX route "
                            "does not read (NVIDIA's compiler decodes each format in software)";
                    return false;
                }
                kind = q == "write_only" ? "wroimage" : "rdoimage";
            }
            if (!kind)
                continue;
            Metadata *ops[] = {ValueAsMetadata::get(const_cast<Function *>(k)), MDString::get(c, kind),
                               ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(c), i))};
            annotations->addOperand(MDNode::get(c, ops));
        }
    }
    return true;
}

// The one image or sampler that `v` (a handle, or a phi or select of handles) stands for: a kernel's
// parameter or a module-level sampler; nullptr when it can be more than one.
const Value *
handle_source(const Value *v, SmallPtrSetImpl<const Value *> &seen)
{
    if (!seen.insert(v).second)
        return v; // a loop back to a value already followed: adds no source
    if (auto *p = dyn_cast<PtrToIntInst>(v))
        return p->getOperand(0)->stripPointerCasts();
    if (auto *call = dyn_cast<IntrinsicInst>(v); call && call->getIntrinsicID() == Intrinsic::nvvm_texsurf_handle_internal)
        return call->getArgOperand(0)->stripPointerCasts();
    SmallVector<const Value *, 4> incoming;
    if (auto *phi = dyn_cast<PHINode>(v))
        incoming.append(phi->incoming_values().begin(), phi->incoming_values().end());
    else if (auto *sel = dyn_cast<SelectInst>(v))
        incoming = {sel->getTrueValue(), sel->getFalseValue()};
    else
        return nullptr;
    const Value *source = nullptr;
    for (const Value *in : incoming) {
        const Value *s = handle_source(in, seen);
        if (!s)
            return nullptr;
        if (seen.count(s) && !isa<Argument>(s) && !isa<GlobalVariable>(s))
            continue; // the loop's own value
        if (source && s != source)
            return nullptr;
        source = s;
    }
    return source;
}

} // namespace

SmallPtrSet<const Function *, 16>
kernels_of(const Module &m)
{
    SmallPtrSet<const Function *, 16> kernels;
    if (const NamedMDNode *annotations = m.getNamedMetadata("nvvm.annotations"))
        for (const MDNode *op : annotations->operands())
            if (op->getNumOperands() == 3)
                if (auto *s = dyn_cast<MDString>(op->getOperand(1)); s && s->getString() == "kernel")
                    if (auto *v = dyn_cast_or_null<ValueAsMetadata>(op->getOperand(0).get()))
                        if (auto *f = dyn_cast<Function>(v->getValue()))
                            kernels.insert(f);
    return kernels;
}

bool
lower_images(Module &m, std::string &error)
{
    std::string refused;
    SmallVector<Function *, 16> defined;
    for (Function &f : m)
        if (f.isDeclaration() && !f.isIntrinsic() && define(m, f, refused))
            defined.push_back(&f);
    if (!refused.empty()) {
        error = "the NVPTX route does not take " + refused +
                ": NVIDIA's compiler reads them by decoding each format in software, which the route does not do";
        return false;
    }
    // Every kernel's image and sampler parameters, used or not: the driver binds an image to a .texref or
    // .surfref parameter, never to a pointer.
    SmallPtrSet<const Function *, 16> kernels = kernels_of(m);
    if (!annotate_parameters(m, kernels, error) || !constant_samplers(m, error))
        return false;
    inline_callers(defined, kernels);
    return true;
}

bool
name_image_handles(Module &m, std::string &error)
{
    // What the back end can name: a kernel's parameter annotated as an image or sampler, a module-level sampler.
    SmallPtrSet<const Value *, 16> named;
    if (const NamedMDNode *annotations = m.getNamedMetadata("nvvm.annotations"))
        for (const MDNode *op : annotations->operands()) {
            auto *kind = op->getNumOperands() == 3 ? dyn_cast<MDString>(op->getOperand(1)) : nullptr;
            auto *v = kind ? dyn_cast_or_null<ValueAsMetadata>(op->getOperand(0).get()) : nullptr;
            auto *index = kind ? mdconst::dyn_extract<ConstantInt>(op->getOperand(2)) : nullptr;
            if (!v || !index)
                continue;
            StringRef k = kind->getString();
            if (auto *f = dyn_cast<Function>(v->getValue());
                f && (k == "rdoimage" || k == "wroimage" || k == "sampler") && index->getZExtValue() < f->arg_size())
                named.insert(f->getArg((unsigned)index->getZExtValue()));
            else if (isa<GlobalVariable>(v->getValue()) && k == "sampler")
                named.insert(v->getValue());
        }
    DenseMap<std::pair<const Function *, const Value *>, Value *> entry_handles;
    for (Function &f : m)
        for (BasicBlock &bb : f)
            for (Instruction &i : bb) {
                auto *call = dyn_cast<IntrinsicInst>(&i);
                if (!call)
                    continue;
                StringRef callee = call->getCalledFunction()->getName();
                unsigned handles = callee.startswith("llvm.nvvm.tex.") ? 2
                                   : callee.startswith("llvm.nvvm.sust.") || callee.startswith("llvm.nvvm.txq.") ||
                                           callee.startswith("llvm.nvvm.suq.")
                                       ? 1
                                       : 0;
                for (unsigned k = 0; k < handles; k++) {
                    SmallPtrSet<const Value *, 8> seen;
                    const Value *source = handle_source(call->getArgOperand(k), seen);
                    if (!source || !named.count(source)) {
                        error = "an image or sampler in " + f.getName().str() +
                                " is not one of the kernel's parameters or a constant sampler when it is used (chosen "
                                "at run time): PTX names each by its parameter";
                        return false;
                    }
                    // The handle made again at the function's entry: the optimizer may have merged copies of it
                    // in a phi, which the back end cannot follow to the parameter.
                    Value *&made = entry_handles[{&f, source}];
                    if (!made) {
                        IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
                        Value *v = const_cast<Value *>(source);
                        made = isa<GlobalVariable>(v) ? sampler_handle(b, m, cast<GlobalVariable>(v)) : handle(b, v);
                    }
                    Value *old = call->getArgOperand(k);
                    call->setArgOperand(k, made);
                    RecursivelyDeleteTriviallyDeadInstructions(old);
                }
            }
    return true;
}

} // namespace ptx
