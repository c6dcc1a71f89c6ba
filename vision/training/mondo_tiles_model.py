"""The Mondo tile model (torch) and its training loop.

A small plain CNN: stride-2 3x3 conv blocks (BN + ReLU) bring a cell crop down to a 9x9 map (72 px
in), which is average-pooled to 3x3 rather than to one vector, so the heads still know which side
each feature lies on (edges, joins) besides what the tile shows (counts, patches, face). One shared
hidden layer, then one linear head per entry of ``vision.mondo.heads.HEADS``. The loss is the sum
of the heads' cross-entropies; the tile-only heads carry label -1 on empty cells and are ignored
there.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.mondo.heads import HEAD_NAMES, HEADS, turned_head
from vision.training.common import train_mode, weights_from_onnx

# (out channels, stride) of every conv block
BLOCKS: tuple[tuple[int, int], ...] = ((16, 2), (32, 2), (32, 1), (64, 2), (64, 1), (96, 1))
POOL_GRID = 3
HIDDEN = 128
# Inputs are BGR 0..255; this centres them (inside the model, so the ONNX graph takes raw pixels).
PIXEL_MEAN = 128.0
PIXEL_STD = 64.0


def conv_block(c_in: int, c_out: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True)
    )


class TileNet(nn.Module):
    """Cell crops (N, 3, S, S) float BGR 0..255 -> logits of every head, in HEADS order."""

    def __init__(
        self,
        heads: dict[str, Sequence[str]] = HEADS,  # type: ignore[assignment]
        blocks: Sequence[tuple[int, int]] = BLOCKS,
        pool_grid: int = POOL_GRID,
        hidden: int = HIDDEN,
    ) -> None:
        super().__init__()
        layers, c_in = [], 3
        for c_out, stride in blocks:
            layers.append(conv_block(c_in, c_out, stride))
            c_in = c_out
        self.features = nn.Sequential(*layers)
        self.pool_grid = pool_grid
        self.hidden = nn.Sequential(
            nn.Flatten(), nn.Linear(c_in * pool_grid * pool_grid, hidden), nn.ReLU(inplace=True)
        )
        self.head_names = tuple(heads)
        self.heads = nn.ModuleList(nn.Linear(hidden, len(labels)) for labels in heads.values())

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
        x = self.features((x - PIXEL_MEAN) / PIXEL_STD)
        k = x.shape[-1] // self.pool_grid  # fixed for a given input size: exports as a plain AvgPool
        x = self.hidden(F.avg_pool2d(x, k))
        return [head(x) for head in self.heads]


def from_onnx(path: Path) -> TileNet:
    """A ``TileNet`` holding the weights of a shipped tile model, to train further (a fine-tune on
    the light the stress set reads worst): ``common.weights_from_onnx``."""
    return weights_from_onnx(TileNet(), path)


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


# --- augmentation ----------------------------------------------------------------------------------


def to_float_nchw(crops: torch.Tensor) -> torch.Tensor:
    """(N, S, S, 3) uint8 -> (N, 3, S, S) float 0..255."""
    return crops.permute(0, 3, 1, 2).float()


def turned_batch(
    x: torch.Tensor, y: torch.Tensor, generator: torch.Generator, heads: Sequence[str] = HEAD_NAMES
) -> tuple[torch.Tensor, torch.Tensor]:
    """Each crop turned clockwise by a random number of quarter turns, its labels (one column per
    head of ``heads``) moved with it."""
    turns = torch.randint(0, 4, (len(x),), generator=generator)
    x_out, y_out = x.clone(), y.clone()
    for k in range(1, 4):
        pick = turns == k
        if pick.any():
            x_out[pick] = torch.rot90(x[pick], k=-k, dims=(2, 3))
            y_out[pick] = y[pick][:, [heads.index(turned_head(name, k)) for name in heads]]
    return x_out, y_out


def photometric(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Colour, exposure and contrast jitter, some blur and sensor noise (no geometry: labels hold)."""
    n = len(x)

    def uniform(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(n, *shape, generator=generator)

    gain = uniform(0.7, 1.3, 1, 1, 1) * uniform(0.9, 1.1, 3, 1, 1)  # exposure x white balance
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * uniform(0.75, 1.25, 1, 1, 1) + mean  # contrast
    x = x * gain + uniform(-12, 12, 1, 1, 1)
    # blur: a 3x3 binomial kernel blended in by a random amount (focus, motion, resampling)
    kernel = torch.tensor([1.0, 2.0, 1.0])
    kernel = (kernel[:, None] * kernel[None, :] / 16).expand(3, 1, 3, 3)
    blurred = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), kernel, groups=3)
    amount = uniform(-0.6, 1.0, 1, 1, 1).clamp(min=0)
    x = x + (blurred - x) * amount
    x = x + torch.randn(x.shape, generator=generator) * uniform(0, 6, 1, 1, 1)
    return glare(x, generator).clamp(0, 255)


