/*
 * ptx_kernels.h - the anchor kernels (shared/anchors/triton_baseline.py)
 * built as tt IR with the Builder API, op for op as Triton 3.6's TTIR for
 * them, for the GPU backend's tests and benchmarks until the IR parser and
 * the Python front end are on this branch.
 *
 *   pk_add(BLOCK)          add_kernel(x, y, out, n)
 *   pk_softmax(BLOCK)      softmax_kernel(out, in, in_stride, out_stride, n_cols)
 *   pk_layernorm(BLOCK)    layernorm_kernel(X, Y, W, B, stride, N, eps)  (fp16)
 *   pk_matmul(BM, BN, BK)  C = A @ B, fp16 in, fp32 acc, fp16 out (tensor cores)
 *   pk_atomic_sum(BLOCK)   atomic_add(out, sum(x)) per program
 *
 * Pointer and integer arguments carry tt.divisibility = 16, as Triton's
 * specialisation gives them for the sizes the benchmarks use.
 */
#ifndef TC_PTX_KERNELS_H
#define TC_PTX_KERNELS_H

#include "dialect/dialect.h"

#include <math.h>

/* Whether integer arguments carry tt.divisibility = 16 (Triton gives it
 * when the value is a multiple of 16; ragged sizes need false). */
static bool pk_aligned = true;

typedef struct PkCtx {
    Context *c;
    Builder b;
} PkCtx;

static Type *pk_tensor(Context *c, int64_t n, Type *e) { return ty_tensor(c, &n, 1, e, NULL); }
static Type *pk_tensor2(Context *c, int64_t m, int64_t n, Type *e) {
    int64_t s[2] = {m, n};
    return ty_tensor(c, s, 2, e, NULL);
}

static Op *pk_func(PkCtx *k, Op *module, const char *name, Type **args, int n, const bool *div16) {
    Context *c = k->c;
    Op *f = op_create(c, TT_FUNC, (Loc){0}, NULL, 0, NULL, 0, 1);
    Block *entry = block_create(c);
    region_push_block(&f->regions[0], entry);
    Attr **aa = ARENA_ARRAY(c->arena, Attr *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        block_add_arg(c, entry, args[i], (Loc){0});
        NamedAttr na = {ctx_intern(c, "tt.divisibility"), attr_i32(c, 16)};
        bool hint = div16[i] && (pk_aligned || args[i]->kind == TY_PTR);
        aa[i] = hint ? attr_dict(c, &na, 1) : attr_dict(c, NULL, 0);
    }
    op_set_attr(c, f, "sym_name", attr_string(c, name));
    op_set_attr(c, f, "function_type", attr_type(c, ty_func(c, args, n, NULL, 0)));
    op_set_attr(c, f, "arg_attrs", attr_array(c, aa, n));
    block_append(module_body(module), f);
    k->b = builder_at_end(c, entry);
    return f;
}

static Value *pk_arg(Op *f, int i) { return func_entry(f)->args[i]; }

static Value *pk_pid(PkCtx *k) {
    Type *i32 = ty_i32(k->c);
    Op *op = build_op(&k->b, TT_GET_PROGRAM_ID, NULL, 0, &i32, 1, 0);
    op_set_attr(k->c, op, "axis", attr_i32(k->c, 0));
    return op_result(op, 0);
}

static Value *pk_range(PkCtx *k, int64_t start, int64_t end) {
    Type *t = pk_tensor(k->c, end - start, ty_i32(k->c));
    Op *op = build_op(&k->b, TT_MAKE_RANGE, NULL, 0, &t, 1, 0);
    op_set_attr(k->c, op, "start", attr_i32(k->c, start));
    op_set_attr(k->c, op, "end", attr_i32(k->c, end));
    return op_result(op, 0);
}

static Value *pk_splat(PkCtx *k, Value *x, Type *like) {
    return build_unary(&k->b, TT_SPLAT, x, ty_with_elem(k->c, like, x->type));
}

static Value *pk_addptr(PkCtx *k, Value *p, Value *off) {
    Value *ops[2] = {p, off};
    Type *t = p->type;
    return op_result(build_op(&k->b, TT_ADDPTR, ops, 2, &t, 1, 0), 0);
}

