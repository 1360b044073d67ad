// SPDX-License-Identifier: MIT
// The steps of NVIDIA's route (ptx.cpp) that give a kernel the arithmetic NVIDIA's own OpenCL C compiler gives
// the same kernel, where LLVM's NVPTX back end or libclc would give other results:
// - single-precision division: the driver's compiler emits `div.full.f32` (within OpenCL's 2.5 ulp), the
//   back end a correctly rounded `div.rn.f32` unless told otherwise. Applications (and the conformance suite)
//   compare a kernel's results with the same kernel built by the driver from OpenCL C: the division is the
//   driver's, unless the build asks for correctly rounded division (-cl-fp32-correctly-rounded-divide-sqrt).
// - saturated conversions from floating point (convert_int_sat, OpenCL C 6.2.3.3; SPIR-V's
//   SaturatedConversion): NaN converts to 0, and out-of-range values to the type's limits. libclc's
//   nvptx64 library clamps the range but leaves NaN to the hardware's conversion (INT_MIN): these become
//   LLVM's saturating conversions, which say what OpenCL says.
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <cctype>
#include <string>

#include "ptx_steps.h"

using namespace llvm;

namespace ptx {

void
divide_as_driver(Module &m)
{
    SmallVector<BinaryOperator *, 16> divisions;
    for (Function &f : m)
        for (BasicBlock &b : f)
            for (Instruction &i : b)
                if (i.getOpcode() == Instruction::FDiv && i.getType()->getScalarType()->isFloatTy())
                    divisions.push_back(cast<BinaryOperator>(&i));
    if (divisions.empty())
        return;
    Type *f32 = Type::getFloatTy(m.getContext());
    InlineAsm *full = InlineAsm::get(FunctionType::get(f32, {f32, f32}, false), "div.full.f32 $0, $1, $2;",
                                     "=f,f,f", /*hasSideEffects=*/false);
    for (BinaryOperator *div : divisions) {
        IRBuilder<> b(div);
        Value *x = div->getOperand(0), *y = div->getOperand(1), *result;
        if (auto *v = dyn_cast<FixedVectorType>(div->getType())) {
            result = PoisonValue::get(v);
            for (unsigned lane = 0; lane < v->getNumElements(); lane++)
                result = b.CreateInsertElement(
                    result, b.CreateCall(full, {b.CreateExtractElement(x, lane), b.CreateExtractElement(y, lane)}),
                    lane);
        } else {
            result = b.CreateCall(full, {x, y});
        }
        result->takeName(div);
        div->replaceAllUsesWith(result);
        div->eraseFromParent();
    }
}

namespace {

// What a mangled name `_Z<n>convert_<u?><char|short|int|long><N?>_sat[_rt<e|z|p|n>]<argument>` says: the
// destination's signedness and the rounding; false for any other name.
bool
saturating_conversion(StringRef name, bool &is_signed, char &rounding)
{
    if (!name.consume_front("_Z"))
        return false;
    while (!name.empty() && isdigit(static_cast<unsigned char>(name.front())))
        name = name.drop_front();
    if (!name.consume_front("convert_"))
        return false;
    is_signed = !name.consume_front("u");
    if (!(name.consume_front("char") || name.consume_front("short") || name.consume_front("int") ||
          name.consume_front("long")))
        return false;
    while (!name.empty() && isdigit(static_cast<unsigned char>(name.front())))
        name = name.drop_front();
    if (!name.consume_front("_sat"))
        return false;
    rounding = 'z'; // OpenCL's default for a conversion to an integer
    if (name.consume_front("_rt")) {
        if (name.empty() || !StringRef("ezpn").contains(name.front()))
            return false;
        rounding = name.front();
        name = name.drop_front();
    }
    return !name.empty();
}

} // namespace

void
saturate_as_opencl(Module &m)
{
    for (Function &f : m) {
        bool is_signed;
        char rounding;
        if (!f.isDeclaration() || f.arg_size() != 1 || !saturating_conversion(f.getName(), is_signed, rounding))
            continue;
        Type *to = f.getReturnType(), *from = f.getArg(0)->getType();
        auto lanes = [](Type *t) { return isa<FixedVectorType>(t) ? cast<FixedVectorType>(t)->getNumElements() : 1; };
        if (!to->isIntOrIntVectorTy() || !from->isFPOrFPVectorTy() || lanes(to) != lanes(from))
            continue;
        IRBuilder<> b(BasicBlock::Create(m.getContext(), "", &f));
        Value *x = f.getArg(0);
        if (from->getScalarType()->isHalfTy()) // exactly, so that the rounding and the limits are float's
            x = b.CreateFPExt(x, to->isVectorTy() ? FixedVectorType::get(b.getFloatTy(), lanes(to)) : b.getFloatTy());
        Intrinsic::ID round = rounding == 'e'   ? Intrinsic::rint
                              : rounding == 'p' ? Intrinsic::ceil
                              : rounding == 'n' ? Intrinsic::floor
                                                : Intrinsic::not_intrinsic;
        if (round != Intrinsic::not_intrinsic)
            x = b.CreateUnaryIntrinsic(round, x);
        Intrinsic::ID convert = is_signed ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat;
        b.CreateRet(b.CreateIntrinsic(convert, {to, x->getType()}, {x}));
        f.setLinkage(GlobalValue::InternalLinkage);
    }
}

} // namespace ptx