def hard_light(x: torch.Tensor, generator: torch.Generator, share: float) -> torch.Tensor:
    """The hard end of the light on ``share`` of the crops, each one of: white balance far off (the
    photo style's tungsten / shade casts, up to 0.35 either way), overexposure that clips, washed or
    boosted colour, a sharp shadow edge across the crop, on top of the simulator's own light (hard on
    a third of its everyday photos and on every stress photo): the stress set's misreads left were
    desert, plains and forest told apart by hue alone, so the model is shown more hue that lies."""
    n = len(x)
    kind = torch.randint(0, 4, (n,), generator=generator)
    kind[torch.rand(n, generator=generator) >= share] = -1

    def uniform(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(n, *shape, generator=generator)

    def signed(lo: float, hi: float) -> torch.Tensor:
        sign = torch.where(torch.rand(n, generator=generator) < 0.5, -1.0, 1.0)
        return sign * uniform(lo, hi)

    temp, tint = signed(0.12, 0.35), signed(0.0, 0.1)
    balance = torch.stack([1 - temp + 0.5 * tint, 1 - tint, 1 + temp + 0.5 * tint], 1)  # B, G, R
    grey = x.mean(dim=1, keepdim=True)
    out = x.clone()
    pick = kind == 0
    out[pick] = x[pick] * balance[pick][:, :, None, None]
    pick = kind == 1
    out[pick] = (x[pick] * uniform(1.25, 1.7)[pick][:, None, None, None]).clamp(max=255)
    pick = kind == 2
    out[pick] = grey[pick] + (x[pick] - grey[pick]) * uniform(0.55, 1.45)[pick][:, None, None, None]
    pick = kind == 3
    if pick.any():
        _, _, h, w = x.shape
        angle = uniform(0, 2 * math.pi)
        offset = uniform(-0.35, 0.35) * w
        ys, xs = torch.meshgrid(
            torch.arange(h).float() - h / 2, torch.arange(w).float() - w / 2, indexing="ij"
        )
        side = xs[None] * torch.cos(angle)[:, None, None] + ys[None] * torch.sin(angle)[:, None, None]
        soft = uniform(0.5, 3.0)
        shade = torch.sigmoid((side - offset[:, None, None]) / soft[:, None, None])
        dark = 1 - uniform(0.3, 0.65)[:, None, None] * shade
        out[pick] = x[pick] * dark[pick][:, None]
    return out.clamp(0, 255)


def lying_colour(x: torch.Tensor, generator: torch.Generator, share: float) -> torch.Tensor:
    """On ``share`` of the crops, colour that says little: half of them greyed by 50-100%, half under
    a cast of any hue (each channel's gain 0.6-1.5). For a model that must tell terrains apart by
    their marks (the back model: a colour cast made a desert back plains-green)."""
    n = len(x)
    kind = torch.randint(0, 2, (n,), generator=generator)
    kind[torch.rand(n, generator=generator) >= share] = -1
    grey = x.mean(dim=1, keepdim=True)
    amount = 0.5 + 0.5 * torch.rand(n, 1, 1, 1, generator=generator)
    gains = 0.6 + 0.9 * torch.rand(n, 3, 1, 1, generator=generator)
    out = x.clone()
    pick = kind == 0
    out[pick] = x[pick] + (grey[pick] - x[pick]) * amount[pick]
    pick = kind == 1
    out[pick] = x[pick] * gains[pick]
    return out.clamp(0, 255)


def glare(x: torch.Tensor, generator: torch.Generator, share: float = 0.15) -> torch.Tensor:
    """A soft white highlight on ``share`` of the crops: the miscounts seen were under glare."""
    n, _, h, w = x.shape
    on = (torch.rand(n, generator=generator) < share).float()
    centre = torch.rand(n, 2, generator=generator) * torch.tensor([w, h])
    radius = (0.15 + 0.35 * torch.rand(n, generator=generator)) * w
    strength = (0.3 + 0.5 * torch.rand(n, generator=generator)) * on
    ys, xs = torch.meshgrid(torch.arange(h).float(), torch.arange(w).float(), indexing="ij")
    d2 = (xs[None] - centre[:, 0, None, None]) ** 2 + (ys[None] - centre[:, 1, None, None]) ** 2
    blob = torch.exp(-d2 / (2 * radius[:, None, None] ** 2)) * strength[:, None, None]
    return x + (255.0 - x) * blob[:, None]


# --- training --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainConfig:
    epochs: int = 14
    batch: int = 128
    lr: float = 3e-3
    weight_decay: float = 1e-4
    seed: int = 0
    turns: bool = True  # 90-degree turn augmentation (labels permuted)
    hard_light: float = 0.0  # share of crops given a cast, clipping, colour or shadow edge (hard_light)
    lying_colour: float = 0.0  # share of crops greyed or under a cast of any hue (lying_colour)


def heads_loss(logits: list[torch.Tensor], y: torch.Tensor) -> torch.Tensor:
    """Sum over heads of the mean cross-entropy over the crops that have a label for that head."""
    total = logits[0].new_zeros(())
    for h, out in enumerate(logits):
        target = y[:, h].long()
        if (target >= 0).any():
            total = total + F.cross_entropy(out, target, ignore_index=-1)
    return total


@torch.no_grad()
def predict_logits(model: nn.Module, crops: torch.Tensor, batch: int = 512) -> list[torch.Tensor]:
    """Logits of every head over uint8 NHWC crops, in eval mode."""
    model.eval()
    parts = [model(to_float_nchw(crops[i : i + batch])) for i in range(0, len(crops), batch)]
    return [torch.cat([p[h] for p in parts]) for h in range(len(parts[0]))]


def head_accuracy(logits: list[torch.Tensor], y: torch.Tensor, names: Sequence[str]) -> dict[str, float]:
    """Accuracy of each head over the crops that have a label for it."""
    out = {}
    for h, name in enumerate(names):
        target = y[:, h].long()
        valid = target >= 0
        correct = (logits[h].argmax(1) == target) & valid
        out[name] = float(correct.sum()) / max(1, int(valid.sum()))
    return out


def fit_temperatures(logits: list[torch.Tensor], y: torch.Tensor, highest: float = 5.0) -> list[float]:
    """Per head, the softmax temperature >= 1 that minimises validation NLL (for the decoder).

    Only softening is allowed: a head with no validation errors would otherwise be sharpened without
    bound, making its rare errors on other photos confidently wrong, which the catalog decoder
    cannot outvote. A 1-D grid search over log T: the NLL of one head is smooth in T.
    """
    grid = torch.exp(torch.linspace(0.0, math.log(highest), 81))
    temps = []
    for h, out in enumerate(logits):
        target = y[:, h].long()
        valid = target >= 0
        nll = [float(F.cross_entropy(out[valid] / t, target[valid])) for t in grid]
        temps.append(float(grid[int(np.argmin(nll))]))
    return temps


def train(
    model: TileNet,
    train_x: torch.Tensor,
    train_y: torch.Tensor,
    valid_x: torch.Tensor,
    valid_y: torch.Tensor,
    config: TrainConfig,
    log: Callable[[str], None] = print,
) -> dict[str, float]:
    """Train in place; returns the last epoch's per-head validation accuracy."""
    torch.manual_seed(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    steps_per_epoch = math.ceil(len(train_x) / config.batch)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, config.lr, total_steps=config.epochs * steps_per_epoch, pct_start=0.2
    )
    accuracy: dict[str, float] = {}
    for epoch in range(config.epochs):
        start = time.perf_counter()
        train_mode(model)
        order = torch.randperm(len(train_x), generator=generator)
        total = 0.0
        for step in range(steps_per_epoch):
            pick = order[step * config.batch : (step + 1) * config.batch]
            x, y = to_float_nchw(train_x[pick]), train_y[pick]
            if config.turns:
                x, y = turned_batch(x, y, generator, model.head_names)
            if config.hard_light:
                x = hard_light(x, generator, config.hard_light)
            if config.lying_colour:
                x = lying_colour(x, generator, config.lying_colour)
            loss = heads_loss(model(photometric(x, generator)), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            schedule.step()
            total += loss.item()
        accuracy = head_accuracy(predict_logits(model, valid_x), valid_y, model.head_names)
        worst = sorted(accuracy.items(), key=lambda kv: kv[1])[:4]
        log(
            f"epoch {epoch + 1}/{config.epochs}  loss {total / steps_per_epoch:.4f}  "
            f"{time.perf_counter() - start:.0f} s  worst: " + ", ".join(f"{k} {v:.4f}" for k, v in worst)
        )
        log("  " + "  ".join(f"{k} {v:.4f}" for k, v in accuracy.items()))
    return accuracy
