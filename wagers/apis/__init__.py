"""The money REST API: thin views that parse input, call one service or selector, answer.

It follows the API toolkit's conventions (``cardroom.api``): the same permissions, error
answers, idempotency keys and pagination. Amounts are integer cents.
"""

from .accounts import AccountDetailApi, AccountListApi, AccountTransactionListApi
from .calculator import SettlementCalculatorAliasApi, SettlementCalculatorApi
from .chips import ChipsBuyInApi, ChipsCashOutApi, ChipsCreditApi, ChipsFillApi
from .closing import TableCloseApi, TableReopenApi
from .compliance import CtrFiledApi, CtrListApi, MtlListApi, ReviewCloseApi, ReviewListApi
from .gamemath import GameMathApi, TableGameMathApi
from .me import MyBankrollApi
from .players import (
    PlayerBankListApi,
    PlayerBankrollApi,
    PlayerPlayingBookApi,
    PlayerSessionListApi,
)
from .seats import SeatDeleteApi, SeatLeaveApi
from .settlement import RoundSettlementApi

__all__ = [
    "AccountDetailApi",
    "AccountListApi",
    "AccountTransactionListApi",
    "ChipsBuyInApi",
    "ChipsCashOutApi",
    "ChipsCreditApi",
    "ChipsFillApi",
    "CtrFiledApi",
    "CtrListApi",
    "GameMathApi",
    "MtlListApi",
    "MyBankrollApi",
    "PlayerBankListApi",
    "PlayerBankrollApi",
    "PlayerPlayingBookApi",
    "PlayerSessionListApi",
    "ReviewCloseApi",
    "ReviewListApi",
    "RoundSettlementApi",
    "SeatDeleteApi",
    "SeatLeaveApi",
    "SettlementCalculatorAliasApi",
    "SettlementCalculatorApi",
    "TableCloseApi",
    "TableGameMathApi",
    "TableReopenApi",
]
