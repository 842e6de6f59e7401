"""``python -m bench.bots [--games N] [--seed S] [--players P] [--json]``: how the bots play, per 100
games of bot games from mq.sim (fixed seeds: game ``i`` has seed ``mq.sim.game_seed(S, i)``).

What it counts is what a person at the table would notice: how often fights are helped and on
what terms (Q-HELP-2: offers, counter-offers and accepted deals by kind), help that handed a rival
the 10th level or a Boss kill for nothing, room deals (Q-SEARCH-5), summons (Q-EXPLORE-7) and how
they end, deaths, Boss fights (Q-BOSS), shared wins, how long games last and where the losers
stood when someone won.  Each game is played by ``mq.sim.play_game`` and then replayed action by
action with ``mq.rules.step`` to read every state and event (the replay is the game: same seed,
same actions).  Output depends only on the arguments."""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field

from mq.cards import load_default
from mq.rules import is_over, make_params, new_game, step
from mq.sim import game_seed, play_game

# Offer terms (gold, Treasure picks, item) by kind: an item of the fighter's, gold either way,
# Treasure picks, or nothing at all.  Gold and picks together count as gold.
KINDS = ("gold", "paid", "item", "picks", "free")


def terms_kind(gold: int, share: int, item: str = "") -> str:
    if item:
        return "item"
    if gold < 0:
        return "paid"  # the helper pays the fighter
    if gold > 0:
        return "gold"
    return "picks" if share > 0 else "free"


# (key, label) in the order they are printed; every key is a count per game unless it is listed in
# MEANS (a mean over games, or over the events named in its label).
ROWS = (
    ("games", "games"), ("won", "games with a winner"), ("monsters_won", "games the monsters won (Q-DEATH-5)"),
    ("unfinished", "games cut off unfinished"), ("co_wins", "shared wins (Q-BOSS-4)"),
    ("turns", "turns per game (mean)"), ("actions", "actions per game (mean)"),
    ("winner_level", "winners' level at the end (mean)"), ("loser_level", "others' level at the end (mean)"),
    ("runner_up", "runner-up's level at the end (mean)"),
    ("turns_at_10", "winner's turns from first level 10 to the win (mean)"),
    ("fights", "fights"), ("fights_won", "fights won"), ("helped", "helped fights"),
    ("helped_won", "helped fights won"),
    ("free_to_10", "free help that gave the fighter level 10, the helper nothing"),
    ("mutual_to_10", "free help that gave the fighter level 10 and the helper a level"),
    ("paid_to_10", "paid help that gave the fighter level 10"),
    ("loot_fights", "fights at level 10 not against the Boss"),
    ("boss_fights", "Boss fights"), ("boss_won", "Boss fights won"), ("boss_helped", "Boss fights helped"),
    ("boss_helped_free", "Boss fights helped for free"),
    ("asks", "calls for help"),
    *((f"offer_{k}", f"offers: {k}") for k in KINDS),
    *((f"counter_{k}", f"counter-offers: {k}") for k in KINDS),
    *((f"deal_{k}", f"deals made: {k}") for k in KINDS),
    ("gold_paid", "gold paid for help (fighter to helper, total)"),
    ("room_buy", "room deals: buy Treasure"), ("room_sell", "room deals: sell an item"),
    ("bought_levels", "levels bought (Q-CHAR-3)"),
    ("summons", "summons (Q-EXPLORE-7)"), ("summons_lost", "summoned fights lost"),
    ("deaths", "deaths"), ("suicides", "of which suicides"),
)
MEANS = ("turns", "actions", "winner_level", "loser_level", "runner_up", "turns_at_10")


