"""The second family of bad inputs: the Python package raises ``carom.ScenarioError``
with the very line the command line prints for the same input (exit status 2).

Each case is given to both: a scenario or state file by the same absolute path (so
the origin both name is the same), an override as ``--set KEY=VALUE`` and as
``overrides={KEY: VALUE}``. The command line's own side of the contract (nothing
written, one line) is tested in ``crates/carom-cli/tests/refused/bad_input.rs``; the
cases here mirror those.
"""

from __future__ import annotations

import json
import subprocess

import carom
import numpy as np
import pytest

# A periodic spring scene with contact friction and a spinning ball, as in the CLI
# test: every field the cases spoil is present.
BASE = """name = "rough box"
duration = 1.0

[table]
width = 100.0
height = 80.0
boundary = "periodic"

[physics]
model = "spring"
dt = 0.01
contact_friction = { mu = 0.3, tangential_restitution = 0.5 }

[[balls]]
x = 20.0
y = 40.0
vx = 1.0
r = 5.0
omega = 0.5
inertia = 12.5

[[balls]]
x = 60.0
y = 40.0
r = 5.0
"""


def with_line(key: str, line: str) -> str:
    """BASE with its first line starting ``key =`` replaced by ``line``."""
    lines = BASE.splitlines()
    at = next(i for i, text in enumerate(lines) if text.startswith(f"{key} ="))
    lines[at] = line
    return "\n".join(lines) + "\n"


