"""Exploring (Q-EXPLORE): placing rooms and connectors, the explorer's DxM, room rules on entry,
the monster in every new room, and the complete dungeon."""
from __future__ import annotations

from builders import (
    CARDS,
    CORRIDOR,
    DOOR,
    LOCKED,
    WALL,
    E,
    N,
    W,
    act,
    add_monster,
    add_room,
    coin,
    colour,
    dxm_card,
    fresh_turn,
    kinds_of,
    legal,
    legal_kinds,
    line,
    monster_card,
    quiet,
    refused,
    rig,
    set_player,
    stack,
)

from mq.rules import Action
from mq.rules.state import Deck

LURKER = monster_card(lambda d: d.movement == "lurking" and d.level == 1)


def _tile(pred):
    """(tile id, face index) of the first face matching ``pred``."""
    for t in CARDS.rooms:
        for i, f in enumerate(t.faces):
            if pred(f):
                return t.id, i
    raise AssertionError("no such face")


def _explore_east(s, *spec):
    """The active player explores east of the Entrance with rigged draws."""
    a = s.turn.seat
    s = stack(s, "monster", [LURKER])
    s = rig(s, *spec)
    return act(s, a, "move", E)


def test_a_random_tile_and_face_is_placed_beyond_the_connector():
    """Q-EXPLORE-1: the top room tile, the face the coin shows, in the cell beyond (absolute
    directions)."""
    s = quiet(2)
    a = s.turn.seat
    top = s.room_deck.draw[0]
    tile = next(t for t in CARDS.rooms if t.id == top)
    s2, ev = _explore_east(s, coin(1))
    r = s2.rooms[1]
    assert (r.x, r.y, r.face) == (1, 0, tile.faces[1].id)
    assert s2.room_deck.draw == s.room_deck.draw[1:]
    assert ("explore", a, 1, tile.faces[1].id, 1, 0) in ev
    s3, _ = act(rig(s, coin(0)), a, "move", W)
    assert (s3.rooms[1].x, s3.rooms[1].y, s3.rooms[1].face) == (-1, 0, tile.faces[0].id)
    s4, _ = act(s, a, "move", N)
    assert (s4.rooms[1].x, s4.rooms[1].y) == (0, -1)


def test_new_sides_get_fresh_random_connectors():
    """Q-EXPLORE-2: the side entered keeps the connector crossed; every other side draws a
    connector showing a random face (corridor or its back)."""
    s = quiet(2)
    c1, c2, c3 = s.connector_deck.draw[:3]
    backs = {c.id: c.back for c in CARDS.connectors}
    s2, _ = _explore_east(s, None, coin(0), coin(1), coin(1))
    assert s2.rooms[1].sides == (CORRIDOR, backs[c2], backs[c3], CORRIDOR)
    assert s2.connector_deck.draw == s.connector_deck.draw[3:]
    assert c1 not in s2.connector_deck.draw


def test_a_side_facing_a_placed_room_takes_that_rooms_connector():
    """Q-EXPLORE-2: only sides without a connector get a new one."""
    s = quiet(2)
    s = add_room(s, 1, -1, (WALL, WALL, LOCKED, WALL))  # north of the cell to explore
    s2, _ = _explore_east(s, None, coin(1), coin(1))
    new = s2.rooms[-1]
    assert (new.x, new.y) == (1, 0) and new.sides[N] == LOCKED and new.sides[W] == CORRIDOR
    assert len(s2.connector_deck.draw) == len(s.connector_deck.draw) - 2


def test_no_connectors_left_means_walls():
    """Q-EXPLORE-2 (our rule): with the connector supply empty every new side is a wall."""
    s = quiet(2).replace(connector_deck=Deck(()))
    s2, _ = _explore_east(s)
    assert s2.rooms[1].sides == (WALL, WALL, WALL, CORRIDOR)


def test_the_explorer_draws_a_dxm():
    """Q-EXPLORE-3: the explorer draws the top DxM card into their hand."""
    s = quiet(2)
    a = s.turn.seat
    top = s.dxm_deck.draw[0]
    s2, ev = _explore_east(s, None, None, None, None, colour(5))
    assert s2.players[a].hand == (top,)
    assert ("draw", a, "dxm", top, False) in ev
    assert ev.index(("draw", a, "dxm", top, False)) < [e.kind for e in ev].index("monster_appears")


