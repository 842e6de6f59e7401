"""The terminal client in a Classic game (CLASSIC.md), fed real engine states and events: the table
in place of the map, the fight term by term with its verdict (mq.classic.query), the windows and
their countdown, help offers, the body-looting choice, charity, selling, Epic powers; every action
in words; every panel within 120x40 and 80x24; and the running client driven by keys through a
pipe over a LocalTable with Classic bots."""
from __future__ import annotations

import asyncio
import re

import drive
import pytest
from classic_table import CARDS, Action, act, hand, in_play, on_top, playing, set_player
from drive import until

from mq.bots import classic as bot
from mq.classic import query
from mq.classic.reducer import HANDLERS
from mq.classic.state import Phase, Stage
from mq.rules import actors, make_params, new_game, step, view
from mq.rules.view import HIDDEN
from mq.table import Applied, LocalTable
from mq.tui import keys as keymod
from mq.tui import render
from mq.tui.app import connect
from mq.tui.classic_model import WORDED_KINDS, ClassicModel
from mq.tui.model import CONFIRM, Model

SIZES = ((120, 40), (80, 24))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def model_of(s, seat: int = 0) -> ClassicModel:
    m = ClassicModel(seat, s)
    m.clock = Clock()
    m.refresh(s)
    return m


def feed(models, s, seat: int, kind: str, *args):
    """Apply one action to the full state and hand the entry to the model(s), as a table does."""
    s2, events = act(s, seat, kind, *args)
    for m in models if isinstance(models, tuple) else (models,):
        m.seq += 1
        m.update(Applied(m.seq, Action(seat, kind, tuple(args)), events, s2))
    return s2


def screen(m: ClassicModel, width: int = 120, height: int = 40) -> str:
    return render.render_screen(m, width, height, now=m.clock())


def fits(m: ClassicModel) -> None:
    for width, height in SIZES:
        text = screen(m, width, height)
        assert all(len(line) <= width for line in text.split("\n")), text


def test_every_entry_of_real_games_is_worded_and_fits_both_sizes_C_DIGI_2_4():
    """Whole bot games, Epic among them: every action the menu offers has words (never the
    generic form), every event a sentence (never "(kind)"), every frame fits 120x40 and 80x24,
    and the model never holds another seat's hand (C-DIGI-4)."""
    kinds: set[str] = set()
    for seed, epic in ((1, False), (4, True)):
        s = new_game(make_params(4, mode="classic", epic=epic), seed)
        models = [model_of(s, seat) for seat in range(4)]  # every seat's menu, the bots' moves too
        m = models[0]
        for n in range(2500):
            if s.phase == Phase.OVER:
                break
            seat = actors(s)[0]
            a = bot.choose(view(s, seat), seat)
            s2, events = step(s, a)
            for x in models:
                x.update(Applied(n + 1, a, events, s2))
            s = s2
            assert all(c == HIDDEN for p in m.view.players[1:] for c in p.hand)
            for e in (e for nxt in actors(s) for e in models[nxt].menu()):  # what the next to act sees
                kinds.add(e.action.kind)
                assert e.label != m._generic_words(e.action), e.label
            if n % 7 == 0:
                fits(m)
        assert s.phase == Phase.OVER
        assert not [ln.text for ln in m.log if re.fullmatch(r"\(\w+\)", ln.text)]
        text = " ".join(ln.text for ln in m.log)
        assert "Game over:" in text and "Press q to quit" in screen(m)
    assert kinds <= WORDED_KINDS and {"kick", "roll", "pass", "play", "curse"} <= kinds
    assert WORDED_KINDS == set(HANDLERS)  # describe() words every kind the engine has


def test_the_fight_term_by_term_and_its_verdict_C_COMBAT_2_3_4_C_RUN_1():
    s = set_player(in_play(on_top(playing(), "CD23"), 0, "CD63", "CT05"), 0, level=3)  # elf, +3 head
    s, _ = act(s, 0, "kick")  # Cursed Karaoke Machine: 9, +3 against elves
    m = model_of(s)
    o = query.odds(m.view, CARDS)
    assert (o.mine, o.theirs, o.short) == (6, 12, 7)
    text = render.plain(render.render_combat(m, 80, 14, now=0.0))
    for words in ("win chance now 0%", "Red  6", "level 3", "Brain-Warming Beanie +3", "Cursed Karaoke Machine  12", "vs elf +3",
                  "6 vs 12: the munchkins lack 7 (a tie loses)", "Win: 1 level, 3 Treasure cards",
                  "4+ (50%)"):
        assert words in text, (words, text)
    assert m.prompt() == "Fight, you lack 7: play cards (Tab, Enter), h: ask for help, r: ready."
    roll = next(e for e in m.menu() if e.action.kind == "roll")
    assert "in use: Brain-Warming Beanie +3 head" in render.plain(render.render_map(m, 70, 20))
    robed = model_of(in_play(s, 0, "CT09"))  # armour for wizards only: it gives an elf nothing (C-ITEM-3)
    assert "Bathrobe of Warding +2 armour ✗" in render.plain(render.render_map(robed, 70, 20))
    assert roll.label.startswith("Ready to fight (6 vs 12: you lose as it stands)")
    fits(m)


def test_last_chance_window_countdown_and_auto_pass_C_COMBAT_8_C_DIGI_2():
    s = set_player(on_top(playing(3), "CD01"), 0, level=3)
    s = hand(s, 1, "CT49")
    s, _ = act(s, 0, "kick")
    m = model_of(s, 1)
    s = feed(m, s, 0, "roll")
    assert s.combat.stage == Stage.WINDOW and m.open_window() is not None
    assert m.window_words(m.clock()) == "closes in 10 s"
    m.clock.now = 3.5
    assert m.window_words(m.clock()) == "closes in 7 s"
    assert "closes in 7 s · may still play: Green" in render.plain(render.render_combat(m, 80, 14, now=3.5))
    assert m.prompt().startswith("Last chance: play a card on this fight")
    labels = [e.label for e in m.menu()]
    assert "Pass: play nothing" in labels
    assert "Play Potion of Sudden Confidence for the monsters (+3): 3 vs 4, monsters win" in labels
    assert m.auto_action() is None
    m.auto_pass = True
    assert m.auto_action() == Action(1, "pass")


