#!/usr/bin/env python3
"""Every JSON the program writes, read by a strict parser.

Runs the real program once for each JSON-writing output (small sizes, few steps) and parses what it
wrote with Python's json module made strict: the bytes must be UTF-8 (RFC 8259), and NaN, Infinity
and -Infinity, which the module accepts by default, raise. The preset's file name holds a byte that
is not UTF-8 (0xff), so every recipe, path and name the program copies into its JSON is tried with
text in another encoding.

Usage: json_outputs_test.py PHYSARUM_EXE ASSETS_DIR   (exit 0: all strict, 1: not)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def strict_load(data):
    text = data.decode("utf-8")  # raises on bytes that are not UTF-8
    return json.loads(text, parse_constant=refuse_constant)


def run(exe, args, cwd, env=None):
    r = subprocess.run([exe] + args, cwd=cwd, capture_output=True, timeout=240, env=env)
    if r.returncode != 0:
        raise AssertionError(f"physarum {' '.join(map(str, args))} exited {r.returncode}:\n"
                             f"{r.stderr.decode(errors='replace')}")
    return r


def main():
    exe, assets = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="json-outputs-")
    failures = []
    checked = []
    try:
        preset = os.path.join(work.encode(), b"preset\xff.toml")
        shutil.copyfile(os.path.join(assets, "presets", "defaults.toml"), preset)
        food = os.path.join(assets, "images", "towns_food.png")
        walls = os.path.join(assets, "images", "towns_walls.png")
        grow = [preset, "--size", "48x32", "--agents", "600", "--seed", "7", "--backend", "cpu"]
        headless = dict(os.environ, EGL_PLATFORM="surfaceless")

        def check_file(name, args, env=None):
            path = os.path.join(work, name)
            try:
                run(exe, args, work, env)
                with open(path, "rb") as f:
                    strict_load(f.read())
                checked.append(name)
            except Exception as e:  # report every output, not only the first that fails
                failures.append(f"{name}: {e}")

        def check_lines(name, args, env=None):
            try:
                out = run(exe, args, work, env).stdout
                lines = out.splitlines()
                if not lines:
                    raise AssertionError("no JSON lines on stdout")
                for line in lines:
                    strict_load(line)
                checked.append(name)
            except Exception as e:
                failures.append(f"{name}: {e}")

        check_file("map.tmj", ["export", "--preset"] + grow + ["--steps", "20", "--out", "map.tmj"])
        check_file("bands.json", ["export", "--preset"] + grow + ["--steps", "20", "--bands", "quantile",
                                                                       "--format", "tiled", "--out", "bands.json"])
        check_file("cave.json", ["export", "--preset"] + grow + ["--steps", "20", "--out", "cave.png",
                                                                      "--report", "cave.json"])
        check_file("network.json", ["render", "--preset"] + grow + [
            "--steps", "40", "--food", food, "--walls", walls, "--out", "still.png", "--report",
            "network.json", "-q"], headless)
        # An ensemble copies each seed's report, the recipe and the preset's name into one file, and
        # --merge writes it again from what it read back.
        ensemble = ["render", "--preset", preset, "--size", "48x32", "--agents", "600", "--backend", "cpu",
                    "--steps", "20", "--food", food, "--walls", walls, "--seeds", "3..5", "-q"]
        check_file("ensemble.json", ensemble + ["--report", "ensemble.json"])
        check_file("shard-1.json", ensemble + ["--shard", "1/2", "--report", "shard-1.json"])
        check_file("shard-2.json", ensemble + ["--shard", "2/2", "--report", "shard-2.json"])
        check_file("merged.json", ["render", "--merge", "shard-1.json", "shard-2.json", "--report", "merged.json"])
        check_file("graph.json", ["render", "--preset"] + grow + [
            "--steps", "40", "--food", food, "--walls", walls, "--out", "still2.png", "--graph",
            "graph.json", "-q"], headless)
        sens = ["sensitivity", "--preset"] + grow + ["--steps", "12", "--every", "4"]
        check_file("single.json", sens + ["--perturb", "agent:3:theta:1e-3", "--json", "single.json"])
        check_file("sweep.json", sens + ["--sweep", "model.decay=0.01:0.02:2", "--json", "sweep.json"])
        check_lines("bench --json", ["bench", "--backend", "cpu", "--threads", "1", "--size", "32x24",
                                     "--agents", "300", "--steps", "2", "--warmup", "1", "--json"])
        check_lines("bench --sweep steps --json", ["bench", "--backend", "cpu", "--threads", "1", "--size",
                                                   "32x24", "--agents", "300", "--steps", "4", "--sweep",
                                                   "steps", "--json"])
        check_lines("bench --frame --json", ["bench", "--frame", "--backend", "cpu", "--threads", "1", "--size",
                                             "32x24", "--agents", "300", "--frames", "2", "--warmup", "1",
                                             "--steps-per-frame", "1", "--json"], headless)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("NOT STRICT JSON:", f)
    print("strict JSON:", ", ".join(checked))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
