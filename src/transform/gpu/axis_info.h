/*
 * axis_info.h - what is known about the integer (and pointer) tiles of a
 * function, per dimension, as Triton's AxisInfo analysis knows it:
 *
 *   contiguity[d]  runs of this length along d increase by one;
 *   divisibility[d] the first element of each run is a multiple of this
 *                  power of two (in bytes for pointers);
 *   constancy[d]   runs of this length along d hold one value.
 *
 * Scalars are described as rank-1 tiles of one element; only the first
 * `rank` entries of each array are meaningful (the rest are unspecified).
 * The layout pass reads contiguity and divisibility to choose 16-byte
 * accesses; the PTX lowering reads them (and the mask's constancy) to
 * vectorise loads and stores.
 */
#ifndef TC_AXIS_INFO_H
#define TC_AXIS_INFO_H

#include "dialect/ttg.h"

typedef struct AxisInfo {
    int rank;
    int64_t contig[TTG_MAX_RANK], div[TTG_MAX_RANK], cnst[TTG_MAX_RANK];
    bool known;    /* value is a compile-time constant (splat) */
    int64_t value;
} AxisInfo;

typedef struct AxisAnalysis AxisAnalysis;

/* Analyses the values of `func` (a tt.func); lives in c's arena. The facts
 * of the values there are now are computed when first asked for (most are
 * never read), from the IR as it is then: the edits allowed while an
 * analysis is kept (below) keep them what they are now. */
AxisAnalysis *axis_analyze(Context *c, Op *func);
/* Computes every fact not asked for yet: before edits that may change what
 * they would be computed as (pipeline-async-copy's rebuilt loops). */
void axis_analysis_complete(AxisAnalysis *a);
/* Never NULL: unknown values (and those made since a was last brought up
 * to date) get the most conservative info. */
const AxisInfo *axis_info(AxisAnalysis *a, Value *v);
/* Ends the caller's use of a. (Nothing is freed: an analysis lives in its
 * context's arena, and may be the one the context keeps, below.) */
void axis_analysis_free(AxisAnalysis *a);
void axis_info_print(const AxisInfo *ai, StrBuf *out);
bool axis_info_equal(const AxisInfo *x, const AxisInfo *y);

/* ---- one analysis for the passes and the emitter ---------------------------
 *
 * ttg-assign-layouts, pipeline-async-copy and the PTX emitter each need the
 * facts of the same function, and the edits between them keep those facts
 * or are brought into the analysis by the pass that makes them. So the
 * context keeps the last analysis made, and axis_analysis_get hands it out
 * again while it is current:
 *
 *  - no value has been made in the context since it was last brought up to
 *    date (most edits make values; of those that need not, the passes'
 *    are covered by:)
 *  - the pass manager drops it after every pass except cse and dce, which
 *    keep every fact: a value CSE keeps computes what the one it replaces
 *    did, from the same operands (the rules of commutative ops are
 *    symmetric in them, but for arith.addi's cap at 2^30 when a hint above
 *    it meets a divisibility that is not a power of two), and what DCE
 *    removes no live value reads (a loop whose carried values it prunes
 *    is rebuilt, which makes values);
 *  - a pass that edits the IR outside the pass manager, after the
 *    analysis was made, either brings it up to date (axis_analysis_add_op, then
 *    axis_analysis_keep) or calls axis_analysis_drop.
 *
 * ttg-assign-layouts makes it and keeps it; pipeline-async-copy reuses it
 * and keeps it, behind when it pipelines a loop (axis_analysis_keep_behind);
 * the emitter reuses it.
 */

/* The context's kept analysis of func if it is current, else a new one. */
AxisAnalysis *axis_analysis_get(Context *c, Op *func);
/* Makes a the context's kept analysis, current as of now. */
void axis_analysis_keep(Context *c, AxisAnalysis *a);
/* Makes a, current as of when it was last brought up to date, the
 * context's kept analysis, to be brought up to date (axis_analysis_update)
 * when it is next asked for: the edits since, and those of the cse and dce
 * that may follow, are of the kinds axis_analysis_update takes in (fewer
 * ops to walk once the CSE has merged the new ones). */
void axis_analysis_keep_behind(Context *c, AxisAnalysis *a);
/* Forgets the context's kept analysis (the IR changed in a way it does not
 * know). */
void axis_analysis_drop(Context *c);
/* Gives the results of op, an op made since a was last brought up to date
 * (its operands already have theirs), their facts. Exact for ops without
 * regions whose facts change no other value's, such as the conversions
 * and clones ttg-assign-layouts puts in front of a user, whose facts are
 * those of the value they convert or clone. */
void axis_analysis_add_op(AxisAnalysis *a, Op *op);
/* Brings a up to date with the ops made in func since it last was, in
 * program order (an scf.for that holds new values is walked again whole):
 * exact when every older value keeps its facts, that is when the edits
 * only added ops and values, erased ops whose values are no longer used,
 * and replaced uses of values by values with the same facts (a loop
 * rebuilt with more carried values: its older ones are checked). False,
 * with a no longer to be trusted, if an older carried value's facts
 * changed. */
bool axis_analysis_update(AxisAnalysis *a, Op *func);
/* Gives `to`, a value made since a was last brought up to date, the facts
 * of `from`: what axis_analysis_add_op gives a ttg.convert_layout of from,
 * or a copy of from's defining op whose operands are copies or
 * conversions of its operands (the rules read neither layouts nor
 * anything else a copy can change), without applying the rules again. */
void axis_analysis_copy(AxisAnalysis *a, Value *to, Value *from);

#endif
