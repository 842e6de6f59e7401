"""Words a new player understands, and names: the client says who sits where by name (bots
marked as bots) in the side panel, the log and the chat; an exploration names rooms and a
direction, never grid coordinates; dice read as dice; a refused proposal is said in the
engine's words, never its reason code; counts take English plurals."""
from __future__ import annotations

import re

from builders import CARDS, quiet

from mq.rules import Action, legal_actions, step
from mq.table import Applied, Notice
from mq.tui import render
from mq.tui.model import Model
from net.client import rejection_words

SEATS = (("ann", False), ("bob", False), ("", True))


def test_names_and_bots_in_the_side_panel_the_log_and_the_chat():
    s = quiet(3)
    m = Model(0, s)
    m.set_seats(SEATS)
    wide = render.plain(render.render_players(m, 48, 1 + 2 * 3))
    assert "  ann · " in wide and "  bob · " in wide and "(bot) · " in wide, wide
    narrow = render.plain(render.render_players(m, 34, 4))
    assert "R ann*" in narrow and "G bob " in narrow, narrow
    m.update(Notice("chat", 1, "hello"))
    assert m.chat[-1].text == "<Green bob> hello"
    a = Action(s.turn.seat, "end_turn")
    s2, events = step(s, a, CARDS)
    m.update(Applied(1, a, events, s2))
    turn = [ln.text for ln in m.log if ln.kind == "turn"][-1]
    assert re.fullmatch(r"Turn \d+: \w+( \((ann|bob)\))?", turn), turn
    name = SEATS[s2.turn.seat][0]
    if name:
        assert turn.endswith(f"({name})"), turn
    else:  # the bot seat has no name of its own
        assert "(" not in turn, turn


def test_an_exploration_names_the_rooms_and_the_direction():
    s = quiet(2)
    me = s.turn.seat
    explore = next(a for a in legal_actions(s, me, CARDS) if a.kind == "move")
    s2, events = step(s, explore, CARDS)
    m = Model(me, s)
    m.update(Applied(1, explore, events, s2))
    line = next(ln.text for ln in m.log if " explores " in ln.text)
    direction = ("north", "east", "south", "west")[explore.args[0]]
    assert f" explores {direction} of the Entrance and finds " in line, line
    assert not re.search(r"\(-?\d+,-?\d+\)", " ".join(ln.text for ln in m.log))  # no coordinates


def test_dice_read_as_dice_and_counts_take_plurals():
    from mq.narrate import plural, rolled

    assert rolled((4,)) == "rolled 4" and rolled((3, 5, 6)) == "rolled 3 + 5 + 6" and rolled(()) == "no dice"
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards" and plural(2, "die", "dice") == "2 dice"


def test_a_refused_proposal_is_said_in_words_not_codes():
    text = rejection_words("seat/not-your-turn", "it is Green's turn")
    assert text == "Not done: it is not your turn to act (it is Green's turn)."
    assert "/" not in rejection_words("no/such-reason", "")


def test_gender_restrictions_curses_and_sales_say_what_they_mean():
    """Issue 12, every "why": the munchkin's gender shows (Q-SETUP-3); an item's restriction shows
    on the card, and an item in play that a restriction switches off says it gives nothing and why
    (Q-ITEM-4); lasting curses and a waiting one are listed in ``i`` with their effect (Q-CARD-8);
    each way to buy a level names every item's gold value and the gold paid or wasted (Q-CHAR-3)."""
    from builders import set_player

    from mq.rules.state import Item

    s = quiet(2)
    me = s.turn.seat
    s = set_player(s, me, gender="male", gold=500, curses=("D51",), cursed=-2,
                   items=(Item("T05", "worn"), Item("T03", "backpack")))
    m = Model(me, s)
    assert "♂" in render.plain(render.render_players(m, 34, 5))
    info = render.plain(render.render_info(m, 120, 60))
    assert "Human · male" in info, info
    assert "Tiara of Regal Glaring (+2 head, only female) [gives nothing: only female]" in info, info
    assert "Bucket Helm of Grim Resolve (+3 head, only warrior)" in info and "warrior) [" not in info
    assert f"cursed: {CARDS.card('D51').name}: {CARDS.card('D51').text}"[:60] in " ".join(info.split()), info
    assert "a curse waits for the next fight: -2 to their strength" in info
    labels = sorted(m.describe(a) for a in legal_actions(m.view, me, CARDS) if a.kind == "buy")
    assert labels == ["Buy a level: sell Bucket Helm of Grim Resolve (600) + 400 gold",
                      "Buy a level: sell Bucket Helm of Grim Resolve (600), Tiara of Regal Glaring (500), "
                      "100 gold wasted",
                      "Buy a level: sell Tiara of Regal Glaring (500) + 500 gold"], labels


