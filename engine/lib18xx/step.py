"""The base of the 18xx library's steps: a kernel :class:`~ferrovia.kernel.step.Step` whose game
and state are the library's (:class:`~ferrovia.lib18xx.game.Game18xx`,
:class:`~ferrovia.lib18xx.state.State18xx`), so a step reads ``self.state.corporations`` and
``self.game.cert_limit`` typed.  The step protocol is the kernel's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ferrovia.kernel.step import Step

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx
    from ferrovia.lib18xx.state import State18xx


class Step18xx(Step):
    """A step of an 18xx round (subclasses set ``NAME``, ``actions`` and ``process_<type>``)."""

    game: Game18xx
    state: State18xx
