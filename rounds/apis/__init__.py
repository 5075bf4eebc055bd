"""The round lifecycle's REST API: thin views that parse input, call one service, answer
the round in full."""

from .money import RoundBankApi, RoundWagerApi
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
    "RoundTurnRiverApi",
    "RoundVoidApi",
    "RoundWagerApi",
]