def test_a_fight_without_anyone_to_ask_says_why_where_ask_would_be():
    """Q-HELP-1: the fight panel says why "Ask for help" is missing: nobody in reach; with a
    neighbour next door the action is on the menu and the panel says nothing of it."""
    from builders import set_player
    from test_rules_help import fight_with_neighbour

    s, a, b, _, _ = fight_with_neighbour(players=2)
    near = Model(a, s)
    assert any(x.kind == "ask" for x in near.legal) and near.help_missing() == ""
    far = Model(a, set_player(s, b, alive=False))  # the only other munchkin cannot come
    assert not any(x.kind == "ask" for x in far.legal)
    panel = " ".join(render.plain(render.render_combat(far, 60, 16)).split())
    assert "Nobody to ask for help: no other munchkin is here or one move away" in panel, panel


def test_the_base_colour_question_says_why_the_rolled_colour_cannot_take_the_monster():
    """Q-MON-1 on the engine's own events: the die's colour has no free base (nobody plays it, or
    its 3 bases are in use), and the prompt says so before asking for another."""
    from builders import E, add_monster, colour, line, nxt, rig, stack
    from test_rules_monsters import LURKER

    for case in ("nobody", "full"):
        s = quiet(2)
        a, b = s.turn.seat, nxt(s)
        rolled = 4 if case == "nobody" else b
        if case == "full":
            s, (far,) = line(s, 1, y=5)
            for _ in range(3):
                s = add_monster(s, LURKER, far, b)
        s = stack(s, "monster", [LURKER])
        s = rig(s, None, None, None, None, colour(rolled))
        m = Model(a, s)
        action = Action(a, "move", (E,))
        s, events = step(s, action, CARDS)
        m.update(Applied(1, action, events, s))
        assert s.pending is not None and s.pending.kind == "colour"
        name = ("red", "green", "blue", "yellow", "purple", "orange")[rolled]
        why = f"nobody plays {name}" if case == "nobody" else f"all 3 {name} bases are in use"
        assert m.prompt() == (f"The die rolled {name}, but {why}: choose the new monster's base colour "
                              "(nobody draws for it): 1-9 (a: menu)."), m.prompt()


def test_each_help_offer_says_what_that_helper_adds():
    """Q-HELP-2, Q-COMBAT-4: accepting an offer names the helper's strength that joins the fight
    (their level and gear), beside the price."""
    from builders import act, set_player
    from test_rules_help import fight_with_neighbour

    from mq.rules.state import Item

    s, a, b, _, _ = fight_with_neighbour(players=2)
    s = set_player(s, b, level=3, items=(Item("T03", "worn"),))  # +3 head, but only for warriors: +0
    s = set_player(s, a, gold=500)
    s, _ = act(s, a, "ask")
    s, _ = act(s, b, "offer", 300, 1)
    m = Model(a, s)
    labels = [m.describe(x) for x in m.legal if x.kind == "accept"]
    assert len(labels) == 1 and labels[0].startswith(f"Accept {('Red', 'Green')[b]}'s help (+3 to your side) for 300 gold"), labels


def test_help_offers_that_cost_the_helper_gold_come_last_in_the_menu():
    """Q-HELP-2: a player offering help sees first the offers that pay them (nothing, picks, gold
    from the fighter); an offer to pay the fighter gold themselves comes after all of those."""
    from builders import act, set_player
    from test_rules_help import fight_with_neighbour

    s, a, b, _, _ = fight_with_neighbour(players=2)
    s = set_player(s, b, gold=500)
    s, _ = act(s, a, "ask")
    m = Model(b, s)
    offers = [e.action for e in m.menu() if e.action.kind == "offer"]
    paying = [i for i, x in enumerate(offers) if x.args[0] < 0]
    assert paying and len(offers) > len(paying)
    assert paying == list(range(len(offers) - len(paying), len(offers))), [x.args for x in offers]
    assert offers[0].args[:2] == (0, 0) and m.describe(offers[0]) == "Offer help for free"


