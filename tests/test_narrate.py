"""Narration (mq.narrate): sentences for people, without the engine's repetitions."""
import pytest
from builders import CARDS, act, colour, hand, nxt, quiet, rig, set_player

from mq.cards import load_default
from mq.narrate import Narrator, things
from mq.rules import view_events
from mq.rules.events import make
from mq.rules.view import TABLE

ONE_SHOTS = tuple(d.id for d in CARDS.dxm if d.kind == "oneshot")


def narrator():
    return Narrator(load_default())


def made(*fields):
    """Events of these kinds and fields, as the engine builds them (mq.rules.events)."""
    return [make(f) for f in fields]


def test_a_seat_passed_by_the_engine_is_told_once_per_fight_and_stage():
    n = narrator()
    first = n.lines(None, made(("auto_pass", 1, "window"), ("auto_pass", 1, "outcome")))
    assert first == ["  Green has nothing to play: passes.", "  Green has no card to change a die: passes."]
    assert n.lines(None, made(("auto_pass", 1, "window"), ("auto_pass", 2, "window"))) == [
        "  Blue has nothing to play: passes."]
    n.lines(None, made(("combat_starts", 0, 0, ())))  # a new fight: told again
    assert n.lines(None, made(("auto_pass", 1, "window"))) == ["  Green has nothing to play: passes."]


def test_cards_given_for_charity_are_one_sentence_per_receiver_once_the_charity_is_over():
    """Q-CHARITY on the engine's own events: each card given is one action, so the narrator tells
    the charity after the last gift, before that action's monster turn, one sentence per
    receiver (the split is even, the giver choosing who gets the larger part)."""
    s = quiet(3)
    a, b = s.turn.seat, nxt(s)
    c = nxt(s, b)
    s = set_player(set_player(s, b, level=1), c, level=1)
    s = hand(set_player(s, a, level=3), a, *ONE_SHOTS[:8])
    n = narrator()
    s, events = act(rig(s, colour(5)), a, "end_turn")
    assert n.lines(s, view_events(events, TABLE)) == []
    told = []
    for to in (b, c, b):
        assert s.pending is not None and s.pending.kind == "charity"
        s, events = act(rig(s, colour(5)), a, "give", s.players[a].hand[0], to)
        told.append(n.lines(s, view_events(events, TABLE)))
    assert told[0] == told[1] == []
    w = n.who
    assert told[2][:3] == [f"{w(a)} gives 2 cards to {w(b)} (charity).", f"{w(a)} gives 1 card to {w(c)} (charity).",
                           f"Monster turn: {w(a)} rolls orange."]
    assert not any("charity" in line for line in n.lines(s, ()))  # told once


def test_counts_of_cards_and_gold_read_as_english():
    assert things(2, 300, "item") == "2 items and 300 gold"
    assert things(1, 0, "item") == "1 item"
    assert things(0, 300) == "300 gold"
    assert things(0, 0) == "nothing"


def test_one_winner_defeats_the_boss_several_defeat_it():
    n = narrator()
    assert n.lines(None, made(("game_won", (1,)))) == ["*** Green defeats the Boss and wins the game! ***"]
    assert n.lines(None, made(("game_won", (0, 2)))) == ["*** Red and Blue defeat the Boss and win the game! ***"]


def test_the_monsters_win_is_told():
    """Q-DEATH-5: the game's end with no winner is said in words."""
    assert narrator().lines(None, made(("monsters_win",))) == ["*** Every munchkin is dead: the monsters win the game! ***"]


# -- Classic (CLASSIC.md): the same Narrator words a Classic game's events (mq.classic.events) --

def _classic_game(epic: bool, seed: int = 1, packs: tuple[str, ...] = ()):
    """(state, events) of every step of a whole Classic bot game, the events unmasked (as a replay
    narrates them)."""
    from mq.rules import make_params
    from mq.sim import play_game

    steps = []
    play_game(4, seed, on_step=lambda s, ev: steps.append((s, ev)),
              params=make_params(4, mode="classic", epic=epic, packs=packs))
    return steps


