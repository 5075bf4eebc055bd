"""Test data built through factories (and, for floor state, through the real services)."""

from __future__ import annotations

from datetime import timedelta

import factory
from django.contrib.auth.models import Group, User
from django.utils import timezone

from cardroom.roles import Role
from tables.models import Player, Table, TPPPRegistration


class UserFactory(factory.django.DjangoModelFactory):
    """A staff user; pass ``role=Role.HOUSE_DEALER`` etc. to put them in that role's group."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"staff{n}")
    password = factory.django.Password("pw")
    is_staff = True

    @factory.post_generation
    def role(self, create, extracted, **kwargs):
        if extracted is None:
            return
        roles = extracted if isinstance(extracted, list | tuple) else [extracted]
        for role in roles:
            group, _ = Group.objects.get_or_create(name=Role(role).group_name)
            self.groups.add(group)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    player_number = factory.Sequence(lambda n: f"P{n:05d}")
    name = factory.Faker("name")
    created_at = factory.LazyFunction(timezone.now)


class TPPPRegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TPPPRegistration

    player = factory.SubFactory(PlayerFactory)
    business_name = factory.Sequence(lambda n: f"Proposition Services {n} LLC")
    badge_number = factory.Sequence(lambda n: f"TPPP-{n:04d}")
    badge_expires_on = factory.LazyFunction(lambda: timezone.localdate() + timedelta(days=365))

    @factory.post_generation
    def contract(self, create, extracted, **kwargs):
        """A contract covering every table at any hour (docs/rules.md §8.7), unless
        ``contract=False``."""
        if create and extracted is not False:
            from tests.builders.floor import any_day_contract

            any_day_contract(self.player)


class TableFactory(factory.django.DjangoModelFactory):
    """A table with the default options sheet (California 2026 rotation policy on)."""

    class Meta:
        model = Table

    name = factory.Sequence(lambda n: f"UTH-{n}")
    created_at = factory.LazyFunction(timezone.now)