def test_a_room_that_hurts_on_entry_applies_its_rule():
    """Q-EXPLORE-4: the new room's own rule applies to the explorer (here: one hit on entry)."""
    tile, i = _tile(lambda f: any(e.name == "hurt_on_enter" and str(e.get("who")) == "any" for e in f.effects))
    s = quiet(2)
    a = s.turn.seat
    s = s.replace(room_deck=Deck((tile,) + tuple(t for t in s.room_deck.draw if t != tile)))
    s2, ev = _explore_east(s, coin(i))
    assert ("room_hurts", a, 1) in ev and s2.players[a].hp == 3
    assert ev.index(("room_hurts", a, 1)) < [e.kind for e in ev].index("monster_appears")


def test_a_room_that_kills_the_explorer_still_gets_its_monster():
    """Q-EXPLORE-5 with Q-DEATH-1: an unexplored room always holds a monster, even when its rule
    killed the explorer on entry; then the turn goes straight to the monster turn."""
    tile, i = _tile(lambda f: any(e.name == "hurt_on_enter" and str(e.get("who")) == "any" for e in f.effects))
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, hp=1)
    s = s.replace(room_deck=Deck((tile,) + tuple(t for t in s.room_deck.draw if t != tile)))
    s2, ev = _explore_east(s, coin(i), None, None, None, colour(1 - a))
    names = [e.kind for e in ev]
    assert names.index("death") < names.index("monster_appears") < names.index("monster_turn")
    assert [m.room for m in s2.monsters] == [1] and not s2.players[a].alive
    assert s2.turn.seat != a and s2.combat is None


def test_a_healing_room_heals_the_explorer():
    """Q-EXPLORE-4: a heal-on-entry room heals, never above max HP."""
    tile, i = _tile(lambda f: any(e.name == "heal_on_enter" for e in f.effects))
    amount = [e for e in CARDS.face(f"{tile}{'ab'[i]}").effects if e.name == "heal_on_enter"][0].get("amount")
    s = quiet(2)
    a = s.turn.seat
    s = set_player(s, a, hp=1)
    s = s.replace(room_deck=Deck((tile,) + tuple(t for t in s.room_deck.draw if t != tile)))
    s2, ev = _explore_east(s, coin(i))
    assert s2.players[a].hp == min(4, 1 + amount) and ("heal", a, min(3, amount)) in ev


def test_an_unexplored_room_always_holds_a_monster_and_the_fight_starts():
    """Q-EXPLORE-5: the top Monster card appears with a rolled base colour (Q-MON-1: its player
    draws a DxM) and combat starts."""
    s = quiet(2)
    a = s.turn.seat
    other = 1 - a
    s2, ev = _explore_east(s, None, None, None, None, colour(other))
    (m,) = s2.monsters
    assert (m.card, m.room, m.colour, m.boss) == (LURKER, 1, other, False)
    assert ("monster_appears", m.uid, LURKER, 1, other, False) in ev
    assert kinds_of(ev, "draw")[1][:3] == ("draw", other, "dxm")
    assert ev[-1] == ("combat_starts", a, 1, (m.uid,))
    assert s2.combat.fighter == a and s2.combat.monsters == (m.uid,)
    assert LURKER not in s2.monster_deck.draw
    assert len(s2.monster_deck.draw) == len(s.monster_deck.draw) - 1


def test_a_complete_dungeon_has_walls_at_its_edge_for_munchkins():
    """Q-EXPLORE-6: once every tile is placed, a connector into darkness is a wall for munchkins."""
    s = quiet(2).replace(room_deck=Deck(()))
    a = s.turn.seat
    s, (r1,) = line(s, 1)
    s = add_room(s, 0, 1, (CORRIDOR, WALL, WALL, DOOR))  # a door facing darkness on the west
    s = set_player(s, a, room=len(s.rooms) - 1)
    assert {x.args[0] for x in legal(s, a) if x.kind in ("move", "dash")} == {N}
    assert refused(s, a, "move", W) == "move/dungeon-complete"
    assert refused(s, a, "dash", W) == "move/dungeon-complete"


