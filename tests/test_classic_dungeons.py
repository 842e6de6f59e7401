"""The dungeons and portals pack (CLASSIC.md C-PACK-7): the dungeon deck and one dungeon face-up at
setup, portals kicked open or played from the hand, the portal's choice (join or replace, at most
two active), each dungeon rule on the number it changes (card > dungeon), the loader's checks, the
bot's choice, the narration and the client's words; and bot games that open every portal and
turn up every dungeon with every step keeping the invariants (incl. the dungeon deck's cards)."""
from __future__ import annotations

import pytest
from classic_table import act, playing, set_player

from mq import rules as R
from mq.bots import classic as bot
from mq.cards.classic_loader import load_classic_with_pack
from mq.cards.classic_packs import load_classic_packs
from mq.cards.defs import DataError
from mq.classic import combat as cb
from mq.classic import dungeons as dg
from mq.classic import invariants, legal, query
from mq.classic.state import CItem, PendingKind, Phase
from mq.narrate_classic import ClassicNarrator
from mq.rules.state import Deck
from mq.tui import render
from mq.tui.classic_model import ClassicModel

PACK = ("dungeons",)
CARDS = load_classic_packs(PACK)
PORTALS = tuple(c.id for c in CARDS.door if c.kind == "portal")


def dungeon(name: str) -> str:
    return next(d.id for d in CARDS.dungeon if d.name == name)


def table(players: int = 3, *active: str, seed: int = 5):
    """Seat 0's turn 1 with empty hands, the dungeons pack, and ``active`` the active dungeons
    (moved out of the dungeon deck; the one of setup goes to the discards)."""
    s = playing(players, seed=seed, packs=PACK)
    if active:
        draw = tuple(c for c in s.dungeons.draw if c not in active)
        discard = tuple(c for c in s.dungeons.discard + s.active if c not in active)
        s = s.replace(dungeons=Deck(draw, discard), active=active)
    return s


def give(s, seat: int, *cards: str):
    """Cards of the Door or Treasure deck into ``seat``'s hand (taken from the decks)."""
    for c in cards:
        s = s.replace(door=Deck(tuple(x for x in s.door.draw if x != c), s.door.discard),
                      treasure=Deck(tuple(x for x in s.treasure.draw if x != c), s.treasure.discard))
        s = set_player(s, seat, hand=s.players[seat].hand + (c,))
    return s


def top(s, card: str):
    return s.replace(door=Deck((card,) + tuple(x for x in s.door.draw if x != card), s.door.discard))


def use(s, seat: int, *items: str):
    for c in items:
        s = s.replace(treasure=Deck(tuple(x for x in s.treasure.draw if x != c), s.treasure.discard))
        s = set_player(s, seat, items=s.players[seat].items + (CItem(c, True),))
    return s


def race(s, seat: int, card: str):
    s = s.replace(door=Deck(tuple(x for x in s.door.draw if x != card), s.door.discard))
    return set_player(s, seat, races=(card,))


def fight(s):
    """Every seat answers the combat until it is over: the fighter resolves, the others pass."""
    for _ in range(60):
        if s.combat is None or s.pending is not None or s.phase == Phase.OVER:
            return s
        seat = R.actors(s)[0]
        acts = R.legal_actions(s, seat)
        pick = next((a for a in acts if a.kind in ("roll", "pass")), acts[0])
        s, _ = act(s, seat, pick.kind, *pick.args)
    raise AssertionError("the combat did not end")


# -- data and setup ---------------------------------------------------------------------------

def test_the_pack_has_twenty_dungeons_and_sixteen_portals_of_its_own_C_PACK_7():
    """C-PACK-7: 20 dungeon cards in a deck of their own, 16 portals among the Door cards."""
    base = load_classic_packs(())
    assert len(CARDS.dungeon) == 20 and len(PORTALS) == 16 and not base.dungeon
    assert all(d.id.startswith("CG7") and d.effects for d in CARDS.dungeon)
    assert all(p.startswith("CD7") for p in PORTALS)
    used = {e.name for d in CARDS.dungeon for e in d.effects}
    assert used == {"monsters_stronger", "keyword_stronger", "who_strength", "alone_strength", "helper_strength",
                    "slot_strength", "table_runaway", "hand_limit_change", "kill_levels", "bad_stuff_levels",
                    "sale_gold", "treasure_change"}
    assert len({d.name for d in CARDS.dungeon}) == 20  # every dungeon its own name
    assert load_classic_packs(("all",)).dungeon == CARDS.dungeon