def cli_line(carom_bin, *args: str) -> str:
    """The one stderr line of ``carom ARGS``, which must be refused as bad input."""
    r = subprocess.run([str(carom_bin), *args], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def raised(f, *args, **kwargs) -> str:
    with pytest.raises(carom.ScenarioError) as e:
        f(*args, **kwargs)
    assert isinstance(e.value, ValueError)
    return str(e.value)


FILE_CASES = [
    ("boundary", 'boundary = "moebius"', "table.boundary"),
    ("boundary", 'boundary = ["periodic"]', "table.boundary"),
    ("boundary", 'boundary = ["periodic", "walls", "walls"]', "table.boundary"),
    ("boundary", 'boundary = ["periodic", "mirror"]', "table.boundary"),
    ("boundary", "boundary = 3", "table.boundary"),
    (
        "contact_friction",
        "contact_friction = { mu = -0.1 }",
        "physics.contact_friction.mu",
    ),
    (
        "contact_friction",
        "contact_friction = { mu = nan }",
        "physics.contact_friction.mu",
    ),
    (
        "contact_friction",
        "contact_friction = { mu = 0.3, tangential_restitution = 1.5 }",
        "physics.contact_friction.tangential_restitution",
    ),
    (
        "contact_friction",
        "contact_friction = { mu = 0.3, tangential_stiffness = 0.0 }",
        "physics.contact_friction.tangential_stiffness",
    ),
    ("contact_friction", "contact_friction = { mu = 0.3, rolling = 0.1 }", "rolling"),
    ("contact_friction", "contact_friction = 0.3", "physics.contact_friction"),
    ("contact_friction", "event_budget = -1.0", "physics.event_budget"),
    ("contact_friction", "event_budget = 0", "physics.event_budget"),
    ("contact_friction", "event_budget = nan", "physics.event_budget"),
    ("contact_friction", 'event_budget = "lots"', "physics.event_budget"),
    ("inertia", "inertia = 0.0", "balls[0].inertia"),
    ("inertia", "inertia = -12.5", "balls[0].inertia"),
    ("omega", "omega = nan", "balls[0].omega"),
    ("omega", "omega = -inf", "balls[0].omega"),
    ("omega", "ix = 1.5", "balls[0].ix"),
    ("omega", "iy = 1e300", "balls[0].iy"),
    ("omega", "ix = 9007199254740993", "balls[0].ix"),
    # A periodic side under four largest diameters (radius 5: 40).
    ("width", "width = 39.0", "table.width"),
    # Sheared boxes (Lees-Edwards), as in
    # crates/carom-cli/tests/refused/bad_input_sheared.rs.
    (
        "boundary",
        'boundary = { x = "sheared", y = "periodic", shear_rate = 0.1 }',
        "table.boundary.x",
    ),
    (
        "boundary",
        'boundary = { x = "walls", y = "sheared", shear_rate = 0.1 }',
        "table.boundary.x",
    ),
    (
        "boundary",
        'boundary = { x = "periodic", y = "walls", shear_rate = 0.1 }',
        "table.boundary.shear_rate",
    ),
    (
        "boundary",
        'boundary = { x = "periodic", y = "sheared", shear_rate = nan }',
        "table.boundary.shear_rate",
    ),
    (
        "boundary",
        'boundary = { x = "periodic", y = "sheared" }',
        "table.boundary.shear_rate",
    ),
    (
        "boundary",
        'boundary = { x = "periodic", y = "sheared", shear_rate = 0.1, shift = 100.0 }',
        "table.boundary.shift",
    ),
]


@pytest.mark.parametrize("key,line,field", FILE_CASES)
def test_scenario_file_errors_equal_the_cli_line(carom_bin, tmp_path, key, line, field):
    text = with_line(key, line)
    if key == "width":
        # Keep the balls inside the narrower table: the side is the only fault.
        text = text.replace("x = 60.0", "x = 30.0").replace("x = 20.0", "x = 10.0")
    path = tmp_path / "bad.toml"
    path.write_text(text)
    expected = cli_line(carom_bin, "run", str(path), "--steps", "1")
    assert field in expected
    assert raised(carom.World.load, str(path)) == expected
    assert raised(carom.World.load, path) == expected
    # From text, the origin is <toml>; the line and message are the file's.
    assert raised(carom.World.from_toml, text) == expected.replace(
        str(path), "<toml>", 1
    )


OVERRIDE_CASES = [
    ("table.boundary", "moebius", "table.boundary"),
    ("table.boundary", '["walls"]', "table.boundary"),
    (
        "table.boundary",
        '{ x = "periodic", y = "sheared", shear_rate = inf }',
        "table.boundary.shear_rate",
    ),
    ("physics.contact_friction.mu", "-1", "physics.contact_friction.mu"),
    (
        "physics.contact_friction.tangential_restitution",
        "2",
        "physics.contact_friction.tangential_restitution",
    ),
    ("physics.contact_friction.spin", "1", "spin"),
    ("physics.event_budget", "-5", "physics.event_budget"),
    ("physics.event_budget", "0", "physics.event_budget"),
    ("physics.event_budget", "inf", "physics.event_budget"),
    ("physics.event_budget", "lots", "physics.event_budget"),
    ("balls.0.inertia", "0", "balls[0].inertia"),
    ("balls.1.inertia", "-1", "balls[1].inertia"),
    ("balls.0.omega", "nan", "balls[0].omega"),
    ("balls.0.omega", "inf", "balls[0].omega"),
    ("balls.0.ix", "1.5", "balls[0].ix"),
    ("balls.0.iy", "1e300", "balls[0].iy"),
]


@pytest.mark.parametrize("key,value,field", OVERRIDE_CASES)
def test_override_errors_equal_the_cli_line(carom_bin, tmp_path, key, value, field):
    path = tmp_path / "s.toml"
    path.write_text(BASE)
    expected = cli_line(
        carom_bin, "run", str(path), "--steps", "1", "--set", f"{key}={value}"
    )
    assert expected.startswith(f"--set {key}={value}") and field in expected
    assert raised(carom.World.load, str(path), overrides={key: value}) == expected


def test_override_values_of_python_types_name_the_field(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(BASE)
    for key, value, field in [
        ("balls.0.omega", float("nan"), "balls[0].omega"),
        ("balls.0.inertia", 0.0, "balls[0].inertia"),
        ("balls.0.ix", 1.5, "balls[0].ix"),
        ("balls.0.ix", 2**60, "balls[0].ix"),
        ("physics.contact_friction.mu", -0.5, "physics.contact_friction.mu"),
        ("physics.event_budget", float("nan"), "physics.event_budget"),
        ("physics.event_budget", -1, "physics.event_budget"),
        ("physics.event_budget", "lots", "physics.event_budget"),
        ("table.boundary", ["periodic"], "table.boundary"),
    ]:
        line = raised(carom.World.load, str(path), overrides={key: value})
        assert line.startswith(f"--set {key}=") and field in line, line


def test_dict_sources_name_the_same_fields():
    doc = {
        "table": {"width": 100.0, "height": 80.0, "boundary": "periodic"},
        "physics": {"model": "spring", "contact_friction": {"mu": 0.3}},
        "balls": [{"x": 20.0, "y": 40.0, "r": 5.0}, {"x": 60.0, "y": 40.0, "r": 5.0}],
    }
    carom.World.load(doc)  # the unspoilt document loads
    for edit, field in [
        (lambda d: d["table"].update(boundary="moebius"), "table.boundary"),
        (lambda d: d["table"].update(width=39.0), "table.width"),
        (
            lambda d: d["physics"]["contact_friction"].update(mu=-1.0),
            "contact_friction.mu",
        ),
        (lambda d: d["physics"]["contact_friction"].update(spin=1.0), "spin"),
        (lambda d: d["balls"][0].update(inertia=-1.0), "balls[0].inertia"),
        (lambda d: d["balls"][0].update(omega=float("inf")), "balls[0].omega"),
        (lambda d: d["balls"][0].update(ix=1.5), "balls[0].ix"),
        (lambda d: d["balls"][0].update(iy=1e300), "balls[0].iy"),
    ]:
        d = json.loads(json.dumps(doc))
        if field == "table.width":
            d["balls"][1]["x"] = 30.0
        edit(d)
        line = raised(carom.World.load, d)
        assert line.startswith("dict") and field in line, line


def test_state_file_image_counts_must_be_whole_numbers(carom_bin, tmp_path):
    scene = tmp_path / "s.toml"
    scene.write_text(BASE)
    w = carom.World.load(str(scene))
    w.run(steps=400)
    good = w.state()
    assert "ix" in good["balls"][0]
    for key, value in [("ix", 1.5), ("iy", 1e300), ("ix", -0.5), ("iy", 2**53 + 1)]:
        doc = json.loads(json.dumps(good))
        doc["balls"][1][key] = value
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(doc, indent=2))
        expected = cli_line(carom_bin, "run", str(path), "--steps", "1")
        assert f"balls[1].{key}" in expected
        assert raised(carom.World.load, str(path)) == expected


def test_steps_beyond_any_run_are_refused(carom_bin):
    # The command line says --steps, the package names its own argument; the rest of
    # the line is the same.
    for n in [10**15 + 1, 2**64 - 1]:
        expected = cli_line(carom_bin, "run", "break", "--steps", str(n))
        w = carom.World.load("break")
        assert raised(w.run, steps=n) == expected.replace("--steps", "steps", 1)
        assert raised(w.step, n) == expected.replace("--steps", "n", 1)
        assert raised(carom.compare, "break", ["impulse"], steps=n) == expected.replace(
            "--steps", "steps", 1
        )
        assert w.steps == 0, "nothing ran"
    w = carom.World.load("break")
    for bad, message in [
        (2**64, "more steps than any run can take"),
        (-1, "must not be negative"),
        (1.5, "not a whole number"),
        ("3", "not a whole number"),
    ]:
        assert message in raised(w.run, steps=bad)
        assert message in raised(w.step, bad)
    # Whole numbers of any integer type still run.
    w.step(np.int64(2))
    w.run(steps=np.uint32(3))
    assert w.steps == 5


def test_an_overlapping_event_start_equals_the_cli_line(carom_bin, tmp_path):
    path = tmp_path / "o.toml"
    # Ball 1 moved to 8 from ball 0's centre: radii 5 + 5, an overlap of 2.
    path.write_text(
        BASE.replace('model = "spring"', 'model = "event"').replace(
            "x = 60.0", "x = 28.0"
        )
    )
    expected = cli_line(carom_bin, "run", str(path), "--steps", "3")
    assert "physics.model" in expected and "overlap by 2.000e0" in expected
    # Refused when the world is built, as the command line refuses it before running.
    assert raised(carom.World.load, str(path)) == expected
    # Chosen as the model argument, it is named as --model is on the command line.
    spring = tmp_path / "o2.toml"
    spring.write_text(BASE.replace("x = 60.0", "x = 28.0"))
    expected = cli_line(
        carom_bin, "run", str(spring), "--steps", "3", "--model", "event"
    )
    assert expected.startswith("--model event: physics.model")
    assert raised(carom.World.load, str(spring), model="event") == expected


def test_an_unknown_picture_extension_names_the_path(carom_bin, tmp_path):
    # The package has no trajectory files; its file output by extension is render().
    w = carom.World.load("break")
    line = raised(w.render, str(tmp_path / "r.txt"))
    assert "r.txt" in line and "unknown picture format" in line
    assert not (tmp_path / "r.txt").exists()
