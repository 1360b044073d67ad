// SPDX-License-Identifier: MIT
// The step of NVIDIA's route (ptx.cpp) that gives a kernel the work-item functions as NVIDIA's driver hands
// their values over: libclc's nvptx64 library reads the special registers alone (%ctaid, %nctaid, ...), which
// are those of one launch, while NVIDIA's driver may run an NDRange as several launches and passes the whole
// range in its environment registers. Read from the PTX the driver gives for OpenCL C
// (tests/data/nvidia/offset.cl and work_items.cl through tools/opencl-binary.c), in dimension d < 3:
//   get_group_id(d)       = %envreg<d> + %ctaid.d        (%envreg<d>: the work-groups before this launch)
//   get_num_groups(d)     = %envreg<6+d>                 (the NDRange's work-groups)
//   get_global_size(d)    = %envreg<6+d> * %ntid.d
//   get_local_size(d)     = get_enqueued_local_size(d) = %ntid.d
//   get_local_id(d)       = %tid.d
//   get_global_id(d)      = %ctaid.d * %ntid.d + %tid.d + %envreg<3+d>
//   get_global_offset(d)  = %envreg<3+d> - %envreg<d> * %ntid.d
//   get_work_dim()        = %envreg9
// past get_work_dim() (the third dimension at most) 1 for the sizes and counts, 0 for the others, as OpenCL
// defines them (the registers gave get_global_size(2) of a 1-D range as 0 on an H100: the CTS's
// work_item_functions_out_of_range); the linear ids are OpenCL's sums of
// them (get_global_linear_id over get_work_dim() dimensions). The functions are defined here, before the
// built-ins are linked.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include "ptx_steps.h"

using namespace llvm;