@pytest.mark.parametrize("body, words", [
    ('effects = [{ name = "lose_levels", n = 1 }]', "lose_levels"),
    ('effects = []', "a dungeon must have a rule"),
    ('effects = [{ name = "sale_gold", amount = 150 }]', "not a multiple of 100"),
    ('effects = [{ name = "monsters_stronger", amount = 9 }]', "out of range"),
])
def test_the_loader_refuses_a_dungeon_outside_the_vocabulary_in_words_C_PACK_1(tmp_path, body, words):
    (tmp_path / "dungeon.toml").write_text(f'[[dungeon]]\nid = "CG901"\nname = "Test Hole"\ntext = "t"\n{body}\n')
    with pytest.raises(DataError, match=words):
        load_classic_with_pack(tmp_path)


def test_setup_turns_one_dungeon_face_up_and_packs_off_have_none_C_PACK_7_C_OPT_4():
    s = R.new_game(R.make_params(4, mode="classic", packs=PACK), 3)
    assert len(s.active) == 1 and len(s.dungeons.draw) == 19 and not s.dungeons.discard
    assert invariants.check(s, CARDS) == []
    plain = R.new_game(R.make_params(4, mode="classic"), 3)
    assert plain.active == () and plain.dungeons == Deck(())
    # the rest of the set-up is the draw of the other packs' games: the dungeon deck is shuffled last
    assert R.view(s, 1).dungeons.draw == ("?",) * 19


# -- portals ------------------------------------------------------------------------------------

def test_a_portal_kicked_open_acts_at_once_and_its_player_chooses_join_or_replace_C_PACK_7():
    """C-PACK-7: kicked open, a portal turns up the next dungeon; with one active, its player
    chooses (a pending decision, C-DIGI-5): join it as the second, or replace it."""
    first = dungeon("Damp Basement")
    s = top(table(3, first), PORTALS[0])
    s, events = act(s, 0, "kick")
    assert [e.kind for e in events][:2] == ["kick", "portal"]
    assert s.pending.kind == PendingKind.PORTAL and s.pending.seat == 0
    new = s.pending.arg
    assert {a.args[0] for a in R.legal_actions(s, 0)} == {dg.JOIN, first}
    assert PORTALS[0] in s.door.discard and PORTALS[0] not in s.players[0].hand
    s, events = act(s, 0, "choose", dg.JOIN)
    assert s.active == (first, new) and s.pending is None
    assert ("dungeon", 0, new, "") in [tuple(e) for e in events]
    assert s.turn.phase == Phase.TROUBLE  # no monster met: look for trouble or loot the room


def test_with_two_active_a_portal_replaces_one_of_them_C_PACK_7():
    a, b = dungeon("Damp Basement"), dungeon("Hall of Mirrors")
    s = give(table(3, a, b), 0, PORTALS[1])
    play = R.Action(0, "play", (PORTALS[1],))
    assert play in R.legal_actions(s, 0)  # on your own turn, outside combat, before kicking too
    s, _ = act(s, 0, "play", PORTALS[1])
    new = s.pending.arg
    assert {x.args[0] for x in R.legal_actions(s, 0)} == {a, b}  # no joining a third
    s, events = act(s, 0, "choose", a)
    assert s.active == (new, b) and a in s.dungeons.discard and len(s.active) == dg.MAX_ACTIVE


def test_a_portal_is_played_only_on_your_own_turn_outside_combat_C_PACK_7():
    s = give(table(3, dungeon("Damp Basement")), 1, PORTALS[2])
    assert R.Action(1, "play", (PORTALS[2],)) not in R.legal_actions(s, 1)  # not my turn
    s = give(top(table(3, dungeon("Damp Basement")), "CD08"), 0, PORTALS[2])
    s, _ = act(s, 0, "kick")  # a monster: in combat now
    assert s.combat is not None and R.Action(0, "play", (PORTALS[2],)) not in R.legal_actions(s, 0)


def test_a_portal_with_no_dungeon_left_to_turn_up_does_nothing_more_C_PACK_7():
    a, b = dungeon("Damp Basement"), dungeon("Hall of Mirrors")
    s = give(table(3, a, b), 0, PORTALS[3])
    rest = tuple(d.id for d in CARDS.dungeon if d.id not in (a, b))
    s = s.replace(dungeons=Deck((), rest))  # every other dungeon discarded: the deck is rebuilt
    s, events = act(s, 0, "play", PORTALS[3])
    assert s.pending is not None and "reshuffle" in [e.kind for e in events]


# -- the rules of the dungeons -----------------------------------------------------------------

def _kicked(s, monster: str):
    s, _ = act(top(s, monster), 0, "kick")
    return s


