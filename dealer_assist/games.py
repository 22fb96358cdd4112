"""The games of the house, in one list: a game is found here by its name, and only here.

``settle``, ``run``, ``desk``, ``review`` and the drills all ask :func:`find_game` (as python-chess
asks ``find_variant``); none of them keeps its own list or an ``if game == ...``. A :class:`Game`
names what a game is made of:

===============  ===============================================================================
field            what it is
===============  ===============================================================================
``name``         the name on the command line and in every file (``stud7``)
``title``        the game's name for people (a catalogue message)
``rules``        the rules engine's object for the game (its ``settle`` rules on one table)
``settles``      whether ``dealer-assist settle`` rules on it (Daifugo has its own command)
``flow``         the live table's hooks for the game, as ``module:Class`` (imported when a live
                 table is opened), or None where the camera does not follow the game yet
``clip``         the bundled sample clip, ``(folder under sample_frames/, video file)``, that
                 ``run`` and ``desk`` play when no ``--source`` is given
``betting``      the game's usual betting (:class:`~dealer_assist.rules.betting.GameBetting`: the
                 structure, its streets and forced bets), which ``dealer-assist bet`` takes for
                 what an input with ``"game"`` leaves out; None for a game without chip betting,
                 ``no_betting`` then says why
``drilled``      how a showdown of the game from the hand log is drilled (:class:`Drilled`: the
                 trainer's topic and what it wins over); None where the log makes no drills
``phh``          the house rules a PHH hand history of the game says it was played by (``review
                 --export-phh``, variant NT); None where PHH cannot hold the game's hands
===============  ===============================================================================

Adding a game touches its rules module, its live hooks module (if the camera follows it and its
flow differs from an existing one: hold'em hi/lo plays hold'em's flow) and one entry in
:data:`GAMES`.

>>> find_game("stud7").title.render("en"), find_game("stud7").live
('Seven-card stud (stud7)', True)
>>> [g.name for g in GAMES if g.settles][:3]
['holdem', 'joker-holdem', 'half-texas']
>>> find_game("stud7").betting.structure, find_game("stud7").betting.forced
('fixed-limit', ('ante', 'bring_in'))
>>> find_game("go-fish")
Traceback (most recent call last):
...
dealer_assist.games.UnknownGame: unknown game 'go-fish'; the games are holdem, joker-holdem, half-texas, stud7, holdem-hilo, lowball-a5, lowball-27, daifugo

Must not import the live table, the desk, Qt or OpenCV (a live flow is imported by name, when
asked for).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Optional

from dealer_assist.errors import UserError
from dealer_assist.i18n import Msg, _, typed
from dealer_assist.rules.betting import DRAW_STREETS, HOLDEM_STREETS, STUD_STREETS, GameBetting
from dealer_assist.rules.daifugo import CASINO_QUEST
from dealer_assist.rules.half_texas import HalfTexas
from dealer_assist.rules.hilo import HoldemHiLo
from dealer_assist.rules.holdem import JokerHoldem
from dealer_assist.rules.lowball import Lowball27, LowballA5
from dealer_assist.rules.stud import Stud7
from dealer_assist.rules.wild import WildHoldem

__all__ = ["Drilled", "Game", "GAMES", "UnknownGame", "find_game", "game_names", "live_games"]


class UnknownGame(UserError, ValueError):
    """A game name that is not in :data:`GAMES`; says which names are."""


@dataclass(frozen=True)
class Drilled:
    """How a showdown of a game from the hand log becomes a drill (:mod:`dealer_assist.trainer.fromlog`):
    ``topic`` is the trainer's topic for it (:data:`dealer_assist.trainer.drills.TOPICS`). A hand
    whose chips were not entered is drilled on the showing order, and one with side pots or odd
    chips on those, unless the game's topic comes first: ``before_pots`` (hi/lo: its pots come in
    halves) or ``always`` (stud and Half Texas: their own questions whatever the table)."""

    topic: str
    before_pots: bool = False
    always: bool = False


@dataclass(frozen=True)
class Game:
    name: str
    title: Msg
    rules: Any
    settles: bool = True
    flow: Optional[str] = None
    clip: Optional[tuple[str, str]] = None
    betting: Optional[GameBetting] = None
    no_betting: Optional[Msg] = None
    drilled: Optional[Drilled] = None
    phh: Optional[str] = None

    def betting_defaults(self, obj: Any) -> dict:
        """A ``dealer-assist bet`` input with this game's usual betting for what it leaves out;
        a game without chip betting is a :class:`UserError` that says why."""
        if self.betting is None:
            raise UserError(_("game: {game} has no betting round: {why}", game=self.name,
                              why=self.no_betting or _("it is not played for chips")))
        return self.betting.fill(obj, self.name)

    @property
    def live(self) -> bool:
        """Whether the camera follows this game (``run`` and ``desk`` take it)."""
        return self.flow is not None

    def live_flow(self):
        """A fresh object of the game's live hooks (see :mod:`dealer_assist.live.handflow`)."""
        if self.flow is None:
            raise UserError(_("the live table does not follow {game} yet; the live games are {games}",
                              game=self.name, games=", ".join(g.name for g in live_games())))
        module, cls = self.flow.split(":")
        return getattr(importlib.import_module(module), cls)()


