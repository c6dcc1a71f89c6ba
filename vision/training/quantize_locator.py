"""A locator's weights and activations in 8-bit integers: the same maps in about 40% of the time.

The Mediatore reader spends most of its time in the locator's zoomed look (a picture of ~1.6 MP); on a
CPU with 8-bit dot products (AVX-512 VNNI, AVX-VNNI, ARM's dot product) the quantised net runs that
look in 54 ms instead of 134. Weights are quantised per output channel (int8), activations per tensor
(uint8) in the ranges they take on calibration pictures: the very pictures the reader feeds the net
(the whole photo at the net's size, then the zoomed looks) on simulated photos of a training seed,
every second one from the stress world, cut into windows of one size. The range of each activation is
its 99.999th percentile, not its largest value: a few outlying pixels would otherwise spread the 256
levels so thin that faint corners vanish (MinMax calibration missed twice as many corners on the
development photos).

The float net stays recoverable from the file (``train_locator.from_onnx`` reads the quantised
weights back), so a run that trains on from a shipped locator works on either.

    python -m vision.training.quantize_locator --model build/mediatore-locator-float.onnx \\
        --out models/mediatore-locator.onnx --seed 1 --photos 24
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from vision.training.common import HELD_OUT_SEED

WINDOW = 256  # calibration windows (px of the net's input): one shape for every picture
WINDOWS_PER_PICTURE = 4
PERCENTILE = 99.999
STRESS_EVERY = 2  # every second calibration photo from the stress world
GAMES = {"mediatore": "mediatore-locator"}  # game -> the locator's task (its metadata names it)


class _Recording:
    """An ONNX session that keeps every input it is given (the reader's looks) and runs them."""

    def __init__(self, session) -> None:
        self.session = session
        self.inputs: list[np.ndarray] = []

    def run(self, names, feeds):
        (x,) = feeds.values()
        self.inputs.append(np.array(x, np.float32))
        return self.session.run(names, feeds)


def reader_looks(
    game: str, model_path: Path, seed: int, photos: int, long_side: int = 4000
) -> list[np.ndarray]:
    """The inputs (1, 3, h, w; normalised) the game's reader gives the locator at ``model_path``
    while reading ``photos`` simulated photos of ``seed``."""
    if game != "mediatore":
        raise ValueError(f"no calibration reader for {game!r} (only {', '.join(GAMES)})")
    from vision.locator_net import LocatorModel
    from vision.mediatore.locate import load_locator, locate_corners
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    if seed >= HELD_OUT_SEED:
        raise ValueError(f"calibration seeds must be below {HELD_OUT_SEED} (held-out photos)")
    loaded = load_locator(str(model_path))
    recording = _Recording(loaded.session)
    model = LocatorModel(recording, loaded.meta)
    for index in range(photos):
        world = World(stress=True) if index % STRESS_EVERY == STRESS_EVERY - 1 else None
        scene = make_scene(game, seed, index, long_side, world=world)
        locate_corners(decode_photo(scene.jpeg), model)
    return recording.inputs


def windows(pictures: list[np.ndarray], rng: np.random.Generator) -> list[np.ndarray]:
    """WINDOWS_PER_PICTURE random WINDOW-square windows of each picture at least that large (the
    percentile calibrator stacks its inputs, so they must share a shape)."""
    out = []
    for x in pictures:
        h, w = x.shape[2:]
        if h < WINDOW or w < WINDOW:
            continue
        for _ in range(WINDOWS_PER_PICTURE):
            y0, x0 = int(rng.integers(0, h - WINDOW + 1)), int(rng.integers(0, w - WINDOW + 1))
            out.append(np.ascontiguousarray(x[:, :, y0 : y0 + WINDOW, x0 : x0 + WINDOW]))
    return out


def is_quantized(path: Path) -> bool:
    import onnx

    return any(node.op_type in ("QuantizeLinear", "QLinearConv") for node in onnx.load(str(path)).graph.node)


def quantize(src: Path, dst: Path, calibration: list[np.ndarray], note: dict) -> None:
    """``src`` (a float locator) quantised into ``dst`` with ``calibration`` inputs; its scorecam
    metadata kept, with ``note`` under "quantized"."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    from vision.onnx_model import METADATA_KEY

    if not calibration:
        raise ValueError("no calibration pictures (every look smaller than the window?)")
    model = onnx.load(str(src))
    input_name = model.graph.input[0].name

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.items: Iterator[np.ndarray] = iter(calibration)

        def get_next(self):
            x = next(self.items, None)
            return None if x is None else {input_name: x}

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "q.onnx"
        quantize_static(
            str(src), str(out), Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.Percentile, extra_options={"CalibPercentile": PERCENTILE},
        )  # fmt: skip
        quantized = onnx.load(str(out))
    meta = json.loads({p.key: p.value for p in model.metadata_props}[METADATA_KEY])
    meta["quantized"] = note
    del quantized.metadata_props[:]
    quantized.metadata_props.add(key=METADATA_KEY, value=json.dumps(meta))
    dst.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(quantized, str(dst))


def quantize_locator(
    game: str,
    src: Path,
    dst: Path,
    seed: int = 1,
    photos: int = 24,
    command: str | None = None,
    log: Callable[[str], None] = print,
) -> dict:
    """Calibrate on the reader's looks at ``photos`` photos of ``seed`` and write ``dst``; returns the
    note kept in its metadata."""
    if is_quantized(src):
        raise ValueError(f"{src}: already quantised (quantise the float locator it was made from)")
    pictures = reader_looks(game, src, seed, photos)
    calibration = windows(pictures, np.random.default_rng(seed))
    note = {
        "weights": "int8, per output channel",
        "activations": f"uint8, per tensor, range the {PERCENTILE}th percentile",
        "calibration": {
            "seed": seed,
            "photos": photos,
            "stress_every": STRESS_EVERY,
            "looks": len(pictures),
            "windows": len(calibration),
            "window": WINDOW,
        },  # fmt: skip
        "note": "the validation figures above were measured on the float net",
        "command": command or "python -m vision.training.quantize_locator " + " ".join(sys.argv[1:]),
    }
    quantize(src, dst, calibration, note)
    log(f"quantised {src} -> {dst}: {len(calibration)} windows of {len(pictures)} looks at {photos} photos")
    return note


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=sorted(GAMES), default="mediatore")
    p.add_argument("--model", type=Path, required=True, help="the float locator (.onnx)")
    p.add_argument("--out", type=Path, required=True, help="where to write the quantised one")
    p.add_argument("--seed", type=int, default=1, help="the simulated photos' seed (a training seed)")
    p.add_argument("--photos", type=int, default=24, help="calibration photos")
    args = p.parse_args(argv)
    if args.out.resolve() == args.model.resolve():
        p.error("--out must differ from --model (the float locator is kept)")
    try:
        quantize_locator(args.game, args.model, args.out, args.seed, args.photos)
    except ValueError as error:
        sys.exit(f"quantize_locator: {error}")


if __name__ == "__main__":
    main()
