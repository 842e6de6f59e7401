"""The Classic packs (CLASSIC.md C-PACK, the table option C-OPT-4): which exist, how a table
chooses them, what they add to the decks, and real bot games played with them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mq import rules as R
from mq.cards.classic_loader import load_classic_default
from mq.cards.classic_packs import NAMES, UnknownPack, check_packs, load_classic_packs, parse_packs
from mq.classic import cards_or_default
from mq.classic.invariants import check
from mq.sim import game_seed, play_game

ROOT = Path(__file__).resolve().parent.parent


def _ids(packs):
    cards = load_classic_packs(packs)
    return {c.id for c in cards.door + cards.treasure}


def test_packs_off_is_the_default_set_itself():
    """C-OPT-4: no packs (the default) plays the default set, the very same object."""
    assert load_classic_packs(()) is load_classic_default()
    assert cards_or_default(None, R.make_params(4, mode="classic")) is load_classic_default()


def test_a_table_chooses_packs_by_name_or_all_always_in_the_packs_order():
    """C-OPT-4: any subset; the choice is kept in one order, so the parameters (and the hash) of the
    same choice are the same whatever order it was typed in."""
    assert check_packs(()) == ()
    assert check_packs(("all",)) == NAMES
    assert check_packs(tuple(reversed(NAMES)) + NAMES) == NAMES
    assert parse_packs(" more , all ") == NAMES
    p = R.make_params(4, mode="classic", packs=("all",))
    assert p.packs == NAMES and R.check_params(p) is p


@pytest.mark.parametrize("bad, words", [
    (("orcz",), "no pack 'orcz': the packs are"),
    (("more", "nope"), "no pack 'nope'"),
])
def test_an_unknown_pack_is_refused_in_words(bad, words):
    with pytest.raises(UnknownPack, match=words):
        check_packs(bad)
    with pytest.raises(R.IllegalAction) as exc:
        R.make_params(4, mode="classic", packs=bad)
    assert words in str(exc.value)


def test_packs_with_quest_or_in_the_wrong_shape_are_refused_in_words():
    with pytest.raises(R.IllegalAction, match="packs are a table option of the Classic mode"):
        R.make_params(4, packs=("more",))
    with pytest.raises(R.IllegalAction, match="a list of pack names"):
        R.make_params(4, mode="classic", packs="more")
    reordered = R.make_params(4, mode="classic").replace(packs=tuple(reversed(NAMES)) + ("more",))
    with pytest.raises(R.IllegalAction, match="no table could have chosen"):
        R.check_params(reordered)  # a log's header with packs no lobby makes


def test_the_packs_are_in_the_parameters_so_in_the_hash():
    """C-OPT-4: chosen in the lobby, part of the game parameters, so of every state hash."""
    plain = R.new_game(R.make_params(3, mode="classic"), 5)
    packed = R.new_game(R.make_params(3, mode="classic", packs=("more",)), 5)
    assert R.state_hash(plain) != R.state_hash(packed)
    assert packed.params.packs == ("more",) and plain.params.packs == ()


def test_the_more_pack_adds_cards_of_the_known_kinds_only_with_new_ids():
    """C-PACK-8, C-PACK-1: more cards of the existing kinds, added to the two decks; the ids of a
    pack are its own (pack 8: CD8xx, CT8xx)."""
    base = load_classic_default()
    more = load_classic_packs(("more",))
    added_door, added_treasure = more.door[len(base.door):], more.treasure[len(base.treasure):]
    assert more.door[:len(base.door)] == base.door and more.treasure[:len(base.treasure)] == base.treasure
    assert added_door and added_treasure
    assert all(c.id.startswith("CD8") for c in added_door) and all(c.id.startswith("CT8") for c in added_treasure)
    base_kinds = {c.kind for c in base.door + base.treasure}
    assert {c.kind for c in added_door + added_treasure} <= base_kinds
    game = R.new_game(R.make_params(4, mode="classic", packs=("more",)), 11)
    in_game = set(game.door.draw) | set(game.treasure.draw) | {c for p in game.players for c in p.hand}
    assert {c.id for c in added_door + added_treasure} <= in_game


def _played_cards(packs, games, epic=False, players=4):
    """Bot games with ``packs``: every step checked by the invariants; the cards each game's events
    name, and the winners."""
    seen: set[str] = set()
    winners = []
    for i in range(games):
        params = R.make_params(players, mode="classic", epic=epic, packs=packs)
        cards = cards_or_default(None, params)

        def on_step(state, events):
            check(state, cards)
            for e in events:
                for v in tuple(e)[1:]:
                    if isinstance(v, str):
                        seen.add(v)

        result, _, _ = play_game(players, game_seed(3, i), on_step=on_step, params=params)
        winners.append(result.winners)
    return seen, winners


def test_bot_games_with_the_more_pack_play_its_cards_and_end_with_a_winner():
    """C-PACK-8: the pack's cards are drawn, played and fought in real bot games, which end with a
    winner (C-WIN), every state consistent."""
    seen, winners = _played_cards(("more",), 6)
    pack = _ids(("more",)) - _ids(())
    assert all(winners), winners
    assert len(pack & seen) >= len(pack) - 2, sorted(pack - seen)


def test_the_bot_tells_a_steed_played_as_a_hireling_from_a_monster_sent_at_a_rival():
    """C-PACK-6, C-COMBAT-12: both are a play of a card and one more argument (the role, a seat);
    a bot game with every pack and Epic in which the bot holds both finishes with a winner (the
    bot read the role as a seat and stopped the game with a TypeError)."""
    params = R.make_params(4, mode=R.CLASSIC, epic=True, packs=("all",))
    result, state, _ = play_game(4, 740264374230832002, params=params)
    assert check(state, cards_or_default(None, params)) == [] and result.winners


def _mq(*args):
    return subprocess.run([sys.executable, "-m", "mq.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)


def test_mq_sim_takes_packs_and_refuses_bad_ones_in_words():
    """C-OPT-4 on the command line: ``--packs LIST`` or ``all``; unknown names and packs with Quest
    are refused in words (exit 2, no traceback)."""
    out = _mq("sim", "--mode", "classic", "--players", "3", "--games", "2", "--seed", "4", "--packs", "all", "--json")
    assert out.returncode == 0, out.stderr
    assert '"packs": [' in out.stdout and '"more"' in out.stdout
    for args, words in ((["--mode", "classic", "--packs", "orcz"], "no pack 'orcz'"),
                        (["--packs", "more"], "packs are a table option of the Classic mode"),
                        (["--mode", "classic", "--packs", ","], "no pack named")):
        bad = _mq("sim", "--games", "1", *args)
        assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_mq_cards_lists_and_validates_the_packs_cards():
    """C-OPT-4: ``mq cards --mode classic --packs LIST`` shows the set a table with those packs
    plays (every card validated by the loader); with Quest it is refused in words."""
    out = _mq("cards", "validate", "--mode", "classic", "--packs", "all")
    assert out.returncode == 0 and "the default Classic set + the packs " + ", ".join(NAMES) in out.stdout
    listed = _mq("cards", "list", "--mode", "classic", "--packs", "more").stdout
    assert "CD801" in listed and "CT806" in listed
    assert "CD801" not in _mq("cards", "list", "--mode", "classic").stdout
    bad = _mq("cards", "list", "--packs", "more")
    assert bad.returncode == 1 and "packs are a table option of the Classic mode" in bad.stderr