def test_help_offers_and_the_accepted_deal_in_words_C_HELP_1_2_3():
    s = set_player(on_top(playing(3), "CD14"), 0, level=4)  # level 5, +3 against dwarves, 2 Treasure
    s = in_play(set_player(s, 1, level=3), 1, "CD66")
    s, _ = act(s, 0, "kick")
    red, green = model_of(s, 0), model_of(s, 1)
    asks = [e.label for e in red.menu() if e.action.kind == "ask"]
    assert asks == ["Ask Green for help (with them: 7 vs 8, still short)",
                    "Ask Blue for help (with them: 5 vs 5, still short)"]
    s = feed((red, green), s, 0, "ask", 1)
    assert "Red asks you for help: offer it for up to 2 Treasure cards" in green.prompt()
    assert red.prompt() == "Red asks Green for help: waiting for the answer…"
    assert any("Red asks Green for help." in ln.text for ln in red.log)
    offers = [e.label for e in green.menu() if e.action.kind == "offer"]
    assert offers == ["Offer to help for nothing (with you: 7 vs 8)",
                      "Offer to help for 1 Treasure card (the helper picking first) (with you: 7 vs 8)",
                      "Offer to help for 1 Treasure card (the fighter picking first) (with you: 7 vs 8)",
                      "Offer to help for 1 Treasure card (picked in turns, the helper first) (with you: 7 vs 8)",
                      "Offer to help for 2 Treasure cards (the helper picking first) (with you: 7 vs 8)"]
    s = feed(red, s, 1, "offer", 1, "fighter", "")
    assert red.prompt() == "Fight, you lack 2: offers of help are in: accept one (1-9), or r: fight alone."
    accept = next(e.label for e in red.menu() if e.action.kind == "accept")
    assert accept == "Accept Green's help (7 vs 8, still short) for 1 Treasure card (the fighter picking first)"
    assert "Offered: Green offers to help Red for 1 Treasure card (the fighter picking first)." in \
        render.plain(render.render_combat(red, 100, 14, now=0.0))
    s = feed(red, s, 0, "accept", "deal", 1)
    text = render.plain(render.render_combat(red, 80, 14, now=0.0))
    assert "Green (helper)" in text and "vs dwarf +3" in text
    assert any("Green helps Red for 1 Treasure card (the fighter picking first)." in ln.text for ln in red.log)


def test_body_looting_is_an_explicit_choice_C_DEATH_2():
    for seed in range(40):
        s = set_player(on_top(playing(3, seed=seed), "CD34"), 0, level=6)  # The Auditor Beneath: death
        s = in_play(hand(s.replace(rng_seed=seed), 0, "CT49", "CT50"), 0, "CT07")
        s = set_player(set_player(s, 1, level=2), 2, level=5)
        s, _ = act(s, 0, "kick")
        s, _ = act(s, 0, "roll")
        while s.combat is not None and s.combat.stage == Stage.WINDOW:
            s, _ = act(s, s.combat.waiting[0], "pass")
        blue = model_of(s, 2)
        s = feed(blue, s, 0, "escape", 0)
        if s.pending is not None and s.pending.kind == "loot":
            break
    else:
        pytest.fail("no seed of 40 failed the roll")
    assert s.pending.seat == 2
    assert blue.prompt() == "Loot Red's body: take one card into your hand (1-9, a: menu)."
    labels = [e.label for e in blue.menu()]
    assert "Take Knitted Chainmail Cardigan (+2 armour 400g) from Red's body" in labels
    table = render.plain(render.render_map(blue, 70, 26))
    assert "Red's body: " in table and "Looting next: Blue, Green" in table
    assert any("☠ Red dies: 3 cards to loot, highest level first." == ln.text for ln in blue.log)
    green = model_of(s, 1)
    assert green.prompt().startswith("Waiting for Blue (looting a body)")


def test_charity_is_announced_then_chosen_card_by_card_C_CHARITY_1_2():
    s = playing(3)
    s = s.replace(turn=s.turn.replace(phase=Phase.END))
    s = set_player(set_player(s, 0, level=3), 2, level=2)
    s = hand(s, 0, "CT02", "CT07", "CT49", "CT55", "CT58", "CT61", "CT64")
    m = model_of(s)
    end = Action(0, "end_turn")
    warning = m.end_turn_warning(end)
    assert warning.startswith("You hold 7 cards, the limit is 5: 2 cards go to Green (the lowest level).")
    s = feed(m, s, 0, "end_turn")
    assert m.prompt() == "Charity: 2 cards too many: for each, give it to Green (1-9, a: menu)."
    assert "Give Traffic Cone Helm to Green (charity)" in [e.label for e in m.menu()]
    assert m.costs_a_card(Action(0, "give", ("CT02", 1)))
    lowest = set_player(s.replace(pending=None), 0, level=1)  # the lowest level discards the excess (C-CHARITY-2)
    m = model_of(lowest)
    feed(m, lowest, 0, "end_turn")
    assert m.prompt() == "Charity: 2 cards too many: for each, discard it (1-9, a: menu)."
    assert "Discard Traffic Cone Helm (charity)" in [e.label for e in m.menu()]


