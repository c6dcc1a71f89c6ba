"""Every runtime module imports: a name moved between modules is caught here, not by the first user
of a bench or tool no test runs (the training modules need the `train` extra)."""

import importlib
import pkgutil

import pytest

import scorecam
import scoring
import vision

EXTRAS = ("vision.training",)  # the modules needing an optional extra (torch, onnx)


def _modules() -> list[str]:
    names = []
    for package in (scorecam, scoring, vision):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.startswith(EXTRAS) and not info.name.endswith("__main__"):
                names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_module_imports(name):
    importlib.import_module(name)
