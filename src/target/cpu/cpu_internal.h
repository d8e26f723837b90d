/*
 * cpu_internal.h - what the CPU backend's files share and nobody else needs.
 */
#ifndef TC_TARGET_CPU_INTERNAL_H
#define TC_TARGET_CPU_INTERNAL_H

#include "target/cpu/cpu.h"

/* The text pasted at the top of every generated file (prelude.c). */
extern const char cpu_c_prelude[];

/* Signature of the exported per-kernel entry (see cpu_emit_c). */
typedef int (*CpuEntryFn)(void *const *args, const int32_t grid[3], int64_t begin, int64_t end,
                          char *err, size_t errcap);

/* Emitter facts about one kernel that the runtime wants: exported as
 *   const int64_t tc_meta_<name>[2] = {nparams, frame_bytes}; */
#define CPU_META_PREFIX "tc_meta_"
#define CPU_ENTRY_PREFIX "tc_entry_"

#endif