def test_charity_numbers_its_choices_afresh_after_a_busy_turn_C_CHARITY_1():
    """A turn that spent its numbers (items played before the door, a fight) still gives each card
    of the charity a number, from 1; the number just pressed asks first if pressed again at once."""
    s = playing(3)
    s = set_player(set_player(s, 0, level=3), 2, level=2)
    items = [d.id for d in CARDS.treasure if d.kind == "item" and not d.big][:4]
    s = hand(s, 0, *items, "CT49", "CT61", "CT64", "CT63", "CD48", "CD22")
    m = model_of(s)
    for card in items:  # each takes a number, which is retired once done
        play = next(a for a in m.legal if a.kind == "play" and a.args[0] == card)
        assert play in m.numbers
        s = feed(m, s, 0, "play", card)
    s = s.replace(turn=s.turn.replace(phase=Phase.END))
    m.refresh(s)
    n = m.numbers[Action(0, "end_turn")]
    assert m.entry(n % 10) == Action(0, "end_turn")
    s = feed(m, s, 0, "end_turn")
    assert m.view.pending is not None and m.view.pending.kind == "charity"
    again = m.entry(n % 10)  # pressed twice: the second press does not give a card away unasked
    assert isinstance(again, str), again  # ("the question has changed", or no such number)
    gives = [e for e in m.menu() if e.action.kind == "give"]
    assert sorted(e.number for e in gives) == list(range(1, len(gives) + 1)), [(e.label, e.number) for e in gives]


def test_a_curse_on_oneself_comes_last_on_the_menu_C_CARD_8():
    m = model_of(hand(playing(3), 0, "CD48"))
    labels = [e.label for e in m.menu()]
    assert labels[-1] == "Curse yourself with Paperwork Error"
    assert labels[0] == "Kick open the door (draw a Door card face up)"
    assert m.entry(1) == Action(0, "kick") and labels.index("Curse Green with Paperwork Error") < len(labels) - 1


def test_selling_for_levels_in_words_C_ITEM_7():
    s = in_play(playing(3), 0, "CD69")  # a halfling: one item a turn counts double
    s = hand(s.replace(turn=s.turn.replace(phase=Phase.END)), 0, "CT05", "CT10")
    m = model_of(s)
    sale = next(e for e in m.menu() if e.action.kind == "buy")
    assert sale.label == "Sell Brain-Warming Beanie (600), Cardboard Cuirass (100): 1300 gold buys 1 level"
    assert m.costs_a_card(sale.action)


def test_epic_powers_show_when_they_apply_C_EPIC_2():
    s = in_play(playing(3, epic=True), 0, "CD66")  # a dwarf
    m = model_of(s)
    assert "EPIC" not in render.plain(render.render_map(m, 70, 20))
    s = set_player(s, 0, level=10)
    m = model_of(s)
    table = render.plain(render.render_map(m, 70, 20))
    assert "L10" in table and "EPIC" in table and "epic: no hand limit" in table
    assert "level 20 wins" in table
    info = render.plain(render.render_info(m, 80, 24))
    assert "limit none" in info and "epic powers: no hand limit" in info


def test_a_curse_window_asks_the_victim_C_CARD_8():
    s = hand(playing(3), 1, "CD48")  # Paperwork Error: lose a level
    s = hand(set_player(s, 0, level=3), 0, "CT58")  # Curse Insurance Policy cancels a curse
    m = model_of(s, 0)
    s = feed(m, s, 1, "curse", "CD48", 0)
    assert m.prompt() == "Paperwork Error is cursing you: cancel it with a card (1-9), or Space to take it."
    labels = [e.label for e in m.menu()]
    assert labels[0] == "Take the curse" and "Use Curse Insurance Policy: cancel the curse" in labels
    assert m.open_window()[0] == "curse"
    panel = render.plain(render.render_combat(m, 80, 10, now=m.clock()))
    assert "Curse · Paperwork Error · from Green" in panel and "On its way to Red" in panel
    assert "closes in 10 s · may still cancel it: Red" in panel


def test_the_keys_of_a_classic_game_leave_out_the_map_and_word_its_own():
    class UI:
        def __init__(self, model) -> None:
            self.model = model

    classic = keymod.help_sections(keymod.build(UI(model_of(playing()))))
    docs = {doc for _, items in classic for _, doc in items}
    keys = {k for _, items in classic for k, _ in items}
    assert "Kick open the door: the first step of your turn." in docs
    assert "Loot the room: no monster met, draw a Door card face down." in docs
    assert not any("map" in d.lower() or "explore" in d.lower() for d in docs), docs
    assert {"d", "l", "f", "r", "e", "1-9 0", "Tab", "?", "i", "q"} <= keys
    quest = keymod.help_sections(keymod.build(UI(Model(0, new_game(make_params(3), 1)))))
    assert any("Move or explore" in doc for _, items in quest for _, doc in items)


def test_keys_play_a_local_classic_game_through_a_pipe():
    """Seat 0 of a LocalTable with Classic bots: e readies, d kicks open the door on our turn, the
    fight is resolved with r; Enter on a race in play asks before discarding it."""
    async def main():
        s = new_game(make_params(4, mode="classic"), 3)
        table = LocalTable(s, seat=0, bot_delay=0)
        async with drive.running(connect, table) as (send, client):
            m = client.model
            assert isinstance(m, ClassicModel)
            await send("A")  # pass the windows of the bots' fights by ourselves
            await send("e")
            await until(lambda: m.view.phase != Phase.SETUP)

            def ours() -> bool:
                return actors(m.view) == (0,)

            kicked = False
            for _ in range(200):
                await until(ours, timeout=10)
                v = m.view
                if v.combat is None and v.pending is None and v.curse is None and v.turn.seat == 0:
                    if v.turn.phase == Phase.KICK:
                        await send("d")
                        kicked = True
                        await until(lambda: m.view.turn.phase != Phase.KICK or not ours())
                        continue
                    if kicked:
                        break
                if v.combat is not None and v.combat.stage == Stage.HELP:
                    await send(" ")
                elif v.combat is not None and v.combat.fighter == 0 and v.combat.stage == Stage.PREPARE:
                    await send("r")
                elif v.combat is not None and v.combat.stage == Stage.RUN:
                    await send("r")
                else:
                    await send("1")
            assert kicked and any("Red kicks open the door" in ln.text for ln in m.log)
            fits(m)
            me = m.view.players[0]
            if me.races or me.classes:
                target = (me.races + me.classes)[0]
                while m.selected != target:
                    await send("\t")
                await send("\r")
                if m.mode == CONFIRM:
                    assert m.question.startswith("Discard ")
                    await send("n")
                    assert target in m.view.players[0].races + m.view.players[0].classes

    asyncio.run(main())


