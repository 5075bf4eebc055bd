"""The floor's REST API: thin views that parse input, call one service or selector, answer."""

from .button import ButtonAnswerApi, ButtonKeepApi, ButtonOfferApi, OfferRoundListApi
from .contracts import ContractListApi
from .exclusions import ExclusionLiftApi, ExclusionListApi
from .players import PlayerDetailApi, PlayerListApi
from .seat_requests import (
    MustMoveEndApi,
    MustMoveListApi,
    SeatOfferListApi,
    SeatPassApi,
    TableChangeCancelApi,
    TableChangeListApi,
)
from .tables import (
    GameCloseApi,
    GameListApi,
    GameOpenApi,
    SeatCreateApi,
    SeatingListApi,
    TableDetailApi,
    TableListApi,
    TableOptionChangeListApi,
)
from .waitlists import (
    SeatHoldApi,
    WaitlistAnswerApi,
    WaitlistCallApi,
    WaitlistCheckInApi,
    WaitlistDetailApi,
    WaitlistEventListApi,
    WaitlistJoinApi,
    WaitlistListApi,
    WaitlistPassOverApi,
    WaitlistPlayerApi,
    WaitlistWithdrawApi,
)

__all__ = [
    "ButtonAnswerApi",
    "ButtonKeepApi",
    "ButtonOfferApi",
    "ContractListApi",
    "ExclusionLiftApi",
    "ExclusionListApi",
    "GameCloseApi",
    "GameListApi",
    "GameOpenApi",
    "MustMoveEndApi",
    "MustMoveListApi",
    "OfferRoundListApi",
    "PlayerDetailApi",
    "PlayerListApi",
    "SeatCreateApi",
    "SeatHoldApi",
    "SeatOfferListApi",
    "SeatPassApi",
    "SeatingListApi",
    "TableChangeCancelApi",
    "TableChangeListApi",
    "TableDetailApi",
    "TableListApi",
    "TableOptionChangeListApi",
    "WaitlistAnswerApi",
    "WaitlistCallApi",
    "WaitlistCheckInApi",
    "WaitlistDetailApi",
    "WaitlistEventListApi",
    "WaitlistJoinApi",
    "WaitlistListApi",
    "WaitlistPassOverApi",
    "WaitlistPlayerApi",
    "WaitlistWithdrawApi",
]