namespace ptx {

namespace {

enum class work_item { global_id, global_offset, group_id, num_groups, global_size, local_size, local_id };

Value *
read(IRBuilder<> &b, Module &m, Intrinsic::ID id)
{
    return b.CreateZExt(b.CreateCall(Intrinsic::getDeclaration(&m, id)), b.getInt64Ty());
}

// An environment register, as the signed 32-bit value the driver's compiler reads it as.
Value *
envreg(IRBuilder<> &b, Module &m, unsigned k)
{
    static const Intrinsic::ID regs[] = {
        Intrinsic::nvvm_read_ptx_sreg_envreg0, Intrinsic::nvvm_read_ptx_sreg_envreg1,
        Intrinsic::nvvm_read_ptx_sreg_envreg2, Intrinsic::nvvm_read_ptx_sreg_envreg3,
        Intrinsic::nvvm_read_ptx_sreg_envreg4, Intrinsic::nvvm_read_ptx_sreg_envreg5,
        Intrinsic::nvvm_read_ptx_sreg_envreg6, Intrinsic::nvvm_read_ptx_sreg_envreg7,
        Intrinsic::nvvm_read_ptx_sreg_envreg8, Intrinsic::nvvm_read_ptx_sreg_envreg9};
    return b.CreateSExt(b.CreateCall(Intrinsic::getDeclaration(&m, regs[k])), b.getInt64Ty());
}

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
    switch (what) {
    case work_item::group_id: return b.CreateAdd(envreg(b, m, d), read(b, m, ctaid[d]));
    case work_item::num_groups: return envreg(b, m, 6 + d);
    case work_item::global_size: return b.CreateMul(envreg(b, m, 6 + d), read(b, m, ntid[d]));
    case work_item::local_size: return read(b, m, ntid[d]);
    case work_item::local_id: return read(b, m, tid[d]);
    case work_item::global_offset:
        return b.CreateSub(envreg(b, m, 3 + d), b.CreateMul(envreg(b, m, d), read(b, m, ntid[d])));
    case work_item::global_id: break;
    }
    Value *group = read(b, m, ctaid[d]), *size = read(b, m, ntid[d]), *local = read(b, m, tid[d]);
    return b.CreateAdd(b.CreateAdd(b.CreateMul(group, size), local), envreg(b, m, 3 + d));
}

// `f(uint d)`: the value in dimensions 0 to 2, `past` beyond them.
void
define(Module &m, Function &f, work_item what)
{
    LLVMContext &c = m.getContext();
    BasicBlock *entry = BasicBlock::Create(c, "", &f), *beyond = BasicBlock::Create(c, "", &f);
    IRBuilder<> b(beyond);
    bool count = what == work_item::num_groups || what == work_item::global_size || what == work_item::local_size;
    b.CreateRet(ConstantInt::get(f.getReturnType(), count ? 1 : 0));
    b.SetInsertPoint(entry);
    SwitchInst *which = b.CreateSwitch(f.getArg(0), beyond, 3);
    for (unsigned d = 0; d < 3; d++) {
        BasicBlock *block = BasicBlock::Create(c, "", &f);
        which->addCase(b.getInt32(d), block);
        IRBuilder<> in(block);
        Value *v = in.CreateZExtOrTrunc(in_dimension(in, m, what, d), f.getReturnType());
        if (d > 0) // a dimension past get_work_dim(): OpenCL's value, the registers' value there is not
            v = in.CreateSelect(in.CreateICmpULT(in.getInt64(d), envreg(in, m, 9)), v,
                                ConstantInt::get(f.getReturnType(), count ? 1 : 0));
        in.CreateRet(v);
    }
    f.setLinkage(GlobalValue::InternalLinkage);
}

// get_work_dim(), get_local_linear_id(), get_global_linear_id(): functions of no argument.
enum class whole { work_dim, local_linear_id, global_linear_id };

void
define(Module &m, Function &f, whole what)
{
    IRBuilder<> b(BasicBlock::Create(m.getContext(), "", &f));
    Value *v;
    if (what == whole::work_dim) {
        v = envreg(b, m, 9);
    } else if (what == whole::local_linear_id) { // (tid.z * ntid.y + tid.y) * ntid.x + tid.x
        auto at = [&](unsigned d) { return in_dimension(b, m, work_item::local_id, d); };
        auto size = [&](unsigned d) { return in_dimension(b, m, work_item::local_size, d); };
        v = b.CreateAdd(b.CreateMul(b.CreateAdd(b.CreateMul(at(2), size(1)), at(1)), size(0)), at(0));
    } else { // the sum over get_work_dim() dimensions of (id - offset) times the global sizes below
        Value *dims = envreg(b, m, 9), *sum = b.getInt64(0), *scale = b.getInt64(1);
        for (unsigned d = 0; d < 3; d++) {
            Value *place = b.CreateSub(in_dimension(b, m, work_item::global_id, d),
                                       in_dimension(b, m, work_item::global_offset, d));
            Value *in = b.CreateICmpUGT(dims, b.getInt64(d));
            sum = b.CreateSelect(in, b.CreateAdd(sum, b.CreateMul(place, scale)), sum);
            scale = b.CreateMul(scale, in_dimension(b, m, work_item::global_size, d));
        }
        v = sum;
    }
    b.CreateRet(b.CreateZExtOrTrunc(v, f.getReturnType()));
    f.setLinkage(GlobalValue::InternalLinkage);
}

} // namespace

void
work_items_as_driver(Module &m)
{
    static const struct {
        const char *name;
        work_item what;
    } per_dimension[] = {{"_Z13get_global_idj", work_item::global_id},
                         {"_Z17get_global_offsetj", work_item::global_offset},
                         {"_Z12get_group_idj", work_item::group_id},
                         {"_Z14get_num_groupsj", work_item::num_groups},
                         {"_Z15get_global_sizej", work_item::global_size},
                         {"_Z14get_local_sizej", work_item::local_size},
                         {"_Z23get_enqueued_local_sizej", work_item::local_size},
                         {"_Z12get_local_idj", work_item::local_id}};
    for (const auto &w : per_dimension)
        if (Function *f = m.getFunction(w.name);
            f && f->isDeclaration() && f->arg_size() == 1 && f->getArg(0)->getType()->isIntegerTy(32) &&
            f->getReturnType()->isIntegerTy())
            define(m, *f, w.what);
    static const struct {
        const char *name;
        whole what;
    } no_argument[] = {{"_Z12get_work_dimv", whole::work_dim},
                       {"_Z19get_local_linear_idv", whole::local_linear_id},
                       {"_Z20get_global_linear_idv", whole::global_linear_id}};
    for (const auto &w : no_argument)
        if (Function *f = m.getFunction(w.name);
            f && f->isDeclaration() && f->arg_size() == 0 && f->getReturnType()->isIntegerTy())
            define(m, *f, w.what);
}

} // namespace ptx
