"""Names that moved keep working for one release, with a DeprecationWarning naming their new place."""


def test_the_old_certainty_module_forwards_with_a_deprecation_warning():
    """Issue 64, item 5: `verifier.api.certainty_report.certainty`, which earlier docs told users to call, moved
    without a forward; it forwards for one release."""
    import warnings

    from verifier.api import certainty_report
    from verifier.api.use import certainty_report as moved

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert certainty_report.certainty is moved.certainty
    assert any(issubclass(w.category, DeprecationWarning) and "moved to" in str(w.message) for w in caught)
