"""Speed-ups of the coin's judgement that must not change a single result:
the evidence PNG (the same pixels, stored) and the medians of the silhouette."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision.analyse import _png  # noqa: E402


def test_the_evidence_png_is_stored_with_the_crops_exact_pixels() -> None:
    # A smooth crop, as compressible as a crop gets: stored, the file is at
    # least the raw size (compressing it took 14-17 ms for a leaning coin's crop).
    ramp = np.linspace(0, 255, 307, dtype=np.float32)
    crop = np.dstack([np.add.outer(ramp, ramp) / 2] * 3).astype(np.uint8)
    data = _png(crop)
    back = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert np.array_equal(back, crop)
    assert len(data) >= crop.size
