"""The examples in the package's docstrings, run against the installed package."""
import doctest

import minkowski_chess


def test_docstring_examples():
    result = doctest.testmod(minkowski_chess, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 30  # they did run: about 40 examples in 13 docstrings
