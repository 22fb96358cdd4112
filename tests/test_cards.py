"""The card notation of RULINGS.md: what a floor manager types, what every tool prints."""
import pytest
from hypothesis import given, strategies as st

from dealer_assist.cards import (
    DECK_53, JOKER, Card, CardError, Rank, Suit, check_unique, format_cards, parse_card, parse_cards,
)


@pytest.mark.parametrize("token, canonical", [
    ("As", "As"), ("A♠", "As"), ("10h", "Th"), ("10♥", "Th"), ("td", "Td"), ("7C", "7c"),
    ("JK", "JK"), ("jk", "JK"), ("Joker", "JK"), ("K♦", "Kd"), ("2♣", "2c"), (" Qs ", "Qs"),
])
def test_accepted_forms_print_canonically(token, canonical):
    assert str(parse_card(token)) == canonical


@pytest.mark.parametrize("token, says", [
    ("1s", "'1' is not a rank"),
    ("Ax", "'x' is not a suit"),
    ("A", "it has no suit"),
    ("", "it is empty"),
    ("AsKd", "too long"),
    ("11s", "too long"),
])
def test_bad_tokens_name_themselves_and_show_the_format(token, says):
    with pytest.raises(CardError) as info:
        parse_card(token)
    message = str(info.value)
    assert repr(token) in message
    assert says in message
    assert "e.g. As, Td, 7c" in message and "JK" in message


def test_hidden_card_only_where_allowed():
    assert parse_cards("As ?? Kd", allow_hidden=True) == (parse_card("As"), None, parse_card("Kd"))
    with pytest.raises(CardError, match="hidden"):
        parse_card("??")


def test_non_text_is_a_card_error_not_a_crash():
    with pytest.raises(CardError):
        parse_card(12)  # type: ignore[arg-type]


def test_deck_has_53_distinct_cards_with_one_joker():
    assert len(set(DECK_53)) == 53
    assert [c for c in DECK_53 if c.is_joker] == [JOKER]
    assert all(Card.from_index(c.index) is c for c in DECK_53)


def test_suit_order_is_the_tda_order():
    assert Suit.SPADES > Suit.HEARTS > Suit.DIAMONDS > Suit.CLUBS
    assert Rank.ACE > Rank.KING > Rank.TWO


def test_duplicates_name_both_places():
    with pytest.raises(CardError, match="duplicate card Kd: it is both in board and in seat 4"):
        check_unique({"board": parse_cards("Kd 2c 3c"), "seat 4": parse_cards("Kd 9s")})
    with pytest.raises(CardError, match="twice in seat 2"):
        check_unique({"seat 2": parse_cards("9s 9s")})
    with pytest.raises(CardError, match="too many jokers"):
        check_unique({"board": [JOKER], "seat 1": [JOKER]})
    with pytest.raises(CardError, match="no joker"):
        check_unique({"seat 1": [JOKER]}, jokers_allowed=0)


@given(st.lists(st.sampled_from(DECK_53), max_size=10))
def test_notation_round_trips(cards):
    assert parse_cards(format_cards(cards)) == tuple(cards)


@given(st.sampled_from(DECK_53))
def test_glyph_form_round_trips(card):
    assert parse_card(card.pretty() if not card.is_joker else "JK") is card
