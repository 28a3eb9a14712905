#!/usr/bin/env python3
"""A tour of the physarum Python module as a script: run it top to bottom, or paste the cells (each
starts with `# %%`) into a notebook. examples/tour.ipynb is the notebook tour (towns, measures, a graph,
a volume).

    PYTHONPATH=build/python python3 examples/python_tour.py [--size 512] [--agents 100000] [--steps 400]

It grows a network and draws it into one picture, python_tour.png (`--out NAME` writes NAME.png): the
field on a log scale beside the window's colouring of it (`sim.render`; that panel is left out where
there is no OpenGL). The picture needs matplotlib (python3-matplotlib); without it nothing is written
and the script says so. Then it checks a small pure-NumPy implementation of the same model against
physarum's first step and times one step of each, and of PyTorch when that is installed (on the GPU
when torch sees one).
"""

# %% Set-up
import argparse
import time

import numpy as np

import physarum

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--size", type=int, default=512, help="field side in cells (square)")
parser.add_argument("--agents", type=int, default=100_000)
parser.add_argument("--steps", type=int, default=400, help="steps to grow the network")
parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
parser.add_argument("--out", default="python_tour", help="the picture is OUT.png")
args = parser.parse_args()

# %% Grow a network
sim = physarum.Sim(size=(args.size, args.size), agents=args.agents, backend=args.backend, seed=1)
print(sim, "-", sim.note)
t0 = time.perf_counter()
for done in range(0, args.steps, 100):
    sim.step(min(100, args.steps - done))
    f = sim.field  # reading the field waits for queued GPU work
    print(f"  step {sim.steps_done:5d}: field mean {f.mean():.4f}, max {f.max():.2f}")
print(f"grew {args.steps} steps in {time.perf_counter() - t0:.2f} s; per-stage timings (ms):",
      {k: round(v, 4) for k, v in sim.timings().items()})

# %% Look at it: the field on a log scale, and the window's own rendering
try:
    image = sim.render(palette="inferno")
except physarum.Error as e:  # no OpenGL here (no GPU driver, no Mesa)
    image = None
    print("render() is not available here:", e)
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 2 if image is not None else 1
    fig, axes = plt.subplots(1, panels, figsize=(6 * panels, 6), squeeze=False)
    axes[0, 0].imshow(np.log1p(sim.field), cmap="magma")
    axes[0, 0].set_title(f"log(1 + field) after {sim.steps_done} steps")
    if image is not None:
        axes[0, 1].imshow(image)
        axes[0, 1].set_title("sim.render(palette='inferno')")
    for ax in axes.flat:
        ax.set_axis_off()
    fig.tight_layout()
    fig.savefig(f"{args.out}.png", dpi=80, bbox_inches="tight")
    print(f"wrote {args.out}.png")
except ImportError:
    print(f"matplotlib is not installed (python3-matplotlib): {args.out}.png not written")


# %% The model in plain NumPy (docs/MODEL.md): one step for every agent, then the field
def numpy_step(x, y, theta, field, sa, ra, so, ss, deposit, decay, diffuse):
    """One step of the model in float32 NumPy, in the order of the rule header. Not bit-exact with
    physarum: NumPy's sin/cos differ from physarum's own polynomial in the last bits."""
    h, w = field.shape
    f32 = np.float32

    def cells(dx, dy):
        sx = np.mod(x + f32(so) * dx, f32(w)).astype(np.int64).clip(0, w - 1)
        sy = np.mod(y + f32(so) * dy, f32(h)).astype(np.int64).clip(0, h - 1)
        return sy * w + sx

    flat = field.ravel()
    c, s = np.cos(theta), np.sin(theta)
    cs, ss_ = f32(np.cos(sa)), f32(np.sin(sa))
    fc = flat[cells(c, s)]
    fl = flat[cells(c * cs - s * ss_, s * cs + c * ss_)]
    fr = flat[cells(c * cs + s * ss_, s * cs - c * ss_)]
    turn = np.where((fl > fc) & (fl > fr), f32(ra), np.where((fr > fc) & (fr > fl), f32(-ra), f32(0)))
    theta = np.mod(theta + turn, f32(2 * np.pi)).astype(np.float32)
    x = np.mod(x + f32(ss) * np.cos(theta), f32(w)).astype(np.float32)
    y = np.mod(y + f32(ss) * np.sin(theta), f32(h)).astype(np.float32)
    counts = np.bincount(y.astype(np.int64).clip(0, h - 1) * w + x.astype(np.int64).clip(0, w - 1),
                         minlength=w * h).reshape(h, w)
    g = field + counts.astype(np.float32) * f32(deposit)
    rows = np.roll(g, 1, axis=1) + g + np.roll(g, -1, axis=1)
    sum9 = np.roll(rows, 1, axis=0) + rows + np.roll(rows, -1, axis=0)
    field = f32(1 - decay) * (f32(1 - diffuse) * g + f32(diffuse / 9) * sum9)
    return x, y, theta, field.astype(np.float32)