def test_the_fight_header_cuts_the_room_name_never_the_stage():
    """Q-COMBAT-1: at any width the fight panel's title says the fight's stage in full; the room's
    name gives way, cut with an ellipsis when it must be."""
    from builders import act
    from test_rules_help import fight_with_neighbour

    s, a, _, _, _ = fight_with_neighbour(players=2)
    s, _ = act(s, a, "ask")
    m = Model(a, s)
    room = m.room_name(s.combat.room)
    for width in (40, 45, 50, 60, 80):
        head = render.plain(render.render_combat(m, width, 12)).splitlines()[0].rstrip()
        assert head.endswith("· asking for help"), (width, head)
        assert room.split()[-1] in head or "…" in head, (width, head)  # a leading "The" may go


def test_a_narrow_fight_panel_wraps_its_verdict_and_terms_instead_of_cutting_them():
    """Q-COMBAT-4, 6: at 80 columns the fight panel is 45 wide: the verdict ("must equal or beat
    the monsters' roll") and a room icon's term ("+1 die: good for human") go on over a
    second line rather than losing their last words."""
    from builders import set_player
    from test_rules_help import fight_with_neighbour

    s, a, _, _, _ = fight_with_neighbour(players=2)
    s = set_player(s, a, level=3)  # one above the monster: a tie of the dice loses, so "at least equal"
    text = render.plain(render.render_combat(Model(a, s), 45, 14))
    assert "Red must equal or beat the monsters' roll" in text, text
    lines = render._two_columns([[("", "  level 1")], [("", "  +1 die: good for human")]], [[("", " Grumpy")]], 45)
    plain = [render.plain([ln]) for ln in lines]
    assert "good for" in plain[1] and plain[2].lstrip().startswith("human"), plain


def test_a_long_banner_says_its_first_sentence_and_points_to_the_log():
    """A notice too long for one line at 80 columns (a follower looking for its host, with the
    resume hint) shows its first sentence and "(see the log)"; the log has it whole (Model._notice)."""
    m = Model(0, quiet(2))
    text = ("too few players are reachable: looking for the game's host. If the host is gone for good, "
            "the game goes on from any player's log: mq host --resume LOG")
    m.update(Notice("info", 0, text))
    line = render.plain(render.render_banners(m, 80, 4))
    assert line.startswith(" INFO: too few players are reachable: looking for the game's host (see the log)")
    assert len(line.rstrip()) <= 80 and "--resume" not in line
    assert any(ln.text == text[:1].upper() + text[1:] for ln in m.log)
    assert render.banner_text(" INFO: ", "a" * 100 + ". b", "", 40) == " INFO: " + "a" * 18 + "… (see the log)"
    m.update(Notice("info", 0, "short news"))
    assert " INFO: short news  (Esc dismisses)" in render.plain(render.render_banners(m, 80, 4))


def test_the_dungeon_becoming_complete_is_announced():
    """Q-EXPLORE-6, 7: the exploration that places the last room tile says the dungeon is complete
    and what that changes; an earlier one does not."""
    s = quiet(2)
    me = s.turn.seat
    explore = next(a for a in legal_actions(s, me, CARDS) if a.kind == "move")
    for last, told in ((False, False), (True, True)):
        start = s.replace(room_deck=s.room_deck.replace(draw=s.room_deck.draw[:1])) if last else s
        after, events = step(start, explore, CARDS)
        m = Model(me, start)
        m.update(Applied(1, explore, events, after))
        assert any(ln.text.startswith("The dungeon is complete") for ln in m.log) == told


def test_a_search_with_no_dice_says_so():
    """Q-SEARCH-1, Q-COMBAT-6: where a red icon takes a munchkin's only die, the Search entry says
    no dice are rolled and what that brings; with a die it reads as usual."""
    from builders import add_room, fresh_turn, set_player

    s = quiet(2)
    me = s.turn.seat
    s = add_room(s, 1, 0, face="R02a")  # The Belfry of Broken Eardrums: red icon elf, search +0
    for races, label in (((), "Search this room (1 move)"),
                         (("D01",), "Search this room (1 move; you roll no dice here, only the room's +0 "
                                    "counts: a monster comes)")):
        t = fresh_turn(set_player(s, me, room=len(s.rooms) - 1, races=races), me)
        m = Model(me, t)
        assert [m.describe(a) for a in m.legal if a.kind == "search"] == [label]