static Value *pk_load(PkCtx *k, Value *ptr, Value *mask, Value *other) {
    Value *ops[3] = {ptr, mask, other};
    Type *t = ty_with_elem(k->c, ptr->type, ty_elem(ptr->type)->elem);
    return op_result(build_op(&k->b, TT_LOAD, ops, other ? 3 : mask ? 2 : 1, &t, 1, 0), 0);
}

static void pk_store(PkCtx *k, Value *ptr, Value *val, Value *mask) {
    Value *ops[3] = {ptr, val, mask};
    build_op(&k->b, TT_STORE, ops, mask ? 3 : 2, NULL, 0, 0);
}

static Value *pk_cast(PkCtx *k, OpKind kind, Value *x, Type *elem) {
    return build_unary(&k->b, kind, x, ty_with_elem(k->c, x->type, elem));
}

/* tt.reduce with a one-op combine region (kind over f32 or i32). */
static Value *pk_reduce(PkCtx *k, Value *x, int axis, OpKind combine) {
    Context *c = k->c;
    Type *e = ty_elem(x->type);
    Type *rt = e;
    if (x->type->rank > 1) {
        int64_t shape[4];
        for (int d = 0, o = 0; d < x->type->rank; d++)
            if (d != axis) shape[o++] = x->type->shape[d];
        rt = ty_tensor(c, shape, x->type->rank - 1, e, NULL);
    }
    Op *op = build_op(&k->b, TT_REDUCE, &x, 1, &rt, 1, 1);
    op_set_attr(c, op, "axis", attr_i32(c, axis));
    Block *body = block_create(c);
    region_push_block(&op->regions[0], body);
    Value *a = block_add_arg(c, body, e, (Loc){0}), *bb = block_add_arg(c, body, e, (Loc){0});
    Builder in = builder_at_end(c, body);
    Value *r = build_binary(&in, combine, a, bb);
    build_op(&in, TT_REDUCE_RETURN, &r, 1, NULL, 0, 0);
    return op_result(op, 0);
}

static Value *pk_cmp(PkCtx *k, int pred, Value *a, Value *b) { return build_cmp(&k->b, ARITH_CMPI, pred, a, b); }

static void pk_return(PkCtx *k) { build_op(&k->b, TT_RETURN, NULL, 0, NULL, 0, 0); }

/* scf.for lb..ub step with `n` carried values; returns the op. The body's
 * builder is left in k->b; pk_for_end() yields and moves after the loop. */
static Op *pk_for(PkCtx *k, Value *lb, Value *ub, Value *step, Value **inits, int n) {
    Context *c = k->c;
    Value *ops[8] = {lb, ub, step};
    Type *rt[8] = {0};
    for (int i = 0; i < n; i++) {
        ops[3 + i] = inits[i];
        rt[i] = inits[i]->type;
    }
    Op *f = build_op(&k->b, SCF_FOR, ops, 3 + n, rt, n, 1);
    Block *body = block_create(c);
    region_push_block(&f->regions[0], body);
    block_add_arg(c, body, lb->type, (Loc){0});
    for (int i = 0; i < n; i++) block_add_arg(c, body, rt[i], (Loc){0});
    k->b = builder_at_end(c, body);
    return f;
}

static void pk_for_end(PkCtx *k, Op *f, Value **yields, int n) {
    build_op(&k->b, SCF_YIELD, yields, n, NULL, 0, 0);
    k->b = builder_at_end(k->c, f->parent);
}

/* ---- kernels ------------------------------------------------------------- */

