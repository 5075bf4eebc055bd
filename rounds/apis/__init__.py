"""The round lifecycle's REST API: thin views that parse input, call one service, answer
the round in full (or, under ``Prefer: return=minimal``, its id and state)."""

from .money import RoundBankApi, RoundWagerApi, RoundWagerBatchApi
from .rounds import (
    RoundDealApi,
    RoundDecisionApi,
    RoundDetailApi,
    RoundFlopApi,
    RoundListApi,
    RoundNoMoreBetsApi,
    RoundSettleApi,
    RoundShowdownApi,
    RoundStartApi,
    RoundStreetDecisionsApi,
    RoundTurnRiverApi,
    RoundVoidApi,
)

__all__ = [
    "RoundBankApi",
    "RoundDealApi",
    "RoundDecisionApi",
    "RoundDetailApi",
    "RoundFlopApi",
    "RoundListApi",
    "RoundNoMoreBetsApi",
    "RoundSettleApi",
    "RoundShowdownApi",
    "RoundStartApi",
    "RoundStreetDecisionsApi",
    "RoundTurnRiverApi",
    "RoundVoidApi",
    "RoundWagerApi",
    "RoundWagerBatchApi",
]
