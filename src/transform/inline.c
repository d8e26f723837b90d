/*
 * inline.c - function inlining (`inline`).
 *
 * Every tt.call to a function of the module is replaced by a copy of the
 * callee's body, unless the callee says `noinline = true`: the callee's
 * entry-block arguments map to the call's operands, each op but the final
 * tt.return is cloned (op_clone, through that value map) before the call,
 * and the call's results become the cloned tt.return's operands, so
 * functions returning several values (tuples) need nothing special.
 *
 * Functions are processed callees first (a post-order depth-first walk of
 * the call graph), so when a function's calls are inlined, the bodies
 * copied in hold no calls left to inline and every function is copied at
 * most once per call site. A call that reaches a function still on the
 * walk's stack is recursion: reported as an error at the call, and the
 * pass fails. Afterwards private functions no longer called are erased.
 *
 * A private function called once is moved rather than copied: its ops go
 * to the call's place as they are (their results, names and locations are
 * what a copy would have), and the function, which no call reaches any
 * more and which would be erased right after, goes at once. (The kernels'
 * helpers are mostly called once: copying their bodies, value map and all,
 * was most of this pass's time.) The calls are counted before any is
 * inlined, over the whole module, so a function called from two places is
 * copied to both even when one of them is inlined first.
 *
 * `inline-all` inlines the calls to `noinline = true` functions as well:
 * the PTX backend emits one kernel function and no calls, and inlining
 * keeps what a call computes (Triton's noinline is a code-size choice).
 */
#include "transform/pass.h"

#include <string.h>


typedef struct Inliner {
    Context *c;
    DiagEngine *de;
    Map funcs; /* interned name -> tt.func */
    Map state; /* tt.func -> 1 on the stack, 2 done */
    Map ncalls; /* interned callee name -> the calls to it in the module */
    Map calls_of; /* tt.func -> 1 + its index in `calls` */
    OpList *calls; /* per function of the module: its tt.calls, in program order */
    int changes;
    bool ok;
    bool all; /* noinline callees too */
} Inliner;

static Op *callee_of(Inliner *in, Op *call) {
    const char *name = call_callee(call);
    return name ? map_get(&in->funcs, MAP_KEY(ctx_intern(in->c, name))) : NULL;
}

static bool may_inline(Op *callee) {
    Attr *a = op_attr_k(callee, AN_NOINLINE);
    int64_t v;
    return !(a && (a->kind == ATTR_UNIT || (attr_as_int(a, &v) && v)));
}

/* Whether callee's only caller is `call` and nothing keeps it once that is
 * inlined (a private function no call reaches is erased). */
static bool called_once(Inliner *in, Op *callee) {
    return func_is_private(callee) &&
           (uintptr_t)map_get(&in->ncalls, MAP_KEY(ctx_intern(in->c, func_name(callee)))) == 1;
}

/* Moves callee's body to call's place and erases callee (see above). */
static void move_body(Inliner *in, Op *call, Op *callee, Op *ret) {
    Block *entry = func_entry(callee);
    for (int i = 0; i < entry->nargs; i++) value_replace_all_uses(entry->args[i], op_operand(call, i));
    for (Op *o = entry->first, *next; o != ret; o = next) {
        next = o->next;
        op_unlink(o);
        op_insert_before(call, o);
    }
    for (int i = 0; i < call->nresults; i++) value_replace_all_uses(&call->results[i], op_operand(ret, i));
    op_erase(call);
    op_erase(callee);
    in->changes += 2; /* the call, and the function erase_uncalled_private_funcs would have */
}

