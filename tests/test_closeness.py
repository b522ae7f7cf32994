"""The bound every check of one float32 computation against another uses: numpy's allclose, by the reference's size."""
import numpy as np

from bertviz_lite.closeness import ANOTHER_ROUTE, SAME_SUM, Tolerance


def test_the_bound_grows_with_the_value_as_numpys_allclose_does():
    rng = np.random.default_rng(0)
    expected = rng.normal(scale=100, size=1000)
    got = expected + rng.normal(scale=2e-4, size=1000)
    for tolerance in (SAME_SUM, ANOTHER_ROUTE, Tolerance(atol=0.0, rtol=1e-6)):
        assert tolerance.holds(got, expected) == np.allclose(got, expected, rtol=tolerance.rtol, atol=tolerance.atol)
    assert ANOTHER_ROUTE.holds([221.0 + 1.5e-4], [221.0]) and not ANOTHER_ROUTE.holds([1.5e-4], [0.0])


def test_equal_infinities_agree_and_a_nan_never_does():
    masked = np.finfo(np.float32).min
    assert SAME_SUM.holds([-np.inf, masked, 1.0], [-np.inf, masked, 1.0])
    assert not SAME_SUM.holds([np.nan], [1.0]) and not SAME_SUM.holds([np.inf], [1.0])
    assert SAME_SUM.excess([], []) == 0.0