static Op *pk_add(Context *c, int block) {
    PkCtx k = {.c = c};
    Op *m = module_create(c, (Loc){0});
    Type *pf = ty_ptr(c, ty_f32(c), 1), *i32 = ty_i32(c);
    Type *args[4] = {pf, pf, pf, i32};
    bool div[4] = {1, 1, 1, 1};
    Op *f = pk_func(&k, m, "add_kernel", args, 4, div);
    Value *pid = pk_pid(&k);
    Value *base = build_binary(&k.b, ARITH_MULI, pid, build_const_int(&k.b, i32, block));
    Value *r = pk_range(&k, 0, block);
    Value *offs = build_binary(&k.b, ARITH_ADDI, pk_splat(&k, base, r->type), r);
    Value *mask = pk_cmp(&k, CMPI_SLT, offs, pk_splat(&k, pk_arg(f, 3), r->type));
    Type *pt = ty_with_elem(c, r->type, pf);
    Value *x = pk_load(&k, pk_addptr(&k, pk_splat(&k, pk_arg(f, 0), pt), offs), mask, NULL);
    Value *y = pk_load(&k, pk_addptr(&k, pk_splat(&k, pk_arg(f, 1), pt), offs), mask, NULL);
    Value *s = build_binary(&k.b, ARITH_ADDF, x, y);
    pk_store(&k, pk_addptr(&k, pk_splat(&k, pk_arg(f, 2), pt), offs), s, mask);
    pk_return(&k);
    return m;
}

static Op *pk_softmax(Context *c, int block) {
    PkCtx k = {.c = c};
    Op *m = module_create(c, (Loc){0});
    Type *f32 = ty_f32(c), *pf = ty_ptr(c, f32, 1), *i32 = ty_i32(c);
    Type *args[5] = {pf, pf, i32, i32, i32};
    bool div[5] = {1, 1, 1, 1, 1};
    Op *f = pk_func(&k, m, "softmax_kernel", args, 5, div);
    Value *row = pk_pid(&k);
    Value *cols = pk_range(&k, 0, block);
    Value *mask = pk_cmp(&k, CMPI_SLT, cols, pk_splat(&k, pk_arg(f, 4), cols->type));
    Value *in_row = pk_addptr(&k, pk_arg(f, 1), build_binary(&k.b, ARITH_MULI, row, pk_arg(f, 2)));
    Type *pt = ty_with_elem(c, cols->type, pf), *ft = ty_with_elem(c, cols->type, f32);
    Value *x = pk_load(&k, pk_addptr(&k, pk_splat(&k, in_row, pt), cols), mask,
                       build_const_float(&k.b, ft, -INFINITY));
    Value *mx = pk_reduce(&k, x, 0, ARITH_MAXNUMF);
    Value *z = build_binary(&k.b, ARITH_SUBF, x, pk_splat(&k, mx, ft));
    Value *num = build_unary(&k.b, MATH_EXP, z, ft);
    Value *den = pk_reduce(&k, num, 0, ARITH_ADDF);
    Value *y = build_binary(&k.b, ARITH_DIVF, num, pk_splat(&k, den, ft));
    Value *out_row = pk_addptr(&k, pk_arg(f, 0), build_binary(&k.b, ARITH_MULI, row, pk_arg(f, 3)));
    pk_store(&k, pk_addptr(&k, pk_splat(&k, out_row, pt), cols), y, mask);
    pk_return(&k);
    return m;
}

