/*
 * erfcc.h - Numerical Recipes' erfcc: for z >= 0, t = 1 / (1 + z / 2),
 *
 *     erfc z ~ t exp(-z^2 + P(t)),   P(t) = sum ERFCC_P[i] t^(9 - i)
 *
 * (Horner from ERFCC_P[0]), fractional error below 1.2e-7 everywhere. Used
 * by the GPU's fp32 erfc (transform/expand_libdevice.c) and fp32 erfcx
 * (sema/builtins.c: exp(z^2) erfc z = t exp(P(t))).
 */
#ifndef TRITONC_SUPPORT_ERFCC_H
#define TRITONC_SUPPORT_ERFCC_H

enum { ERFCC_TERMS = 10 };
static const double ERFCC_P[ERFCC_TERMS] = {0.17087277,  -0.82215223, 1.48851587,  -1.13520398, 0.27886807,
                                            -0.18628806, 0.09678418,  0.37409196,  1.00002368,  -1.26551223};

#endif
