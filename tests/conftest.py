import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))  # test helpers such as mondo_builders


@pytest.fixture
def root() -> Path:
    return ROOT
