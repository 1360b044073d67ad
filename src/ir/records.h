/* SPDX-License-Identifier: MIT */
/* The records annotate leaves in a module for specialize and reqs (spec/annotate.md, "Round trip"):
 * a text beginning "spvcond annotate:". SPIR-V 1.1 and later carry it in OpModuleProcessed; SPIR-V 1.0
 * has no such instruction, so there it is an OpString nothing refers to, among the debug sources. */
#ifndef SPVCOND_RECORDS_H
#define SPVCOND_RECORDS_H

#include "ir/module.h"

/* OpModuleProcessed exists from SPIR-V 1.1 (version word 0x00010100). */
#define SPVCOND_VERSION_1_1 0x00010100u

/* Append a record with `text`; as an OpString (which takes a fresh id) before SPIR-V 1.1. Before 1.1
 * the record goes among the debug sources, which precede the names: make it before adding any name, so
 * that insertions stay in place order. */
spvcond_result spvcond_record_append(struct spvcond_module *m, const char *text);

/* The record's section for this module's version. */
static inline int
spvcond_record_section(const struct spvcond_module *m)
{
    return m->version >= SPVCOND_VERSION_1_1 ? SPVCOND_SECTION_DEBUG_PROCESSED : SPVCOND_SECTION_DEBUG_SOURCE;
}

/* Whether instruction i is an OpModuleProcessed its module's version does not have (SPIR-V 1.0; other
 * tools, spirv-link among them, write them whatever the version): specialize and repair remove them. */
static inline bool
spvcond_record_unversioned(const struct spvcond_module *m, size_t i)
{
    return m->version < SPVCOND_VERSION_1_1 && spvcond_inst_opcode(m, i) == SPVCOND_OP_MODULE_PROCESSED;
}

/* The text instruction `i` records: any OpModuleProcessed's (other tools' records too), or an OpString's
 * that begins with SPVCOND_ANNOTATE_RECORD; NULL otherwise. */
const char *spvcond_record_text(const struct spvcond_module *m, size_t i);

/* Calls fn for every instruction with a record text (spvcond_record_text), in module order; stops at
 * the first result other than SPVCOND_OK and returns it. */
typedef spvcond_result (*spvcond_record_fn)(void *user, size_t inst, const char *text);
spvcond_result spvcond_records_each(const struct spvcond_module *m, spvcond_record_fn fn, void *user);

#endif
