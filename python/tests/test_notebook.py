"""examples/tour.ipynb run as a reader runs it: nbclient executes every cell in the python3 kernel
(ipykernel, this interpreter) in a scratch folder, with the module on PYTHONPATH and the program in
PHYSARUM_EXE; any cell's error fails the test, naming the cell. Then what the pictures show is checked
against what the program wrote, read here on its own: the field is the program's field, the graph's
nodes are drawn on the trail, the ensemble plot's points and bars are the report's means and 95%
intervals, and the true filaments drawn over the volume run along its bright trace. A probe cell,
added here and not in the file, hands the drawn figures' data back.

ctest runs this file as `python.notebook`, apart from python.module (about a minute of CPU)."""

import base64
import io
import json
import os
import pathlib
import re
import sys

import numpy as np
import pytest

NOTEBOOK = pathlib.Path("examples") / "tour.ipynb"
MEASURES = ["cost", "efficiency", "fault_tolerance_tero"]

# Runs after the notebook's own cells, in its kernel: the data behind its figures, as JSON on stdout.
PROBE = r"""
# test_notebook.py's probe: the data behind the figures (a NameError here: the notebook renamed one)
import json as _json
import sys as _sys

np.save(OUT / "probe-field.npy", field)
np.save(OUT / "probe-web-mip.npy", web_fig.axes[2].images[0].get_array().filled(np.nan))


def _measure(ax):
    model = next(c for c in ax.containers if c.get_label().startswith("model"))
    data_line, _, (bars,) = model.lines
    (_, lo), (_, hi) = bars.get_segments()[0]
    seeds = next(line for line in ax.lines if line.get_label() == "model: each seed")
    return {"mean": float(data_line.get_ydata()[0]), "ci95": [float(lo), float(hi)],
            "seeds": [float(v) for v in seeds.get_ydata()]}


print(_json.dumps({
    "python": _sys.executable,
    "measures": {ax.get_title(): _measure(ax) for ax in measures_fig.axes},
    "nodes": {c.get_label(): c.get_offsets().tolist() for c in graph_fig.axes[0].collections
              if c.get_label() in ("town", "junction", "end", "loop")},
    "filaments": [line.get_xydata().tolist() for line in web_fig.axes[2].lines],
}))
"""


PACKAGES = {"nbformat": "python3-nbformat", "nbclient": "python3-nbclient", "ipykernel": "python3-ipykernel",
            "matplotlib.image": "python3-matplotlib", "networkx": "python3-networkx"}


def modules(*names):
    """The named modules (all of PACKAGES by default), or a skip naming the Debian package missing."""
    found = {}
    for name in names or PACKAGES:
        try:
            found[name] = __import__(name, fromlist=["_"])
        except ImportError as e:
            pytest.skip(f"{name} is not installed ({PACKAGES[name]}; scripts/install-deps installs it): {e}")
    return found


@pytest.fixture(scope="module")
def executed(physarum, program, source_dir, tmp_path_factory):
    """The notebook run to the end (with the probe), and its scratch folder."""
    m = modules()
    nbformat, nbclient = m["nbformat"], m["nbclient"]
    nb = nbformat.read(source_dir / NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    out = tmp_path_factory.mktemp("tour")
    # The kernel starts in the scratch folder with this environment (PYTHONPATH and PHYSARUM_EXE from
    # ctest); its debugger's warning about frozen modules is noise.
    env = dict(os.environ, PHYSARUM_TOUR_OUT=str(out), PYDEVD_DISABLE_FILE_VALIDATION="1")
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=900,
                                     resources={"metadata": {"path": str(out)}})
    failure = None
    try:
        client.execute(env=env)
    except nbclient.exceptions.CellExecutionError as e:
        failure = re.sub(r"\x1b\[[0-9;]*m", "", str(e))  # the kernel's traceback, less its colours
    if failure is not None:
        failed = [(i, c) for i, c in enumerate(nb.cells)
                  if any(o.get("output_type") == "error" for o in c.get("outputs", []))]
        where = ", ".join(f"cell {i} ({c.source.splitlines()[0]!r})" for i, c in failed) or "a cell"
        pytest.fail(f"{NOTEBOOK}: {where} raised:\n{failure}", pytrace=False)
    return nb, out


def probe(nb):
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    return json.loads(text.strip().splitlines()[-1])


def test_the_committed_notebook_holds_no_outputs(source_dir):
    # Outputs go stale with every change to the program and weigh hundreds of KB of PNG in the history.
    nbformat = modules("nbformat")["nbformat"]
    nb = nbformat.read(source_dir / NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)