def test_h_asks_for_help_in_ones_own_fight_C_HELP_1():
    """The prompt of one's own fight names h for asking help: pressed, it says which number asks
    whom (one player at a time); that number asks that player."""
    async def main():
        s = set_player(on_top(playing(3), "CD23"), 0, level=3)
        s, _ = act(s, 0, "kick")
        table = LocalTable(s, seat=0, bot_delay=0)
        async with drive.running(connect, table) as (send, client):
            m = client.model
            assert "h: ask for help" in m.prompt()
            await send("h")
            n = m.numbers[Action(0, "ask", (1,))]
            assert m.message == f"Ask whom? {n}: Green, {m.numbers[Action(0, 'ask', (2,))]}: Blue."
            await send(str(n % 10))
            await until(lambda: any(ln.text == "Red asks Green for help." for ln in m.log))

    asyncio.run(main())


def test_enter_on_a_card_in_play_asks_before_discarding_it():
    """Nothing costs a card by surprise: Enter on the race in play asks first; n keeps it, y
    discards it (C-CHAR-2: a race card may be discarded at any time)."""
    async def main():
        s = in_play(playing(4), 0, "CD63")  # Red's turn, an elf, nothing in hand
        table = LocalTable(s, seat=0, bot_delay=0)
        async with drive.running(connect, table) as (send, client):
            m = client.model
            await send("\t")
            assert m.selected == "CD63"
            await send("\r")
            assert m.mode == CONFIRM and m.question.startswith("Discard Elf With Excellent Hair (your race")
            await send("n")
            assert m.view.players[0].races == ("CD63",) and m.message == "Not done."
            await send("\t\r")
            await send("y")
            await until(lambda: m.view.players[0].races == ())
            assert any("Red discards Elf With Excellent Hair." == ln.text for ln in m.log)

    asyncio.run(main())


def test_epic_powers_are_offered_in_words_C_EPIC_3_6():
    """C-EPIC-6: an epic human may take a small monster as a pet; C-EPIC-3: an epic elf shoots
    arrows into another's fight, a card an arrow; the menu says so, with the fight after it."""
    s = set_player(on_top(playing(3, epic=True), "CD01"), 0, level=10)  # Grumpy Doormat, level 1
    s = in_play(set_player(s, 1, level=10), 1, "CD63")  # an epic elf
    s = hand(s, 1, "CT49")
    s, _ = act(s, 0, "kick")
    red = model_of(s, 0)
    assert "Take Grumpy Doormat (level 1) as your pet instead of fighting it (epic human)" in \
        [e.label for e in red.menu()]
    green = model_of(s, 1)
    s = feed(green, s, 0, "roll")
    arrows = [e.label for e in green.menu() if e.action.kind == "power"]
    assert "Shoot an arrow at Red (−2): discard Potion of Sudden Confidence: 8 vs 1, munchkins win" in arrows
    assert "epic: arrows" in render.plain(render.render_map(green, 80, 30))


def test_numbers_come_with_a_decision_and_keep_to_it():
    """Cards of any moment get no number while the game waits for others, so a window numbers its
    pass first; within the window a number done is not given to another action."""
    s = set_player(on_top(playing(3), "CD01"), 0, level=3)
    s = hand(hand(s, 1, "CD48"), 1, "CT49")  # Green: a curse and a one-shot
    s, _ = act(s, 0, "kick")
    green = model_of(s, 1)
    assert green.menu() and all(e.number is None for e in green.menu())  # Red prepares: nothing asked of Green
    s = feed(green, s, 0, "roll")
    assert green.entry(1) == Action(1, "pass") and green.entry(2) == Action(1, "use", ("CT49", "munchkins"))
    s = feed(green, s, 1, "use", "CT49", "munchkins")
    assert 1 in green.window_waiting() and green.entry(1) == Action(1, "pass")
    assert green.entry(2).startswith("Action 2 is done or no longer possible")


def test_what_is_possible_all_turn_long_takes_no_number_so_a_fights_cards_do():
    """Possible all turn long, showing the hand (C-ITEM-10), discarding a race or class card,
    giving an item away and setting it aside took the numbers at the turn's start and pushed a
    fight's one-shots below the pane; they are on the menu (a) without a number, and the fight's
    cards have numbers."""
    s = set_player(on_top(playing(3), "CD22"), 0, level=3)  # Banshee Alarm Clock: 9
    s = hand(in_play(in_play(s, 0, "CD78"), 0, "CT05"), 0, "CT63", "CT49", "CD48")  # a class, an item, two one-shots
    m = model_of(s)
    assert {e.action.kind for e in m.menu() if e.number is None} >= {"reveal", "discard", "give", "equip", "curse"}
    assert m.entry(1) == Action(0, "kick")
    s = feed(m, s, 0, "kick")
    numbered = {e.action.kind: e.number for e in m.menu() if e.number is not None}
    assert "reveal" not in numbered and "discard" not in numbered
    uses = [e for e in m.menu() if e.action.kind == "use"]
    assert {e.action.args[0] for e in uses} == {"CT63", "CT49"}
    assert all((e.number is None) == (e.action.args[1:] == ("monsters",)) for e in uses)  # (against one's own fight)
    assert any(e.action.kind == "reveal" for e in m.menu())


