"""Staff roles as Django groups. Staff are users; they are never players in a hand.

A role is held by an active **staff** account (``is_staff``) in the role's group, or by an
active staff superuser (every role). An account that is not staff holds no role whatever its
groups: the API answers it 403 and the console 403 (it cannot sign in to the console at all).
This is the one place that decides it: the API's permissions (``cardroom.api``) and the
console's capabilities (``console.permissions``) both ask ``roles_of``.
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    FLOOR_SUPERVISOR = "floor_supervisor"
    HOUSE_DEALER = "house_dealer"
    COMPLIANCE_OFFICER = "compliance_officer"
    ADMINISTRATOR = "administrator"

    @property
    def group_name(self) -> str:
        return self.value.replace("_", " ").title()


def roles_of(user) -> set[Role]:
    """The roles ``user`` holds now: none unless the account is active and staff."""
    if user is None or not user.is_authenticated or not user.is_active or not user.is_staff:
        return set()
    if user.is_superuser:
        return set(Role)
    names = {group.name for group in user.groups.all()}
    return {role for role in Role if role.group_name in names}


def has_role(user, *roles: Role) -> bool:
    """True if ``user`` holds one of ``roles``; an administrator holds every role."""
    held = roles_of(user)
    return Role.ADMINISTRATOR in held or bool(held & set(roles))


# Who may do what on the floor; the API and the console both read these.
RUN_TABLE = (Role.FLOOR_SUPERVISOR, Role.HOUSE_DEALER)
SUPERVISE = (Role.FLOOR_SUPERVISOR,)
READ_FLOOR = (Role.FLOOR_SUPERVISOR, Role.HOUSE_DEALER, Role.COMPLIANCE_OFFICER)
COMPLIANCE = (Role.COMPLIANCE_OFFICER,)
# Who keeps the floor's compliance records (the barred list, TPPP contracts): every floor
# role reads them.
KEEP_RECORDS = (Role.FLOOR_SUPERVISOR, Role.COMPLIANCE_OFFICER)


def grant_administrator_permissions(group_model, permission_model, using: str = "default") -> None:
    """The Administrator group holds every model permission, as its migration says (the
    admin's every page, staff accounts included; history stays read-only in the admin
    itself). Idempotent; a database without the group (never migrated, or flushed) is left
    alone. Run after every ``migrate`` (``CardroomConfig``), when new models' permissions have
    just been made, and by ``cardroom`` 0005 with the historical models."""
    group = group_model.objects.using(using).filter(name=Role.ADMINISTRATOR.group_name).first()
    if group is not None:
        group.permissions.add(*permission_model.objects.using(using).all())
