#!/usr/bin/env python3
"""Every command in the README and the guides under docs/ runs, as written, so no example rots.

One document a run (ctest: docs.README, docs.artists, ...), its commands in order in one scratch
folder, so a command reads what an earlier one of the same document wrote. How a document is read:

* A ```sh block holds commands; every other fence (```text, ```toml, ```python) does not. ```python
  blocks are run too, in the same scratch folder and in document order, with the built module on
  PYTHONPATH.
* In a ```sh block a line ending in a backslash continues on the next line. A line that starts
  with `#` is a comment, except that `# physarum: ...` (or `# physarum COMMAND: ...`) lines right
  after a command are what the command prints (the program starts what it says so): the test checks
  that its output holds each of them. A command's trailing `# ...` is a comment; a trailing
  `# refused: why` marks a command the program must refuse (exit status 1 or 2, not a crash).
* `NAME=value` lines set a shell variable for the later commands of the document; a command ending
  in `&` runs in the background while the rest of its block runs, and is stopped (SIGTERM) once the
  block is done.
* `physarum` and `build/bin/physarum` are the built program (its folder is first on PATH and the
  scratch folder has build/bin/physarum); `python3` is the interpreter running this test (Debian's,
  which the module is built for). `assets/`, `examples/` and `scripts/` are the source tree's.
  HOME is a fresh folder in the scratch folder, so the window's settings and presets land there.
* A command with no subcommand opens the window: it runs under Xvfb with `--frames 10` (and a
  `--screenshot` where it names none) appended; a backgrounded window runs until its block is
  done, and one with --osc is waited for until it says it listens.
* A command that exits otherwise than the document says, prints "(ignored)" (the program ignored
  something the document says works), or lacks an output line fails the test, with the command,
  its exit status and its stderr.

What cannot run here is listed in SKIPPED with the reason, and long commands run at the small size
that SMALLER states. Each entry names its document and the command exactly (spaces collapsed): an
entry that matches no command fails the test, so neither list can outlive the text it excuses.

The reference's help blocks (docs/reference.md, between <!-- help:CMD --> and <!-- /help -->) are
compared with `physarum CMD --help`; --update-help rewrites them. --links checks that every
relative link and #anchor in README.md and docs/*.md resolves (GitHub's heading anchors).

Usage: docs_commands_test.py EXE SOURCE_DIR DOC [PYTHON_MODULE_DIR]
       docs_commands_test.py --links SOURCE_DIR
       docs_commands_test.py --update-help EXE SOURCE_DIR
Exit 0: passed; 1: failed; 77: skipped commands for lack of a tool (Xvfb, ffmpeg, the module).
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

# (document, command, why it does not run here). The command exactly as the document has it,
# continuations joined and spaces collapsed, its trailing comment left off.
SKIPPED = [
    ("README.md", "make run", "builds the tree and opens the window: CI builds the tree itself, and the window's commands below run"),
    ("README.md", "make test", "runs the whole suite, which this test is part of"),
    *[(doc, cmd, "python.pip installs into a temporary venv and runs the README's example there (minutes of build)")
      for doc in ("README.md", "docs/science.md")
      for cmd in ("python3 -m venv --system-site-packages env", "env/bin/pip install --no-build-isolation .")],
    ("README.md", "env/bin/python -c \"import physarum; print(physarum.__version__, physarum.data_dir)\"",
     "python.pip checks the version and the data folder in its venv"),
    ("docs/building.md", "scripts/install-deps", "installs Debian packages as root; CI runs it before building"),
    ("docs/building.md", "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release", "configures the tree CI has already built"),
    ("docs/building.md", "cmake --build build && ctest --test-dir build --output-on-failure", "builds and runs the suite this test is part of"),
    ("docs/building.md", "ctest --test-dir build -j2 -L unit", "runs the suite this test is part of"),
    ("docs/building.md", "sudo make install", "installs as root; install.relocated_copy_works installs to a scratch prefix"),
    ("docs/building.md", "make install PREFIX=~/.local", "install.relocated_copy_works installs to a scratch prefix"),
    ("docs/building.md", "make uninstall", "install.uninstall_leaves_the_prefix_as_it_was runs it"),
    ("docs/building.md", "make package", "install.debian_package builds the .deb"),
    ("docs/building.md", "sudo apt install ./build/physarum_*.deb", "installs as root; install.debian_package checks the .deb"),
    ("docs/building.md", "make fuzz", "clang and a minute a target: fuzzing is not part of CI"),
    ("docs/building.md", "cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90",
     "needs nvcc (the CUDA toolkit), which CI does not install"),
    ("docs/science.md", "parallel physarum sensitivity $ARGS --shard {}/16 --csv part-{}.csv ::: $(seq 16)",
     "needs GNU parallel, which is not a dependency; the loop above runs the same shards"),
    ("docs/science.md",
     "sbatch --array=1-16 --wrap 'physarum sensitivity '\"$ARGS\"' --shard $SLURM_ARRAY_TASK_ID/16 --csv part-$SLURM_ARRAY_TASK_ID.csv'",
     "needs a Slurm cluster"),
    ("docs/gpu.md", "physarum bench --backend cuda --size 3840x2160 --agents 10M", "needs a CUDA device"),
    ("docs/gpu.md", "physarum bench --backend cuda --frame --steps-per-frame 1,5 --size 3840x2160 --agents 100M",
     "needs a CUDA device"),
    ("docs/gpu.md", "physarum bench --backend cuda --sweep worlds", "needs a CUDA device"),
    ("docs/gpu.md", "physarum bench --backend cuda --size 512x512x512 --agents 100M", "needs a CUDA device"),
    ("docs/gpu.md", "physarum bench --backend cuda --frame --size 512x512x512 --agents 100M", "needs a CUDA device"),
    ("docs/science.md", "physarum sensitivity --backend cuda --preset assets/presets/defaults.toml --sweep model.sensor_angle_deg=5:90:18 --size 1920x1080 --agents 2M --steps 4000 --every 20 --repeats 5 --plot sweep.png",
     "needs a CUDA device (the command above is the same sweep on the CPU)"),
]

# Python blocks that do not run here: (document, a line of the block, why).
SKIPPED_PYTHON = [
    ("docs/science.md", "volume = torch.from_dlpack(web.field_view())",
     "needs PyTorch and a CUDA device; the NumPy form above runs"),
]

# (document, command, [(text, replaced by), ...]): long commands at a small size. Every replaced
# text must occur in its command.
SMALLER = [
    # The braid at its own 1920x1080 with 1M agents of four species: about 5 minutes each on two
    # cores, as the text says; the flags these lines are about work the same on a small field.
    *[("docs/artists.md", f"build/bin/physarum render --preset braid {rest}",
       [("--preset braid", "--preset braid --size 320x180 --steps 150")])
      for rest in ("--out braid.gif", "--gif-width 320 --gif-colors 32 --gif-dither none --out small.gif",
                   "--crf 23 --video-preset slow --out braid.mp4", "--crf 40 --video-preset good:1 --out braid.webm")],
    # A volume's frame is ray marched by Mesa's software renderer here: about 10 s at 1280x720.
    *[("docs/artists.md", f"physarum render --size 64x64x64 --points examples/galaxies.csv --steps 300 {rest}",
       [("--size 64x64x64", "--size 32x32x32"), ("--steps 300", "--steps 60"), ("--out", "--resolution 320x180 --out")])
      for rest in ("--out web.png", "--set display.volume_mode=mip --out mip.png",
                   "--set display.volume_mode=iso --set display.iso_level=0.4 --out iso.png", "--slice z=0.5 --out slice.png")],
    ("docs/artists.md",
     "physarum render --size 64x64x64 --points examples/galaxies.csv --steps 480 --every 2 --orbit 8 --out turn.mp4",
     [("--size 64x64x64", "--size 32x32x32"), ("--steps 480", "--steps 40"), ("--out", "--resolution 160x90 --out")]),
    # 1400 steps and 350 frames of the story.
    ("docs/artists.md",
     "build/bin/physarum render --preset condense-shatter --size 640x360 --steps 1400 --every 4 --out story.mp4",
     [("--size 640x360", "--size 320x180"), ("--every 4", "--every 20")]),
    # A volume in the window: Mesa's software renderer ray marches it, seconds a frame.
    ("docs/artists.md", "build/bin/physarum --preset web-3d", [("--preset web-3d", "--preset web-3d --window 320x240 --frames 3")]),
    # 2000 steps of the towns: the report's numbers are checked on the first line, at full size.
    ("docs/science.md", "physarum render --preset assets/presets/towns.toml --steps 2000 --out towns.mp4",
     [("--steps 2000", "--size 320x180 --steps 200")]),
    # The ensemble: 32 seeds of 2000 steps, about 10 minutes on two cores.
    ("docs/science.md", "physarum render --preset towns --steps 2000 --seeds 1..32 --report towns-32.json",
     [("--steps 2000", "--steps 150"), ("--seeds 1..32", "--seeds 1..3")]),
    ("docs/science.md", "physarum render --preset towns --steps 2000 --seeds 1..32 --shard 1/4 --report part-1.json",
     [("--steps 2000", "--steps 150"), ("--seeds 1..32", "--seeds 1..3")]),
    ("docs/science.md",
     "for k in 2 3 4; do physarum render --preset towns --steps 2000 --seeds 1..32 --shard $k/4 --report part-$k.json; done",
     [("--steps 2000", "--steps 150"), ("--seeds 1..32", "--seeds 1..3")]),
    # 576 worlds of 1000 steps: 2 to 4 minutes on two cores, as the text says.
    ("docs/science.md",
     "build/bin/physarum atlas --preset jones-2010-map --size 200x200 --x model.sensor_angle_deg=5:120:24 "
     "--y model.rotation_angle_deg=5:120:24 --steps 1000 --backend cpu --out map.png --csv map.csv",
     [("5:120:24", "5:120:4"), ("--steps 1000", "--steps 200")]),
    # The GPU's volumes: 10M agents in 256^3.
    ("docs/science.md",
     "physarum run --size 256x256x256 --agents 10M --points examples/galaxies.csv --steps 500 --out web.npy",
     [("--size 256x256x256 --agents 10M", "--size 32x32x32 --agents 20K"), ("--steps 500", "--steps 30")]),
    ("docs/science.md",
     "physarum run --size 256x256x256 --set model.turn_rule=mcpm --points examples/galaxies.csv --steps 500 "
     "--out mcpm.npy --trace trace.npy",
     [("--size 256x256x256", "--size 32x32x32"), ("--steps 500", "--steps 30")]),
    ("docs/science.md",
     "physarum run --size 128x128x128 --agents 1.25M --points examples/galaxies.csv --steps 300 --out web-128.npy",
     [("--size 128x128x128 --agents 1.25M", "--size 48x48x48 --agents 66K"), ("--steps 300", "--steps 100")]),
    # The cosmic web at its 128^3 with 1M agents: 1 to 3 minutes on two cores, as the text says.
    ("docs/science.md", "physarum run --preset cosmic-web --steps 300 --out field.npy --trace trace.npy",
     [("--steps 300", "--size 64x64x64 --steps 100")]),
    ("docs/science.md", "physarum render --preset cosmic-web --steps 300 --out cosmic-web.png",
     [("--steps 300", "--size 48x48x48 --steps 100")]),
    # 1.25M agents in 128^3 for 300 steps: minutes on two cores, as the text says.
    ("docs/level-design.md",
     "physarum export --size 128x128x128 --points examples/galaxies.csv --steps 300 --triangles 200000 "
     "--connect largest --out web.glb --out slices/web.png --out web.vdb --out web.npy",
     [("--size 128x128x128", "--size 48x48x48"), ("--steps 300", "--steps 100")]),
    # The terrain at 1024x1024 with 500K agents: a minute each on two cores.
    *[("docs/level-design.md",
       f"physarum export --preset terrain --size 1024x1024 --agents 500K --steps 500 {rest}",
       [("--size 1024x1024 --agents 500K", "--size 256x256 --agents 32K"), ("--steps 500", "--steps 200")])
      for rest in ("--format height --out height.png", "--out height.r16")],
]

SUBCOMMANDS = {"run", "render", "bench", "presets", "params", "export", "sensitivity", "atlas", "help"}
WINDOW_FRAMES = "10"
COMMAND_LIMIT_S = 900


@dataclass
class Command:
    line: int
    text: str  # continuations joined, trailing comment removed, spaces as written
    comment: str = ""
    outputs: list = field(default_factory=list)

    @property
    def key(self):
        return " ".join(self.text.split())

    @property
    def background(self):
        return self.text.endswith("&") and not self.text.endswith("&&")

    @property
    def refused(self):
        return self.comment.startswith("refused")


@dataclass
class Block:
    line: int
    lang: str
    lines: list
    commands: list = field(default_factory=list)


def split_comment(line):
    """(command, comment) at the first '#' outside quotes that starts a word."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line.rstrip(), ""