@dataclass
class Tally:
    """Counts over the games it has seen (one ``Game`` each)."""

    counts: dict[str, int] = field(default_factory=dict)
    samples: dict[str, list[int]] = field(default_factory=dict)

    def add(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def sample(self, key: str, value: int) -> None:
        self.samples.setdefault(key, []).append(value)

    def rows(self) -> list[tuple[str, str, float]]:
        """(key, label, value): counts per 100 games, means as they are."""
        games = max(1, self.counts.get("games", 0))
        out = []
        for key, label in ROWS:
            if key in MEANS:
                values = self.samples.get(key, [])
                out.append((key, label, round(sum(values) / len(values), 1) if values else 0.0))
            else:
                out.append((key, label, round(self.counts.get(key, 0) * 100 / games, 1)))
        return out


def observe_game(tally: Tally, players: int, seed: int, cards) -> None:  # noqa: C901
    """Play one bot game and add what happened in it to ``tally``."""
    result, final, taken = play_game(players, seed)
    tally.add("games")
    s = new_game(make_params(players), seed, cards)
    helper_terms = None  # the accepted terms of the fight in progress
    summoned = -1  # the seat whose summoned monster is being fought
    first_10: dict[int, int] = {}
    for action in taken:
        before = s
        s, events = step(s, action, cards)
        if action.kind == "summon":
            tally.add("summons")
            summoned = action.seat
        for e in events:
            kind = e.kind
            if kind == "combat_starts":
                tally.add("fights")
                helper_terms = None
                fighter = s.players[e.seat]
                boss = any(m.boss for m in s.monsters if m.uid in e.monsters)
                if boss:
                    tally.add("boss_fights")
                elif fighter.level >= 10:
                    tally.add("loot_fights")
            elif kind == "asks_help":
                tally.add("asks")
            elif kind == "offers_help":
                tally.add("offer_" + terms_kind(e.gold, e.share, e.item))
            elif kind == "counter_offer":
                tally.add("counter_" + terms_kind(e.gold, e.share))
            elif kind == "helps":
                helper_terms = terms_kind(e.gold, e.share, e.item)
                tally.add("helped")
                tally.add("deal_" + helper_terms)
                tally.add("gold_paid", e.gold)
                if before.combat is not None and before.combat.boss:
                    tally.add("boss_helped")
                    if helper_terms == "free":
                        tally.add("boss_helped_free")
            elif kind == "combat_result":
                won = e.won
                tally.add("fights_won", won)
                if helper_terms is not None:
                    tally.add("helped_won", won)
                if before.combat is not None and before.combat.boss:
                    tally.add("boss_won", won)
                if summoned == e.fighter:
                    tally.add("summons_lost", not won)
                    summoned = -1
            elif kind == "level" and e.why == "kill" and e.level >= 10 and helper_terms is not None \
                    and before.combat is not None and e.seat == before.combat.fighter:
                if helper_terms != "free":
                    tally.add("paid_to_10")
                elif any(x.kind == "level" and x.seat == before.combat.helper and x.why == "kill" for x in events):
                    tally.add("mutual_to_10")
                else:
                    tally.add("free_to_10")
            elif kind == "deal":
                tally.add("room_" + e.what)
            elif kind == "buy":
                tally.add("bought_levels")
            elif kind == "death":
                tally.add("deaths")
                tally.add("suicides", e.cause == "suicide")
        for p in s.players:
            if p.level >= 10 and p.seat not in first_10:
                first_10[p.seat] = s.turn.number if s.turn else 0
    tally.sample("turns", result.turns)
    tally.sample("actions", result.actions)
    if not is_over(final):
        tally.add("unfinished")
        return
    if not final.winners:
        tally.add("monsters_won")
        return
    tally.add("won")
    tally.add("co_wins", len(final.winners) > 1)
    losers = sorted((p.level for p in final.players if p.seat not in final.winners), reverse=True)
    for seat in final.winners:
        tally.sample("winner_level", final.players[seat].level)
        tally.sample("turns_at_10", result.turns - first_10.get(seat, result.turns))
    for level in losers:
        tally.sample("loser_level", level)
    if losers:
        tally.sample("runner_up", losers[0])


def measure(games: int = 100, seed: int = 1, players: int = 4) -> Tally:
    cards = load_default()
    tally = Tally()
    for i in range(games):
        observe_game(tally, players, game_seed(seed, i), cards)
    return tally


def main(argv: list[str] | None = None, out=sys.stdout) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 1 or not 2 <= args.players <= 6:
        print("bench.bots: --games must be at least 1 and --players 2..6", file=sys.stderr)
        return 2
    rows = measure(args.games, args.seed, args.players).rows()
    if args.json:
        json.dump({"games": args.games, "seed": args.seed, "players": args.players,
                   "per_100": {k: v for k, _, v in rows}}, out, indent=1)
        out.write("\n")
        return 0
    print(f"{args.players}-player bot games, seeds game_seed({args.seed}, 0..{args.games - 1}); "
          f"counts per 100 games, means per game", file=out)
    width = max(len(label) for _, label, _ in rows)
    for _, label, value in rows:
        print(f"{label:<{width}}  {value:g}", file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