MODEL = dict(sa=np.radians(45.0), ra=np.radians(45.0), so=5.0, ss=1.0, deposit=1.0, decay=0.01, diffuse=0.2)

# %% Check the reference: one step from physarum's own start agrees with physarum's first step
check = physarum.Sim(size=(args.size, args.size), agents=args.agents, backend=args.backend, seed=2)
a = check.agents
x1, y1, t1, f1 = numpy_step(a["x"], a["y"], a["theta"], np.zeros((args.size, args.size), np.float32), **MODEL)
check.step(1)
print(f"NumPy reference after one step: field differs from physarum's by at most {np.abs(f1 - check.field).max():.3g} "
      f"(total {f1.sum():.6g} vs {check.field.sum(dtype=np.float64):.6g})")


# %% Timing: physarum's step against the NumPy (and PyTorch) reference at the same size
def per_step(fn, steps):
    fn(1)  # warm up
    t0 = time.perf_counter()
    fn(steps)
    return (time.perf_counter() - t0) / steps * 1e3


state = [a["x"], a["y"], a["theta"], np.zeros((args.size, args.size), np.float32)]


def run_numpy(n):
    for _ in range(n):
        state[:] = numpy_step(*state, **MODEL)


def run_physarum(n):
    sim.step(n)
    sim.field_view()  # waits for queued GPU work, without copying the field


results = {"physarum " + sim.backend: per_step(run_physarum, 50), "NumPy reference": per_step(run_numpy, 10)}

try:
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"

    def torch_step(x, y, theta, field, sa, ra, so, ss, deposit, decay, diffuse):
        h, w = field.shape

        def cells(dx, dy):
            sx = torch.remainder(x + so * dx, w).long().clamp(0, w - 1)
            sy = torch.remainder(y + so * dy, h).long().clamp(0, h - 1)
            return sy * w + sx

        flat = field.reshape(-1)
        c, s = torch.cos(theta), torch.sin(theta)
        cs, sn = float(np.cos(sa)), float(np.sin(sa))
        fc, fl, fr = flat[cells(c, s)], flat[cells(c * cs - s * sn, s * cs + c * sn)], flat[cells(c * cs + s * sn, s * cs - c * sn)]
        turn = torch.where((fl > fc) & (fl > fr), ra, torch.where((fr > fc) & (fr > fl), -ra, 0.0))
        theta = torch.remainder(theta + turn, 2 * np.pi)
        x = torch.remainder(x + ss * torch.cos(theta), w)
        y = torch.remainder(y + ss * torch.sin(theta), h)
        idx = y.long().clamp(0, h - 1) * w + x.long().clamp(0, w - 1)
        counts = torch.bincount(idx, minlength=w * h).reshape(h, w).float()
        g = field + counts * deposit
        rows = torch.roll(g, 1, 1) + g + torch.roll(g, -1, 1)
        sum9 = torch.roll(rows, 1, 0) + rows + torch.roll(rows, -1, 0)
        return x, y, theta, (1 - decay) * ((1 - diffuse) * g + (diffuse / 9) * sum9)

    tstate = [torch.from_numpy(v).to(device) for v in (a["x"], a["y"], a["theta"])] + [
        torch.zeros((args.size, args.size), device=device)]

    def run_torch(n):
        for _ in range(n):
            tstate[:] = torch_step(*tstate, **MODEL)
        if device == "cuda":
            torch.cuda.synchronize()

    results[f"PyTorch reference ({device})"] = per_step(run_torch, 20)
    if sim.field_view().device == "cuda":
        # The field handed to torch without a copy.
        t = torch.from_dlpack(sim.field_view())
        print(f"torch.from_dlpack(sim.field_view()): {tuple(t.shape)} on {t.device}, sum {float(t.sum()):.6g}")
except ImportError:
    print("PyTorch is not installed: no PyTorch reference")

print(f"one step at {args.size}x{args.size} with {args.agents} agents:")
for name, ms in results.items():
    print(f"  {name:32s} {ms:9.3f} ms/step")
