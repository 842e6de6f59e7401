"""The model -> formatted text: the dungeon map and every panel, as pure functions of
``(model, width, height)``.

Each renderer returns a list of lines, a line being a list of ``(style, text)`` fragments with
prompt_toolkit class styles (``"class:map.border"``); :data:`STYLE` maps the classes to colours.
Nothing here imports prompt_toolkit, so panels are tested and benchmarked as plain data.

Invariants:
- A renderer never returns more than ``height`` lines nor a line wider than ``width`` cells (every
  character used is one cell wide), so the layout never wraps or scrolls behind our back.
- Renderers read the model only (the seat's view, never a full state) and never change the game;
  the one thing they may adjust is a scroll position (the menu's, an overlay's), so what is
  selected stays visible and scrolling stops at the end.
- No renderer reads a clock: the interrupt window's countdown is drawn for the ``now`` it is given
  (the app passes ``model.clock()``), so a frame is a function of its arguments.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

from mq.narrate import plural
from mq.rules import board, combat
from mq.rules.character import item_bonus, max_hp, move_total
from mq.rules.state import COLOURS, DX, DY, LOOTED, OVER, SEARCHED, SETUP, Stage
from mq.tui.model import CHAT, CONFIRM, HELP, INFO, MENU, QUIT, TRADE, Model, abbreviate, deal_words, name_lines, who

Frag = tuple[str, str]
Line = list[Frag]

SEAT_HEX = ("#ff5f5f", "#5fd75f", "#5f9fff", "#ffff5f", "#d75fd7", "#ff8700")

STYLE: dict[str, str] = {
    **{f"seat{i}": f"fg:{c} bold" for i, c in enumerate(SEAT_HEX)},
    **{f"mon{i}": f"bg:{c} fg:#000000 bold" for i, c in enumerate(SEAT_HEX)},
    "mon-none": "bg:#808080 fg:#000000 bold",
    "dead": "fg:#767676",
    "title": "bg:#303a4a fg:#ffffff bold",
    "title.hint": "bg:#303a4a fg:#a8a8a8",
    "sep": "fg:#4e4e4e",
    "dim": "fg:#8a8a8a",
    "bold": "bold",
    "map.border": "fg:#6c6c6c",
    "map.here": "fg:#ffffff bold",
    "map.name": "fg:#d0d0d0",
    "map.name.here": "reverse bold",
    "map.unexplored": "fg:#5f5f87 bold",
    "map.mark": "fg:#d7d75f",
    "map.pile": "fg:#ffaf00 bold",
    "map.reach": "fg:#00d7d7 bold",
    "conn.door": "fg:#d7af87 bold",
    "conn.locked": "fg:#ff875f bold",
    "conn.secret": "fg:#af87ff bold",
    "conn.wall": "fg:#eeeeee bold",
    "hand.selected": "reverse",
    "card.text": "fg:#d7d7af italic",
    "hand.playable": "fg:#87d787 bold",
    "menu.cursor": "reverse bold",
    "menu.number": "fg:#87d7ff bold",
    "log.turn": "bold underline",
    "log.alert": "fg:#ff5f5f bold",
    "log.mine": "fg:#ffffff",
    "log.event": "fg:#c6c6c6",
    "log.info": "fg:#87afd7 italic",
    "log.chat": "fg:#d7d7af",
    "status": "bg:#262626 fg:#d0d0d0",
    "status.error": "bg:#5f0000 fg:#ffffff bold",
    "status.quit": "bg:#875f00 fg:#ffffff bold",
    "banner.desync": "bg:#af0000 fg:#ffffff bold",
    "banner.closed": "bg:#af0000 fg:#ffffff bold",
    "banner.away": "bg:#875f00 fg:#ffffff bold",
    "banner.over": "bg:#005f00 fg:#ffffff bold",
    "banner.info": "bg:#005f87 fg:#ffffff",
    "combat.win": "fg:#5fd75f bold",
    "combat.lose": "fg:#ff5f5f bold",
    "combat.timer": "fg:#ffaf00 bold",
    "help": "bg:#1c1c1c fg:#d0d0d0",
    "help.key": "bg:#1c1c1c fg:#87d7ff bold",
    "help.section": "bg:#1c1c1c fg:#ffffff bold underline",
}

CONN_GLYPH = {board.DOOR: "D", board.LOCKED: "L", board.SECRET: "S"}
CONN_STYLE = {board.DOOR: "class:conn.door", board.LOCKED: "class:conn.locked",
              board.SECRET: "class:conn.secret", board.WALL: "class:conn.wall"}
LEGEND = [("class:conn.door", "D"), ("class:dim", " door  "), ("class:conn.locked", "L"),
          ("class:dim", " locked  "), ("class:conn.secret", "S"), ("class:dim", " secret  "),
          ("class:conn.wall", "━"), ("class:dim", " wall  gap corridor  "),
          ("class:map.unexplored", "?"), ("class:dim", " unexplored")]
SHORT_LEGEND = [("class:conn.door", "D"), ("class:dim", "oor "), ("class:conn.locked", "L"),
                ("class:dim", "ocked "), ("class:conn.secret", "S"), ("class:dim", "ecret "),
                ("class:conn.wall", "━"), ("class:dim", "wall "), ("class:map.unexplored", "?"),
                ("class:dim", "dark")]
# Box-drawing junctions by the lines that meet there: (up, down, left, right).
JUNCTION = {
    (1, 1, 1, 1): "┼", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤", (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 1, 0, 0): "│",
    (0, 0, 1, 1): "─", (1, 0, 0, 0): "│", (0, 1, 0, 0): "│", (0, 0, 1, 0): "─", (0, 0, 0, 1): "─",
}


def seat_style(seat: int | None) -> str:
    return f"class:seat{seat}" if seat is not None and 0 <= seat < 6 else "class:bold"


# -- helpers --------------------------------------------------------------------------------------
def plain(lines: list[Line]) -> str:
    """The text of rendered lines, for tests and benchmarks."""
    return "\n".join("".join(t for _, t in line) for line in lines)


def clip(line: Line, width: int) -> Line:
    out, used = [], 0
    for style, text in line:
        if used >= width:
            break
        if used + len(text) > width:
            text = text[: width - used]
        out.append((style, text))
        used += len(text)
    return out


def pad(line: Line, width: int, style: str = "") -> Line:
    line = clip(line, width)
    used = sum(len(t) for _, t in line)
    return line + [(style, " " * (width - used))] if used < width else line


def title(text: str, width: int, hint: str = "") -> Line:
    """A panel's title bar: the title on the left, a key hint on the right when it fits."""
    text = f" {text} "
    if hint and len(text) + len(hint) + 2 <= width:
        gap = width - len(text) - len(hint) - 1
        return [("class:title", text), ("class:title.hint", " " * gap + hint + " ")]
    return pad([("class:title", text)], width, "class:title")


def wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, max(1, width)) or [""]


def coloured_words(text: str, base: str) -> Line:
    """A sentence with every colour name (a player) in that player's colour."""
    from mq.tui.model import COLOUR_WORD

    out: Line = []
    pos = 0
    for m in COLOUR_WORD.finditer(text):
        if m.start() > pos:
            out.append((base, text[pos:m.start()]))
        out.append((seat_style(COLOURS.index(m.group(1).lower())), m.group(1)))
        pos = m.end()
    if pos < len(text):
        out.append((base, text[pos:]))
    return out


# -- the screen plan ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """Panel sizes for a terminal of ``width`` x ``height`` (the layout's dimensions use it)."""

    right: int  # width of the right column (players, hand, actions)
    log: int  # height of the log row
    chat: int  # width of the chat pane beside the log (0: chat goes into the log)
    banners: int
    players: int
    actions: int
    combat: int  # height of the combat panel under the map (0: none)


def combat_shown(model: Model) -> bool:
    if model.classic:  # a curse window shows there too (C-CARD-8)
        return _classic().combat_shown(model)
    return model.view.combat is not None or model.last_result is not None


def _classic():
    from mq.tui import classic_render  # (it builds on this module: imported when first needed)

    return classic_render


def plan(model: Model, width: int, height: int) -> Plan:
    if model.classic:  # a Classic game: no map, the table instead (mq.tui.classic_render)
        return _classic().plan(model, width, height)
    return _quest_plan(model, width, height)


