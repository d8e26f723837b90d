"""tritonc.language.extra.libdevice - libdevice-style math by name (`tanh`,
`erf`, `pow`, ...). Kernel-only builtins: the C front end maps each to the
backend's implementation (libm on the CPU, libdevice-equivalent PTX on the GPU).
The names are Triton 3.6's (and abs, fabs, fmax, fmin, umulhi), so that importing one by name
works as there; the few the front end does not implement yet (the Bessel functions,
rcp64h) are errors at the call that say so."""
from ..core import _builtins

NAMES = """
    abs acos acosh add_rd add_rn add_ru add_rz asin asinh atan atan2 atanh brev byte_perm
    cbrt ceil clz copysign cos cosh cospi cyl_bessel_i0 cyl_bessel_i1 div_rd div_rn div_ru
    div_rz double2float_rd double2float_rn double2float_ru double2float_rz double2hiint
    double2int_rd double2int_rn double2int_ru double2int_rz double2ll_rd double2ll_rn
    double2ll_ru double2ll_rz double2loint double2uint_rd double2uint_rn double2uint_ru
    double2uint_rz double2ull_rd double2ull_rn double2ull_ru double2ull_rz
    double_as_longlong erf erfc erfcinv erfcx erfinv exp exp10 exp2 expm1 fabs fast_cosf
    fast_dividef fast_exp10f fast_expf fast_log10f fast_log2f fast_logf fast_powf fast_sinf
    fast_tanf fast_tanhf fdim ffs finitef float2int_rd float2int_rn float2int_ru
    float2int_rz float2ll_rd float2ll_rn float2ll_ru float2ll_rz float2uint_rd float2uint_rn
    float2uint_ru float2uint_rz float2ull_rd float2ull_rn float2ull_ru float2ull_rz
    float_as_int float_as_uint floor fma fma_rd fma_rn fma_ru fma_rz fmax fmin fmod hadd
    hiloint2double hypot ilogb int2double_rn int2float_rd int2float_rn int2float_ru
    int2float_rz int_as_float isfinited isinf isnan j0 j1 jn ldexp lgamma ll2double_rd
    ll2double_rn ll2double_ru ll2double_rz ll2float_rd ll2float_rn ll2float_ru ll2float_rz
    llrint llround log log10 log1p log2 logb longlong_as_double mul24 mul_rd mul_rn mul_ru
    mul_rz mulhi nearbyint nextafter norm3d norm4d normcdf normcdfinv popc pow rcbrt rcp64h
    rcp_rd rcp_rn rcp_ru rcp_rz remainder rhadd rhypot rint rnorm3d rnorm4d round rsqrt
    rsqrt_rn sad saturatef scalbn signbit sin sinh sinpi sqrt sqrt_rd sqrt_rn sqrt_ru
    sqrt_rz sub_rd sub_rn sub_ru sub_rz tan tanh tgamma trunc uint2double_rn uint2float_rd
    uint2float_rn uint2float_ru uint2float_rz uint_as_float ull2double_rd ull2double_rn
    ull2double_ru ull2double_rz ull2float_rd ull2float_rn ull2float_ru ull2float_rz umulhi
    y0 y1 yn
"""
__all__ = _builtins(globals(), "tritonc.language.extra.libdevice", NAMES)