def test_after_a_door_without_a_monster_looting_has_a_number_C_TURN_4():
    """The turn's step after a door with no monster: looting the room (and trouble from the hand)
    get number keys shown on the pane, whatever the items in play and the curses in hand."""
    s = on_top(playing(3), "CD63")  # a race card: no monster behind the door
    s = hand(in_play(in_play(s, 0, "CD78"), 0, "CT05"), 0, "CD48", "CD22")  # a curse, a monster
    m = model_of(s)
    s = feed(m, s, 0, "kick")
    loot = next(e for e in m.menu() if e.action.kind == "loot")
    trouble = next(e for e in m.menu() if e.action.kind == "fight")
    assert loot.number is not None and trouble.number is not None
    assert loot.number in {e.number for e in m.menu()[:6]}


def test_a_bots_heading_at_80_columns_keeps_its_last_word():
    """A bot's heading in the table pane at 80x24 (45 columns) takes the short forms (⚙ for a bot,
    h3 for the hand) before anything is cut, so "ready" (and "EPIC", "dead") stay readable."""
    from mq.tui import classic_render as cr
    s = new_game(make_params(3, mode="classic", epic=True), 4)
    s, _ = step(s, Action(1, "ready"))
    m = model_of(s)
    m.bots, m.names = {1}, {1: "bot-of-the-north"}
    line = render.plain([cr.player_block(m, 1, 45, 4)[0]])
    assert line.endswith("ready") and "⚙" in line and "(bot)" not in line, line
    assert "(bot)" in render.plain([cr.player_block(m, 1, 70, 4)[0]])
    m.names = {1: "bot-of-the-far-north-east-and-a-bit"}  # too long even then: the name gives way
    line = render.plain([cr.player_block(m, 1, 45, 4)[0]])
    assert line.endswith("ready") and "…⚙" in line, line
    assert len(line) <= 45 and f"L{s.players[1].level}" in line, line


def test_the_table_panes_title_keeps_the_turns_words_at_80_columns():
    """45 columns (80x24): "turn 3: Red, kick open the door" whole; the pane's name gives way."""
    from mq.tui import classic_render as cr
    m = model_of(playing(3))
    wide, narrow = (render.plain(cr.render_table(m, w, 20)[:1]) for w in (80, 45))
    words = f"turn {m.view.turn.number}: Red, {m.phase_words()}"
    assert wide.strip() == f"The table · level 10 wins · {words}"
    assert words in narrow and len(narrow) <= 45 and "The table" not in narrow, narrow


def test_a_label_longer_than_three_lines_is_cut_at_its_end_never_short_of_its_small_words():
    from mq.tui.model import Entry
    m = model_of(playing(3))
    label = "Offer Blue your Giant Pet Crab in a Bucket for help, paid on a win (10 vs 14 with them) and more words"
    lines = render.plain(render._entry_lines(m, Entry(Action(0, "pass"), label, 4), 34, False)).split("\n")
    text = " ".join(line[3:].strip() for line in lines)
    assert len(lines) == 3 and text.endswith("…") and label.startswith(text[:-1]), lines


def test_a_step_of_the_turn_without_a_number_shows_its_letter_key():
    """When the turn's numbers are spent (cards played before the door), looting the room still
    shows a key on the pane: its letter, l, which the prompt names too."""
    from mq.tui.model import Entry
    m = model_of(playing(3))
    lines = render.plain(render._entry_lines(m, Entry(Action(0, "loot"), "Loot the room", None), 40, False))
    assert lines.startswith(" l Loot the room")
    pay = render.plain(render._entry_lines(m, Entry(Action(0, "pass"), "Pass", None), 40, False))
    assert pay.startswith(" · Pass")


def test_offers_of_help_to_accept_come_first_on_the_pane_C_HELP_1():
    """The prompt says "accept one (1-9)": the offers come first in the list, whatever numbers the
    turn's cards took before, so the eye finds them."""
    from mq.rules import legal_actions
    s = set_player(on_top(playing(3), "CD23"), 0, level=3)
    s = hand(s, 0, *[d.id for d in CARDS.treasure if d.kind == "oneshot"][:4])
    s, _ = act(s, 0, "kick")
    m = model_of(s)
    for seat in (1, 2):
        s = feed(m, s, 0, "ask", seat)
        offer = next((a for a in legal_actions(s, seat, CARDS) if a.kind == "offer"), Action(seat, "pass"))
        s = feed(m, s, seat, offer.kind, *offer.args)
    entries = m.menu()
    accepts = [e for e in entries if e.action.kind == "accept"]
    assert accepts and "accept one" in m.prompt()
    assert entries[:len(accepts)] == accepts
    assert [e.number for e in accepts] == list(range(1, len(accepts) + 1))  # and they take 1 on


def test_a_gift_or_a_theft_asks_first_whatever_the_key_C_ITEM_6_C_CHAR_5():
    s = in_play(in_play(playing(3), 0, "CT05"), 0, "CD78")  # Red: a head item, a thief
    s = hand(in_play(s, 1, "CT14"), 0, "CT49")
    m = model_of(s)
    give = Action(0, "give", ("CT05", 1))
    assert m.is_legal(give) and m.end_turn_warning(give) == (
        "Give Brain-Warming Beanie to Green for nothing (into their play)? y = give it, any other key = no")
    theft = next(a for a in m.legal if a.kind == "power" and a.args[0] == "theft")
    assert m.end_turn_warning(theft).startswith("Steal Socks of Unsettling Warmth from Green: roll 4+, a miss costs a "
                                                "level; discard ")
    assert theft not in m.numbers  # a gamble possible all turn long, one per item and card: on the menu only
    assert m.end_turn_warning(Action(0, "kick")) is None


