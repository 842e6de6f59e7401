"""The dungeon grid: placed rooms, their connectors, exploration (Q-EXPLORE) and the board
encoding the native core works on (docs/core.md)."""
from __future__ import annotations

from operator import is_

from mq import core
from mq.rules.character import move_total
from mq.rules.state import DX, DY, Room, State
from mq.rules.tx import Tx

CORRIDOR, DOOR, LOCKED, SECRET, WALL = 0, 1, 2, 3, 4
MOVE_COST = (1, 1, 2, 3, -1)  # Q-COMP-3
KIND_NAMES = ("corridor", "door", "locked door", "secret door", "wall")


def encode(rooms, cards) -> tuple:
    """(xs, ys, sides, arrows) for mq.core (docs/core.md)."""
    xs = tuple(r.x for r in rooms)
    ys = tuple(r.y for r in rooms)
    sides = tuple(k for r in rooms for k in r.sides)
    arrows = tuple(a for r in rooms for a in cards.face(r.face).arrows)
    return xs, ys, sides, arrows


def room_at(rooms, x: int, y: int) -> int:
    for i, r in enumerate(rooms):
        if r.x == x and r.y == y:
            return i
    return -1


def beyond(rooms, index: int, d: int) -> tuple[int, int, int]:
    """(x, y, room index or -1) of the cell across side ``d`` of room ``index``."""
    r = rooms[index]
    x, y = r.x + DX[d], r.y + DY[d]
    return x, y, room_at(rooms, x, y)


def is_complete(state_or_tx) -> bool:
    """Q-EXPLORE-6: all room tiles are placed."""
    return not state_or_tx.room_deck.draw


def encoded(obj, cards) -> tuple:
    """The board of a State (cached on it: states are immutable) or of a Tx (its working rooms:
    while they are still the very rooms of the state it started from, that state's board)."""
    if isinstance(obj, State):
        cached = obj.__dict__.get("_board")
        if cached is None or cached[0] is not obj.rooms:
            cached = (obj.rooms, encode(obj.rooms, cards))
            object.__setattr__(obj, "_board", cached)
        return cached[1]
    rooms, base = obj.rooms, obj.base.rooms
    if len(rooms) == len(base) and all(map(is_, rooms, base)):
        return encoded(obj.base, cards)
    return encode(rooms, cards)


def neighbours(obj, cards, index: int) -> tuple[tuple[int, int], ...]:
    """Explored rooms adjacent through a non-wall connector (Q-HELP-1, Q-RUN-1); ``obj`` is a State
    or a Tx."""
    return core.neighbours(encoded(obj, cards), index)


def place_room(tx: Tx, x: int, y: int, entered_from: int, side_kind: int) -> int:
    """Q-EXPLORE-1, 2: draw a random tile and face, place it at (x, y); every side without a
    connector gets a freshly drawn one showing a random face (a wall once the supply is empty).
    Returns the new room's index."""
    tile_id = tx.room_deck.draw[0]
    tx.room_deck = tx.room_deck.replace(draw=tx.room_deck.draw[1:])
    tile = next(t for t in tx.cards.rooms if t.id == tile_id)
    face = tile.faces[tx.below(2)]
    sides = []
    for d in range(4):
        if d == (entered_from + 2) % 4:
            sides.append(side_kind)
            continue
        j = room_at(tx.rooms, x + DX[d], y + DY[d])
        if j >= 0:
            sides.append(tx.rooms[j].sides[(d + 2) % 4])
        else:
            sides.append(draw_connector(tx))
    n, e, s, w = sides
    tx.rooms.append(Room(face=face.id, x=x, y=y, sides=(n, e, s, w)))
    return len(tx.rooms) - 1


def draw_connector(tx: Tx) -> int:
    """A random connector showing a random face; a wall when none is left (our rule, Q-EXPLORE-2)."""
    deck = tx.connector_deck
    if not deck.draw:
        return WALL
    cid = deck.draw[0]
    tx.connector_deck = deck.replace(draw=deck.draw[1:])
    back = next(c.back for c in tx.cards.connectors if c.id == cid)
    return CORRIDOR if tx.below(2) == 0 else back


def set_side(tx: Tx, index: int, d: int, kind: int) -> None:
    """Change one connector, on both rooms that share it."""
    r = tx.rooms[index]
    sides = list(r.sides)
    sides[d] = kind
    tx.set_room(index, sides=tuple(sides))
    _, _, j = beyond(tx.rooms, index, d)
    if j >= 0:
        o = list(tx.rooms[j].sides)
        o[(d + 2) % 4] = kind
        tx.set_room(j, sides=tuple(o))


def reachable(state: State, cards, seat: int) -> tuple[tuple[int, int], ...]:
    """Rooms the active munchkin can still reach this turn and their cost (for bots and the UI)."""
    p = state.players[seat]
    left = max(0, move_total(p, cards) - state.current_turn.spent)
    return core.reachable(encoded(state, cards), p.room, left, not state.current_turn.dashed)