def _quest_plan(model: Model, width: int, height: int) -> Plan:
    right = max(34, min(56, width * 2 // 5))
    log = max(3, min(12, height // 4))
    chat = width // 3 if width >= 100 and not model.replaying else 0  # a replay has no chat
    banners = len(model.banners)
    top = max(6, height - log - status_rows(model, width) - banners - (1 if model.mode == CHAT else 0))
    n = len(model.view.players)
    players = 1 + 2 * n if top >= 2 * n + 1 + 12 else 1 + n
    # the hand and the actions share what is left: the actions get half, and whatever the hand
    # does not need (its cards, "in play:", the selected card's text), keeping the hand 4 rows
    avail = top - players
    items = model.selectables()
    hand_need = 1 + len(items) + (1 if len(items) > len(model.hand_cards()) else 0) + (2 if model.selected else 0)
    actions = max(3, min(max(12, avail - hand_need), avail - 4, max(avail // 2, avail - hand_need)))
    fight = 0
    if combat_shown(model):  # as tall as the fight needs (up to 12), leaving the map 6 rows
        fight = max(7, min(12, max(top // 2, _fight_rows(model, width - right - 1)), top - 6))
    return Plan(right, log, chat, banners, players, actions, fight)


def _fight_rows(model: Model, width: int) -> int:
    """The rows the Quest fight panel needs at ``width`` (up to 12), worked out once per view and
    width: the layout asks for the plan several times a frame.  (Classic sizes its own.)"""
    if model.classic:
        return 0
    view, result, at, rows = _FIGHT_ROWS[0]
    if view is not model.view or result != model.last_result or at != width:
        rows = len(render_combat(model, width, 12))
        _FIGHT_ROWS[0] = (model.view, model.last_result, width, rows)
    return rows


_FIGHT_ROWS: list[tuple] = [(None, None, 0, 0)]  # _fight_rows' last answer: (view, last result, width, rows)


# -- the map ---------------------------------------------------------------------------------------------
class Canvas:
    """A grid of characters with a style each; writes outside it are ignored (clipping)."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[""] * width for _ in range(height)]

    def put(self, x: int, y: int, ch: str, style: str) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.chars[y][x] = ch
            self.styles[y][x] = style

    def text(self, x: int, y: int, text: str, style: str) -> None:
        if 0 <= y < self.height:
            for i, ch in enumerate(text):
                self.put(x + i, y, ch, style)

    def lines(self) -> list[Line]:
        out = []
        for chars, styles in zip(self.chars, self.styles):
            line: Line = []
            start = 0
            for i in range(1, self.width + 1):
                if i == self.width or styles[i] != styles[start]:
                    line.append((styles[start], "".join(chars[start:i])))
                    start = i
            out.append(line)
        return out


def map_cell(width: int) -> tuple[int, int]:
    """Inner width and height of one room on the map: wider rooms on wider screens (at 80x24 the
    map is ~45 columns: four rooms across)."""
    return (12 if width >= 64 else 10), 4


def render_map(model: Model, width: int, height: int) -> list[Line]:  # noqa: C901 - one drawing pass
    if model.classic:
        return _classic().render_table(model, width, height)
    v = model.view
    cards = model.cards
    here = model.focus_room()
    lines: list[Line] = [title(f"Map · {abbreviate(model.room_name(here), max(8, width - 30))}", width,
                               "v reach · ⇧←→ scroll")]
    footer: list[Line] = []
    if height >= 14:
        footer.append(clip([("class:dim", " ")] + (LEGEND if width >= 66 else SHORT_LEGEND), width))
    if height >= 18:
        text = model.room_text(here)
        footer += [[("class:dim", " " + t)] for t in wrap(text, width - 2)[:2]]
    ch_h = max(0, height - 1 - len(footer))
    iw, ih = map_cell(width)
    cw, chh = iw + 1, ih + 1
    canvas = Canvas(width, ch_h)
    fx, fy = v.rooms[here].x + model.scroll[0], v.rooms[here].y + model.scroll[1]
    ox = (width - cw - 1) // 2 - fx * cw
    oy = (ch_h - chh - 1) // 2 - fy * chh
    fight = v.combat.room if v.combat is not None else -1
    if fight >= 0 and model.scroll == (0, 0):
        # someone fights out of sight: follow the fight until it ends (the title says so)
        fr = v.rooms[fight]
        if not (0 <= ox + fr.x * cw and ox + (fr.x + 1) * cw < width
                and 0 <= oy + fr.y * chh and oy + (fr.y + 1) * chh < ch_h):
            ox = (width - cw - 1) // 2 - fr.x * cw
            oy = (ch_h - chh - 1) // 2 - fr.y * chh
            lines = [title(f"Map · the fight in {abbreviate(model.room_name(fight), max(8, width - 40))}",
                           width, "v reach · ⇧←→ scroll")]
    cells = {(r.x, r.y): i for i, r in enumerate(v.rooms)}
    complete = board.is_complete(v)
    hedges: dict[tuple[int, int], tuple[int, bool]] = {}
    vedges: dict[tuple[int, int], tuple[int, bool]] = {}
    dark: set[tuple[int, int]] = set()
    for i, r in enumerate(v.rooms):
        mine = i == here
        for key, table, kind in (((r.x, r.y), hedges, r.sides[0]), ((r.x, r.y + 1), hedges, r.sides[2]),
                                 ((r.x, r.y), vedges, r.sides[3]), ((r.x + 1, r.y), vedges, r.sides[1])):
            old = table.get(key)
            table[key] = (kind, mine or (old is not None and old[1]))
        if not complete:
            for d in range(4):
                nx, ny = r.x + DX[d], r.y + DY[d]
                if r.sides[d] != board.WALL and (nx, ny) not in cells:
                    dark.add((nx, ny))
    # lines first, then the corners where they meet, then what is inside the rooms
    for (gx, gy), (kind, mine) in hedges.items():
        x0, y = ox + gx * cw, oy + gy * chh
        style = "class:map.here" if mine else "class:map.border"
        if kind == board.WALL:
            canvas.text(x0 + 1, y, "━" * iw, CONN_STYLE[board.WALL])
            continue
        canvas.text(x0 + 1, y, "─" * iw, style)
        mid = x0 + 1 + iw // 2
        if kind == board.CORRIDOR:
            canvas.text(mid - 1, y, "   ", "")
        else:
            canvas.put(mid, y, CONN_GLYPH[kind], CONN_STYLE[kind])
    for (gx, gy), (kind, mine) in vedges.items():
        x, y0 = ox + gx * cw, oy + gy * chh
        style = "class:map.here" if mine else "class:map.border"
        for k in range(1, ih + 1):
            canvas.put(x, y0 + k, "┃" if kind == board.WALL else "│",
                       CONN_STYLE[board.WALL] if kind == board.WALL else style)
        mid = y0 + (ih + 1) // 2
        if kind == board.CORRIDOR:
            canvas.put(x, mid - 1, " ", "")
            canvas.put(x, mid, " ", "")
        elif kind != board.WALL:
            canvas.put(x, mid, CONN_GLYPH[kind], CONN_STYLE[kind])
    corners = {(gx, gy) for gx, gy in hedges} | {(gx + 1, gy) for gx, gy in hedges}
    corners |= {(gx, gy) for gx, gy in vedges} | {(gx, gy + 1) for gx, gy in vedges}
    for cx, cy in corners:
        key = (int((cx, cy - 1) in vedges), int((cx, cy) in vedges), int((cx - 1, cy) in hedges),
               int((cx, cy) in hedges))
        lit = any(e is not None and e[1] for e in (vedges.get((cx, cy - 1)), vedges.get((cx, cy)),
                                                   hedges.get((cx - 1, cy)), hedges.get((cx, cy))))
        canvas.put(ox + cx * cw, oy + cy * chh, JUNCTION.get(key, "┼"),
                   "class:map.here" if lit else "class:map.border")
    for gx, gy in dark:
        canvas.put(ox + gx * cw + cw // 2, oy + gy * chh + chh // 2, "?", "class:map.unexplored")
    reach = model.reach() if model.show_reach else {}
    people: dict[int, list[int]] = {}
    for p in v.players:
        people.setdefault(p.room, []).append(p.seat)
    beasts: dict[int, list] = {}
    for m in v.monsters:
        beasts.setdefault(m.room, []).append(m)
    for i, r in enumerate(v.rooms):
        x0, y0 = ox + r.x * cw + 1, oy + r.y * chh + 1
        if x0 + iw < 0 or x0 >= width or y0 + ih < 0 or y0 >= ch_h:
            continue
        # one blank column inside each wall keeps a connector letter apart from the contents
        x0, w = x0 + 1, iw - 2
        here_style = "class:map.name.here" if i == here else "class:map.name"
        names = ["ENTRANCE"] if i == 0 else name_lines(cards.face(r.face).name, w, 2)
        for k, text in enumerate(names):
            canvas.text(x0, y0 + k, text.ljust(w) if i == here else text, here_style)
        x = x0
        for seat in people.get(i, ()):
            p = v.players[seat]
            letter = COLOURS[seat][0].upper()
            canvas.put(x, y0 + 2, letter if p.alive else letter.lower(),
                       seat_style(seat) if p.alive else "class:dead")
            x += 1
        if r.pile or r.pile_gold:
            pile = (f"▪{len(r.pile)}" if r.pile else "") + ("$" if r.pile_gold else "")
            canvas.text(x0 + w - len(pile), y0 + 2, pile, "class:map.pile")
        right = ""
        if i in reach and i != here:
            right = f"→{reach[i]}"
            canvas.text(x0 + w - len(right), y0 + 3, right, "class:map.reach")
        elif r.mark in (SEARCHED, LOOTED):
            right = "S!" if r.mark == SEARCHED else "L!"
            canvas.text(x0 + w - len(right), y0 + 3, right, "class:map.mark")
        limit = x0 + w - (len(right) + 1 if right else 0)
        x = x0
        ms = beasts.get(i, [])
        for k, m in enumerate(ms):
            chip = "B20" if m.boss else str(cards.card(m.card).level)
            rest = len(ms) - k
            if x + len(chip) > limit or (rest > 1 and x + len(chip) + 3 > limit):
                canvas.text(x, y0 + 3, f"+{rest}", "class:bold")
                break
            canvas.text(x, y0 + 3, chip, f"class:mon{m.colour}" if m.colour >= 0 else "class:mon-none")
            x += len(chip) + 1
    lines += canvas.lines()
    return (lines + footer)[:height]


# -- players ---------------------------------------------------------------------------------------------
def render_players(model: Model, width: int, height: int) -> list[Line]:
    if model.classic:
        return _classic().render_players(model, width, height)
    v = model.view
    cards = model.cards
    if v.turn is not None:
        head = f"Turn {v.turn.number} · {who(v.turn.seat)} · {model.phase_words()}"
    else:
        head = "Setup · get ready"
    lines = [title(head, width)]
    two = height >= 1 + 2 * len(v.players)
    acting = set(model.waiting_for())
    order = v.order or tuple(range(len(v.players)))
    for seat in order:
        p = v.players[seat]
        mark = "▶" if v.turn is not None and v.turn.seat == seat else ("•" if seat in acting else " ")
        name = who(seat) + ("*" if seat == model.seat else "")
        left = model.move_left(seat)
        hp = f"{p.hp}/{max_hp(p, cards)}"
        if width < 44:  # 80 columns: the right column is 34 wide; race/class as initials
            if model.names.get(seat):  # the map's letter and the player's name; ⚙ marks a bot
                tag = "*" if seat == model.seat else ("⚙" if seat in model.bots else "")
                name = f"{who(seat)[0]} {model.names[seat][:4 - len(tag)]}{tag}"  # 6 wide, as "Green*"
            line: Line = [("class:bold", mark), (seat_style(seat), f"{name:<7}"),
                          ("", f"L{p.level:<2} {hp + '♥':<5} ${p.gold:<4} h{len(p.hand):<2} ")]
            if left is None and p.alive:  # the active munchkin's move left (or DEAD) matters more
                line.append(("class:dim", "".join(w[:2] for w in model.identity_words(seat).split())))
        else:
            line = [("class:bold", mark), (seat_style(seat), f"{name:<8}"),
                    ("", f"L{p.level:<2} {hp}hp ${p.gold:<4} hand {len(p.hand)}")]
        cursed = getattr(p, "cursed", 0)  # a next-fight curse waiting (Q-CARD-8)
        if cursed:
            line.append(("class:log.alert", f" curse{cursed:+d}"))
        if not p.alive:
            line.append(("class:log.alert", " DEAD"))
        elif left is not None:
            line.append(("class:map.reach", f"mv{left}/{move_total(p, cards)}" if width < 44
                         else f" move {left}/{move_total(p, cards)}"))
        elif v.phase == SETUP and p.ready:
            line.append(("class:dim", " ready"))
        lines.append(clip(line, width))
        if two:
            gear = [model.card_name(it.card) for it in p.items if it.place != "backpack"]
            packed = sum(1 for it in p.items if it.place == "backpack")
            bonus = item_bonus(p, cards, ())
            person = model.person(seat)[len(who(seat)) + 1:]  # the name, "(bot)" for a bot
            desc = f"  {person + ' · ' if person else ''}{model.identity_words(seat)} · +{bonus} gear"
            room = max(8, width - len(desc) - 3)
            names = ", ".join(abbreviate(g, 14 if width < 60 else 22) for g in gear)
            if packed:
                names += (", " if names else "") + f"{packed} packed"
            if names:
                desc += ": " + (names if len(names) <= room else names[: room - 1] + "…")
            lines.append(clip([("class:dim", desc)], width))
    return lines[:height]


# -- the hand -----------------------------------------------------------------------------------------------
def render_hand(model: Model, width: int, height: int) -> list[Line]:
    """Only the seat's own cards: its hand (from its view) and what it has in play."""
    items = model.selectables()
    n_hand = len(model.hand_cards())
    lines = [title(f"Your hand ({n_hand})", width, "Tab select" if model.replaying else "Tab select · Enter play")]
    if model.seat is None:
        return (lines + [[("class:dim", " (watching: no hand)")]])[:height]
    playable = {model.card_of(a) for a in model.legal}
    fresh = model.fresh_now()  # new Treasure that may go into play on another's turn: "+"
    rows: list[Line] = []
    sel_row = 0
    in_play_row = None
    for k, s in enumerate(items):
        if k == n_hand:
            in_play_row = len(rows)
            rows.append([("class:dim", " in play:")])
        chosen = s.card == model.selected
        if chosen:
            sel_row = len(rows)
        info = model.card_info(s.card) if s.where == "hand" else s.where
        mark = "▸" if chosen else " "
        star = ("+" if s.where == "hand" and s.card in fresh else "*") if s.card in playable else " "
        name_w = max(6, width - len(info) - 4)
        name = abbreviate(model.card_name(s.card), name_w).ljust(name_w)
        style = "class:hand.selected" if chosen else ""
        rows.append(clip([(style, mark), ("class:hand.playable" if not chosen else style, star),
                          (style, name + " "), ("class:dim" if not chosen else style, info)], width))
    if not items:
        rows.append([("class:dim", " (no cards)")])
    text: list[Line] = []
    avail = height - 1
    if model.selected is not None and avail >= 3:
        want = wrap(f"{model.card_name(model.selected)}: {model.card_text(model.selected)}", width - 1)
        if avail >= 12:  # room to spare: a rule above the text, and as much text as fits
            keep = min(len(want), max(2, avail - len(rows) - 1))
            text = [[("class:dim", "─" * width)]] + [[("class:card.text", " " + t)] for t in want[:keep]]
        else:  # 80x24: the list comes first; the text keeps two lines (its own colour sets it apart)
            keep = min(len(want), 2 if avail >= 5 else 1)
            text = [[("class:card.text", " " + t)] for t in want[:keep]]
        if keep < len(want):  # the rest of the text: cut, saying so and where it is whole (Classic: i)
            more = " …(i)" if model.classic else " …"
            text[-1] = [("class:card.text", " " + want[keep - 1][:max(1, width - 1 - len(more))] + more)]
    space = max(1, height - 1 - len(text))
    start = max(0, min(sel_row - space // 2, len(rows) - space))
    shown = rows[start:start + space]
    end = start + len(shown)  # the first row not shown
    if in_play_row is not None and start > in_play_row and space >= 2:
        # Scrolled into the cards in play: their heading stays on top, so they never pass for the hand.
        if sel_row > start:
            shown = [rows[in_play_row]] + shown[1:]
        else:
            shown, end = [rows[in_play_row]] + shown[:-1], end - 1
    if end < len(rows) and len(shown) >= 2 and sel_row < end - 1:
        # Cards below the pane say so, the cards in play apart: a heading with nothing under it
        # would read as "nothing in play".
        hidden = [k for k in range(end - 1, len(rows)) if k != in_play_row]
        in_play = sum(1 for k in hidden if in_play_row is not None and k > in_play_row)
        say = [f"{len(hidden) - in_play} more" if len(hidden) > in_play else "", f"{in_play} in play" if in_play else ""]
        shown = shown[:-1] + [[("class:dim", f" … {', '.join(w for w in say if w)} below (Tab)")]]
    return (lines + shown + text)[:height]


# -- the action menu ---------------------------------------------------------------------------------------
def render_actions(model: Model, width: int, height: int) -> list[Line]:
    """The possible actions, each with its number key (kept while it stays possible); a label
    too long for the pane wraps onto more lines rather than losing the words where two entries
    differ (only a label longer than three lines is cut, at its end)."""
    entries = model.menu()
    if model.mode == MENU:
        head = "Actions" + (f": {abbreviate(model.card_name(model.menu_card), 20)}" if model.menu_card else "")
        lines = [title(head, width, "↑↓ Enter Esc")]
    elif model.replaying:  # what the seat could have done there; nothing can be done in a replay
        lines = [title("Actions", width, "replay: read-only")]
    else:
        lines = [title("Actions", width, "1-9 do · a menu")]
    if not entries:
        if model.view.phase == OVER:
            msg = " The game is over."
        else:
            waiting = model.waiting_for()
            msg = " Waiting for " + ", ".join(who(s) for s in waiting) + "…" if waiting else " Nothing to do."
        return lines + [[("class:dim", msg)]]
    rows = max(1, height - 1)
    blocks = [_entry_lines(model, e, width, model.mode == MENU and k == model.menu_cursor)
              for k, e in enumerate(entries)]
    if model.mode == MENU:
        _scroll_menu(model, blocks, rows)
    top = model.menu_top if model.mode == MENU else 0
    shown: list[Line] = []
    k = top
    while k < len(blocks) and len(shown) + len(blocks[k]) <= rows:
        shown += blocks[k]
        k += 1
    if k < len(blocks) or top:  # the last row says what is hidden
        while shown and len(shown) > rows - 1:
            k -= 1
            shown = shown[:len(shown) - len(blocks[k])]
        where = [f"{top} above"] if top else []
        where += [f"{len(blocks) - k} more below"] if k < len(blocks) else []
        how = "↑↓" if model.mode == MENU else "a, then ↓"
        if rows > 1:
            shown.append(clip([("class:dim", f"   … {', '.join(where)} ({how})")], width))
    return (lines + shown)[:height]


def _entry_lines(model: Model, e, width: int, cursor: bool) -> list[Line]:
    """One menu entry: its number key and its label, wrapped (at most three lines)."""
    letter = None if e.number is not None or model.replaying else model.letter_key(e.action)
    number = letter or ("·" if e.number is None or model.replaying else str(e.number % 10))
    style = "class:menu.cursor" if cursor else ""
    words = textwrap.wrap(e.label, max(8, width - 3), break_on_hyphens=False) or [""]
    if len(words) > 3:  # cut at the end: a sentence short of its small words reads garbled
        words = words[:2] + [textwrap.shorten(" ".join(words[2:]), max(8, width - 3), placeholder="…")]
    out = [[("class:menu.number" if not cursor else style, f" {number} "), (style, words[0])]]
    out += [[(style, "   " + w)] for w in words[1:]]
    return [pad(line, width, style) if cursor else clip(line, width) for line in out]


def _scroll_menu(model: Model, blocks: list[list[Line]], rows: int) -> None:
    """Keep the menu's cursor entry on screen, all its lines (and a row for the '… more' line)."""
    cur = model.menu_cursor
    if cur < model.menu_top:
        model.menu_top = cur
    while model.menu_top < cur and sum(len(b) for b in blocks[model.menu_top:cur + 1]) > rows - 1:
        model.menu_top += 1


# -- combat -------------------------------------------------------------------------------------------------
def _terms(terms) -> list[str]:
    return [f"  {name} {value:+d}" if name != "level" else f"  level {value}" for name, value in terms
            if value or name == "level"]


def _one_line(terms: list[Line]) -> Line:
    """Term lines ("  level 3", "  items +5") as one ("  level 3, items +5"), wrapped by _column."""
    return [("", "  " + ", ".join(line[0][1].strip() for line in terms))]


def _column(lines: list[Line], width: int) -> list[Line]:
    """A fight column's lines in ``width``: a plain term too long for it (one fragment: "+1 die:
    good for human") goes on over an indented line instead of being cut mid-word."""
    out: list[Line] = []
    for line in lines:
        if len(line) == 1 and len(line[0][1]) > width and line[0][1].startswith("  "):
            style, text = line[0]
            out += [[(style, s)] for s in textwrap.wrap(text.strip(), max(4, width), initial_indent="  ",
                                                         subsequent_indent="    ")]
        else:
            out.append(line)
    return out


def _two_columns(left: list[Line], right: list[Line], width: int) -> list[Line]:
    half = (width - 1) // 2
    left, right = _column(left, half), _column(right, width - half - 1)
    out = []
    for k in range(max(len(left), len(right))):
        a = pad(left[k], half) if k < len(left) else [("", " " * half)]
        b = clip(right[k], width - half - 1) if k < len(right) else []
        out.append(a + [("class:sep", "│")] + b)
    return out


def _result_lines(model: Model, e: tuple, width: int) -> list[Line]:
    """The rolled fight in one line, or two on a narrow panel."""
    dice = "+".join(map(str, e.dice)) or "none"
    tdice = "+".join(str(x) for d in e.monster_dice for x in d) or "none"
    verdict = ("class:combat.win", " WON") if e.won else ("class:combat.lose", " LOST")
    first = [("", " Rolled: "), (seat_style(e.fighter), who(e.fighter)), ("", f" dice {dice} → {e.total}")]
    second = [("", f"  vs  monsters dice {tdice} → {e.monster_total}:"), verdict]
    if sum(len(t) for _, t in first + second) <= width:
        return [first + second]
    return [clip(first, width), clip([("", "  ")] + second, width)]


def _para(text: str, width: int, style: str = "") -> list[Line]:
    return [[(style, " " + t)] for t in wrap(text, width - 1)]


def _mon_style(m) -> str:
    return f"class:mon{m.colour}" if m.colour >= 0 else "class:mon-none"


def _waiting(model: Model, info, width: int, now: float | None, what: str = "waiting for: ") -> Line:
    """Who an interrupt window waits for, after its countdown when there is one: the countdown
    comes first so a narrow panel cuts names (the players panel marks them too), not the time."""
    words = model.window_words(now)
    line: Line = [("class:combat.timer", f" {words} ·")] if words else []
    line.append(("class:dim", f" {what}"))
    return clip(line + [(seat_style(s), who(s) + " ") for s in info.waiting], width)


def render_combat(model: Model, width: int, height: int, now: float | None = None) -> list[Line]:  # noqa: C901
    """The fight; ``now`` (the model's clock) draws an open interrupt window's countdown."""
    if model.classic:
        return _classic().render_combat(model, width, height, now)
    info = model.combat_info()
    last = model.last_result
    if info is None:
        if last is None:
            return []
        lines = [title("Last fight", width)]
        _, seat, mine, my_dice, theirs, their_dice, me, them, won = last
        left = [[(seat_style(seat), f" {who(seat)}")]] + [[("", t)] for t in _terms(mine)]
        left.append([("", f"  rolled {'+'.join(map(str, my_dice)) or 'no dice'}")])
        right = [[("class:bold", " monsters")]]
        for t, d in zip(theirs, their_dice):
            if not d and all(name == "one-shots" for name, _ in t):  # played for the monsters (Q-HELP-3)
                right += [[("class:combat.lose", f"  one-shots {v:+d} (played for them)")] for _, v in t]
                continue
            right += [[("", s)] for s in _terms(t)] + [[("", f"  rolled {'+'.join(map(str, d)) or 'no dice'}")]]
        body = _two_columns(left, right, width)
        res = _result_lines(model, last, width)
        return (lines + body[: max(0, height - 1 - len(res))] + res)[:height]
    stage = {Stage.PREPARE: "preparing", Stage.WINDOW: "interrupt window", Stage.HELP: "asking for help",
             Stage.OUTCOME: "dice rolled", Stage.RUN: "running away", Stage.ESCAPE: "escaping",
             Stage.REROLL: "escaping"}.get(info.stage, info.stage)
    room_w = max(8, min(24, width - len(f"Combat in  · {stage}") - 2))  # the stage is never cut off
    lines = [title(f"Combat in {abbreviate(model.room_name(info.room), room_w)} · {stage}", width)]
    side = [(seat_style(info.fighter), f" {who(info.fighter)}")]
    if info.helper >= 0:
        side += [("", " + "), (seat_style(info.helper), who(info.helper))]
    left = [side + [("class:bold", f"  {info.fixed} + {info.dice}d6")]]
    mine_at = len(left)  # where the fighter's terms are, one a line (see the short pane below)
    left += [[("", t)] for t in _terms(info.terms)]
    left += [[("", f"  {name} +{n} {'die' if n == 1 else 'dice'}" if n else f"  {name}: no extra die")]
             for name, n in info.dice_terms]
    left += [[("", f"  {'' if s == info.fighter else 'helper '}{die:+d} die: {words}")] for s, words, die in info.icons]
    right: list[Line] = []
    theirs = 0  # how many term lines of one monster follow right[0]
    half = width - (width - 1) // 2 - 1
    if len(info.monsters) == 1:  # one monster: term by term, like the munchkin
        m = info.monsters[0]
        total = combat.total(m.terms)
        right.append([(_mon_style(m), "B" if m.boss else " "),
                      ("class:bold", f" {abbreviate(m.name, max(6, half - 12))}  {total} + {m.dice}d6")])
        theirs = len(_terms(m.terms))
        right += [[("", t)] for t in _terms(m.terms)]
    else:  # a group: its total, then one line per monster with what is added to its level
        right.append([("class:bold", f" Monsters  {info.monster_fixed} + {info.monster_dice}d6")])
        for m in info.monsters:
            extra = ", ".join(f"{n} {v:+d}" for n, v in m.terms if n != "level" and v)
            tail = f" {combat.total(m.terms)} {m.dice}d6" + (f" ({extra})" if extra else "")
            name = abbreviate(m.name, max(6, half - len(tail) - 3))
            right.append([(_mon_style(m), "B" if m.boss else " "), ("", f" {name}{tail}")])
    if info.monster_bonus:
        right.append([("class:combat.lose", f"  one-shots {info.monster_bonus:+d} (played for them)")])
    body = _two_columns(left, right, width)
    foot: list[Line] = []
    hint: list[Line] = []
    if info.rolled is not None:  # the dice are on the table; die changers may still act
        me, them, won = info.rolled
        dice = "+".join(map(str, info.my_dice)) or "none"
        tdice = "+".join(str(x) for d in info.their_dice for x in d) or "none"
        verdict = ("class:combat.win", " wins so far") if won else ("class:combat.lose", " loses so far")
        foot += [clip([("", " Rolled: "), (seat_style(info.fighter), who(info.fighter)),
                       ("", f" dice {dice} → {me}  vs  monsters dice {tdice} → {them}:"), verdict], width)]
        if info.waiting:
            foot.append(_waiting(model, info, width, now, "a die may still change; waiting for: "))
    elif info.stage == Stage.HELP:
        offers = "; ".join(f"{who(s)}'s counter-offer: {deal_words(g, t, i, model.cards, f)}" if s == info.fighter
                           else f"{who(s)} for {deal_words(g, t, i, model.cards, f)}" for s, g, t, i, f in info.offers)
        foot += _para(f"{who(info.fighter)} asks for help. Offers: {offers or 'none yet'}.", width)
        if info.waiting:
            foot.append(_waiting(model, info, width, now))
    elif info.stage in (Stage.PREPARE, Stage.WINDOW):
        need = info.need  # the fighter wins when own dice - monsters' dice >= need
        if need > 0:
            words = f"must roll {need}+ more than the monsters"
        elif need == 0:
            words = "must equal or beat the monsters' roll"
        else:
            words = f"wins unless the monsters roll {1 - need}+ more"
        chance = info.chance
        if chance >= 1 - 1e-9:
            words, odds = "wins whatever the dice", ""
        elif chance <= 1e-9:
            words, odds = "cannot win by the dice alone", "one-shots, help or run"
        else:
            pct = "<1%" if chance < 0.01 else ">99%" if chance > 0.99 else f"{chance:.0%}"
            odds = f"win chance {pct}; " + ("a tie wins (warrior)" if info.ties_win else "a tie loses")
        if len(f" {who(info.fighter)} {words}") <= width:
            foot.append([(seat_style(info.fighter), f" {who(info.fighter)}"), ("", f" {words}")])
        else:  # a narrow panel: the verdict wraps rather than losing its end
            foot += _para(f"{who(info.fighter)} {words}", width)
        if odds:
            foot.append(clip([("class:dim", f"  {odds}")], width))
        if model.help_missing():  # a hint: shown where the panel has room for it after the terms
            hint = _para(model.help_missing(), width, "class:dim")
        if info.stage == Stage.WINDOW:
            foot.append(_waiting(model, info, width, now))
    elif info.stage == Stage.RUN:
        foot += _para(f"The munchkins lost: {who(info.runner)} must run and chooses a room.", width)
    elif info.run_to >= 0:
        needs = "; ".join(f"{model.monster_label(u)} needs {model.escape_need(u)}+"
                          for u in info.to_escape) or "none"
        foot += _para(f"{who(info.runner)} escapes towards {model.room_name(info.run_to)}, a die per monster: "
                      f"{needs}.", width)
    else:
        foot += _para("Cornered, no way out: every monster's Bad Stuff applies.", width)
    if last is not None and last.fighter == info.fighter:
        foot = _result_lines(model, last, width) + foot
    room = max(0, height - 1 - len(foot))
    if len(body) > room:  # a short pane (80x24): each side's terms on one line, so none is lost
        mine = len(_terms(info.terms))
        left[mine_at:mine_at + mine] = [_one_line(left[mine_at:mine_at + mine])]
        if theirs:
            right[1:1 + theirs] = [_one_line(right[1:1 + theirs])]
        body = _two_columns(left, right, width)
    if len(body) + len(hint) <= room:
        foot += hint
    return (lines + body[:room] + foot)[:height]


# -- log, chat, status, banners -------------------------------------------------------------------------
def _log_rows(items, width: int, height: int) -> list[Line]:
    rows: list[Line] = []
    for line in reversed(items):
        if line.kind == "turn":
            style = "class:log.turn"
            text = f"── {line.text} ──"
        else:
            style = f"class:log.{line.kind}"
            text = line.text
        wrapped = wrap(text, width - 1)
        if line.kind == "turn":
            chunk = [[(style + (" " + seat_style(line.seat) if line.seat is not None else ""), t)] for t in wrapped]
        else:
            chunk = [coloured_words(t, style) for t in wrapped]
        rows = chunk + rows
        if len(rows) >= height:
            break
    return [clip(r, width) for r in rows[-height:]] if height > 0 else []


def render_log(model: Model, width: int, height: int, with_chat: bool = True) -> list[Line]:
    items = list(model.log)
    if model.log_back:
        items = items[: len(items) - model.log_back]
        head = title(f"Log · {model.log_back} newer below", width, "PgDn/End: latest")
    else:  # a replay's log follows the entry shown; PgUp is its previous turn
        head = title("Log", width, "" if model.replaying else "PgUp reads back")
    items = [ln for ln in items if with_chat or ln.kind != "chat"]
    return [head] + _log_rows(items, width, height - 1)


def render_chat(model: Model, width: int, height: int) -> list[Line]:
    return [title("Chat", width, "t talk")] + _log_rows(list(model.chat), width, height - 1)


def _status(model: Model) -> tuple[str, str]:
    """The status line's text and style: a question, an explanation, or what the game waits for."""
    if model.mode == QUIT:
        return "Quit the game? y = yes, any other key = no", "class:status.quit"
    if model.mode == CONFIRM:
        return model.question, "class:status.quit"
    if model.message:
        return model.message, "class:status.error" if model.message_kind == "error" else "class:status"
    return model.prompt(), "class:status"


STATUS_ROWS = 3  # a question or an explanation wraps onto this many rows at most


def status_rows(model: Model, width: int) -> int:
    """How many rows the status line needs at ``width`` (1 to STATUS_ROWS): nothing it says is cut."""
    return max(1, min(STATUS_ROWS, len(wrap(_status(model)[0], width - 1))))


def render_status(model: Model, width: int, height: int = 1) -> list[Line]:
    text, style = _status(model)
    rows = wrap(text, width - 1)[:max(1, height)]
    return [pad([(style, " " + t)], width, style) for t in rows]


def render_banners(model: Model, width: int, height: int) -> list[Line]:
    out = []
    for b in model.banners[-height:] if height > 0 else []:
        style = f"class:banner.{b.kind}" if f"banner.{b.kind}" in STYLE else "class:banner.info"
        label = {"desync": "DESYNC: ", "closed": "CLOSED: ", "away": "AWAY: ", "over": ""}.get(
            b.kind, b.kind.upper() + ": ")
        hint = "  (Esc dismisses)" if b.kind in ("away", "back", "bot", "info") else ""
        out.append(pad([(style, banner_text(f" {label}", b.text, hint, width))], width, style))
    return out


def banner_text(label: str, text: str, hint: str, width: int) -> str:
    """A banner in one line of ``width``: whole if it fits, else its first sentence and a pointer
    to the log, which has every notice whole (Model._notice); the hint goes first when space runs out."""
    whole = f"{label}{text}{hint}"
    if len(whole) <= width:
        return whole
    first = text.split(". ")[0].rstrip(".")
    more = " (see the log)"
    short = f"{label}{first}{more}"
    if len(short) > width:  # even the first sentence is too long: cut it, keep the pointer
        short = f"{label}{first[: max(1, width - len(label) - len(more) - 1)]}…{more}"
    return short + hint if len(short + hint) <= width else short


# -- help -------------------------------------------------------------------------------------------------
def _help_columns(sections, width: int, height: int) -> tuple[list[list[Line]], int]:
    """The help's rows flowed into columns (one or two, by width) of about ``height`` rows,
    never splitting a binding's lines or a section title from its first binding; and the width
    of a column."""
    keys_w = max((len(k) for _, items in sections for k, _ in items), default=4) + 2
    cols = 2 if width >= 2 * (keys_w + 24) + 3 else 1
    col_w = (width - 2 - (cols - 1) * 2) // cols
    blocks: list[list[Line]] = []
    for name, items in sections:
        head = [[("class:help", "")]] if blocks else []
        head.append([("class:help.section", name)])
        for k, (keys, doc) in enumerate(items):
            words = wrap(doc, col_w - keys_w)
            block = [[("class:help.key", keys.ljust(keys_w)), ("class:help", words[0])]]
            block += [[("class:help", " " * keys_w + w)] for w in words[1:]]
            blocks.append((head if k == 0 else []) + block)
    total = sum(len(b) for b in blocks)
    per_col = max(height, -(-total // cols))
    columns: list[list[Line]] = [[]]
    for b in blocks:
        if columns[-1] and len(columns[-1]) + len(b) > per_col and len(columns) < cols:
            columns.append([])
            if not b[0] or not b[0][0][1]:  # no blank line at the top of a column
                b = b[1:]
        columns[-1] += b
    return columns + [[] for _ in range(cols - len(columns))], col_w


def help_rows(sections, width: int, height: int) -> int:
    """How many rows the longest help column has (to bound its scrolling)."""
    columns, _ = _help_columns(sections, width, height)
    return max(len(c) for c in columns)


def help_legend(width: int, model: Model | None = None) -> list[Line]:
    """The help's last lines: what the map's signs mean (a Classic game: the table's)."""
    if model is not None and model.classic:
        return _classic().help_legend(width)
    return _pack([
        [("class:help", "Map:")], [("class:conn.door", "D"), ("class:help", " door")],
        [("class:conn.locked", "L"), ("class:help", " locked")], [("class:conn.secret", "S"), ("class:help", " secret")],
        [("class:conn.wall", "━"), ("class:help", " wall")], [("class:help", "a gap: corridor")],
        [("class:map.unexplored", "?"), ("class:help", " unexplored")],
        [("class:seat0", "R"), ("class:seat1", "G"), ("class:seat2", "B"), ("class:seat3", "Y"),
         ("class:help", " munchkins (lower case: dead)")],
        [("class:mon0", "5"), ("class:help", " a monster's level on its base colour")],
        [("class:map.mark", "S! L!"), ("class:help", " searched, looted")],
        [("class:map.pile", "▪2$"), ("class:help", " a dropped pile")],
        [("class:map.reach", "→2"), ("class:help", " move cost (v)")],
        [("class:help", "Cards marked * can be played now, + new Treasure into play on another's turn; "
                        "only you see your hand.")],
    ], width)


def legend_rows(width: int, model: Model | None = None) -> int:
    return len(help_legend(width, model))


def render_help(sections: list[tuple[str, list[tuple[str, str]]]], width: int, height: int,
                top: int = 0, model: Model | None = None) -> list[Line]:
    """The help screen from the key bindings' own docstrings (mq.tui.keys.help_sections), flowed
    into as many columns as the width allows; ``top`` scrolls it when it still does not fit."""
    legend = help_legend(width, model)
    body_h = max(1, height - 1 - len(legend))
    columns, col_w = _help_columns(sections, width, body_h)
    out = [pad([("class:title", " mq — keys (any key closes the help; j/k scroll)")], width, "class:title")]
    for r in range(top, top + body_h):
        line: Line = [("class:help", " ")]
        for c, column in enumerate(columns):
            cell = column[r] if r < len(column) else []
            line += pad(cell, col_w, "class:help") + ([("class:help", "  ")] if c < len(columns) - 1 else [])
        out.append(pad(line, width, "class:help"))
    out += [pad(line, width, "class:help") for line in legend]
    return out[:height]


def _pack(items: list[Line], width: int) -> list[Line]:
    """Short styled phrases packed into lines of ``width``, two spaces apart."""
    lines: list[Line] = [[("class:help", " ")]]
    used = 1
    for item in items:
        n = sum(len(t) for _, t in item)
        if used > 1 and used + 2 + n > width:
            lines.append([("class:help", " ")])
            used = 1
        if used > 1:
            lines[-1].append(("class:help", "  "))
            used += 2
        lines[-1] += item
        used += n
    return [clip(line, width) for line in lines]


def render_info(model: Model, width: int, height: int) -> list[Line]:
    """The table overview (key i): every munchkin's gear in full, this room's rules and every
    monster on the board with its card text — all public (Q-MON-4, Q-ITEM-1).  Scrolls with
    ``model.overlay_top``, which this clamps to what there is."""
    if model.classic:
        return _classic().render_info(model, width, height)
    v = model.view
    cards = model.cards
    rows: list[Line] = []
    for p in v.players:
        name = who(p.seat) + (" (you)" if p.seat == model.seat else "")
        facts = [f"level {p.level}", model.identity_words(p.seat, gender=False), p.gender, f"{p.hp}/{max_hp(p, cards)} HP",
                 f"{p.gold} gold", f"{plural(len(p.hand), 'card')} in hand", f"move {move_total(p, cards)}",
                 f"in {model.room_name(p.room)}"] + ([] if p.alive else ["DEAD"])
        first, *more = wrap(f"{name} · " + " · ".join(facts), width - 1)
        rows.append([(seat_style(p.seat), " " + first[:len(name)]), ("class:help", first[len(name):])])
        rows += [[("class:help", "   " + t)] for t in more]
        for place in ("worn", "carried", "belt", "backpack"):
            names = [f"{model.card_name(it.card)} ({model.card_info(it.card)})"
                     + (f" [{note}]" if (note := model.item_note(p.seat, it.card)) else "")
                     for it in p.items if it.place == place]
            if names:
                rows += _para(f"  {place}: " + ", ".join(names), width, "class:help")
        if p.items:
            rows += _para(f"  gear bonus +{item_bonus(p, cards, ())}", width, "class:dim")
        for c in p.curses:  # lasting curses and what they do (Q-CARD-8)
            rows += _para(f"  cursed: {model.card_name(c)}: {model.card_text(c)}", width, "class:log.alert")
        if p.cursed:
            rows += _para(f"  a curse waits for the next fight: {p.cursed:+d} to their strength", width,
                          "class:log.alert")
    here = model.focus_room()
    rows.append([])
    rows.append([("class:help.section", f" Here: {model.room_name(here)}")])
    rows += _para(model.room_text(here), width, "class:help")
    if v.monsters:
        rows.append([])
        rows.append([("class:help.section", " Monsters in play")])
        for mon in v.monsters:
            d = cards.card(mon.card)
            owner = f"{COLOURS[mon.colour]} base ({who(mon.colour)}'s)" if 0 <= mon.colour < len(v.players) \
                else "no base yet"
            style = f"class:mon{mon.colour}" if mon.colour >= 0 else "class:mon-none"
            level = 20 if mon.boss else d.level
            first, *more = wrap(f"{d.name} · {owner} · {plural(d.dice, 'die', 'dice')} · in {model.room_name(mon.room)}",
                                width - len(str(level)) - 4)
            rows.append([(style, f" {level} "), ("class:bold", " " + first[:len(d.name)]),
                         ("class:help", first[len(d.name):])])
            rows += [[("class:help", "   " + t)] for t in more]
            rows += _para("  " + d.text, width, "class:dim")
    if model.log_file:
        rows.append([])
        rows.append([("class:help.section", " Protocol log")])  # what the network did, for a bug report
        rows += [[("class:dim", " " + model.log_file[k:k + width - 2])] for k in range(0, len(model.log_file), width - 2)]
    body = max(1, height - 1)
    model.overlay_top = max(0, min(model.overlay_top, len(rows) - body))
    head = pad([("class:title", " The table (any key closes; j/k scroll)")], width, "class:title")
    out = [head] + [pad(r, width, "class:help") for r in rows[model.overlay_top:model.overlay_top + body]]
    return out + [pad([], width, "class:help")] * (height - len(out))


MIN_WIDTH, MIN_HEIGHT = 80, 24  # the smallest terminal every panel is laid out for


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


def render_too_small(model: Model, width: int, height: int) -> list[Line]:
    """What a terminal smaller than 80x24 shows instead of a garbled game: its size, the size
    needed, and how to quit (the game goes on meanwhile)."""
    if model.mode == QUIT:
        words = ["Quit the game?", "y = yes, any other key = no"]
    elif model.mode == CONFIRM:
        words = [model.question]
    else:
        words = [f"This terminal is {width}x{height}.", f"mq needs at least {MIN_WIDTH}x{MIN_HEIGHT}:",
                 "make the window bigger.", "The game goes on meanwhile; q quits."]
    lines = [w for text in words for w in wrap(text, width)]
    top = max(0, (height - len(lines)) // 2)
    out: list[Line] = [[] for _ in range(top)]
    out += [[("class:bold", " " * max(0, (width - len(t)) // 2) + t)] for t in lines]
    return [clip(line, width) for line in out[:height]]


def render_trade(model: Model, width: int, height: int) -> list[Line]:
    """A Classic trade being composed (mq.tui.classic_render.render_trade), over the whole screen."""
    return _classic().render_trade(model, width, height)


def render_screen(model: Model, width: int, height: int, sections=None, now: float | None = None) -> str:
    """The whole screen as plain text, panel by panel (tests and the benchmark; the app lays the
    same renderers out with prompt_toolkit); ``now`` as for :func:`render_combat`."""
    pl = plan(model, width, height)
    left_w = width - pl.right - 1
    top = height - pl.log - status_rows(model, width) - pl.banners
    parts = [plain(render_banners(model, width, pl.banners)),
             plain(render_map(model, left_w, top - pl.combat)),
             plain(render_combat(model, left_w, pl.combat, now)),
             plain(render_players(model, pl.right, pl.players)),
             plain(render_hand(model, pl.right, top - pl.players - pl.actions)),
             plain(render_actions(model, pl.right, pl.actions)),
             plain(render_log(model, width - pl.chat, pl.log, with_chat=not pl.chat)),
             plain(render_chat(model, pl.chat, pl.log)) if pl.chat else "",
             plain(render_status(model, width, status_rows(model, width)))]
    if model.mode == HELP and sections is not None:
        parts.append(plain(render_help(sections, width, height, model=model)))
    if model.mode == INFO:
        parts.append(plain(render_info(model, width, height)))
    if model.mode == TRADE:
        parts.append(plain(render_trade(model, width, height)))
    return "\n".join(parts)