def test_every_figure_is_drawn_and_not_blank(executed):
    nb, _ = executed
    image = modules("matplotlib.image")["matplotlib.image"]
    shows = sum(c.source.count("plt.show()") for c in nb.cells if c.cell_type == "code")
    pictures = [base64.b64decode(o["data"]["image/png"]) for c in nb.cells if c.cell_type == "code"
                for o in c.outputs if "image/png" in o.get("data", {})]
    assert shows == 5 and len(pictures) == shows
    for i, png in enumerate(pictures):
        pixels = image.imread(io.BytesIO(png))[..., :3]
        white = (pixels > 0.98).all(axis=-1).mean()
        black = (pixels < 0.02).all(axis=-1).mean()
        colours = len(np.unique(pixels.reshape(-1, 3), axis=0))
        # Each figure is mostly drawn, not the page's white (the ensemble plot, the sparsest, is 92%
        # white); no image in it came out black (a black render panel would be most of its figure).
        assert pixels.shape[0] > 300 and pixels.shape[1] > 500, i
        assert white < 0.95 and black < 0.5 and colours > 100 and pixels.std() > 0.1, (i, white, black, colours)


def test_the_field_is_the_programs(executed):
    nb, out = executed
    assert probe(nb)["python"] == sys.executable  # the kernel is this interpreter, which the module is built for
    field = np.load(out / "probe-field.npy")
    program = np.load(out / "towns.npy")  # `physarum render --out towns.npy`, the same recipe
    assert field.shape == (270, 480) and field.dtype == np.float32
    assert field.max() > 0 and np.count_nonzero(field) > field.size // 2
    assert np.array_equal(field, program)


def test_the_graph_is_drawn_on_the_trail(executed):
    nb, out = executed
    networkx = modules("networkx")["networkx"]
    drawn = probe(nb)["nodes"]
    graph = networkx.read_graphml(out / "towns.graphml")
    report = json.loads((out / "towns.json").read_text())
    field = np.load(out / "towns.npy")
    for kind in ("town", "junction", "end"):
        want = sorted((d["x"], d["y"]) for _, d in graph.nodes(data=True) if d["kind"] == kind)
        assert sorted(map(tuple, drawn[kind])) == want, kind
    assert len(drawn["town"]) == report["towns"] == 24
    # A junction or an end is a skeleton cell of the network: its trail is at least the low level.
    # Drawn with x and y swapped, 71% of those that stay inside would miss; 2 cells off, 15%.
    for x, y in drawn["junction"] + drawn["end"]:
        assert field[round(y), round(x)] >= report["threshold_low"], (x, y)


def test_the_ensemble_plot_shows_the_reports_intervals(executed):
    nb, out = executed
    plotted = probe(nb)["measures"]
    ensemble = json.loads((out / "ensemble.json").read_text())
    assert ensemble["seeds"] == "1..4" and [r["seed"] for r in ensemble["runs"]] == [1, 2, 3, 4]
    assert sorted(plotted) == sorted(MEASURES)
    for key in MEASURES:
        summary = ensemble["summary"][key]
        assert summary["n"] == 4
        assert plotted[key]["mean"] == pytest.approx(summary["mean"], rel=1e-12)
        assert plotted[key]["ci95"] == pytest.approx(summary["ci95"], rel=1e-12)
        assert sorted(plotted[key]["seeds"]) == pytest.approx(sorted(r["report"][key] for r in ensemble["runs"]))
        # And the report's figures follow from the seeds' own: mean +- t sd / sqrt(n), Student's t for 3
        # degrees of freedom (the program's table has it to 4 figures, 3.182).
        seeds = np.array([r["report"][key] for r in ensemble["runs"]])
        half = 3.182446305 * seeds.std(ddof=1) / 2
        assert summary["mean"] == pytest.approx(seeds.mean(), rel=1e-9)
        assert summary["ci95"] == pytest.approx([seeds.mean() - half, seeds.mean() + half], rel=1e-4)


def test_the_true_filaments_run_along_the_volumes_trace(executed):
    nb, out = executed
    mip = np.load(out / "probe-web-mip.npy")
    lines = probe(nb)["filaments"]
    assert mip.shape == (48, 48) and np.isfinite(mip).all() and mip.max() > 0
    assert len(lines) == 31  # assets/points/cosmic-web-truth.csv

    def along(segments):
        values = []
        for (x0, y0), (x1, y1) in segments:
            for t in np.linspace(0, 1, max(2, int(4 * np.hypot(x1 - x0, y1 - y0)))):
                x, y = round(x0 + t * (x1 - x0)), round(y0 + t * (y1 - y0))
                if 0 <= x < 48 and 0 <= y < 48:
                    values.append(mip[y, x])
        return np.mean(values)

    # Here 6.9 along the lines, 2.9 on average, 3.6 along them drawn with x and y swapped.
    on = along(lines)
    swapped = along([[(y, x) for x, y in line] for line in lines])
    assert on > 2 * mip.mean(), (on, mip.mean())
    assert on > 1.5 * swapped, (on, swapped)
