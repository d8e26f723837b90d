"""tritonc.language.extra.libdevice - libdevice-style math by name (`tanh`,
`erf`, `pow`, ...). Kernel-only builtins: the C front end maps each to the
backend's implementation (libm on the CPU, libdevice-equivalent PTX on the GPU)."""
from ..core import _builtins

NAMES = """
    abs acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh cospi
    div_rd div_rn div_ru div_rz erf erfc erfcinv erfcx erfinv exp exp10 exp2 expm1
    fast_dividef fast_expf fast_logf fast_powf fabs fdim finitef floor fma fmax fmin
    fmod frexp hypot ilogb isinf isnan isfinited j0 j1 ldexp lgamma llrint llround log
    log10 log1p log2 logb nearbyint nextafter norm3d norm4d normcdf normcdfinv pow pown
    powi rcbrt rcp_rd rcp_rn rcp_ru rcp_rz remainder rhypot rint rnorm3d rnorm4d round
    rsqrt saturatef scalbn signbit sin sinh sinpi sqrt sqrt_rd sqrt_rn sqrt_ru sqrt_rz
    tan tanh tgamma trunc y0 y1 mulhi umulhi popc clz brev ffs byte_perm sad usad
    add_rd add_rn add_ru add_rz mul_rd mul_rn mul_ru mul_rz sub_rn fast_sinf fast_cosf
    fast_tanf float_as_int int_as_float double2int_rn float2int_rn float2uint_rn
    isinfd isnand
"""
__all__ = _builtins(globals(), "tritonc.language.extra.libdevice", NAMES)
