"""The fees REST API under ``/api/fees/``: thin views over ``fees.services`` and selectors.

Floor supervisors manage schedules, waivers, drop boxes and counts; house dealers and
compliance officers read. Errors as elsewhere: 400 naming the rule, 409 state, 403 role.
"""

from .views import (
    DropBoxCountApi,
    DropBoxDetailApi,
    DropBoxListApi,
    FeeLineWaiverApi,
    FilingApi,
    RoundFeesApi,
    ScheduleDetailApi,
    ScheduleListApi,
    ScheduleVersionListApi,
    TableScheduleApi,
    VersionDetailApi,
    VersionFilingApi,
)

__all__ = [
    "DropBoxCountApi",
    "DropBoxDetailApi",
    "DropBoxListApi",
    "FeeLineWaiverApi",
    "FilingApi",
    "RoundFeesApi",
    "ScheduleDetailApi",
    "ScheduleListApi",
    "ScheduleVersionListApi",
    "TableScheduleApi",
    "VersionDetailApi",
    "VersionFilingApi",
]