def parse_commands(block):
    commands, pending, start = [], "", 0
    for n, raw in enumerate(block.lines):
        line = raw.strip()
        if not pending and line.startswith("#"):
            text = line[1:].strip()
            if re.match(r"physarum( [a-z]+)?:", text) and commands:
                commands[-1].outputs.append(text)
            continue
        if not pending and not line:
            continue
        if not pending:
            start = block.line + 1 + n
        if line.endswith("\\"):
            pending += line[:-1].rstrip() + " "
            continue
        text, comment = split_comment(pending + line)
        pending = ""
        if text:
            commands.append(Command(start, text, comment))
    return commands


def read_blocks(path):
    blocks, current = [], None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            stripped = raw.strip()
            if current is None:
                m = re.match(r"^```(\w*)", stripped)
                if m:
                    current = Block(n, m.group(1), [])
            elif stripped.startswith("```"):
                if current.lang == "sh":
                    current.commands = parse_commands(current)
                blocks.append(current)
                current = None
            else:
                current.lines.append(raw.rstrip("\n"))
    if current is not None:
        raise SystemExit(f"{path}:{current.line}: a fence that never closes")
    return blocks


# -- running a document ------------------------------------------------------------------------


class Xvfb:
    def __init__(self):
        self.proc, self.display, self.error = None, None, None

    def start(self):
        if self.display or self.error:
            return self.display
        if not shutil.which("Xvfb"):
            self.error = "Xvfb is not installed (apt-get install xvfb)"
            return None
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                                     pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        number = b""
        deadline = time.time() + 30
        while time.time() < deadline:
            c = os.read(r, 1)
            if not c or c == b"\n":
                break
            number += c
        os.close(r)
        if not number:
            self.error = "Xvfb did not report a display"
            return None
        self.display = ":" + number.decode()
        return self.display

    def stop(self):
        if self.proc:
            self.proc.terminate()
            self.proc.wait()