static Op *pk_layernorm(Context *c, int block) {
    PkCtx k = {.c = c};
    Op *m = module_create(c, (Loc){0});
    Type *f32 = ty_f32(c), *f16 = ty_float(c, FK_F16), *ph = ty_ptr(c, f16, 1), *i32 = ty_i32(c);
    Type *args[7] = {ph, ph, ph, ph, i32, i32, f32};
    bool div[7] = {1, 1, 1, 1, 1, 1, 0};
    Op *f = pk_func(&k, m, "layernorm_kernel", args, 7, div);
    Value *row = pk_pid(&k);
    Value *roff = build_binary(&k.b, ARITH_MULI, row, pk_arg(f, 4));
    Value *X = pk_addptr(&k, pk_arg(f, 0), roff), *Y = pk_addptr(&k, pk_arg(f, 1), roff);
    Value *N = pk_arg(f, 5);
    Type *it = pk_tensor(c, block, i32), *ft = pk_tensor(c, block, f32), *ht = pk_tensor(c, block, f16);
    Type *pt = pk_tensor(c, block, ph);
    Value *c0 = build_const_int(&k.b, i32, 0), *cB = build_const_int(&k.b, i32, block);
    Value *Nf = build_unary(&k.b, ARITH_SITOFP, N, f32);
    /* pass 1: mean */
    Value *zero = build_const_float(&k.b, ft, 0.0);
    Op *l1 = pk_for(&k, c0, N, cB, &zero, 1);
    {
        Block *b = l1->regions[0].first;
        Value *cols = build_binary(&k.b, ARITH_ADDI, pk_splat(&k, b->args[0], it), pk_range(&k, 0, block));
        Value *mk = pk_cmp(&k, CMPI_SLT, cols, pk_splat(&k, N, it));
        Value *a = pk_load(&k, pk_addptr(&k, pk_splat(&k, X, pt), cols), mk, build_const_float(&k.b, ht, 0.0));
        Value *af = pk_cast(&k, ARITH_EXTF, a, f32);
        Value *acc = build_binary(&k.b, ARITH_ADDF, b->args[1], af);
        pk_for_end(&k, l1, &acc, 1);
    }
    Value *mean = build_binary(&k.b, ARITH_DIVF, pk_reduce(&k, op_result(l1, 0), 0, ARITH_ADDF), Nf);
    /* pass 2: variance */
    Value *zero2 = build_const_float(&k.b, ft, 0.0);
    Op *l2 = pk_for(&k, c0, N, cB, &zero2, 1);
    {
        Block *b = l2->regions[0].first;
        Value *cols = build_binary(&k.b, ARITH_ADDI, pk_splat(&k, b->args[0], it), pk_range(&k, 0, block));
        Value *mk = pk_cmp(&k, CMPI_SLT, cols, pk_splat(&k, N, it));
        Value *a = pk_load(&k, pk_addptr(&k, pk_splat(&k, X, pt), cols), mk, build_const_float(&k.b, ht, 0.0));
        Value *af = pk_cast(&k, ARITH_EXTF, a, f32);
        Value *d = build_binary(&k.b, ARITH_SUBF, af, pk_splat(&k, mean, ft));
        Value *sel_ops[3] = {mk, d, build_const_float(&k.b, ft, 0.0)};
        Value *w = op_result(build_op(&k.b, ARITH_SELECT, sel_ops, 3, &ft, 1, 0), 0);
        Value *acc = build_binary(&k.b, ARITH_ADDF, b->args[1], build_binary(&k.b, ARITH_MULF, w, w));
        pk_for_end(&k, l2, &acc, 1);
    }
    Value *var = build_binary(&k.b, ARITH_DIVF, pk_reduce(&k, op_result(l2, 0), 0, ARITH_ADDF), Nf);
    Value *sd = build_unary(&k.b, MATH_SQRT, build_binary(&k.b, ARITH_ADDF, var, pk_arg(f, 6)), f32);
    Value *rstd = build_binary(&k.b, ARITH_DIVF, build_const_float(&k.b, f32, 1.0), sd);
    /* pass 3: normalise */
    Op *l3 = pk_for(&k, c0, N, cB, NULL, 0);
    {
        Block *b = l3->regions[0].first;
        Value *cols = build_binary(&k.b, ARITH_ADDI, pk_splat(&k, b->args[0], it), pk_range(&k, 0, block));
        Value *mk = pk_cmp(&k, CMPI_SLT, cols, pk_splat(&k, N, it));
        Value *w = pk_load(&k, pk_addptr(&k, pk_splat(&k, pk_arg(f, 2), pt), cols), mk, NULL);
        Value *bb = pk_load(&k, pk_addptr(&k, pk_splat(&k, pk_arg(f, 3), pt), cols), mk, NULL);
        Value *a = pk_load(&k, pk_addptr(&k, pk_splat(&k, X, pt), cols), mk, build_const_float(&k.b, ht, 0.0));
        Value *af = pk_cast(&k, ARITH_EXTF, a, f32);
        Value *y = build_binary(&k.b, ARITH_MULF, build_binary(&k.b, ARITH_SUBF, af, pk_splat(&k, mean, ft)),
                                pk_splat(&k, rstd, ft));
        y = build_binary(&k.b, ARITH_MULF, y, pk_cast(&k, ARITH_EXTF, w, f32));
        y = build_binary(&k.b, ARITH_ADDF, y, pk_cast(&k, ARITH_EXTF, bb, f32));
        pk_store(&k, pk_addptr(&k, pk_splat(&k, Y, pt), cols), pk_cast(&k, ARITH_TRUNCF, y, f16), mk);
        pk_for_end(&k, l3, NULL, 0);
    }
    pk_return(&k);
    return m;
}

