/* SPDX-License-Identifier: MIT */
/* How every part of validate reports a violation (validate.h). */
#include <stdarg.h>

#include "validate/validate_check.h"

void
spvcond_validate_violation(struct check *c, size_t inst, uint32_t id, spvcond_result code, const char *fmt, ...)
{
    if (!c->quiet) {
        va_list ap;
        va_start(ap, fmt);
        spvcond_vreport(c->m->ctx, code, SPVCOND_SEVERITY_ERROR, spvcond_where_inst(c->m, inst, id), fmt, ap);
        va_end(ap);
    }
    if (c->violations++ == 0)
        c->first = code;
}