def test_a_number_pressed_twice_never_does_two_different_things():
    """Red asks Green for help with its number; when Green refused and the fight's cards are
    back, that number names nothing else, and the cards have their numbers of before."""
    s = set_player(on_top(playing(3), "CD22"), 0, level=3)  # Banshee Alarm Clock: 9
    s = hand(s, 0, "CT63")  # Monster Repellent Spray: sends a monster away
    s, _ = act(s, 0, "kick")
    m = model_of(s)
    before = dict(m.numbers)
    ask = Action(0, "ask", (1,))
    n = m.numbers[ask]
    s = feed(m, s, 0, "ask", 1)
    s = feed(m, s, 1, "pass")
    assert ask not in m.legal and Action(0, "ask", (2,)) in m.legal
    assert isinstance(m.entry(n % 10), str) and "done or no longer possible" in m.entry(n % 10)
    assert all(m.numbers[a] == k for a, k in before.items() if a in m.numbers)


def test_a_lost_item_is_told_once_C_ITEM_8():
    s = in_play(hand(playing(3), 1, "CD56"), 0, "CT05")  # Yard Sale: lose an item; Red has one
    m = model_of(s)
    s = feed(m, s, 1, "curse", "CD56", 0)
    while s.curse is not None:
        s = feed(m, s, s.curse.waiting[0], "pass")
    if s.pending is not None:  # the victim chooses which item (C-ITEM-8)
        assert m.prompt() == "Bad luck: choose the item you lose (1-9, a: menu)."
        s = feed(m, s, 0, "choose", "CT05")
    assert [ln.text for ln in m.log].count("Red loses Brain-Warming Beanie.") == 1
    assert not any("discards Brain-Warming Beanie" in ln.text for ln in m.log)


def test_showing_the_hand_is_on_the_menu_and_on_the_table_C_ITEM_10():
    """C-ITEM-10: the menu offers to show the hand to each other player; the one shown sees the
    cards in the log and on the table overview (i), the others only that it happened."""
    s = hand(playing(3), 0, "CT05", "CD48")
    red, green, blue = model_of(s, 0), model_of(s, 1), model_of(s, 2)
    assert "Show your hand to Green (they see it until the turn ends)" in [e.label for e in red.menu()]
    s = feed((red, green, blue), s, 0, "reveal", 1)
    shown = f"Red shows you their hand: {CARDS.card('CT05').name}, {CARDS.card('CD48').name}."
    assert any(ln.text == shown for ln in green.log)
    assert any(ln.text == "Red shows their hand to Green." for ln in blue.log)
    assert any(ln.text == "You show your hand to Green." for ln in red.log)
    overview = render.plain(render.render_info(green, 100, 40))
    assert "Shows you their hand: " + CARDS.card("CT05").name in overview
    assert "Shows you their hand" not in render.plain(render.render_info(blue, 100, 40))


def test_the_turn_end_window_is_prompted_and_can_be_passed_automatically_C_DIGI_2():
    """C-DIGI-2 f: when Red's turn is over, Green (holding a curse) is asked to play or pass; Red
    and Blue read who is waited for; with auto-pass on Green's client passes; the window's passes
    do not fill the log."""
    s = playing(3)
    s = hand(s.replace(turn=s.turn.replace(phase=Phase.END)), 1, "CD48")
    red, green, blue = model_of(s, 0), model_of(s, 1), model_of(s, 2)
    s = feed((red, green, blue), s, 0, "end_turn")
    assert green.prompt().startswith("Red's turn is over: play a card now") and "Space to pass" in green.prompt()
    assert red.prompt().startswith("Your turn is over") and blue.prompt() == "Red's turn is over: waiting for Green…"
    assert green.window_waiting() == (1,) and green.auto_action() is None
    green.auto_pass = True
    assert green.auto_action() == Action(1, "pass")
    s = feed((red, green, blue), s, 1, "pass")
    assert s.turn.seat == 1 and "passes" not in " ".join(ln.text for ln in blue.log)


def test_deals_are_offered_answered_and_told_in_words_C_DIGI_3_C_HELP_3_C_HELP_7():
    """C-DIGI-3, C-HELP-3, 7: the fighter's menu offers an item for help, with the fight it makes;
    the one offered is asked in the prompt and answers from the menu; the fight panel lists the
    deal; the log tells it and, after the fight, the item passing."""
    s = in_play(set_player(on_top(playing(3), "CD20"), 1, level=5), 0, "CT05")  # Hydra 8; Red +3
    s = in_play(s, 2, "CT02")
    s, _ = act(s, 0, "kick")
    red, green, blue = model_of(s, 0), model_of(s, 1), model_of(s, 2)
    beanie = CARDS.card("CT05").name
    assert f"Offer Green your {beanie} for help, paid on a win (9 vs 8 with them)" in \
        [e.label for e in red.menu()]
    assert "Offer Green 1 Treasure card (picked in turns, the helper first) for help (9 vs 8 with them)" in \
        [e.label for e in red.menu()]
    assert f"Offer Green your {CARDS.card('CT02').name} to stay out of this fight (they may not help)" in \
        [e.label for e in blue.menu()]
    s = feed((red, green, blue), s, 0, "deal", 1, "help", "CT05", 0, "helper")
    assert green.prompt() == f"A deal: Red offers Green {beanie} if Green helps (the item if the fight is won). " \
                             "Accept or decline it (1-9, a: menu)."
    labels = [e.label for e in green.menu()]
    assert f"Accept: help Red (9 vs 8, munchkins win) for {beanie}, paid on a win" \
        in labels
    assert "Decline Red's deal" in labels
    assert f"Offered: Red offers Green {beanie} if Green helps" in render.plain(render.render_combat(blue, 100, 16, now=0.0))
    s = feed((red, green, blue), s, 1, "accept", "deal", 0)
    assert f"Deal: Red gives Green {beanie} if Green helps" in render.plain(render.render_combat(blue, 100, 16, now=0.0))
    s = feed((red, green, blue), s, 0, "roll")
    while s.combat is not None:
        s = feed((red, green, blue), s, s.combat.waiting[0], "pass")
    assert any(ln.text == f"As promised, {beanie} passes from Red to you." for ln in green.log)
    assert any(ln.text == f"As promised, {beanie} passes from Red to Green." for ln in blue.log)