/* C[M,N] = A[M,K] @ B[K,N], row-major, fp16 in and out; one program per
 * BM x BN tile (grid = M/BM * N/BN), masks on M and N. */
static Op *pk_matmul(Context *c, int BM, int BN, int BK) {
    PkCtx k = {.c = c};
    Op *m = module_create(c, (Loc){0});
    Type *f32 = ty_f32(c), *f16 = ty_float(c, FK_F16), *ph = ty_ptr(c, f16, 1), *i32 = ty_i32(c);
    Type *args[6] = {ph, ph, ph, i32, i32, i32};
    bool div[6] = {1, 1, 1, 1, 1, 1};
    Op *f = pk_func(&k, m, "matmul_kernel", args, 6, div);
    Value *M = pk_arg(f, 3), *N = pk_arg(f, 4), *K = pk_arg(f, 5);
    Value *pid = pk_pid(&k);
    Value *npn = build_binary(&k.b, ARITH_DIVSI, build_binary(&k.b, ARITH_ADDI, N, build_const_int(&k.b, i32, BN - 1)),
                              build_const_int(&k.b, i32, BN));
    Value *pm = build_binary(&k.b, ARITH_DIVSI, pid, npn), *pn = build_binary(&k.b, ARITH_REMSI, pid, npn);
    Value *rm = build_binary(&k.b, ARITH_ADDI, pk_splat(&k, build_binary(&k.b, ARITH_MULI, pm, build_const_int(&k.b, i32, BM)), pk_tensor(c, BM, i32)), pk_range(&k, 0, BM));
    Value *rn = build_binary(&k.b, ARITH_ADDI, pk_splat(&k, build_binary(&k.b, ARITH_MULI, pn, build_const_int(&k.b, i32, BN)), pk_tensor(c, BN, i32)), pk_range(&k, 0, BN));
    Value *rk = pk_range(&k, 0, BK);
    Type *tmk = pk_tensor2(c, BM, BK, i32), *tkn = pk_tensor2(c, BK, BN, i32), *tmn = pk_tensor2(c, BM, BN, i32);
    /* expand dims */
#define EXPAND(x, ax, T) ({ Type *t_ = (T); Op *o_ = build_op(&k.b, TT_EXPAND_DIMS, (Value *[]){x}, 1, &t_, 1, 0); op_set_attr(c, o_, "axis", attr_i32(c, ax)); op_result(o_, 0); })
#define BCAST(x, T) build_unary(&k.b, TT_BROADCAST, x, T)
    Value *rm2 = EXPAND(rm, 1, pk_tensor2(c, BM, 1, i32));
    Value *rk_r = EXPAND(rk, 0, pk_tensor2(c, 1, BK, i32));
    Value *rk_c = EXPAND(rk, 1, pk_tensor2(c, BK, 1, i32));
    Value *rn2 = EXPAND(rn, 0, pk_tensor2(c, 1, BN, i32));
    Value *a_off = build_binary(&k.b, ARITH_ADDI, BCAST(build_binary(&k.b, ARITH_MULI, rm2, pk_splat(&k, K, rm2->type)), tmk), BCAST(rk_r, tmk));
    Value *b_off = build_binary(&k.b, ARITH_ADDI, BCAST(build_binary(&k.b, ARITH_MULI, rk_c, pk_splat(&k, N, rk_c->type)), tkn), BCAST(rn2, tkn));
    Value *a_mask = BCAST(pk_cmp(&k, CMPI_SLT, rm2, pk_splat(&k, M, rm2->type)), ty_with_elem(c, tmk, ty_i1(c)));
    Value *b_mask = BCAST(pk_cmp(&k, CMPI_SLT, rn2, pk_splat(&k, N, rn2->type)), ty_with_elem(c, tkn, ty_i1(c)));
    Value *a_ptrs = pk_addptr(&k, pk_splat(&k, pk_arg(f, 0), ty_with_elem(c, tmk, ph)), a_off);
    Value *b_ptrs = pk_addptr(&k, pk_splat(&k, pk_arg(f, 1), ty_with_elem(c, tkn, ph)), b_off);
    Value *acc0 = build_const_float(&k.b, ty_with_elem(c, tmn, f32), 0.0);
    Value *inits[3] = {acc0, a_ptrs, b_ptrs};
    Op *loop = pk_for(&k, build_const_int(&k.b, i32, 0), K, build_const_int(&k.b, i32, BK), inits, 3);
    {
        Block *b = loop->regions[0].first;
        Value *a = pk_load(&k, b->args[2], a_mask, build_const_float(&k.b, ty_with_elem(c, tmk, f16), 0.0));
        Value *bv = pk_load(&k, b->args[3], b_mask, build_const_float(&k.b, ty_with_elem(c, tkn, f16), 0.0));
        Value *dops[3] = {a, bv, b->args[1]};
        Type *at = b->args[1]->type;
        Value *acc = op_result(build_op(&k.b, TT_DOT, dops, 3, &at, 1, 0), 0);
        Value *na = pk_addptr(&k, b->args[2], build_const_int(&k.b, tmk, BK));
        Value *nb = pk_addptr(&k, b->args[3], build_binary(&k.b, ARITH_MULI, build_const_int(&k.b, tkn, BK), pk_splat(&k, N, tkn)));
        Value *ys[3] = {acc, na, nb};
        pk_for_end(&k, loop, ys, 3);
    }
    Value *cv = pk_cast(&k, ARITH_TRUNCF, op_result(loop, 0), f16);
    Value *c_off = build_binary(&k.b, ARITH_ADDI, BCAST(build_binary(&k.b, ARITH_MULI, rm2, pk_splat(&k, N, rm2->type)), tmn), BCAST(rn2, tmn));
    Value *c_mask = build_binary(&k.b, ARITH_ANDI, BCAST(pk_cmp(&k, CMPI_SLT, rm2, pk_splat(&k, M, rm2->type)), ty_with_elem(c, tmn, ty_i1(c))),
                                 BCAST(pk_cmp(&k, CMPI_SLT, rn2, pk_splat(&k, N, rn2->type)), ty_with_elem(c, tmn, ty_i1(c))));
    pk_store(&k, pk_addptr(&k, pk_splat(&k, pk_arg(f, 2), ty_with_elem(c, tmn, ph)), c_off), cv, c_mask);
#undef EXPAND
#undef BCAST
    pk_return(&k);
    (void)f32;
    return m;
}

