// SPDX-License-Identifier: MIT
// The step of NVIDIA's route (ptx.cpp) that gives a kernel the global work offset of clEnqueueNDRangeKernel
// as NVIDIA's driver hands it over: libclc's nvptx64 get_global_id counts from 0 and has no
// get_global_offset. NVIDIA's own OpenCL C compiler reads the driver's environment registers (the PTX the
// driver gives for OpenCL C, tools/opencl-binary.c): in dimension d, %envreg<3+d> holds the offset plus
// %envreg<d> work-groups, so that
//   get_global_id(d)     = %ctaid.d * %ntid.d + %tid.d + %envreg<3+d>
//   get_global_offset(d) = %envreg<3+d> - %envreg<d> * %ntid.d
// (both 0 past the third dimension). The two functions are defined here, as the driver's compiler computes
// them, before the built-ins are linked.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include "ptx_steps.h"

using namespace llvm;

namespace ptx {

namespace {

enum class work_item { global_id, global_offset };

// The function's value in dimension `d` (0, 1 or 2), as a 64-bit integer.
Value *
in_dimension(IRBuilder<> &b, Module &m, work_item what, unsigned d)
{
    static const Intrinsic::ID tid[] = {Intrinsic::nvvm_read_ptx_sreg_tid_x, Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                        Intrinsic::nvvm_read_ptx_sreg_tid_z};
    static const Intrinsic::ID ntid[] = {Intrinsic::nvvm_read_ptx_sreg_ntid_x, Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                                         Intrinsic::nvvm_read_ptx_sreg_ntid_z};
    static const Intrinsic::ID ctaid[] = {Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                          Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                          Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
    static const Intrinsic::ID envreg[] = {
        Intrinsic::nvvm_read_ptx_sreg_envreg0, Intrinsic::nvvm_read_ptx_sreg_envreg1,
        Intrinsic::nvvm_read_ptx_sreg_envreg2, Intrinsic::nvvm_read_ptx_sreg_envreg3,
        Intrinsic::nvvm_read_ptx_sreg_envreg4, Intrinsic::nvvm_read_ptx_sreg_envreg5};
    auto read = [&](Intrinsic::ID id) { return b.CreateCall(Intrinsic::getDeclaration(&m, id)); };
    Type *i64 = b.getInt64Ty();
    Value *shifted = b.CreateSExt(read(envreg[3 + d]), i64); // the offset, plus envreg<d> work-groups
    Value *size = b.CreateZExt(read(ntid[d]), i64);
    if (what == work_item::global_offset)
        return b.CreateSub(shifted, b.CreateMul(b.CreateSExt(read(envreg[d]), i64), size));
    Value *group = b.CreateZExt(read(ctaid[d]), i64), *local = b.CreateZExt(read(tid[d]), i64);
    return b.CreateAdd(b.CreateAdd(b.CreateMul(group, size), local), shifted);
}

// `f(uint d)`: the value in dimensions 0 to 2, 0 past them.
void
define(Module &m, Function &f, work_item what)
{
    LLVMContext &c = m.getContext();
    BasicBlock *entry = BasicBlock::Create(c, "", &f), *past = BasicBlock::Create(c, "", &f);
    IRBuilder<> b(past);
    b.CreateRet(ConstantInt::get(f.getReturnType(), 0));
    b.SetInsertPoint(entry);
    SwitchInst *which = b.CreateSwitch(f.getArg(0), past, 3);
    for (unsigned d = 0; d < 3; d++) {
        BasicBlock *block = BasicBlock::Create(c, "", &f);
        which->addCase(b.getInt32(d), block);
        IRBuilder<> in(block);
        in.CreateRet(in.CreateZExtOrTrunc(in_dimension(in, m, what, d), f.getReturnType()));
    }
    f.setLinkage(GlobalValue::InternalLinkage);
}

} // namespace

void
work_items_as_driver(Module &m)
{
    static const struct {
        const char *name;
        work_item what;
    } functions[] = {{"_Z13get_global_idj", work_item::global_id}, {"_Z17get_global_offsetj", work_item::global_offset}};
    for (const auto &w : functions)
        if (Function *f = m.getFunction(w.name);
            f && f->isDeclaration() && f->arg_size() == 1 && f->getArg(0)->getType()->isIntegerTy(32) &&
            f->getReturnType()->isIntegerTy())
            define(m, *f, w.what);
}

} // namespace ptx
