"""The floor's REST API: thin views that parse input, call one service or selector, answer."""

from .button import ButtonAnswerApi, ButtonKeepApi, ButtonOfferApi, OfferRoundListApi
from .exclusions import ExclusionLiftApi, ExclusionListApi
from .players import PlayerDetailApi, PlayerListApi
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
    "ExclusionLiftApi",
    "ExclusionListApi",
    "GameCloseApi",
    "GameListApi",
    "GameOpenApi",
    "OfferRoundListApi",
    "PlayerDetailApi",
    "PlayerListApi",
    "SeatCreateApi",
    "SeatHoldApi",
    "SeatingListApi",
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
