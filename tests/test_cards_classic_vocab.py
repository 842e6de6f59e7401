"""The Classic vocabulary (mq/cards/classic_vocab.py): what it shares with Quest's, the curse kinds
of C-CARD-8, and the plain-words phrases ``mq cards show --mode classic`` prints."""
from __future__ import annotations

import re

import pytest

from mq.cards import classic_vocab as V
from mq.cards import vocab as Q
from mq.cards.classic_loader import load_classic_default
from mq.cards.defs import Effect

CS = load_classic_default()
USED = sorted({e for c in CS.door + CS.treasure
               for f in ("effects", "bad_stuff", "on_escape", "powers", "drawbacks", "epic", "use")
               for e in getattr(c, f, ())} | set(CS.human.epic), key=lambda e: (e.name, e.params))


def test_shared_effects_keep_the_quest_schema():
    """"As Q-x" shares vocabulary: an effect in both modes has the same name and parameters; the
    Quest specs themselves are unchanged (the Quest contexts still say where Quest allows them)."""
    shared = set(V.EFFECTS) & set(Q.EFFECTS)
    assert {"runaway", "lose_levels", "lose_item", "lose_slot", "death", "escape", "change_die",
            "cancel_curse", "next_combat", "lasting_strength", "extra_treasure", "fewer_treasure",
            "bonus_vs"} == shared
    for name in shared:
        assert V.EFFECTS[name].params == Q.EFFECTS[name].params, name
        assert set(V.EFFECTS[name].contexts) <= set(V.CONTEXTS)
        assert set(Q.EFFECTS[name].contexts) <= set(Q.CONTEXTS)
    assert V.MONSTER_KEYWORDS == Q.MONSTER_KEYWORDS and V.ITEM_KEYWORDS == Q.ITEM_KEYWORDS
    # C-PACK-2, 3, 6: Quest's races and classes, then the packs' (orc, gnome; bard, ranger)
    assert V.RACES == Q.RACES + ("orc", "gnome") and V.CLASSES == Q.CLASSES + ("bard", "ranger")
    assert V.WHO == V.RACES + V.CLASSES + Q.GENDERS


def test_every_effect_cites_a_rule_and_documents_itself():
    for spec in V.EFFECTS.values():
        assert re.match(r"C-[A-Z]+-\d+", spec.rule), spec.name
        assert spec.doc and spec.contexts, spec.name
        assert all(p.doc for p in spec.params), spec.name
    for context in V.CONTEXTS:
        assert V.effects_for(context), context


@pytest.mark.parametrize("effects, kind", [
    ((), "immediate"),
    ((Effect("lose_levels", (("n", 1),)),), "immediate"),
    ((Effect("change_gender"), Effect("next_combat", (("amount", -2),))), "next_combat"),
    ((Effect("lose_slot", (("slot", "head"),)), Effect("lasting_runaway", (("amount", -1),))), "lasting"),
    ((Effect("lasting_strength", (("amount", -1),)),), "lasting"),
])
def test_curse_kind(effects, kind):
    """C-CARD-8: a lasting effect keeps a curse in play; next_combat makes it wait; else it acts at once."""
    assert V.curse_kind(effects) == kind


@pytest.mark.parametrize("effect, words", [
    (Effect("lose_levels", (("n", 1),)), "lose 1 level"),
    (Effect("lose_levels", (("n", 3),)), "lose 3 levels"),
    (Effect("runaway", (("amount", -2),)), "-2 to run away"),
    (Effect("runaway", (("amount", 1),)), "+1 to run away"),
    (Effect("lose_slot", (("slot", "feet"),)), "lose your footgear"),
    (Effect("extra_treasure", (("n", 2),)), "2 Treasure cards more"),
    (Effect("discard_bonus", (("amount", 1), ("keyword", "any"), ("max_cards", 3))),
     "in combat, discard up to 3 cards for +1 each against all monsters"),
    (Effect("draw", (("deck", "door"), ("n", 2))), "draw 2 cards from the Door deck face-down"),
    (Effect("wins_ties"), "the munchkin side wins ties"),
])
def test_describe_reads_as_plain_words(effect, words):
    assert V.describe(effect) == words


@pytest.mark.parametrize("effect", USED, ids=lambda e: e.name)
def test_every_effect_on_a_card_reads_without_markup(effect):
    words = V.describe(effect)
    assert words and "{" not in words and "}" not in words and "_" not in words
    for _, value in effect.params:
        assert isinstance(value, str) or str(abs(value)) in words, (effect, words)
