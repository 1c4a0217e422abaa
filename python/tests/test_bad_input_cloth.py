"""Bad values of the cloth keys: the Python package raises ``carom.ScenarioError`` with
the very line the command line prints for the same file or override (exit status 2).
The command line's own side (nothing written, one line) is tested in
``crates/carom-cli/tests/refused/bad_input_cloth.rs``; the cases here mirror those."""

from __future__ import annotations

import subprocess

import carom
import pytest

BASE = """name = "cloth"
duration = 0.1

[table]
width = 2.54
height = 1.27

[physics]
model = "impulse"
dt = 0.001
friction = { kind = "cloth", sliding_mu = 0.2, rolling_mu = 0.01, spinning_mu = 0.0127, g_normal = 9.81 }

[[balls]]
x = 0.5
y = 0.635
r = 0.028575
m = 0.17
cue = { speed = 2.0, aim = 10.0, english = 0.2, follow = 0.1, elevation = 5.0 }

[[balls]]
x = 1.5
y = 0.635
r = 0.028575
m = 0.17
wx = 1.0
wy = -2.0

[[walls]]
kind = "segment"
points = [[2.2, 0.2], [2.2, 1.0]]
cushion_height = 0.036
"""  # noqa: E501


def with_line(key: str, line: str) -> str:
    lines = BASE.splitlines()
    at = next(i for i, text in enumerate(lines) if text.startswith(f"{key} ="))
    lines[at] = line
    return "\n".join(lines) + "\n"


def cli_line(carom_bin, *args: str) -> str:
    r = subprocess.run([str(carom_bin), *args], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def raised(f, *args, **kwargs) -> str:
    with pytest.raises(carom.ScenarioError) as e:
        f(*args, **kwargs)
    return str(e.value)


CLOTH = 'friction = { kind = "cloth", '
FILE_CASES = [
    ("friction", CLOTH + "sliding_mu = -0.1 }", "physics.friction.sliding_mu"),
    ("friction", CLOTH + "rolling_mu = nan }", "physics.friction.rolling_mu"),
    ("friction", CLOTH + "spinning_mu = inf }", "physics.friction.spinning_mu"),
    ("friction", CLOTH + "g_normal = -1.0 }", "physics.friction.g_normal"),
    ("friction", CLOTH + "sliding = 0.2 }", "physics.friction"),
    ("friction", "friction = 0.3", "physics.friction"),
    ("wx", "wx = nan", "balls[1].wx"),
    ("wy", "wy = -inf", "balls[1].wy"),
    ("cue", "cue = { speed = nan, aim = 0.0 }", "balls[0].cue.speed"),
    ("cue", "cue = { speed = -2.0, aim = 0.0 }", "balls[0].cue.speed"),
    ("cue", "cue = { speed = 1.7976931348623157e308, aim = 0.0 }", "cue.speed"),
    ("cue", "cue = { speed = 2.0, aim = inf }", "balls[0].cue.aim"),
    (
        "cue",
        "cue = { speed = 2.0, aim = 0.0, english = 0.7, follow = 0.7 }",
        "balls[0].cue.english",
    ),
    ("cue", "cue = { speed = 2.0, aim = 0.0, elevation = 90.0 }", "elevation"),
    ("cue", "cue = { speed = 2.0, aim = 0.0, spin = 1.0 }", "balls[0].cue.spin"),
    ("cue", "cue = { aim = 0.0 }", "balls[0].cue"),
    ("cue", "cue = 2.0", "balls[0].cue"),
    ("cue", "cue = { speed = 2.0, aim = 0.0 }\nvx = 1.0", "balls[0].cue"),
    ("cue", "cue = { speed = 2.0, aim = 0.0 }\nkinematic = true", "balls[0].cue"),
    ("cushion_height", "cushion_height = 0.0", "walls[0].cushion_height"),
    ("cushion_height", "cushion_height = nan", "walls[0].cushion_height"),
    ("cushion_height", "cushion_height = 0.05715", "walls[0].cushion_height"),
]


def test_the_base_scene_loads():
    carom.World.from_toml(BASE)


@pytest.mark.parametrize("key,line,field", FILE_CASES)
def test_cloth_file_errors_equal_the_cli_line(carom_bin, tmp_path, key, line, field):
    text = with_line(key, line)
    path = tmp_path / "bad.toml"
    path.write_text(text)
    expected = cli_line(carom_bin, "run", str(path), "--steps", "1")
    assert field in expected
    assert raised(carom.World.load, str(path)) == expected
    assert raised(carom.World.from_toml, text) == expected.replace(
        str(path), "<toml>", 1
    )


@pytest.mark.parametrize(
    "key,value",
    [
        ("physics.friction.sliding_mu", "-1"),
        ("balls.1.wx", "inf"),
        ("balls.0.cue.english", "0.95"),
        ("balls.0.cue.elevation", "90"),
        ("balls.0.cue.twist", "1"),
        ("balls.0.vx", "1"),
        ("walls.0.cushion_height", "0"),
        ("balls.1.r", "0.01"),
    ],
)
def test_cloth_override_errors_equal_the_cli_line(carom_bin, tmp_path, key, value):
    path = tmp_path / "s.toml"
    path.write_text(BASE)
    expected = cli_line(
        carom_bin, "run", str(path), "--steps", "1", "--set", f"{key}={value}"
    )
    assert raised(carom.World.load, str(path), overrides={key: value}) == expected