# What a player must never read: an engine reason code, a card id, a Python value, "1 cards" or
# "3 card" (issue 12).  Move is a stat ("2 move left"), like gold.
_CODES = re.compile(r"\b(?:action|buy|card|choice|combat|dead|game|level|move|net|phase|pickup|search|seat)/[a-z][a-z_-]*")
_ONE_MANY = re.compile(r"(?<![\d+.-])\b1 (?:cards|dice|levels|hits|items|players|monsters|treasures|rounds|entries"
                       r"|seats|turns|bases|rooms|tiles)\b")
_MANY_ONE = re.compile(r"(?<![+\-\d.])\b(?:0|[2-9]|\d\d+) (?:card|die|level|hit|item|player|monster|treasure|round"
                       r"|entry|seat|turn|base|room|tile)\b(?! of\b)")
_ONE_THEM = re.compile(r"\b1 (?:card|item)\b[^.;]*\bthem\b")  # one card is "it"
_RULE_IDS = re.compile(r"\b[QC]-[A-Z]+-\d+")  # the rulebook's ids: for its readers, not the table
_REPR = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\(\d+, \d+\)|\[\d+, |\(\)|\b[DTM]\d\d(?:\.\d)?\b|\b\d+:[a-z_]+ ")


def _bad_words(text: str) -> list[str]:
    return [m.group(0) for pat in (_CODES, _ONE_MANY, _MANY_ONE, _REPR, _RULE_IDS, _ONE_THEM) for m in pat.finditer(text)]


def test_the_words_audit_finds_what_it_looks_for():
    for bad in ("action/malformed: 7 players", "1 cards", "3 card", "(D24.3)", "None", "(3, 5)", "0:choose x",
                "one move away (Q-HELP-1)", "1 card too many: give or discard them"):
        assert _bad_words(bad), bad
    for good in ("1 card", "3 cards", "2 dice", "1 die", "+1 level", "2 move left", "Lucky Coin", "rolled 3 + 5"):
        assert not _bad_words(good), good


def test_every_event_refusal_and_panel_of_real_games_is_in_words():
    """Bot games walked through every seat's client: each log line, banner, action label, prompt
    and panel, and a stale action refused at every step (explained by the client and as the
    sequencer's rejection notice) read without codes, ids or wrong plurals."""
    from mq.bots import choose
    from mq.rules import IllegalAction, actors, make_params, new_game, view

    bad: dict[str, str] = {}
    refusals: set[str] = set()
    for seed, players in ((2, 3), (9, 4)):
        s = new_game(make_params(players), seed, CARDS)
        models = [Model(k, s) for k in range(players)]
        before = None
        for n in range(600):
            if not actors(s):
                break
            seat = actors(s)[0]
            a = choose(view(s, seat), seat, CARDS)
            texts = []
            if before is not None:  # the previous action again: stale now, refused by the engine
                try:
                    step(s, before, CARDS)
                except IllegalAction as e:
                    refusals.add(e.reason)
                    models[before.seat].explain(e)
                    texts += [models[before.seat].message, rejection_words(e.reason, e.detail, models[0].card_name)]
            s2, events = step(s, a, CARDS)
            for m in models:
                m.update(Applied(n + 1, a, events, s2))
            if n % 7 == 0:
                for m in models:
                    texts += [m.describe(x) for x in m.legal] + [m.prompt()]
                    texts += [render.plain(f(m, 100, 30)) for f in (render.render_combat, render.render_players,
                                                                    render.render_hand, render.render_info)]
            for t in texts:
                for word in _bad_words(t):
                    bad.setdefault(word, t)
            before, s = a, s2
        for m in models:
            for t in [ln.text for ln in m.log] + [b.text for b in m.banners]:
                for word in _bad_words(t):
                    bad.setdefault(word, t)
    assert not bad, "\n".join(f"{w!r} in: {t[:200]}" for w, t in bad.items())
    assert {"card/not-in-hand", "choice/invalid"} <= refusals, refusals  # the walk met the refusals with details