def test_a_power_s_discard_is_the_player_s_choice_C_CHAR_3():
    """C-CHAR-3: each card of the hand may pay for a power: the menu lists each, and Tab to a card,
    Enter lists the powers it pays for; the bot pays with its least useful card."""
    s = hand(in_play(on_top(playing(), "CD20"), 0, "CD72"), 0, "CT46", "CT49")  # a warrior: berserk
    s, _ = act(s, 0, "kick")
    m = model_of(s)
    labels = [e.label for e in m.menu()]
    for card in ("CT46", "CT49"):
        assert any(x.startswith(f"Power: discard {CARDS.card(card).name} for extra strength") for x in labels)
        assert Action(0, "power", ("discard_bonus", card)) in m.card_actions(card)
    assert bot._spare(s, CARDS, m.legal, Action(0, "power", ("discard_bonus", "CT46"))) == \
        Action(0, "power", ("discard_bonus", "CT49"))
    assert any(x.startswith(f"Power: discard {CARDS.card('CD72').name} (in play) for extra strength")
               for x in labels)  # C-CHAR-3: the class card pays too, and the menu says it is in play


def test_the_log_says_where_a_card_kicked_open_goes_C_TURN_2():
    """C-TURN-2: a card kicked open that is neither a monster nor a curse goes to the kicker's hand:
    the log says so on the kick's line (the draw is not told again), for you and for the others."""
    from mq.classic.events import make
    from mq.tui.classic_model import ClassicScribe

    card = next(c for c in CARDS.door if c.kind not in ("monster", "curse"))
    for seat, whose in ((0, "your"), (1, "their")):
        events = [make(f) for f in (("kick", seat, card.id), ("draw", seat, "door", card.id, True))]
        logged = [line.text for line in ClassicScribe(0, CARDS).lines(None, None, events)]
        assert len(logged) == 1 and logged[0].endswith(f"{card.name}, into {whose} hand."), logged


def test_a_call_for_help_numbers_its_offers_from_1_whatever_this_turn_spent_C_HELP_1():
    """The prompt says "offer it for up to N Treasure cards (1-9)": the seat asked numbers the
    offers (a share, a card of the fighter's, or both) from 1, first on the pane, even when its pass and a card
    of the last-chance window held low numbers this turn (they would have pushed the offers
    below the pane, with 1 refusing)."""
    from mq.rules import legal_actions
    oneshot = next(d.id for d in CARDS.treasure if d.kind == "oneshot")
    s = set_player(on_top(playing(3), "CD14"), 0, level=4)
    s = hand(s, 1, oneshot, oneshot)
    s, _ = act(s, 0, "kick")
    s, _ = act(s, 0, "roll")  # ready to settle: the last-chance window
    green = model_of(s, 1)
    assert s.combat.stage == Stage.WINDOW and green.numbers
    card = next(a for a in legal_actions(s, 1, CARDS) if a.kind == "use" and a.args[0] == oneshot)
    s = feed(green, s, 1, card.kind, *card.args)  # Green spends a number on the window
    while s.combat.stage == Stage.WINDOW and s.combat.fighter in s.combat.waiting:
        s = feed(green, s, 0, "pass")
    if s.combat.stage == Stage.WINDOW:
        s = feed(green, s, s.combat.waiting[0], "pass")
    assert s.combat.stage == Stage.PREPARE, s.combat.stage
    s = feed(green, s, 0, "ask", 1)
    assert s.combat.stage == Stage.HELP and 1 in s.combat.waiting and "offer it" in green.prompt()
    entries = green.menu()
    asked = [e for e in entries if e.action.kind == "offer"]
    assert asked and entries[:len(asked)] == asked
    assert [e.number for e in asked[:9]] == list(range(1, min(len(asked), 9) + 1))


def test_help_asked_bid_and_picked_on_both_screens_C_HELP_1_C_HELP_3():
    """At 120x40 and 80x24: h names which number asks whom (one player at a time); the seat asked
    sees its offers with their terms in words, numbered from 1; the fighter sees two bids (one
    unasked) numbered from 1; after the win the picker sees the Treasure laid out, numbered from 1:
    nothing the prompt asks for is without a key."""
    s = set_player(set_player(in_play(on_top(playing(3), "CD20"), 0, "CT05"), 1, level=5), 2, level=5)
    s, _ = act(s, 0, "kick")  # Sulking Hydra 8 (3 Treasure): Red 4 alone, with Green or Blue 9
    models = red, green, blue = model_of(s, 0), model_of(s, 1), model_of(s, 2)
    assert red.ask_help() is None
    assert red.message == f"Ask whom? {red.numbers[Action(0, 'ask', (1,))]}: Green, {red.numbers[Action(0, 'ask', (2,))]}: Blue."
    s = feed(models, s, 0, "ask", 1)
    offers = [e for e in green.menu() if e.action.kind == "offer"]
    assert [e.number for e in offers[:9]] == list(range(1, 10)) and green.menu()[:9] == offers[:9]
    assert offers[1].label == "Offer to help for 1 Treasure card (the helper picking first) (with you: 9 vs 8)"
    assert any(e.label == f"Offer to help for 2 Treasure cards (the fighter picking first) and {CARDS.card('CT05').name} "
               "(with you: 9 vs 8)" for e in green.menu())
    for m in models:
        fits(m)
    s = feed(models, s, 2, "offer", 2, "helper", "")  # Blue, unasked
    s = feed(models, s, 1, "offer", 1, "turns", "")
    assert red.prompt() == "Fight, you lack 5: offers of help are in: accept one (1-9), or r: fight alone."
    bids = [e for e in red.menu() if e.action.kind == "accept"]
    assert sorted(e.number for e in bids) == [1, 2] and red.menu()[:2] == sorted(bids, key=lambda e: e.number)
    assert "Offered: Green offers to help Red for 1 Treasure card (picked in" in screen(red)
    assert red.log[-1].text == "Green offers to help for 1 Treasure card (picked in turns, the helper first)."
    fits(red)
    s = feed(models, s, 0, "accept", "deal", 1)
    s = feed(models, s, 0, "roll")  # (nobody can play: the window closes by itself, the fight is won)
    assert s.pending is not None and s.pending.seat == 1
    assert green.prompt() == "The fight's Treasure: pick a card (1 yours, picked in turns, the helper first) (1-9, a: menu)."
    picks = [e for e in green.menu() if e.action.kind == "choose"]
    assert [e.number for e in picks] == [1, 2, 3] and all(e.label.startswith("Take ") for e in picks)
    assert any("The fight's Treasure, face up:" in ln.text for ln in blue.log)
    for m in models:
        fits(m)


