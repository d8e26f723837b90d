"""What the tests/python scripts that check corpus kernels against torch
share: seeded random tensors, outputs poisoned before a launch, and the two
comparisons (within a tolerance, NaN and infinities where the reference has
them; and exactly), and running a script's checks."""
import sys

import torch


def generators(seed):
    """randn, rand and randint drawing from one generator seeded with seed
    (on the CPU: a script's inputs are the same wherever it runs)."""
    gen = torch.Generator().manual_seed(seed)

    def randn(*shape, dtype=torch.float32):
        return torch.randn(*shape, generator=gen).to(dtype)

    def rand(*shape, dtype=torch.float32):
        return torch.rand(*shape, generator=gen).to(dtype)

    def randint(lo, hi, shape, dtype=torch.int64):
        return torch.randint(lo, hi, shape, generator=gen).to(dtype)

    return randn, rand, randint


def poison(shape, dtype, like):
    """An output filled with what no kernel writes by accident: NaN, or 77
    for integers, on like's device."""
    if dtype.is_floating_point:
        return torch.full(shape, float("nan"), dtype=dtype, device=like.device)
    return torch.full(shape, 77, dtype=dtype, device=like.device)


def close(got, want, tol, what):
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, tuple(got.shape), tuple(want.shape))
    got, want = got.double(), want.double()
    gn, wn = torch.isnan(got), torch.isnan(want)
    assert torch.equal(gn, wn), "%s: NaN at %d places, want %d" % (what, gn.sum().item(), wn.sum().item())
    got, want = torch.where(gn, torch.zeros_like(got), got), torch.where(wn, torch.zeros_like(want), want)
    gi, wi = torch.isinf(got), torch.isinf(want)
    assert torch.equal(gi, wi) and torch.equal(got[gi], want[wi]), "%s: infinities differ" % what
    got, want = torch.where(gi, torch.zeros_like(got), got), torch.where(wi, torch.zeros_like(want), want)
    err = (got - want).abs().max().item() if got.numel() else 0.0
    assert err <= tol * (1 + want.abs().max().item()), "%s: max error %g (tol %g)" % (what, err, tol)


def same(got, want, what):
    assert got.shape == want.shape and got.dtype == want.dtype, \
        "%s: %s %s, want %s %s" % (what, tuple(got.shape), got.dtype, tuple(want.shape), want.dtype)
    bad = (got != want).nonzero()
    assert bad.numel() == 0, "%s: %d differences, first at %s: %s, want %s" % (
        what, bad.shape[0], bad[0].tolist(), got[tuple(bad[0])].item(), want[tuple(bad[0])].item())


def run_checks(namespace, what):
    """Runs every `check_*` function of a script's globals, reporting each
    (a failure does not stop the others), and exits 1 if any failed."""
    failed = 0
    for name, fn in list(namespace.items()):
        if name.startswith("check_"):
            try:
                fn()
                print("ok", name)
            except Exception as e:  # noqa: BLE001  (report every check, then fail)
                failed += 1
                print("FAIL", name, "%s: %s" % (type(e).__name__, e))
    print("%d checks failed" % failed if failed else "all %s checks passed" % what)
    sys.exit(1 if failed else 0)