def test_summoning_in_a_complete_dungeon():
    """Q-EXPLORE-7: entering a monster-free room of a complete dungeon, the player may draw a
    Monster card and fight it, for no move."""
    s = quiet(2).replace(room_deck=Deck(()))
    a = s.turn.seat
    s, (r1, r2) = line(s, 2)
    s = stack(s, "monster", [LURKER])
    assert "summon" not in legal_kinds(s, a)  # not in the Entrance
    s, _ = act(s, a, "move", E)
    assert Action(a, "summon") in legal(s, a)
    s = rig(s, colour(a))
    s, ev = act(s, a, "summon")
    assert s.turn.spent == 1 and s.combat is not None and s.combat.fighter == a
    assert kinds_of(ev, "monster_appears")[0][2:4] == (LURKER, r1)
    assert s.turn.summon_room == -1


def test_no_summoning_while_the_dungeon_is_incomplete_or_the_room_is_occupied():
    """Q-EXPLORE-7: only once the dungeon is complete, only in a monster-free room, once per entry."""
    s = quiet(2)
    a = s.turn.seat
    s, (r1, r2) = line(s, 2)
    s1, _ = act(s, a, "move", E)
    assert "summon" not in legal_kinds(s1, a)  # incomplete
    done = s.replace(room_deck=Deck(()))
    ignorer = monster_card(lambda d: "halfling" in d.ignores)
    halfling = dxm_card(lambda d: d.key == "halfling")
    done = set_player(done, a, races=(halfling,))
    done = add_monster(done, ignorer, r1, 1 - a)
    s2, _ = act(done, a, "move", E)
    assert s2.combat is None and "summon" not in legal_kinds(s2, a)  # a monster is there
    s3, _ = act(s2, a, "move", E)
    assert "summon" in legal_kinds(s3, a)
    s4, _ = act(s3, a, "move", W)
    assert "summon" not in legal_kinds(s4, a)


def test_the_entrance_and_its_connectors_never_change():
    """Q-LAW-3: exploring on every side leaves the Entrance at (0,0), room 0, with its four
    corridors; each new room faces it through a corridor."""
    s = quiet(2)
    a = s.turn.seat
    for d in (N, E, 2, W):
        s = set_player(s, a, room=0)
        s = s.replace(combat=None, pending=None)
        s = fresh_turn(s, a)
        s = rig(s, coin(1), coin(1), coin(1), coin(1))  # every drawn connector shows its back
        s, _ = act(s, a, "move", d)
        new = s.rooms[s.players[a].room]
        assert new.sides[(d + 2) % 4] == CORRIDOR
    assert s.rooms[0].x == 0 and s.rooms[0].y == 0 and s.rooms[0].face == "ENTRANCE"
    assert s.rooms[0].sides == (CORRIDOR,) * 4 and len(s.rooms) == 5


def test_a_transaction_uses_its_states_board_until_its_rooms_change():
    """board.encoded on a Tx: while its rooms are the starting state's, that state's cached
    encoding (the same object); once a room is placed, the encoding of the new rooms."""
    from mq.rules import board, make_params, new_game
    from mq.rules.tx import Tx

    s = new_game(make_params(3), 5, CARDS)
    tx = Tx(s, CARDS)
    assert board.encoded(tx, CARDS) is board.encoded(s, CARDS)
    board.place_room(tx, 1, 0, E, CORRIDOR)  # east of the Entrance, the only room so far
    assert len(tx.rooms) == len(s.rooms) + 1
    got = board.encoded(tx, CARDS)
    assert got == board.encode(tx.rooms, CARDS) != board.encoded(s, CARDS)


def test_no_summoning_in_the_room_just_explored():
    """Q-EXPLORE-7: exploring the last tile completes the dungeon, but the room held a monster when
    the explorer entered it (Q-EXPLORE-5): once that fight is won the room is monster-free, yet it
    was not entered monster-free, so no Monster card may be summoned there."""
    from test_rules_combat import resolve
    s = quiet(2)
    a = s.turn.seat
    s = s.replace(room_deck=Deck(s.room_deck.draw[:1]))
    s, ev = _explore_east(s, None, None, None, None, colour(1 - a))
    assert s.room_deck.draw == () and s.combat is not None
    s, ev = resolve(s, 6)
    assert s.combat is None and not s.monsters and s.players[a].room == 1
    assert "summon" not in legal_kinds(s, a)