def test_monster_rules_change_every_monster_and_by_keyword_C_PACK_7_C_COMBAT_3():
    goblin, ghost = "CD08", "CD12"  # level 3, no keyword undead; level 4 undead
    for active, want in (((), 3), ((dungeon("Damp Basement"),), 2), ((dungeon("Hall of Heroic Echoes"),), 5),
                         ((dungeon("Crypt of Creaky Knees"),), 3)):
        s = _kicked(table(3, *active) if active else table(3, dungeon("Hall of Mirrors")), goblin)
        assert cb.monster_level(s, CARDS, 0) == want, active
    s = _kicked(table(3, dungeon("Crypt of Creaky Knees"), dungeon("Damp Basement")), ghost)
    assert cb.monster_level(s, CARDS, 0) == 4 + 3 - 1
    assert sum(v for _, v in query.monster_terms(s, CARDS, 0)) == cb.monster_level(s, CARDS, 0)


def test_munchkin_rules_by_who_alone_helping_and_slot_C_PACK_7_C_COMBAT_2():
    dwarf = "CD66"
    s = race(table(3, dungeon("Forge of the Short Folk"), dungeon("Hall of Mirrors")), 0, dwarf)
    s = _kicked(s, "CD08")
    assert cb.seat_strength(s, CARDS, 0) == 1 + 2 + 2  # level 1, dwarf +2, alone +2
    assert ("dungeons", 4) in query.munchkin_terms(s, CARDS, 0)
    s = use(table(3, dungeon("Low-Ceiling Corridor")), 0, "CT05")  # +3 headgear in use
    s = _kicked(s, "CD08")
    assert cb.seat_strength(s, CARDS, 0) == 1 + 3 - 1
    s = _kicked(table(3, dungeon("Friendly Tavern Cellar")), "CD20")
    s = s.replace(combat=s.combat.replace(helper=1))
    assert cb.seat_strength(s, CARDS, 1) == 1 + 2 and cb.seat_strength(s, CARDS, 0) == 1


def test_run_away_rules_add_to_every_roll_and_the_epic_gnome_ignores_the_penalty_C_PACK_7_C_RUN_2():
    for name, need in (("Greased Slide Hall", 3), ("Maze of Dead Ends", 7), ("Damp Basement", 5)):
        s = _kicked(table(3, dungeon(name)), "CD08")
        assert cb.needed(s, CARDS, 0, 0) == need, name


def test_caught_in_the_spiked_pit_costs_a_level_more_C_PACK_7_C_RUN_4():
    """Maze of Dead Ends (-2 to run) makes 7 needed: every roll fails; the Sulking Hydra's Bad
    Stuff (2 levels) and the Spiked Pit Gallery's (1 more) both act."""
    s = set_player(table(3, dungeon("Maze of Dead Ends"), dungeon("Spiked Pit Gallery")), 0, level=5)
    s = _kicked(s, "CD20")  # Sulking Hydra, level 8 - 1: level 5 loses; its Bad Stuff: 2 levels
    s = fight(s)
    assert s.combat is None and s.players[0].level == 5 - 2 - 1


def test_kill_levels_give_a_level_more_for_each_kill_C_PACK_7_C_COMBAT_9():
    s = set_player(table(3, dungeon("Arena of the Bored Gods")), 0, level=5)
    s = fight(_kicked(s, "CD08"))  # 5 beats 3
    assert s.players[0].level == 5 + 1 + 1


def test_treasure_rules_change_every_monster_s_treasure_count_C_PACK_7_C_COMBAT_9():
    """C-PACK-7: a dungeon changes a Treasure count: what a win draws, what a helper may ask a
    share of and what the fight pane shows all read it (the count never below 0)."""
    s = set_player(table(3, dungeon("Flooded Market")), 0, level=5)
    s = _kicked(s, "CD08")  # 1 Treasure printed
    assert cb.monster_treasure(s, CARDS, 0) == 2 and query.rewards(s, CARDS)[1] == 2
    plain = _kicked(set_player(table(3, dungeon("Hall of Mirrors")), 0, level=5), "CD08")
    assert cb.monster_treasure(plain, CARDS, 0) == 1
    hand = len(s.players[0].hand)
    s = fight(s)
    assert len(s.players[0].hand) == hand + 2


def test_hand_limit_rules_change_the_five_but_a_card_s_own_limit_stands_C_PACK_7_C_TURN_9():
    s = table(3, dungeon("Cramped Cubbyhole"))
    assert query.hand_limit(s, CARDS, 0) == 4
    assert query.hand_limit(table(3, dungeon("Grand Library Annex")), CARDS, 0) == 7
    assert query.hand_limit(race(s, 0, "CD66"), CARDS, 0) == 6  # a dwarf: card > dungeon
    s = give(s, 0, *s.door.draw[:5])
    s, _ = act(s, 0, "kick")
    while s.turn.phase != Phase.END and s.combat is None and s.pending is None:
        s, _ = act(s, 0, "loot")
    if s.combat is None and s.pending is None:
        s, _ = act(s, 0, "end_turn")
        assert s.pending is not None and s.pending.kind == PendingKind.CHARITY
        assert s.pending.n == len(s.players[0].hand) - 4