def test_ask_whom_names_the_keys_as_they_are_pressed_10_is_0():
    """The tenth number key is 0 (the pane shows "0"): "Ask whom?" says 0 too, never 10."""
    s = set_player(set_player(in_play(on_top(playing(3), "CD20"), 0, "CT05"), 1, level=5), 2, level=5)
    s, _ = act(s, 0, "kick")
    red = model_of(s, 0)
    red.numbers[Action(0, "ask", (2,))] = 10
    assert red.ask_help() is None
    assert red.message.endswith(", 0: Blue."), red.message


def test_auto_pass_never_takes_a_curse_on_you_that_a_card_of_yours_cancels_C_CARD_8():
    s = hand(playing(3), 1, "CD48")  # Paperwork Error: lose a level
    s = hand(set_player(s, 0, level=3), 0, "CT58")  # Curse Insurance Policy cancels a curse
    red = model_of(s, 0)
    red.auto_pass = True
    s = feed(red, s, 1, "curse", "CD48", 0)
    assert 0 in red.window_waiting() and red.is_legal(Action(0, "pass"))
    assert red.auto_action() is None  # Red decides: cancel it, or Space to take it


def test_a_short_fight_panel_folds_terms_so_that_they_add_up_C_COMBAT_2():
    s = set_player(in_play(on_top(playing(), "CD23"), 0, "CD63", "CT05", "CT06", "CT13", "CT30"), 0, level=3)
    s, _ = act(s, 0, "kick")  # Red: level 3 and four items, 11, against the karaoke machine
    m = model_of(s)
    tall = render.plain(render.render_combat(m, 45, 16, now=0.0))
    assert "Telescopic… +2" in tall and "others" not in tall  # room for every term
    short = render.plain(render.render_combat(m, 45, 10, now=0.0)).split("\n")
    assert len(short) <= 10 and all(len(line) <= 45 for line in short)
    assert any(line.startswith(" Red  11") for line in short)
    assert [line[:21].strip() for line in short[2:5]] == ["level 3", "Brain-Warming… +3", "others (i) +5"]  # 3 + 3 + 5
    assert "lack 2" in "\n".join(short) and "Win: 1 level" in "\n".join(short)  # the verdict never goes


def test_after_a_fight_its_result_keeps_two_lines_and_the_table_its_room():
    s = set_player(on_top(playing(4), "CD01"), 0, level=3)
    s, _ = act(s, 0, "kick")
    m = model_of(s)
    assert render.plan(m, 80, 24).combat >= 8  # the fight: as much as the table spares
    s = feed(m, s, 0, "roll")
    while s.combat is not None:  # the others' last chances: pass
        s = feed(m, s, s.combat.waiting[0], "pass")
    assert m.last_result is not None and render.plan(m, 80, 24).combat == 2
    assert "Last fight" in screen(m, 80, 24)


def test_cards_against_your_own_fight_and_thefts_take_no_number():
    gg = "CT49"  # Potion of Sudden Confidence: +3 for either side
    s = hand(set_player(on_top(playing(), "CD01"), 0, level=3), 0, gg)
    m = model_of(s)
    s = feed(m, s, 0, "kick")
    mine, theirs = Action(0, "use", (gg, "munchkins")), Action(0, "use", (gg, "monsters"))
    assert m.is_legal(theirs) and theirs not in m.numbers and mine in m.numbers  # the menu keeps it
    assert theirs in [e.action for e in m.menu()]


def test_the_table_gives_unused_rows_to_the_munchkins_who_need_them_and_keeps_the_decks_whole():
    s = in_play(in_play(on_top(playing(4), "CD01"), 1, "CT01", "CT06", "CT13", "CT30", "CT14", in_use=False), 0, "CT05")
    s = s.replace(door=s.door.replace(discard=(s.door.draw[-1],)), treasure=s.treasure.replace(
        discard=(s.treasure.draw[-1],)))
    s = s.replace(door=s.door.replace(draw=s.door.draw[:-1]), treasure=s.treasure.replace(draw=s.treasure.draw[:-1]))
    m = model_of(s)
    table = render.plain(render.render_map(m, 45, 18)).split("\n")
    assert "…(i)" not in "\n".join(table), table  # Green's five items set aside: the rows others leave free
    decks = " ".join(line.strip() for line in table[1:3])
    assert "Door " in decks and "discarded" in decks and decks.endswith("discarded"), table  # never cut mid-way


def test_a_hand_card_s_text_cut_at_80x24_says_so_and_i_shows_it_whole():
    s = hand(playing(3), 0, "CT58")  # Curse Insurance Policy
    m = model_of(s)
    m.selected = "CT58"
    text = m.card_text("CT58")
    pane = render.plain(render.render_hand(m, 34, 8))
    assert "…(i)" in pane and text not in " ".join(pane.split())  # cut, and it says where it is whole
    overview = " ".join(render.plain(render.render_info(m, 80, 24)).split())
    assert "Your hand (only you see it)" in overview and " ".join(text.split()) in overview
