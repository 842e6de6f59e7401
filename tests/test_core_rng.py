"""The counter-based RNG of the core (DESIGN "Determinism and hashing", Q-SETUP-1, Q-MT-1).

Draw ``n`` is a pure function of ``(seed, n)``; bounded values use rejection sampling and shuffles
Fisher–Yates, exactly as documented, so every peer (and both core twins) draw the same numbers.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

M64 = (1 << 64) - 1
seeds = st.integers(min_value=0, max_value=M64)
counters = st.integers(min_value=0, max_value=(1 << 63) - 100)


def test_known_answers_seed_1(core_impl):
    assert [core_impl.rng_u64(1, n) for n in range(4)] == [
        10451216379200822465, 13757245211066428519, 17911839290282890590, 8196980753821780235]


def test_known_answers_seed_max(core_impl):
    assert [core_impl.rng_u64(M64, n) for n in range(4)] == [
        16490336266968443936, 16834447057089888969, 4048727598324417001, 7862637804313477842]


def test_splitmix64_reference_vector(core_impl):
    # Draw n of seed s is SplitMix64 after n+1 increments: seed 0 gives the published stream.
    assert core_impl.rng_u64(0, 0) == 0xE220A8397B1DCDAF
    assert core_impl.rng_u64(0, 1) == 0x6E789E6AA1B965F4


def test_known_dice_and_shuffles(core_impl):
    assert [core_impl.rng_d6(1, n) for n in range(6)] == [
        (6, 1), (2, 2), (1, 3), (6, 4), (4, 5), (3, 6)]
    assert core_impl.rng_shuffle(1, 0, tuple(range(10))) == ((4, 2, 8, 1, 9, 3, 0, 6, 7, 5), 9)
    # One rejection among the draws: the counter advanced by 5 for 5 swaps + 1.
    assert core_impl.rng_shuffle(M64, 5, "abcdef") == (("f", "c", "d", "e", "a", "b"), 10)


def test_rejection_is_visible_in_the_counter(core_impl):
    # bound = 2**63 + 1: lim = 2**64 - (2**63 - 1); draws 0..2 of seed 1 are >= lim, draw 3 is not.
    bound = (1 << 63) + 1
    lim = (1 << 64) - ((1 << 64) % bound)
    assert [core_impl.rng_u64(1, n) >= lim for n in range(4)] == [True, True, True, False]
    assert core_impl.rng_below(1, 0, bound) == (core_impl.rng_u64(1, 3) % bound, 4)


def _reference_below(core, seed, n, bound):
    lim = (1 << 64) - ((1 << 64) % bound)
    while True:
        u = core.rng_u64(seed, n)
        n += 1
        if u < lim:
            return u % bound, n


@settings(max_examples=60, deadline=None)
@given(seed=seeds, n=counters,
       bound=st.one_of(st.integers(1, 12), st.integers(1, M64), st.just(M64), st.just(1 << 63)))
def test_below_matches_its_definition(core_impl, seed, n, bound):
    v, n2 = core_impl.rng_below(seed, n, bound)
    assert (v, n2) == _reference_below(core_impl, seed, n, bound)
    assert 0 <= v < bound and n2 > n


@settings(max_examples=40, deadline=None)
@given(seed=seeds, n=counters)
def test_dice_ranges_and_counters(core_impl, seed, n):
    """Q-COMP-6, Q-COMP-5: a d6, the d10 of class powers and the six-faced monster die."""
    v, n2 = core_impl.rng_d6(seed, n)
    assert 1 <= v <= 6 and (v - 1, n2) == core_impl.rng_below(seed, n, 6)
    v, n2 = core_impl.rng_d10(seed, n)
    assert 1 <= v <= 10 and (v - 1, n2) == core_impl.rng_below(seed, n, 10)
    assert core_impl.rng_colour(seed, n) == core_impl.rng_below(seed, n, 6)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, n=counters, items=st.lists(st.integers(), max_size=30))
def test_shuffle_is_fisher_yates(core_impl, seed, n, items):
    expect = list(items)
    m = n
    for i in range(len(expect) - 1, 0, -1):
        j, m = core_impl.rng_below(seed, m, i + 1)
        expect[i], expect[j] = expect[j], expect[i]
    got, n2 = core_impl.rng_shuffle(seed, n, items)
    assert got == tuple(expect) and n2 == m
    assert sorted(got) == sorted(items)


def test_all_colours_and_faces_occur(core_impl):
    colours = {core_impl.rng_colour(7, n)[0] for n in range(200)}
    faces = {core_impl.rng_d10(7, n)[0] for n in range(200)}
    assert colours == set(range(6)) and faces == set(range(1, 11))


@pytest.mark.parametrize("args, exc", [
    ((-1, 0), ValueError), ((1 << 64, 0), ValueError), ((0, -1), ValueError),
    ((0, 1 << 63), ValueError), ((1.5, 0), TypeError), ((0, "3"), TypeError),
])
def test_rng_u64_rejects_bad_arguments(core_impl, args, exc):
    with pytest.raises(exc):
        core_impl.rng_u64(*args)


@pytest.mark.parametrize("bound, exc", [(0, ValueError), (-3, ValueError), (1 << 64, ValueError),
                                        (2.0, TypeError)])
def test_rng_below_rejects_bad_bounds(core_impl, bound, exc):
    with pytest.raises(exc):
        core_impl.rng_below(1, 0, bound)


def test_bool_and_index_types_are_ints(core_impl):
    # operator.index semantics: True is 1 (the twins agree; the engine passes plain ints).
    assert core_impl.rng_u64(True, False) == core_impl.rng_u64(1, 0)
