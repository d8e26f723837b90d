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
    int changes;
    bool ok;
    bool all; /* noinline callees too */
} Inliner;

static Op *callee_of(Inliner *in, Op *call) {
    const char *name = call_callee(call);
    return name ? map_get(&in->funcs, MAP_KEY(ctx_intern(in->c, name))) : NULL;
}

static bool may_inline(Op *callee) {
    Attr *a = op_attr(callee, "noinline");
    int64_t v;
    return !(a && (a->kind == ATTR_UNIT || (attr_as_int(a, &v) && v)));
}

typedef VEC(Op *) OpList;

static void collect_calls(Op *op, void *ud) {
    if (op->kind == TT_CALL) vec_push((OpList *)ud, op);
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
    OpList calls = {0};
    op_walk(f, collect_calls, &calls, false);
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
    vec_free(&calls);
    map_put(&in->state, MAP_KEY(f), (void *)2);
}

static bool run_inliner(Op *module, PassContext *pc, bool all) {
    Inliner in = {.c = pc->ctx, .de = pc->de, .ok = true, .all = all};
    for (Op *f = module_body(module)->first; f; f = f->next)
        if (f->kind == TT_FUNC) map_put(&in.funcs, MAP_KEY(ctx_intern(pc->ctx, func_name(f))), f);
    for (Op *f = module_body(module)->first; f && in.ok; f = f->next)
        if (f->kind == TT_FUNC && !map_get(&in.state, MAP_KEY(f))) process(&in, f);
    if (in.ok && in.changes) in.changes += erase_uncalled_private_funcs(pc->ctx, module);
    map_free(&in.funcs);
    map_free(&in.state);
    pc->changes += in.changes;
    return in.ok;
}

bool pass_inline(Op *module, PassContext *pc) { return run_inliner(module, pc, false); }

bool pass_inline_all(Op *module, PassContext *pc) { return run_inliner(module, pc, true); }