#: The usual betting of the games (docs/betting.md, "Games"): the structure and the forced bets.
#: Seed 000 plays Joker NLH no-limit; seeds 003 and 004 name no structure for stud, hi/lo and
#: lowball, which take the fixed limit those games are usually dealt at.
NO_LIMIT_HOLDEM = GameBetting("no-limit", HOLDEM_STREETS, ("blinds",))
LIMIT_HOLDEM = GameBetting("fixed-limit", HOLDEM_STREETS, ("blinds",))
LIMIT_STUD = GameBetting("fixed-limit", STUD_STREETS, ("ante", "bring_in"), owner_opens=True)
LIMIT_DRAW = GameBetting("fixed-limit", DRAW_STREETS, ("blinds",))

#: Every game of the house rules, in the order the commands list them.
GAMES: tuple[Game, ...] = (
    Game("holdem", _("Texas hold'em (holdem)"), WildHoldem(),
         flow="dealer_assist.live.handflow:HoldemFlow", clip=("clips/holdem", "holdem.mp4"),
         betting=NO_LIMIT_HOLDEM, drilled=Drilled("showdown-holdem"), phh="Texas hold'em"),
    Game("joker-holdem", _("Joker NLH (joker-holdem)"), JokerHoldem(),
         flow="dealer_assist.live.handflow:JokerHoldemFlow", clip=("clip", "joker-nlh.mp4"),
         betting=NO_LIMIT_HOLDEM, drilled=Drilled("showdown-joker"),
         phh="Joker NLH: one joker; its holder plays both hole cards and three board cards, the joker standing "
             "for the best card that is neither a board card nor the holder's other card, and loses ties; a joker "
             "turned on the board is burned and swapped (docs/rules.md)"),
    Game("half-texas", _("Half Texas hold'em (half-texas)"), HalfTexas(),
         flow="dealer_assist.live.half_texas:HalfTexasFlow", clip=("clips/half-texas", "half-texas.mp4"),
         no_betting=_("it is played for points, not chips: each raise multiplies the game's points (seed 001)"),
         drilled=Drilled("half-texas", always=True)),
    Game("stud7", _("Seven-card stud (stud7)"), Stud7(),
         flow="dealer_assist.live.stud:StudFlow", clip=("clips/stud7", "stud7.mp4"),
         betting=LIMIT_STUD, drilled=Drilled("stud", always=True)),
    Game("holdem-hilo", _("Hold'em hi/lo (holdem-hilo)"), HoldemHiLo(),
         flow="dealer_assist.live.handflow:HoldemFlow", clip=("clips/holdem", "holdem.mp4"),
         betting=LIMIT_HOLDEM, drilled=Drilled("hilo", before_pots=True)),
    Game("lowball-a5", _("Lowball A-5 (lowball-a5)"), LowballA5(),
         flow="dealer_assist.live.lowball:LowballFlow", clip=("clips/lowball", "lowball.mp4"),
         betting=LIMIT_DRAW, drilled=Drilled("showdown-holdem")),
    Game("lowball-27", _("Lowball 2-7 (lowball-27)"), Lowball27(),
         flow="dealer_assist.live.lowball:LowballFlow", clip=("clips/lowball", "lowball.mp4"),
         betting=LIMIT_DRAW, drilled=Drilled("showdown-holdem")),
    Game("daifugo", _("Daifugo (daifugo)"), CASINO_QUEST, settles=False,
         flow="dealer_assist.live.daifugo:DaifugoFlow", clip=("clips/daifugo", "daifugo.mp4"),
         no_betting=_("its money is the ante and the payment per card left (dealer-assist daifugo payout)")),
)

_BY_NAME = {g.name: g for g in GAMES}


def game_names(live: bool = False) -> tuple[str, ...]:
    """The games' names (``live``: only those the camera follows)."""
    return tuple(g.name for g in GAMES if g.live or not live)


def live_games() -> tuple[Game, ...]:
    return tuple(g for g in GAMES if g.live)


def find_game(name: Any) -> Game:
    """The game called ``name``; :class:`UnknownGame` names the games there are."""
    game = _BY_NAME.get(name) if isinstance(name, str) else None
    if game is None:
        raise UnknownGame(_("unknown game {game}; the games are {games}", game=typed(name),
                            games=", ".join(_BY_NAME)))
    return game
