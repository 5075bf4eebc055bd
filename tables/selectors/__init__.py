"""Read paths of the floor: plain functions answering querysets or objects, one module per
concern.

Every list selector joins or prefetches what its endpoint shows, so a list
costs the same number of queries whatever its length. A missing row raises the
model's ``DoesNotExist`` (the API answers 404).

- ``players``: the players, and the player whose own sign-in a user is.
- ``floor``: the tables, seats and games (who sits where, the open game, the round in play,
  the floor map's tables and versions), and the button's history (``banked_hands``).
- ``button``: the button's state machine (``button_state``, ``ButtonState``): the one place
  where what may happen to the player-dealer button next is decided; the offer rounds.
- ``counters``: a table as the floor sees it now (``TableFloor``) and the open games' counters.
- ``waitlists``: the waitlists as they are now (``ListView``), their history, the seat holds.
- ``board``: the table board (a TV in the room) and the room's change markers.
- ``moves``: must-move tables and table changes, and the open seats they are offered first.
- ``exclusions``: barred and self-restricted patrons.
- ``contracts``: TPPP contracts and those due for renewal.

The public names of every module are importable from the package too
(``from tables.selectors import button_state``); private ones only from their module.
"""

from tables.selectors.board import (
    BoardCall,
    BoardRoom,
    BoardStakes,
    BoardTable,
    board_room,
    table_board,
)
from tables.selectors.button import (
    NO_PLAYER_DEALER_STATUS,
    ButtonReads,
    ButtonState,
    LatestRound,
    NextOffer,
    button_offer_get,
    button_state,
    offer_round_list,
)
from tables.selectors.contracts import RENEWAL_NOTICE_DAYS, contract_list, contracts_to_renew
from tables.selectors.counters import (
    TableFloor,
    counter_reach,
    floor_counters,
    recent_banked_hands,
    table_floor,
    table_floor_counters,
)
from tables.selectors.exclusions import excluded_player_ids, exclusion_in_force, exclusion_list
from tables.selectors.floor import (
    HISTORY_HANDS,
    active_round,
    banked_hands,
    banked_history,
    floor_versions,
    game_get,
    game_history_since,
    game_list,
    open_game,
    seated,
    seating_get,
    seating_list,
    table_get,
    table_list,
    table_option_change_list,
)
from tables.selectors.moves import (
    SeatOffer,
    SeatRequests,
    must_move_list,
    seat_requests,
    table_change_list,
)
from tables.selectors.players import patron_player, player_get, player_list
from tables.selectors.waitlists import (
    ListView,
    OpenSeat,
    Stakes,
    replay_waitlist,
    rule_event,
    seat_holds,
    stakes_of,
    stakes_of_list,
    waitlist_event_list,
    waitlist_policy,
    waitlist_view,
    waitlist_views,
)

__all__ = [
    "HISTORY_HANDS",
    "NO_PLAYER_DEALER_STATUS",
    "RENEWAL_NOTICE_DAYS",
    "BoardCall",
    "BoardRoom",
    "BoardStakes",
    "BoardTable",
    "ButtonReads",
    "ButtonState",
    "LatestRound",
    "ListView",
    "NextOffer",
    "OpenSeat",
    "SeatOffer",
    "SeatRequests",
    "Stakes",
    "TableFloor",
    "active_round",
    "banked_hands",
    "banked_history",
    "board_room",
    "button_offer_get",
    "button_state",
    "contract_list",
    "contracts_to_renew",
    "counter_reach",
    "excluded_player_ids",
    "exclusion_in_force",
    "exclusion_list",
    "floor_counters",
    "floor_versions",
    "game_get",
    "game_history_since",
    "game_list",
    "must_move_list",
    "offer_round_list",
    "open_game",
    "patron_player",
    "player_get",
    "player_list",
    "recent_banked_hands",
    "replay_waitlist",
    "rule_event",
    "seat_holds",
    "seat_requests",
    "seated",
    "seating_get",
    "seating_list",
    "stakes_of",
    "stakes_of_list",
    "table_board",
    "table_change_list",
    "table_floor",
    "table_floor_counters",
    "table_get",
    "table_list",
    "table_option_change_list",
    "waitlist_event_list",
    "waitlist_policy",
    "waitlist_view",
    "waitlist_views",
]
