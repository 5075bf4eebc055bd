"""The money REST API: thin views that parse input, call one service or selector, answer.

It follows the floor API's conventions (``tables.apis``): the same permissions, error
answers, idempotency keys and pagination. Amounts are integer cents.
"""

from .accounts import AccountDetailApi, AccountListApi, AccountTransactionListApi
from .chips import ChipsBuyInApi, ChipsCashOutApi, ChipsCreditApi, ChipsFillApi
from .players import (
    PlayerBankListApi,
    PlayerBankrollApi,
    PlayerPlayingBookApi,
    PlayerSessionListApi,
)
from .rounds import RoundBankApi, RoundSettlementApi, RoundWagerApi

__all__ = [
    "AccountDetailApi",
    "AccountListApi",
    "AccountTransactionListApi",
    "ChipsBuyInApi",
    "ChipsCashOutApi",
    "ChipsCreditApi",
    "ChipsFillApi",
    "PlayerBankListApi",
    "PlayerBankrollApi",
    "PlayerPlayingBookApi",
    "PlayerSessionListApi",
    "RoundBankApi",
    "RoundSettlementApi",
    "RoundWagerApi",
]