/* out[0] += sum(x[pid*BLOCK : ...]) with a scalar atomic add. */
static Op *pk_atomic_sum(Context *c, int block) {
    PkCtx k = {.c = c};
    Op *m = module_create(c, (Loc){0});
    Type *f32 = ty_f32(c), *pf = ty_ptr(c, f32, 1), *i32 = ty_i32(c);
    Type *args[3] = {pf, pf, i32};
    bool div[3] = {1, 1, 1};
    Op *f = pk_func(&k, m, "atomic_sum_kernel", args, 3, div);
    Value *pid = pk_pid(&k);
    Value *r = pk_range(&k, 0, block);
    Value *offs = build_binary(&k.b, ARITH_ADDI, pk_splat(&k, build_binary(&k.b, ARITH_MULI, pid, build_const_int(&k.b, i32, block)), r->type), r);
    Value *mask = pk_cmp(&k, CMPI_SLT, offs, pk_splat(&k, pk_arg(f, 2), r->type));
    Type *pt = ty_with_elem(c, r->type, pf);
    Value *x = pk_load(&k, pk_addptr(&k, pk_splat(&k, pk_arg(f, 0), pt), offs), mask,
                       build_const_float(&k.b, ty_with_elem(c, r->type, f32), 0.0));
    Value *s = pk_reduce(&k, x, 0, ARITH_ADDF);
    Value *ops[2] = {pk_arg(f, 1), s};
    Op *at = build_op(&k.b, TT_ATOMIC_RMW, ops, 2, &f32, 1, 0);
    op_set_attr(c, at, "atomic_rmw_op", attr_i32(c, TT_RMW_FADD));
    op_set_attr(c, at, "sem", attr_i32(c, TT_SEM_ACQ_REL));
    op_set_attr(c, at, "scope", attr_i32(c, TT_SCOPE_GPU));
    pk_return(&k);
    return m;
}

#endif
