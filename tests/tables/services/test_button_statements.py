"""The button's writes on PostgreSQL are named hot-path writers (plain SQL,
``tables.services.button``): a new offer round and its offers inserted by one statement
(``tables.sql.insert_offers``), an answer (and the offer round's close with an acceptance)
by one (``tables.sql.answer_offer``). The same calls through the
ORM (the writers elsewhere) at a twin table write exactly the same rows, answer the same
objects, and refuse in the same words."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from cardroom.errors import Refused, StateError
from tables.models import ButtonOffer, OfferRound
from tables.services import button
from tests.builders.floor import bank_and_play, open_floor

pytestmark = [pytest.mark.django_db, pytest.mark.requires_postgres]


def _recorded(table_id: int) -> tuple[list, list]:
    """The table's offer rounds and offers, the ids that differ between twins left out (an
    offer names its offer round by its place)."""
    offer_rounds = list(OfferRound.objects.filter(table_id=table_id).order_by("id"))
    place = {r.pk: i for i, r in enumerate(offer_rounds)}
    left_out = {"id", "table", "game", "offer_round", "player"}
    return (
        [{k: v for k, v in model_to_dict(r).items() if k not in left_out} for r in offer_rounds],
        [
            {
                **{k: v for k, v in model_to_dict(o).items() if k not in left_out},
                "offer_round": place[o.offer_round_id],
            }
            for o in ButtonOffer.objects.filter(offer_round__table_id=table_id).order_by("id")
        ],
    )


def _fields(obj, left_out=("id", "table_id", "game_id", "offer_round_id", "player_id")) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields} | {
        name: None for name in left_out
    }


def _answered(result) -> object:
    """A service's answer as comparable between twins (and checked against its row)."""
    if isinstance(result, Refused):
        return ("refused", str(result.error))
    assert result._state.adding is False and result._state.db == "default"
    stored = ButtonOffer.objects.get(pk=result.pk)
    assert _fields(result, ()) == _fields(stored, ())
    cached = result._state.fields_cache
    offer_round = cached.get("offer_round")
    if offer_round is not None:
        assert offer_round.pk == result.offer_round_id and offer_round._state.adding is False
        assert _fields(offer_round, ()) == _fields(OfferRound.objects.get(pk=offer_round.pk), ())
        offer_round = _fields(offer_round)
    answered_by = cached.get("answered_by", "not cached")
    return _fields(result), offer_round, answered_by, sorted(cached)


def _statements(sent: CaptureQueriesContext) -> int:
    return sum("SAVEPOINT" not in q["sql"] for q in sent.captured_queries)  # not the test's


def _call(service, *, orm: bool, monkeypatch, table, **kwargs):
    """``service`` at ``table`` (its refusal too), through the ORM's writers with ``orm``:
    its answer, the answer as compared between twins, and the statements sent."""
    with monkeypatch.context() as patch:
        if orm:
            patch.setattr(button, "connection", SimpleNamespace(vendor="sqlite"))
        with CaptureQueriesContext(connection) as sent:
            try:
                result = service(table_id=table.pk, **kwargs)
            except (StateError, ButtonOffer.DoesNotExist) as refused:
                words = str(refused).replace(table.name, "the table")
                result = ("raised", type(refused).__name__, words)
    compared = result if isinstance(result, tuple) else _answered(result)
    return result, compared, _statements(sent)


def _twins(staff, script, layout: str, **options) -> None:
    """``script`` at two twin tables, one through each writer: the same answers and rows; the
    plain-SQL writers never send more statements, but for a refused answer."""
    tables = [open_floor(layout, staff=staff, **options) for _ in range(2)]
    sql, orm = (script(f, orm) for f, orm in zip(tables, (False, True), strict=True))
    assert [compared for compared, _ in sql] == [compared for compared, _ in orm]
    for (compared, one), (_, other) in zip(sql, orm, strict=True):
        # A refused answer costs one statement more: the one-statement answer finds nothing
        # to write, then the ORM's read finds why.
        raised = isinstance(compared, tuple) and compared[0] == "raised"
        assert one <= other + raised, compared
    assert _recorded(tables[0].table_id) == _recorded(tables[1].table_id)


def test_offers_passing_over_declines_exhaustion_and_acceptance(staff, clock, monkeypatch):
    def script(f, orm):
        bank_and_play(f, 2)  # a TPPP banked: the other TPPP is passed over next
        by = staff.dealer

        def call(service, **kwargs):
            result, compared, sent = _call(
                service, orm=orm, monkeypatch=monkeypatch, table=f.table, **kwargs
            )
            answers.append((compared, sent))
            return result

        answers: list = []
        offered = call(button.offer_button, by=by)  # a new round: seat 3 passed over, seat 4
        call(button.answer_offer, offer_id=offered.pk, accept=False, by=by)
        call(button.answer_offer, offer_id=offered.pk, accept=True, by=by)  # already answered
        offered = call(button.offer_button, by=by)  # seat 1, in the open round
        call(button.answer_offer, offer_id=offered.pk, accept=False, by=by)
        call(button.offer_button, by=by)  # seat 2 passed over: exhausted
        call(button.answer_offer, offer_id=offered.pk, accept=True, by=by)  # a closed round
        call(button.answer_offer, offer_id=987_654, accept=True, by=by)  # no such offer
        offered = call(button.offer_button, by=by)  # a new round after the exhausted one
        call(button.answer_offer, offer_id=offered.pk, accept=True, by=by)
        call(button.offer_button, by=by)  # accepted: the round starts next
        return answers

    _twins(staff, script, "PTTP..", max_tppp_per_table=None)


def test_an_offer_of_another_table_is_not_answered_here(staff, clock, monkeypatch):
    other = open_floor("PP....", staff=staff)
    offer = button.offer_button(table_id=other.table_id, by=staff.dealer)

    def script(f, orm):
        _, compared, sent = _call(
            button.answer_offer,
            orm=orm,
            monkeypatch=monkeypatch,
            table=f.table,
            offer_id=offer.pk,
            accept=True,
            by=staff.dealer,
        )
        return [(compared, sent)]

    _twins(staff, script, "PP....")
    assert ButtonOffer.objects.get(pk=offer.pk).answer == "pending"


def test_keeping_the_button(staff, clock, monkeypatch):
    def script(f, orm):
        bank_and_play(f, 1)
        _, compared, sent = _call(
            button.keep_button, orm=orm, monkeypatch=monkeypatch, table=f.table, by=staff.dealer
        )
        return [(compared, sent)]

    _twins(staff, script, "PPP...", offer_every_hand=False)


def test_one_statement_each_on_the_hot_path(staff, clock):
    f = open_floor("PPPP..", staff=staff)
    with CaptureQueriesContext(connection) as sent:
        offer = button.offer_button(table_id=f.table_id, by=staff.dealer)
    # the lock, the button's read, the barred-list check of the seat offered (§3.9), the
    # offer round and offer
    assert _statements(sent) == 4
    with CaptureQueriesContext(connection) as sent:
        button.answer_offer(table_id=f.table_id, offer_id=offer.pk, accept=True, by=staff.dealer)
    assert _statements(sent) == 2  # the lock, the answer with the offer round's close
