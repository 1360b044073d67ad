/* SPDX-License-Identifier: MIT */
/* The device registry (registry.c; the lookups are public: spvcond_registry_*), and the extension's
 * device constants in its words. */
#ifndef SPVCOND_REGISTRY_H
#define SPVCOND_REGISTRY_H

#include "ir/module.h"

/* A device constant (OpSpecConstantTargetINTEL, ...ArchitectureINTEL, ...CapabilitiesINTEL, words w of
 * at least 3) in words, with registry names: "target x86_64 features avx2/avx512f", "architecture
 * UGreaterThanEqual gpu/intel/pvc", "capabilities Float16,Int64". Returns buf. */
const char *spvcond_device_constant_text(const uint32_t *w, char *buf, size_t size);

#endif