@pytest.mark.parametrize("packs", [(), ("all",)], ids=["base", "packs"])
def test_a_classic_game_is_told_in_sentences_that_name_no_hidden_card(packs):
    """C-DIGI-4: a narrated Classic game (base and Epic, without and with every pack) words every
    event kind the game had, and never names a card drawn face-down or given for charity."""
    from mq.cards.classic_packs import load_classic_packs
    from mq.narrate_classic import ClassicNarrator

    classic = load_classic_packs(packs)
    names = {c.id: c.name for c in classic.door + classic.treasure}
    for epic in (False, True):
        n, masked, told = narrator(), narrator(), []
        probe = ClassicNarrator(classic)  # told one event at a time
        for state, events in _classic_game(epic, packs=packs):
            lines = n.lines(state, events)
            told += lines
            discarded = [c for line in lines if " discards " in line for c in names.values() if c in line]
            assert len(discarded) == len(set(discarded)), lines  # a card discarded is told once
            assert masked.lines(state, view_events(events, TABLE)) == lines  # the same, masked or not
            for e in events:
                line = probe.line(e)
                # (a pass is told once per window, and only when the engine made it; a card lost is
                # told by its ``lost`` event, not again by the discard that follows, and a card of
                # charity by its ``charity`` event; a turn's end,
                # C-DIGI-2 f, by the next turn's line)
                told_after = (e.kind == "discard" and e.why in ("lost", "charity")) or (
                    e.kind == "played" and e.target in ("steed", "hireling")) or (
                    e.kind == "deal_made" and e.what != "abstain")  # by the event after it (helps)
                if e.kind not in ("pass", "turn_ends") and not told_after:
                    assert line is not None, e
                if (e.kind == "draw" and not e.public) or (e.kind == "charity" and e.to >= 0):  # (a discard is public)
                    assert names[e.card] not in line, e
        assert told[-1].startswith("*** ") and told[-1].endswith(" the game! ***")
        assert any(line.startswith("\n== Turn ") for line in told)
        assert not any(") (" in line for line in told), [line for line in told if ") (" in line]


def test_classic_help_deals_death_looting_and_curses_read_as_sentences():
    """C-HELP-3, C-DEATH-1, C-DEATH-2, C-CARD-8, C-RUN-1, C-WIN, C-ITEM-10: the events of a fight
    with help, a death and its looting, a hand shown, a curse and a win, as a reader sees them."""
    from mq.cards.classic_loader import load_classic_default
    from mq.classic.events import make as cmake
    from mq.classic.state import ClassicParams

    cards = load_classic_default()
    monster = next(c for c in cards.door if c.kind == "monster")
    curse = next(c for c in cards.door if c.kind == "curse")
    item = next(c for c in cards.treasure if c.kind == "item")
    state = type("S", (), {"params": ClassicParams(players=4, genders=("male",) * 4)})()
    n = narrator()
    lines = n.lines(state, [cmake(f) for f in (
        ("monster_in", 0, monster.id, "kick", 0), ("asks_help", 0, 1), ("pass", 1, "help", False), ("asks_help", 0, 2),
        ("offer", 2, 1, "fighter", ""), ("helps", 0, 2, 1, "fighter", ""),
        ("laid_out", 0, 2, (item.id, item.id), 1, "fighter"), ("pick", 0, item.id), ("pick", 2, item.id),
        ("result", 0, 7, 9, False), ("rolled", 0, monster.id, 2),
        ("escape", 0, monster.id, 2, 5, False), ("death", 0, (item.id,)), ("loot", 1, 0, item.id),
        ("reveal", 1, 2, (item.id,)), ("curse", curse.id, 3, 1), ("curse_cancelled", curse.id, 1, ""), ("game_won", (2,)))])
    assert lines == [
        f"Red fights {monster.name} (level {monster.level}).", "  Red asks Green for help.",
        "  Green refuses to help.", "  Red asks Blue for help.",
        "  Blue offers to help for 1 Treasure card (the fighter picking first).",
        "  Deal: Blue helps Red for 1 Treasure card (the fighter picking first).",
        f"  The Treasure, face up: {item.name}, {item.name}; 1 card for Blue, the fighter picking first.",
        f"  Red takes {item.name}.", f"  Blue takes {item.name}.",
        "  The munchkins (7) against the monsters (9): the munchkins lose.",
        f"  Red rolls 2 to run away from {monster.name}.",
        f"  Red rolls 2 (needs 5) against {monster.name} and is caught.",
        "Red DIES; 1 card lies on the body to be looted.", f"  Green takes {item.name} from Red's body.",
        "Green shows Blue their hand.", f"Yellow curses Green: {curse.name}.", f"  Green cancels {curse.name}!", "*** Blue wins the game! ***"]


def test_a_help_deal_is_one_sentence_with_its_terms_last():
    """Q-HELP-2 on the engine's own events: the accepted deal says who joins whose fight, then its
    terms, however long they run ("..., the fighter picking first")."""
    from test_rules_help import fight_with_neighbour

    s, a, b, _, _ = fight_with_neighbour(players=2)
    s = set_player(s, a, gold=500)
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 300, 1, "", "fighter")
    s, events = act(s, a, "accept", b)
    n = narrator()
    w = n.who
    told = n.lines(s, view_events(events, TABLE))
    assert f"  Deal: {w(b)} joins {w(a)}'s fight, helping for 300 gold and 1 Treasure pick, the fighter picking first." \
        in told, told