/* Copies callee's body in place of call. */
static bool inline_call(Inliner *in, Op *call, Op *callee) {
    Block *entry = func_entry(callee);
    if (!entry || entry->next) {
        diag_error(in->de, call->loc, "cannot inline '%s': its body is not a single block", func_name(callee));
        return false;
    }
    Op *ret = block_terminator(entry);
    if (!ret || ret->kind != TT_RETURN || ret->noperands != call->nresults ||
        entry->nargs != call->noperands) {
        diag_error(in->de, call->loc, "cannot inline '%s': call and signature disagree", func_name(callee));
        return false;
    }
    if (called_once(in, callee)) {
        move_body(in, call, callee, ret);
        return true;
    }
    Map map = {0};
    for (int i = 0; i < entry->nargs; i++) map_put(&map, MAP_KEY(entry->args[i]), op_operand(call, i));
    for (Op *o = entry->first; o != ret; o = o->next) op_insert_before(call, op_clone(in->c, o, &map));
    for (int i = 0; i < call->nresults; i++) {
        Value *v = op_operand(ret, i);
        Value *nv = map_get(&map, MAP_KEY(v));
        value_replace_all_uses(&call->results[i], nv ? nv : v);
    }
    map_free(&map);
    op_erase(call);
    in->changes++;
    return true;
}

/* Inlines the calls in f after inlining those in its callees. */
static void process(Inliner *in, Op *f) {
    map_put(&in->state, MAP_KEY(f), (void *)1);
    /* (f's calls as they were before any was inlined: those of the bodies
     * inlined into f are their callees', inlined already) */
    OpList calls = in->calls[(uintptr_t)map_get(&in->calls_of, MAP_KEY(f)) - 1];
    for (int i = 0; i < calls.len && in->ok; i++) {
        Op *call = calls.data[i];
        Op *callee = callee_of(in, call);
        if (!callee || (!in->all && !may_inline(callee))) continue; /* unknown symbols: the verifier's */
        uintptr_t st = (uintptr_t)map_get(&in->state, MAP_KEY(callee));
        if (st == 1) {
            diag_error(in->de, call->loc, "recursive call to '%s' cannot be inlined", func_name(callee));
            in->ok = false;
            break;
        }
        if (st == 0) process(in, callee);
        if (in->ok) in->ok = inline_call(in, call, callee);
    }
    map_put(&in->state, MAP_KEY(f), (void *)2);
}

static bool run_inliner(Op *module, PassContext *pc, bool all) {
    /* (no call was ever made in the context, so none is left to inline:
     * a kernel without helpers; the module is not walked to find that) */
    if (!ctx_made_kind(pc->ctx, TT_CALL)) return true;
    Inliner in = {.c = pc->ctx, .de = pc->de, .ok = true, .all = all};
    int nfuncs = 0;
    for (Op *f = module_body(module)->first; f; f = f->next) nfuncs += f->kind == TT_FUNC;
    in.calls = tc_calloc((size_t)nfuncs + 1, sizeof *in.calls);
    int k = 0;
    for (Op *f = module_body(module)->first; f; f = f->next) {
        if (f->kind != TT_FUNC) continue;
        map_put(&in.funcs, MAP_KEY(ctx_intern(pc->ctx, func_name(f))), f);
        map_put(&in.calls_of, MAP_KEY(f), (void *)(uintptr_t)(k + 1));
        collect_ops(f, TT_CALL, OP_COUNT, false, &in.calls[k]);
        for (int i = 0; i < in.calls[k].len; i++) {
            const char *name = call_callee(in.calls[k].data[i]);
            if (!name) continue;
            uint64_t key = MAP_KEY(ctx_intern(pc->ctx, name));
            map_put(&in.ncalls, key, (void *)((uintptr_t)map_get(&in.ncalls, key) + 1));
        }
        k++;
    }
    /* (a function moved into its caller leaves the module here: the loop
     * reads `next` of a function processed already, which stays) */
    for (Op *f = module_body(module)->first; f && in.ok; f = f->next)
        if (f->kind == TT_FUNC && !map_get(&in.state, MAP_KEY(f))) process(&in, f);
    if (in.ok && in.changes) in.changes += erase_uncalled_private_funcs(pc->ctx, module);
    for (int i = 0; i < k; i++) vec_free(&in.calls[i]);
    tc_free(in.calls);
    map_free(&in.funcs);
    map_free(&in.state);
    map_free(&in.ncalls);
    map_free(&in.calls_of);
    pc->changes += in.changes;
    return in.ok;
}

bool pass_inline(Op *module, PassContext *pc) { return run_inliner(module, pc, false); }

bool pass_inline_all(Op *module, PassContext *pc) { return run_inliner(module, pc, true); }