def is_physarum(word):
    return word in ("physarum", "build/bin/physarum")


def opens_window(cmd):
    words = cmd.text.rstrip("&").split()
    if not words or not is_physarum(words[0]):
        return False
    rest = words[1:]
    if any(w in ("--help", "--version", "-h") for w in rest):
        return False
    return not rest or rest[0].startswith("-")


class Runner:
    def __init__(self, exe, source, doc, module_dir):
        self.exe, self.source, self.doc, self.module_dir = exe, source, doc, module_dir
        self.failures, self.missing, self.times = [], [], []
        self.assignments = []
        self.xvfb = Xvfb()
        base = os.environ.get("PHYSARUM_TEST_TMP") or tempfile.gettempdir()
        os.makedirs(base, exist_ok=True)
        self.work = tempfile.mkdtemp(prefix="docs-" + re.sub(r"\W", "-", doc) + "-", dir=base)
        for name in ("assets", "examples", "scripts"):
            os.symlink(os.path.join(source, name), os.path.join(self.work, name))
        os.makedirs(os.path.join(self.work, "build", "bin"))
        os.symlink(exe, os.path.join(self.work, "build", "bin", "physarum"))
        tools = os.path.join(self.work, ".bin")
        os.makedirs(tools)
        os.symlink(exe, os.path.join(tools, "physarum"))
        os.symlink(sys.executable, os.path.join(tools, "python3"))
        home = os.path.join(self.work, ".home")
        os.makedirs(home)
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY") and not k.startswith("XDG_")}
        env.update(PATH=tools + os.pathsep + os.path.dirname(exe) + os.pathsep + os.environ.get("PATH", ""),
                   HOME=home, OMP_WAIT_POLICY="passive")
        if module_dir:
            env["PYTHONPATH"] = module_dir
        self.env = env

    def fail(self, where, what):
        self.failures.append(f"{self.doc}:{where}: {what}")
        print(f"FAIL {self.doc}:{where}: {what}", flush=True)

    def shell(self, text):
        return "set -o pipefail\n" + "\n".join(self.assignments + [text])

    def prepared(self, cmd, index):
        """The command as it runs here and the environment it runs in, or None when it cannot."""
        text = cmd.text
        for doc, key, replacements in SMALLER:
            if doc == self.doc and key == cmd.key:
                for old, new in replacements:
                    text = text.replace(old, new)
        env = dict(self.env)
        if opens_window(cmd):
            display = self.xvfb.start()
            if not display:
                self.missing.append(f"{cmd.key}: {self.xvfb.error}")
                return None, None
            env.update(DISPLAY=display, LIBGL_ALWAYS_SOFTWARE="1")
            if not cmd.background:
                words = text.split()
                if "--frames" not in words:
                    text += f" --frames {WINDOW_FRAMES}"
                if "--screenshot" not in words:
                    text += f" --screenshot .window-{index}.png"
        return text, env

    def check(self, cmd, rc, out, err):
        if cmd.refused:
            if rc not in (1, 2):
                self.fail(cmd.line, f"`{cmd.key}` should be refused (exit 1 or 2), exited {rc}\n{err}")
        elif rc != 0:
            self.fail(cmd.line, f"`{cmd.key}` exited {rc}\n{err}")
        said = " ".join((out + "\n" + err).split())
        for line in cmd.outputs:
            if " ".join(line.split()) not in said:
                self.fail(cmd.line, f"`{cmd.key}` did not print `{line}`; it printed:\n{out}{err}")
        if "(ignored)" in err:
            self.fail(cmd.line, f"`{cmd.key}`: the program ignored something:\n{err}")

    def run_command(self, cmd, index, background):
        for doc, key, why in SKIPPED:
            if doc == self.doc and key == cmd.key:
                print(f"skip {self.doc}:{cmd.line}: {cmd.key}\n     ({why})", flush=True)
                return
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", cmd.text):
            self.assignments.append(cmd.text)
            return
        text, env = self.prepared(cmd, index)
        if text is None:
            return
        print(f"run  {self.doc}:{cmd.line}: {text}", flush=True)
        start = time.time()
        if cmd.background:
            out = open(os.path.join(self.work, f".bg-{index}.out"), "w+")
            err = open(os.path.join(self.work, f".bg-{index}.err"), "w+")
            proc = subprocess.Popen(["bash", "-c", self.shell("exec " + text[:-1].strip())], cwd=self.work,
                                    env=env, stdout=out, stderr=err, start_new_session=True)
            background.append((cmd, proc, out, err, start))
            port = re.search(r"--osc (\d+)", text)
            if port:
                self.wait_for_udp(proc, int(port.group(1)), cmd)
            return
        rc, out, err = self.run_shell(text, env)
        self.times.append((time.time() - start, cmd.key))
        if isinstance(rc, int) and rc != 0 and self.tool_missing(err, cmd):
            return
        self.check(cmd, rc, out, err)

    def run_shell(self, text, env):
        """(exit status, stdout, stderr); a command still running after the limit is stopped with
        everything it started."""
        proc = subprocess.Popen(["bash", "-c", self.shell(text)], cwd=self.work, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=COMMAND_LIMIT_S)
            return proc.returncode, out, err
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            return "a timeout", out, err + f"\nstill running after {COMMAND_LIMIT_S} s"

    def tool_missing(self, err, cmd):
        for tool in ("ffmpeg", "gnuplot"):
            if f"{tool} not found" in err and not shutil.which(tool):
                self.missing.append(f"{cmd.key}: {tool} is not installed")
                return True
        return False

    def wait_for_udp(self, proc, port, cmd):
        """Until a socket listens on UDP `port` (what the window prints is buffered in a file)."""
        deadline = time.time() + 300
        while time.time() < deadline and proc.poll() is None:
            for table in ("/proc/net/udp", "/proc/net/udp6"):
                try:
                    with open(table) as f:
                        next(f)
                        if any(int(line.split()[1].split(":")[1], 16) == port for line in f):
                            time.sleep(1)  # a few frames, so the window reads what comes next
                            return
                except OSError:
                    pass
            time.sleep(0.2)
        self.fail(cmd.line, f"`{cmd.key}` never listened on UDP port {port}")

    def stop_background(self, background):
        for cmd, proc, out, err, start in background:
            if proc.poll() is None:
                time.sleep(5)  # a few frames, so what the block sent it is applied
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                rc = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                rc = proc.wait()
            self.times.append((time.time() - start, cmd.key))
            out.seek(0)
            err.seek(0)
            text_out, text_err = out.read(), err.read()
            # Stopped by the test: 128 + SIGTERM is its orderly end.
            self.check(cmd, 0 if rc in (0, 128 + signal.SIGTERM, -signal.SIGTERM) else rc, text_out, text_err)
        background.clear()

    def run_python(self, block, index):
        code = "\n".join(block.lines) + "\n"
        for doc, line, why in SKIPPED_PYTHON:
            if doc == self.doc and line in code:
                print(f"skip {self.doc}:{block.line}: the python block\n     ({why})", flush=True)
                return
        if not self.module_dir:
            self.missing.append(f"the python block at line {block.line}: the Python module was not built "
                                "(pybind11-dev, python3-dev, libdlpack-dev)")
            return
        path = os.path.join(self.work, f".block-{index}.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(code)
        print(f"run  {self.doc}:{block.line}: the python block", flush=True)
        start = time.time()
        r = subprocess.run([sys.executable, path], cwd=self.work, env=self.env, capture_output=True, text=True,
                           timeout=COMMAND_LIMIT_S)
        self.times.append((time.time() - start, f"the python block at line {block.line}"))
        if r.returncode != 0:
            self.fail(block.line, f"the python block exited {r.returncode}\n{r.stderr}")

    def run(self, blocks):
        index = 0
        for block in blocks:
            background = []
            if block.lang == "python":
                index += 1
                self.run_python(block, index)
            for cmd in block.commands:
                index += 1
                self.run_command(cmd, index, background)
            self.stop_background(background)
        self.xvfb.stop()


def check_tables(doc, blocks):
    """Every SKIPPED, SKIPPED_PYTHON and SMALLER entry of this document matches what it excuses."""
    problems = []
    keys = {c.key for b in blocks for c in b.commands}
    code = ["\n".join(b.lines) for b in blocks if b.lang == "python"]
    for d, key, _ in SKIPPED:
        if d == doc and key not in keys:
            problems.append(f"SKIPPED names `{key}`, which {doc} no longer holds")
    for d, line, _ in SKIPPED_PYTHON:
        if d == doc and not any(line in c for c in code):
            problems.append(f"SKIPPED_PYTHON names `{line}`, which no python block of {doc} holds")
    for d, key, replacements in SMALLER:
        if d != doc:
            continue
        if key not in keys:
            problems.append(f"SMALLER names `{key}`, which {doc} no longer holds")
        for old, _ in replacements:
            if old not in key:
                problems.append(f"SMALLER replaces `{old}`, which `{key}` does not hold")
    return problems


# -- the reference's help text -----------------------------------------------------------------

HELP = re.compile(r"(<!-- help:(\w+) -->\n```text\n)(.*?)(```\n<!-- /help -->)", re.S)
GROUP = re.compile(r"^[A-Z][A-Za-z ]*:$")


def help_groups(text):
    """{header: lines} of a --help text; "" holds what comes before the first group header."""
    groups, name = {"": []}, ""
    for line in text.splitlines():
        if GROUP.match(line):
            name = line[:-1]
            groups[name] = []
        groups[name].append(line)
    return {k: "\n".join(v).strip("\n") + "\n" for k, v in groups.items()}


def help_text(exe, name):
    """What the reference shows as `name`'s help: the window's own options and the options every
    command shares from the top-level help ("window", "shared"), else the command's help without
    the shared group it repeats."""
    sub = [] if name in ("window", "shared") else [name]
    text = subprocess.run([exe] + sub + ["--help"], capture_output=True, text=True, check=True).stdout
    groups = help_groups(text)
    if name == "window":
        return groups["Window"]
    if name == "shared":
        return groups["Simulation"]
    return "\n".join(v for k, v in groups.items() if k != "Simulation")


def check_help(exe, path, update):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    problems = []

    def replace(m):
        current = help_text(exe, m.group(2))
        if m.group(3) != current:
            shown = {"window": "the window's options of `physarum --help`",
                     "shared": "the shared options of `physarum --help`"}.get(m.group(2), f"`physarum {m.group(2)} --help`")
            problems.append(f"{path}: the help block of {shown} differs from what the program prints")
        return m.group(1) + current + m.group(4)

    new = HELP.sub(replace, text)
    if update and new != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
        return []
    if not HELP.search(text):
        problems.append(f"{path}: no <!-- help:CMD --> block")
    return problems


# -- links -------------------------------------------------------------------------------------


def github_anchor(heading, seen):
    """The id GitHub gives a heading: lower case, punctuation dropped, spaces to '-', '-N' for repeats."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
    n = seen.get(slug, 0)
    seen[slug] = n + 1
    return slug if n == 0 else f"{slug}-{n}"


def anchors(path):
    seen, found, fenced = {}, set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced:
                m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
                if m:
                    found.add(github_anchor(m.group(2), seen))
                found.update(re.findall(r'<a (?:name|id)="([^"]+)"', line))
    return found


def check_links(source):
    docs = [os.path.join(source, "README.md")] + sorted(
        os.path.join(source, "docs", n) for n in os.listdir(os.path.join(source, "docs")) if n.endswith(".md"))
    problems, checked = [], 0
    for path in docs:
        fenced = False
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        for n, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            line = re.sub(r"`[^`]*`", "", line)
            for target in re.findall(r"\]\(([^)\s]+)\)", line) + re.findall(r'(?:src|href)="([^"]+)"', line):
                if re.match(r"^[a-z]+:", target):
                    continue  # another site
                checked += 1
                file, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
                where = f"{os.path.relpath(path, source)}:{n}"
                if not os.path.exists(dest):
                    problems.append(f"{where}: {target}: no such file")
                elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                    problems.append(f"{where}: {target}: no heading makes #{anchor}")
    print(f"{checked} links checked in {len(docs)} documents")
    return problems


def main(argv):
    if argv[1:2] == ["--links"]:
        problems = check_links(argv[2])
    elif argv[1:2] == ["--update-help"]:
        problems = check_help(argv[2], os.path.join(argv[3], "docs", "reference.md"), update=True)
    else:
        exe, source, doc = os.path.abspath(argv[1]), os.path.abspath(argv[2]), argv[3]
        module_dir = os.path.abspath(argv[4]) if len(argv) > 4 and argv[4] else None
        if module_dir and not (os.path.isdir(module_dir) and any(
                n.startswith("physarum") and n.endswith(".so") for n in os.listdir(module_dir))):
            module_dir = None
        blocks = read_blocks(os.path.join(source, doc))
        problems = check_tables(doc, blocks)
        if doc == "docs/reference.md":
            problems += check_help(exe, os.path.join(source, doc), update=False)
            if any("help block" in p for p in problems):
                problems.append(f"run: {argv[0]} --update-help {exe} {source}")
        runner = Runner(exe, source, doc, module_dir)
        start = time.time()
        runner.run(blocks)
        problems += runner.failures
        print(f"\n{doc}: {len(runner.times)} commands in {time.time() - start:.0f} s; the longest:")
        for seconds, key in sorted(runner.times, reverse=True)[:8]:
            print(f"  {seconds:6.1f} s  {key}")
        if not problems:
            shutil.rmtree(runner.work, ignore_errors=True)
        if not problems and runner.missing:
            print(f"docs.{doc}: Skipped")
            print("; ".join(sorted(set(m.split(": ", 1)[1] for m in runner.missing))))
            for m in runner.missing:
                print("  not run: " + m)
            return 77
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