def test_sale_rules_change_the_gold_of_every_item_sold_C_PACK_7_C_ITEM_7():
    s = give(table(3, dungeon("Thieves' Bazaar")), 0, "CT05", "CT02")  # 600 + 200 gold
    gold, _ = legal.sale_levels(s, s.players[0], CARDS, ("CT05", "CT02"))
    assert gold == 800 + 400
    s = s.replace(active=(dungeon("Flooded Market"),), dungeons=Deck(s.dungeons.draw, s.dungeons.discard + s.active))
    assert legal.sale_levels(s, s.players[0], CARDS, ("CT05", "CT02"))[0] == 800 - 200


# -- bot, narration, client -----------------------------------------------------------------------

def test_the_bot_keeps_the_dungeons_worth_most_to_it_C_PACK_7():
    bad, good = dungeon("Spiked Pit Gallery"), dungeon("Arena of the Bored Gods")
    s = give(table(3, bad, good), 0, PORTALS[4])
    s, _ = act(s, 0, "play", PORTALS[4])
    s = s.replace(pending=s.pending.replace(arg=dungeon("Greased Slide Hall")),
                  dungeons=Deck(tuple(x for x in s.dungeons.draw + (s.pending.arg,) if x != dungeon("Greased Slide Hall")),
                                s.dungeons.discard))
    assert bot.choose(R.view(s, 0), 0, CARDS) == R.Action(0, "choose", (bad,))
    s = give(table(3, bad), 0, PORTALS[5])  # the pit alone is worth less than nothing: open a portal
    assert bot.choose(R.view(s, 0), 0, CARDS) == R.Action(0, "play", (PORTALS[5],))


def test_narration_tells_portals_and_dungeons_in_sentences_C_PACK_7():
    s = top(table(3, dungeon("Damp Basement")), PORTALS[0])
    s, events = act(s, 0, "kick")
    s, more = act(s, 0, "choose", dg.JOIN)
    text = " ".join(ClassicNarrator(CARDS).lines(s, events + more))
    new = CARDS.dungeon_card(s.active[1]).name
    assert f"Red kicks open the portal {CARDS.card(PORTALS[0]).name}: the next dungeon turns up." in text
    assert f"{new} is now active too (" in text


def test_the_client_shows_the_dungeons_and_offers_the_portal_choice_with_keys_C_PACK_7():
    s = top(table(3, dungeon("Damp Basement")), PORTALS[0])
    m = ClassicModel(0, s)
    m.refresh(s)
    for width, height in ((120, 40), (80, 24)):
        text = render.render_screen(m, width, height, now=0.0)
        assert "Dungeon: Damp Basement (every monster -1)" in text, text
        assert all(len(line) <= width for line in text.split("\n"))
    s, _ = act(s, 0, "kick")
    m.refresh(s)
    assert m.prompt().startswith(f"Portal: {m.dungeon_words(s.pending.arg)} turns up: join the active one or replace it")
    labels = [e.label for e in m.menu()]
    new = CARDS.dungeon_card(s.pending.arg).name
    assert f"Let {new} join Damp Basement (two dungeons)" in labels and f"{new} replaces Damp Basement" in labels
    info = render.plain(render.render_info(m, 120, 60))
    assert "Dungeons (a rule for the whole table, monsters included)" in info


# -- whole games ----------------------------------------------------------------------------------

def test_bot_games_open_every_portal_and_turn_up_every_dungeon_keeping_the_invariants_C_PACK_7():
    """C-PACK-7, a test that plays every dungeon and portal once: bot games with the pack, each step checked
    by the invariants (card conservation over the dungeon deck too, at most two active), until
    every portal has been opened and every dungeon has been active; each game ends with a winner."""
    portals, dungeons = set(), set()
    for game in range(40):
        params = R.make_params(2 + game % 5, mode="classic", packs=PACK, epic=game % 3 == 2)
        s = R.new_game(params, 1000 + game)
        dungeons.update(s.active)
        for _ in range(30_000):
            if R.is_over(s):
                break
            seat = R.actors(s)[0]
            s2, events = R.step(s, bot.choose(R.view(s, seat), seat, CARDS))
            assert invariants.check(s2, CARDS) + invariants.check_step(s, s2, events, CARDS) == []
            portals.update(e.card for e in events if e.kind == "portal")
            dungeons.update(e.card for e in events if e.kind == "dungeon")
            s = s2
        assert R.is_over(s) and s.winners
        if len(portals) == 16 and len(dungeons) == 20:
            break
    assert portals == set(PORTALS) and dungeons == {d.id for d in CARDS.dungeon}