def test_classic_deals_and_a_monster_sent_read_as_sentences_C_HELP_3_C_HELP_7_C_COMBAT_12():
    """C-HELP-3, 7, C-COMBAT-12: deals offered, made, declined and carried out (or void), and a
    monster sent at a player off their turn, as a reader sees them."""
    from mq.cards.classic_loader import load_classic_default
    from mq.classic.events import make as cmake
    from mq.classic.state import ClassicParams

    cards = load_classic_default()
    item = next(c for c in cards.treasure if c.kind == "item")
    monster = next(c for c in cards.door if c.kind == "monster")
    state = type("S", (), {"params": ClassicParams(players=4, genders=("male",) * 4)})()
    lines = narrator().lines(state, [cmake(f) for f in (
        ("played", 3, "CD96", "special", "1"), ("monster_in", 1, monster.id, "sent", 3),
        ("deal", 1, 2, "help", item.id, True, 2, "turns"), ("deal_made", 1, 2, "help", item.id, 2, "turns"),
        ("helps", 1, 2, 2, "turns", item.id),
        ("deal", 0, 3, "abstain", item.id, False, 0, "helper"), ("deal_made", 0, 3, "abstain", item.id, 0, "helper"),
        ("deal_declined", 0, 3),
        ("deal_done", 1, 2, item.id, True), ("deal_done", 0, 3, item.id, False))])
    assert lines == [
        "Yellow plays Misdelivered Monster on Green.",
        f"Green fights {monster.name} (level {monster.level}), sent by Yellow.",
        f"  Green offers Blue 2 Treasure cards (picked in turns, the helper first) and {item.name} if Blue helps"
        " (the item if the fight is won).",
        f"  Deal: Blue helps Green for 2 Treasure cards (picked in turns, the helper first) and {item.name}.",
        f"  Red offers Yellow {item.name} for staying out of this fight.",
        f"  Deal: Red gives Yellow {item.name} for staying out of this fight.", "  Yellow declines Red's deal.",
        f"  As promised, {item.name} passes from Green to Blue.",
        f"  {item.name}, promised by Red, is gone: that part of the deal is void."]


def test_a_salvage_is_one_sentence_and_the_card_paid_another_C_CHAR_5():
    """C-CHAR-5: a cleric's salvage takes the top discard instead of drawing; the engine tells the
    power and the (public) draw of that card: the story and the client's log say it once, not as
    a salvage and then a draw."""
    from mq.cards.classic_loader import load_classic_default
    from mq.classic.events import make as cmake
    from mq.narrate_classic import ClassicNarrator
    from mq.tui.classic_model import ClassicScribe

    cards = load_classic_default()
    taken, paid = [c for c in cards.treasure if c.kind == "item"][:2]
    events = [cmake(f) for f in (("power", 2, "salvage", taken.id), ("draw", 2, "treasure", taken.id, True),
                                 ("discard", 2, paid.id, "power"))]
    assert ClassicNarrator(cards).lines(None, events) == [
        f"Blue salvages {taken.name} from the discards instead of drawing.", f"  Blue discards {paid.name}."]
    logged = [line.text for line in ClassicScribe(0, cards).lines(None, None, events)]
    assert len(logged) == 2 and taken.name in logged[0] and "draws" not in " ".join(logged), logged


def test_face_down_draws_in_a_row_are_one_sentence_and_a_face_up_one_is_its_own():
    """C-DIGI-4: several face-down draws by one seat from one deck read as one sentence with the
    count (no card named); a face-up draw, another deck or another seat starts a new one."""
    from mq.cards.classic_loader import load_classic_default
    from mq.classic.events import make as cmake
    from mq.narrate_classic import ClassicNarrator

    cards = load_classic_default()
    shown = cards.treasure[0]
    events = [cmake(f) for f in (("draw", 0, "treasure", "?", False), ("draw", 0, "treasure", "?", False),
                                 ("draw", 0, "treasure", "?", False), ("draw", 0, "door", "?", False),
                                 ("draw", 1, "door", "?", False), ("draw", 1, "treasure", shown.id, True),
                                 ("draw", 1, "treasure", "?", False))]
    assert ClassicNarrator(cards).lines(None, events) == [
        "Red draws 3 Treasure cards.", "Red draws a Door card.", "Green draws a Door card.",
        f"Green draws a Treasure card ({shown.name}).", "Green draws a Treasure card."]


def test_a_seat_that_played_in_the_fight_then_passed_by_the_engine_has_nothing_more_to_play():
    n = narrator()
    n.lines(None, made(("combat_starts", 0, 0, ())))
    lines = n.lines(None, made(("enhance", 1, n.cards.dxm[0].id, 0), ("auto_pass", 1, "window"), ("auto_pass", 2, "window")))
    assert lines[1:] == ["  Green has nothing more to play: passes.", "  Blue has nothing to play: passes."]


def test_an_escape_roll_with_a_modifier_says_the_roll_the_modifier_and_the_result():
    n = narrator()
    n.monster_cards[3] = n.cards.monsters[0].id
    line, = n.lines(None, made(("escape_roll", 0, 3, 1, -1, False)))
    assert line.endswith(": rolled 1, -1: 0 — caught.")


def test_a_search_that_finds_no_treasure_says_only_the_gold():
    line, = narrator().lines(None, made(("search_found", 0, 500, 0, 0)))
    assert line == "  finds 500 gold."
