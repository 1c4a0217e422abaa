"""Animations of a world, inline in Jupyter or saved to a file."""

from __future__ import annotations

import base64
import os

from ._carom import World


class Animation:
    """An animated GIF of a run. Jupyter shows it inline; :meth:`save` writes it.

    Attributes:
        data: the GIF file's bytes.
    """

    def __init__(self, data: bytes) -> None:
        self.data = data

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the GIF to ``path``."""
        with open(path, "wb") as f:
            f.write(self.data)

    def _repr_html_(self) -> str:
        # An <img> with the GIF inline: plays in any notebook front end, no
        # JavaScript or widget extension needed.
        b64 = base64.b64encode(self.data).decode("ascii")
        return f'<img src="data:image/gif;base64,{b64}" alt="carom animation"/>'

    def __repr__(self) -> str:
        return f"<carom.Animation: GIF of {len(self.data)} bytes>"


def animate(
    world: World, time: float, size: tuple[int, int] | None = None
) -> Animation:
    """Runs ``world`` on for ``time`` and returns the run as an animation.

    The world advances, as with :meth:`World.run`; pickle or reload it first to keep
    the starting state. In Jupyter the returned :class:`Animation` plays inline.
    ``size`` is the picture's largest (width, height) in pixels.
    """
    return Animation(world._picture("gif", time=time, size=size))
