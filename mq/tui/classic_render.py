"""The panels of a Classic game (CLASSIC.md): the table in place of the map, the fight with each
side's strength term by term, the players, the table overview (``i``) and the help's legend.

The same contract as mq.tui.render, which dispatches here for a model whose ``classic`` is set:
pure functions of ``(model, width, height)``, never more than ``height`` lines nor a line wider
than ``width``, reading the seat's view only (through mq.tui.classic_model and mq.classic.query),
never a clock (the window countdown is drawn for the ``now`` given).
"""
from __future__ import annotations

import dataclasses

from mq.classic import query
from mq.classic.state import Out, Phase, Stage
from mq.narrate import plural
from mq.rules.view import HIDDEN
from mq.tui import classic_trade as ct
from mq.tui import render as R
from mq.tui.classic_model import DEATH, ClassicModel, chance_words
from mq.tui.model import abbreviate, who

Line = R.Line


def plan(model: ClassicModel, width: int, height: int) -> R.Plan:
    """As mq.tui.render.plan, with one line per player on the right (the table on the left has
    their details) and a taller fight panel (both sides term by term)."""
    base = R._quest_plan(model, width, height)
    top = height - base.log - R.status_rows(model, width) - base.banners - (1 if model.mode == "chat" else 0)
    n = len(model.view.players)
    players = 1 + n if top >= 2 * n + 18 else 0  # a small screen: the table on the left says it all
    actions = base.actions + (base.players - players)
    # a small screen in a fight: the table keeps a line a munchkin, the fight gets the rest; after
    # the fight its result keeps two lines, and the table its room
    fight = (max(8, min(14, top // 2)) if top >= 24 else max(8, top - 1 - n)) if combat_shown(model) else 0
    if fight and model.view.combat is None and model.view.curse is None:
        fight = 2
    return dataclasses.replace(base, players=players, actions=actions, combat=fight)


SLOT_WORDS = {"head": "head", "armour": "armour", "feet": "feet", "none": ""}


def _item_words(model: ClassicModel, card: str, name_w: int) -> str:
    """An item in play: its name (in ``name_w`` characters at most), bonus and slot (C-ITEM-2):
    "Beanie +3 head", "Axe +3 1h"."""
    d = model.cards.card(card)
    slot = f"{d.hands}h" if d.slot == "hands" else SLOT_WORDS.get(d.slot, d.slot)
    bits = [abbreviate(d.name, name_w)] + ([f"{d.bonus:+d}"] if d.bonus else []) + ([slot] if slot else [])
    return " ".join(bits) + (" big" if d.big else "")


def combat_shown(model: ClassicModel) -> bool:
    """The fight panel shows during a fight, after one (its result) and while a curse is on its way."""
    v = model.view
    return v.combat is not None or v.curse is not None or model.last_result is not None


def _flow(parts: list[tuple[str, str]], width: int, indent: str = "   ") -> list[Line]:
    """Styled phrases flowed into lines of ``width``, continuation lines indented."""
    lines: list[Line] = [[]]
    used = 0
    for style, text in parts:
        if used and used + len(text) > width:
            lines.append([("", indent)])
            used = len(indent)
            text = text.lstrip()
        lines[-1].append((style, text))
        used += len(text)
    return [R.clip(line, width) for line in lines if line]


def person(model: ClassicModel, seat: int) -> str:
    """A seat as the table names it: "Red (you)", "Blue ann", "Green (bot)"."""
    if seat == model.seat:
        return f"{who(seat)} (you)"
    name = model.names.get(seat, "")
    words = who(seat) + (f" {name}" if name and name != "bot" else "")
    return words + (" (bot)" if seat in model.bots else "")


def _heading(model: ClassicModel, seat: int, width: int) -> Line:
    """A munchkin's first line: turn mark, name, level, race, class, gender, hand size and marks;
    too long for the pane (80x24), the short forms first (⚙ for a bot, h3), before any cut."""
    v = model.view
    p = v.players[seat]
    acting = set(model.waiting_for())
    mark = "▶" if v.turn is not None and v.turn.seat == seat else ("•" if seat in acting else " ")
    name = person(model, seat)
    head: list[tuple[str, str]] = [("class:bold", mark), (R.seat_style(seat), f"{name} "),
                                   ("class:bold", f"L{p.level} "), ("", f"{model.identity_words(seat)} "),
                                   ("class:dim", f"hand {len(p.hand)}")]
    if seat != model.seat and p.hand and HIDDEN not in p.hand:
        head.append(("class:dim", " (shown to you: i)"))  # C-ITEM-10: the table overview lists it
    if query.is_epic(v, seat):
        head.append(("class:combat.win", " EPIC"))
    if p.dead:
        head.append(("class:log.alert", f" {DEATH} dead until their turn"))
    if v.phase == Phase.SETUP and p.ready:
        head.append(("class:dim", " ready"))
    if sum(len(t) for _, t in head) > width:
        head[4] = ("class:dim", f"h{len(p.hand)}")
        bot = "⚙" if name.endswith(" (bot)") else ""
        name = name.removesuffix(" (bot)")
        excess = sum(len(t) for _, t in head) - len(head[1][1]) + len(name) + len(bot) + 1 - width
        if excess > 0:  # then the name, not the marks at the end (a long bot's name cut "ready")
            name = name[:max(3, len(name) - excess - 1)] + "…"
        head[1] = (R.seat_style(seat), f"{name}{bot} ")
    return R.clip(head, width)


def player_block(model: ClassicModel, seat: int, width: int, rows: int) -> list[Line]:
    """One munchkin at the table: level, race(s), class(es), gender, hand size, bot and dead
    marks, then the items in play (in use, set aside), curses, pet and epic powers, in at most
    ``rows`` lines."""
    v = model.view
    p = v.players[seat]
    lines = [_heading(model, seat, width)]
    parts: list[tuple[str, str]] = []
    name_w = 26 if width >= 60 else 18  # the items flow over lines: whole names where there is room
    used = [it for it in p.items if it.in_use]
    aside = [it for it in p.items if not it.in_use]
    if used:
        parts.append(("class:dim", "  in use: "))
        parts += [("", _item_words(model, it.card, name_w) + ("" if query.item_works(v, model.cards, seat, it.card) else " ✗")
                   + ("" if k == len(used) - 1 else ", ")) for k, it in enumerate(used)]
    if aside:
        parts.append(("class:dim", ("  " if used else "  ") + "aside: "))
        parts += [("class:dim", abbreviate(model.card_name(it.card), name_w) + ("" if k == len(aside) - 1 else ", "))
                  for k, it in enumerate(aside)]
    if not p.items:
        parts.append(("class:dim", "  no items in play"))
    for c in p.curses:
        parts.append(("class:log.alert", f"  cursed: {model.card_name(c)}"))
    for c in p.next_combat:
        parts.append(("class:log.alert", f"  next fight: {model.card_name(c)}"))
    if p.pet:
        parts.append(("class:combat.win", f"  pet: {model.card_name(p.pet)}"))
    if p.steed:  # C-PACK-5, 6
        parts.append(("class:combat.win", f"  steed: {model.card_name(p.steed)}"))
    if p.hireling:
        parts.append(("class:combat.win", f"  hireling: {model.card_name(p.hireling)}"))
    epic = model.epic_words(seat)
    if epic:
        parts.append(("class:combat.win", f"  epic: {epic}"))
    lines += _flow(parts, width)
    if len(lines) > rows > 1:  # more than fits: say so (the i screen has it all)
        lines = lines[:rows]
        lines[-1] = R.clip(lines[-1], width - 5) + [("class:dim", " …(i)")]
    return lines[:rows]


def render_table(model: ClassicModel, width: int, height: int) -> list[Line]:
    """The table, in place of Quest's map: the decks and discards (their top cards, C-DIGI-4),
    every munchkin (player_block), and a body being looted (C-DEATH-2)."""
    v = model.view
    win = v.params.win_level
    table = f"{'Epic, ' if v.params.epic else ''}level {win} wins"
    turn = f"turn {v.turn.number}: {who(v.turn.seat)}, {model.phase_words()}" if v.turn is not None else ""
    # Narrow (80x24): the turn's words matter most, then the goal; the pane's name goes first.
    heads = [" · ".join(w for w in (f"The table · {table}", turn) if w), " · ".join(w for w in (table, turn) if w)]
    lines = [R.title(next((h for h in heads if len(h) + 2 <= width), turn or heads[-1]), width)]
    decks, bare = [], []  # (bare: without the top discards, where the whole would take 3 lines, 80x24)
    for name, deck in (("Door", v.door), ("Treasure", v.treasure)):
        top = f" (top: {abbreviate(model.card_name(deck.discard[-1]), 20)})" if deck.discard else ""
        bare.append(f"{name} {len(deck.draw)} left, {len(deck.discard)} discarded")
        decks.append(bare[-1] + top)
    if len(R.wrap(" " + " · ".join(decks), width - 1)) > 2:
        decks = bare
    order = v.order or tuple(range(len(v.players)))
    for card in v.active:  # C-PACK-7: the rules of the whole table, name and rule at every size
        lines += R._para(f" Dungeon: {model.dungeon_words(card)}", width, "class:help")[:3]
    if height >= 3 + 2 * len(order):  # the decks, when there is room for more than a line a munchkin
        lines += R._para(" " + " · ".join(decks), width, "class:dim")[:2]
    if v.turn is not None:  # open offers of trades (C-ITEM-6), whole: what the prompt may say in short
        for t in v.current_turn.trades:
            answer = "1-9 answers" if t.to == model.seat else f"waiting for {who(t.to)}"
            words = f" Trade offered ({answer}): {model.scribe.trade_words(t.by, t.to, t.gives, t.takes)}."
            lines += R._para(words, width, "class:combat.timer")[:5]
    rest = height - len(lines)
    bodies = []
    for b in v.bodies:
        looters = ", ".join(who(s) for s in b.looters) or "nobody"
        cards = ", ".join(model.card_name(c) for c in b.cards) or "nothing left"
        bodies += R._para(f" {DEATH} {who(b.seat)}'s body: {cards}. Looting next: {looters}.", width, "class:log.alert")
    rest -= len(bodies)
    for seat, rows in zip(order, _rows_each(model, order, width, rest)):
        lines += player_block(model, seat, width, rows)
    return (lines[:height - len(bodies)] + bodies)[:height]


def _rows_each(model: ClassicModel, order, width: int, rest: int, most: int = 6) -> list[int]:
    """The table's rows for each munchkin: an even share of ``rest`` (at most ``most``), and the
    rows one leaves unused to those whose items need more (80x24: no blank rows under a cut list)."""
    want = [len(player_block(model, seat, width, most)) for seat in order]
    share = max(1, rest // max(1, len(order)))
    rows = [min(w, share) for w in want]
    spare = rest - sum(rows)
    for k, w in enumerate(want):
        more = max(0, min(w - rows[k], spare))
        rows[k] += more
        spare -= more
    return rows


def render_players(model: ClassicModel, width: int, height: int) -> list[Line]:
    """One line per munchkin: level, race and class initials, hand size; ▶ whose turn, • waited for."""
    v = model.view
    if v.turn is not None:
        head = f"Turn {v.turn.number} · {who(v.turn.seat)} · {model.phase_words()}"
    else:
        head = "Setup · get ready"
    lines = [R.title(head, width)]
    acting = set(model.waiting_for())
    for seat in v.order or tuple(range(len(v.players))):
        p = v.players[seat]
        mark = "▶" if v.turn is not None and v.turn.seat == seat else ("•" if seat in acting else " ")
        tag = "*" if seat == model.seat else ("⚙" if seat in model.bots else "")
        line: Line = [("class:bold", mark), (R.seat_style(seat), f"{who(seat) + tag:<8}"),
                      ("", f"L{p.level:<2} h{len(p.hand):<2} "), ("class:dim", model.identity_words(seat))]
        if p.dead:
            line.append(("class:log.alert", f" {DEATH}"))
        if p.curses or p.next_combat:
            line.append(("class:log.alert", " cursed"))
        lines.append(R.clip(line, width))
    return lines[:height]


def _folded(terms, most: int | None) -> list[tuple[str, int]]:
    """At most ``most`` terms: the first ones, then the rest as one ("others (i)": their sum), so
    that a side's terms still add up to its total in a short fight panel (80x24)."""
    terms = list(terms)
    if most is None or len(terms) <= most:
        return terms
    keep = terms[:max(0, most - 1)]
    return keep + [("others (i)" if keep else "in all (i)", sum(v for _, v in terms[len(keep):]))]


def _term_lines(terms, width: int) -> list[Line]:
    return [[("", f"   {n} {v}" if n == "level" else f"   {abbreviate(n, max(6, width - 5 - len(f'{v:+d}')))} {v:+d}")]
            for n, v in terms]


def _side_lines(model: ClassicModel, info, width: int, most: int | None = None) -> list[Line]:
    left: list[Line] = []
    for f in info.side:
        role = "" if f.seat == info.fighter else " (helper)"
        left.append([(R.seat_style(f.seat), f" {who(f.seat)}{role}"), ("class:bold", f"  {f.total}")])
        left += _term_lines(_folded(f.terms, most), width)
    if info.munchkin_bonus:
        left.append([("class:combat.win", f"   one-shots {info.munchkin_bonus:+d}")])
    return left


def _foe_lines(model: ClassicModel, info, width: int, most: int | None = None) -> list[Line]:
    right: list[Line] = []
    for foe in info.foes:
        label = abbreviate(foe.name + (" (copy)" if foe.mate else ""),
                           max(6, width - 6 - len(str(foe.total)) - len(str(foe.treasure))))
        if foe.out:
            right.append([("class:dim", f" {label}: {foe.out}" + (" (Treasure)" if foe.out == Out.DEFEATED else ""))])
            continue
        gives = f" · {foe.treasure} Treasure"  # what a win draws for it, short where the half is narrow
        if len(label) + len(str(foe.total)) + 3 + len(gives) > width:
            gives = f" {foe.treasure}T"
        right.append([("class:bold", f" {label}  {foe.total}"), ("class:dim", gives)])
        right += _term_lines(_folded([(n, v) for n, v in foe.terms if n != "level"], most), width)
    if info.monster_bonus:
        right.append([("class:combat.lose", f"   one-shots {info.monster_bonus:+d}")])
    return right


def _fitted(lines_of, room: int) -> list[Line]:
    """A column of the fight panel in ``room`` lines: every term while they fit, else each side's
    terms folded (``_folded``) to as many as fit."""
    lines = lines_of(None)
    most = len(lines)
    while len(lines) > room and most > 1:
        most -= 1
        lines = lines_of(most)
    return lines


def _verdict(model: ClassicModel, info, width: int) -> list[Line]:
    """Who wins as it stands, by how much, the win chance now (no dice in a Classic fight,
    C-COMBAT-1: all or nothing until a card changes it), what a win brings, what running needs."""
    o = info.odds
    chance = ("class:dim", f" · win chance now {round(100 * info.chance)}%")
    if o.wins:
        tie = " (a tie wins: warrior)" if o.mine == o.theirs else ""
        verdict = [("class:combat.win", f" {o.mine} vs {o.theirs}: the munchkins win as it stands{tie}"), chance]
    else:
        tie = "a tie wins" if info.ties_win else "a tie loses"
        verdict = [("class:combat.lose", f" {o.mine} vs {o.theirs}: the munchkins lack {o.short} ({tie})"), chance]
    out = _flow(verdict, width, "  ")
    if info.runner < 0:
        levels, treasure = info.rewards
        runs = [(f" {abbreviate(info.foes[i].name, 16)}: {escape_words(need, p)}" + (";" if k < len(info.escapes) - 1
                                                                                   else "."))
                for k, (i, need, p) in enumerate(info.escapes)]
        parts = [f"  Win: {plural(levels, 'level')}, {plural(treasure, 'Treasure card')}.", " Lose: run, a d6 each:"]
        out += _flow([("class:dim", t) for t in parts + (runs or [" nothing to run from."])], width, "    ")
    return out


def escape_words(need: int, chance) -> str:
    """A run-away roll's need in words: "4+ (50%)", "no escape", "escapes for sure"."""
    if chance <= 0:
        return "no escape"
    if chance >= 1:
        return "sure escape"
    return f"{need}+ ({chance_words(chance)})"


def _waiting(model: ClassicModel, info, width: int, now: float | None, what: str) -> Line:
    words = model.window_words(now)
    line: Line = [("class:combat.timer", f" {words} ·")] if words else []
    line.append(("class:dim", f" {what}"))
    return R.clip(line + [(R.seat_style(s), who(s) + " ") for s in info.waiting], width)


def render_combat(model: ClassicModel, width: int, height: int, now: float | None = None) -> list[Line]:
    """The fight: each side term by term (mq.classic.query), who wins as it stands and by how
    much, what a win brings and what running needs, the window open and its countdown."""
    info = model.combat_info()
    if info is None and model.view.curse is not None:
        return _curse_panel(model, width, height, now)
    if info is None:
        last = model.last_result
        if last is None:
            return []
        fighter, mine, theirs, won, how = last
        score = f" {mine} vs {theirs}:" if mine is not None else ""
        words = {"won": "won", "fled": "lost: ran away", "no_result": "ended without a result"}.get(
            how, "won" if won else "lost")
        return [R.title("Last fight", width),
                R.clip([(R.seat_style(fighter), f" {who(fighter)}"),
                        ("class:combat.win" if won else "class:combat.lose", f"{score} {words}")], width)][:height]
    v = model.view
    stage = {Stage.PREPARE: "preparing", Stage.HELP: "asking for help",
             Stage.WINDOW: f"last chance {info.windows}/{info.max_windows + 1}", Stage.RUN: "running away"}.get(
        info.stage, info.stage)
    lines = [R.title(f"Fight · {who(info.fighter)} · {stage}", width)]
    half = (width - 1) // 2
    foot: list[Line] = []
    if info.stage == Stage.RUN:
        runner = who(info.runner) if info.runner >= 0 else who(info.fighter)
        if info.die:
            i, roll = info.die
            foot += R._para(f" {runner} rolled {roll} against {info.foes[i].name}; a card may change the die.", width)
            foot.append(_waiting(model, info, width, now, "waiting for: "))
        else:
            runs = "; ".join(f"{info.foes[i].name}: {escape_words(need, p)}" for i, need, p in info.escapes)
            foot += R._para(f" The munchkins lost: {runner} runs, a d6 per monster: {runs or 'every roll made'}.", width)
    else:
        foot += _verdict(model, info, width)
        if info.stage == Stage.HELP:
            foot.append(_waiting(model, info, width, now, "asked for help: "))
        elif info.stage == Stage.WINDOW:
            foot.append(_waiting(model, info, width, now, "may still play: "))
        c = v.combat
        for d in c.proposed if c is not None else ():  # deals (C-DIGI-3): open offers, then those that bind
            foot += R._para(" Offered: " + model.scribe.deal_words(d.by, d.to, d.what, d.item, d.share, d.order,
                                                                   offered=True), width, "class:dim")
        for d in c.deals if c is not None else ():
            foot += R._para(" Deal: " + model.scribe.deal_words(d.by, d.to, d.what, d.item, d.share, d.order), width,
                            "class:dim")
        if model.help_missing() and info.fighter == model.seat:
            foot += R._para(" " + model.help_missing(), width, "class:dim")
    if v.curse is not None:
        foot.insert(0, R.clip([("class:log.alert", f" A curse is on its way: {model.card_name(v.curse.card)}"
                                f" to {who(v.curse.victim)}")], width))
    room = max(0, height - 1 - len(foot))
    body = R._two_columns(_fitted(lambda most: _side_lines(model, info, half, most), room),
                          _fitted(lambda most: _foe_lines(model, info, width - half - 1, most), room), width)
    return (lines + body[:room] + foot)[:height]


def _curse_panel(model: ClassicModel, width: int, height: int, now: float | None) -> list[Line]:
    """A curse on its way outside a fight (C-CARD-8, C-DIGI-2 d): what it does, to whom, and the
    window in which anyone may cancel it, with its countdown."""
    cur = model.view.curse
    by = "kicked open" if cur.by < 0 else f"from {who(cur.by)}"
    lines = [R.title(f"Curse · {model.card_name(cur.card)} · {by}", width),
             R.clip([("class:log.alert", f" On its way to {who(cur.victim)}")], width)]
    lines += R._para(" " + model.card_text(cur.card), width, "class:card.text")
    if cur.waiting:
        words = model.window_words(now)
        line: Line = [("class:combat.timer", f" {words} ·")] if words else []
        line.append(("class:dim", " may still cancel it: "))
        lines.append(R.clip(line + [(R.seat_style(s), who(s) + " ") for s in cur.waiting], width))
    return lines[:height]


def render_info(model: ClassicModel, width: int, height: int) -> list[Line]:  # noqa: C901 - one part per zone
    """The table overview (key i): every munchkin with every card in play and its text, the seat's
    own hand with its texts (what the hand pane cuts at 80x24), the fight's monsters with theirs,
    the decks; the rest all public (C-DIGI-4).  Scrolls with ``model.overlay_top``."""
    v = model.view
    rows: list[Line] = []
    for p in v.players:
        name = person(model, p.seat)
        limit = query.hand_limit(v, model.cards, p.seat)
        facts = [f"level {p.level}", model.identity_words(p.seat, gender=False), p.gender,
                 f"{plural(len(p.hand), 'card')} in hand (limit {'none' if limit >= 1000 else limit})"]
        big, big_limit = query.big_items(v, model.cards, p.seat)
        if big:
            facts.append(f"big items {big}/{'any' if big_limit >= 1000 else big_limit}")
        if p.dead:
            facts.append("dead until their next turn")
        first, *more = R.wrap(f"{name} · " + " · ".join(facts), width - 1)
        rows.append([(R.seat_style(p.seat), " " + first[:len(name)]), ("class:help", first[len(name):])])
        rows += [[("class:help", "   " + t)] for t in more]
        if p.seat != model.seat and p.hand and HIDDEN not in p.hand:  # shown to this seat (C-ITEM-10)
            rows += R._para("  Shows you their hand: " + ", ".join(model.card_name(c) for c in p.hand), width,
                            "class:help")
        for c in p.races + p.classes + tuple(x for x in (p.halfbreed, p.supermunchkin) if x):
            rows += R._para(f"  {model.card_name(c)} ({model.card_info(c)}): {model.card_text(c)}", width, "class:help")
        for it in p.items:
            state = "in use" if it.in_use else "set aside"
            cheat = f", with {model.card_name(it.cheat)}" if it.cheat else ""
            rows += R._para(f"  {model.card_name(it.card)} ({model.card_info(it.card)}; {state}{cheat})", width,
                            "class:help")
        for c in p.curses + p.next_combat:
            rows += R._para(f"  cursed: {model.card_name(c)}: {model.card_text(c)}", width, "class:log.alert")
        if p.pet:
            rows += R._para(f"  pet: {model.card_name(p.pet)}", width, "class:help")
        for role, card in (("steed", p.steed), ("hireling", p.hireling)):
            if card:
                rows += R._para(f"  {role}: {model.card_name(card)} ({model.card_info(card)})", width, "class:help")
        if model.epic_words(p.seat):
            rows += R._para(f"  epic powers: {model.epic_words(p.seat)}", width, "class:help")
    me = model.me()
    if me is not None and me.hand:  # only the seat's own hand (its view): each card's text whole
        rows += [[], [("class:help.section", " Your hand (only you see it)")]]
        for card in me.hand:
            rows += R._para(f"  {model.card_name(card)} ({model.card_info(card)}): {model.card_text(card)}", width,
                            "class:help")
    c = v.combat
    if c is not None:
        rows += [[], [("class:help.section", " The fight")]]
        for m in c.monsters:
            d = model.cards.card(m.card)
            rows += R._para(f"  {d.name} (level {d.level}, {plural(d.treasure, 'Treasure')}"
                            f"{', ' + ', '.join(d.keywords) if d.keywords else ''}){': ' + m.out if m.out else ''}: "
                            f"{d.text}", width, "class:help")
    if v.active:  # C-PACK-7
        rows += [[], [("class:help.section", " Dungeons (a rule for the whole table, monsters included)")]]
        for card in v.active:
            rows += R._para(f"  {model.dungeon_words(card)}: {model.cards.dungeon_card(card).text}", width, "class:help")
    rows += [[], [("class:help.section", " Decks")]]
    for name, deck in (("Door", v.door), ("Treasure", v.treasure)):
        top = f"; the top discard: {model.card_name(deck.discard[-1])}" if deck.discard else ""
        rows += R._para(f"  {name}: {len(deck.draw)} to draw, {len(deck.discard)} discarded{top}", width, "class:help")
    if model.log_file:
        rows += [[], [("class:help.section", " Protocol log")]]
        rows += [[("class:dim", " " + model.log_file[k:k + width - 2])] for k in range(0, len(model.log_file), width - 2)]
    body = max(1, height - 1)
    model.overlay_top = max(0, min(model.overlay_top, len(rows) - body))
    head = R.pad([("class:title", " The table (any key closes; j/k scroll)")], width, "class:title")
    out = [head] + [R.pad(r, width, "class:help") for r in rows[model.overlay_top:model.overlay_top + body]]
    return out + [R.pad([], width, "class:help")] * (height - len(out))


def help_legend(width: int) -> list[Line]:
    """The help's last lines for a Classic game: what the table's marks mean."""
    return R._pack([
        [("class:help", "Table:")], [("class:bold", "▶"), ("class:help", " whose turn")],
        [("class:bold", "•"), ("class:help", " waited for")], [("class:help", "⚙ a bot")],
        [("class:help", f"{DEATH} dead")], [("class:help", "✗ an item that gives its holder nothing")], [("class:help", "L3 level")], [("class:help", "h5 cards in hand")],
        [("class:help", "4T a monster's Treasure")],
        [("class:help", "Cards marked * can be played now; only you see your hand.")],
    ], width)


TRADE_KEYS = "1-9 0 or ↑↓ Space: mark or unmark · Tab: another player · Enter: send the offer · Esc: cancel"


def render_trade(model: ClassicModel, width: int, height: int) -> list[Line]:
    """Composing a trade (key x, mq.tui.classic_trade; C-ITEM-6): the seat's items in play and
    the partner's, each with its number key and a mark, what is offered for what in words, and
    every key the composer takes; over the whole screen, as the table overview (i)."""
    d = model.draft
    if d is None:
        return []
    v = model.view
    rows = model.trade_rows()
    others = [s for s in ct.partners(v, model.seat) if s != d.to]
    more = f" (Tab: {', '.join(who(s) for s in others)})" if others else ""
    head = R.pad([("class:title", f" Trade items in play with {who(d.to)}{more}")], width, "class:title")
    intro = R._para(f"Mark what you give and what you ask for, any number each side. {who(d.to)} accepts or "
                    "declines; what each gets arrives in play, not in use.", width, "class:help")
    items: list[tuple[int, Line]] = []  # (row of the draft or -1, the line)
    for k, (holder, card) in enumerate(rows):
        if k == 0 or holder != rows[k - 1][0]:
            whose = "You give (your items in play):" if holder == model.seat else \
                f"You ask for ({who(holder)}'s items in play):"
            items.append((-1, [("class:help.section", " " + whose)]))
        marked = card in (d.gives if holder == model.seat else d.takes)
        key = str((k + 1) % 10) if k < 10 else "·"
        here = k == d.cursor
        style = "class:menu.cursor" if here else "class:help"
        label = f" {'▸' if here else ' '}{key} [{'x' if marked else ' '}] {model.card_name(card)} ({model.card_info(card)})"
        items.append((k, [(style, label)]))
    foot = R._para(model.trade_summary(), width, "class:help.key")[:3]
    if model.message:
        foot += R._para(model.message, width, "class:status.error" if model.message_kind == "error" else "class:help")[:2]
    foot += R._para(TRADE_KEYS, width, "class:help")[:2]
    room = max(1, height - 1 - len(intro) - len(foot))
    at = next((i for i, (k, _) in enumerate(items) if k == d.cursor), 0)
    top = max(0, min(at - room + 1, len(items) - room)) if at >= room else 0
    shown = items[top:top + room]
    body = [R.pad(line, width, "class:help") for _, line in shown]
    if top + room < len(items):
        body[-1] = R.pad([("class:help", f"   … {len(items) - top - room + 1} more below (↓)")], width, "class:help")
    body += [R.pad([], width, "class:help")] * (room - len(body))
    out = [head] + [R.pad(r, width, "class:help") for r in intro] + body + [R.pad(r, width, "class:help") for r in foot]
    return [R.clip(line, width) for line in out[:height]]
