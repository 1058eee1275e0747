"""The mailing-list provider port: what the members diff and sync need from a provider, whatever it is.

The adapter (app/mailing/mailchimp.py) speaks Mailchimp's Marketing API v3; tests run it against a
local fake of that wire format (tests/fakes/mailchimp.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

# A provider's member states that count as "on the list"; every other state (unsubscribed, cleaned,
# pending, transactional) receives no newsletter.
MemberChange = Literal["subscribed", "unsubscribed"]
SUBSCRIBED: MemberChange = "subscribed"
UNSUBSCRIBED: MemberChange = "unsubscribed"


@dataclass(frozen=True, slots=True)
class ListInfo:
    list_id: str
    name: str
    member_count: int


@dataclass(frozen=True, slots=True)
class ListMember:
    email: str
    status: str
    first_name: str
    last_name: str
    provider_id: str


@dataclass(frozen=True, slots=True)
class MembersPage:
    members: list[ListMember]
    total_items: int


@dataclass(frozen=True, slots=True)
class MemberUpsert:
    email: str
    status: MemberChange
    first_name: str = ""
    last_name: str = ""


@dataclass(frozen=True, slots=True)
class UpsertReport:
    # e-mail → the provider's member id, for each member written.
    written: dict[str, str]
    # e-mail → the provider's reason, for each member it refused.
    rejected: dict[str, str]


class MailingListError(Exception):
    """The provider answered something this adapter cannot use; the message is safe to show an admin."""


class MailingListUnreachable(MailingListError):
    """The provider could not be reached, or kept answering 429/5xx after the retries."""


class MailingListRefused(MailingListError):
    """The provider refused the API key, or does not know the list."""


class MailingListProvider(Protocol):
    def ping(self) -> str:
        """The provider's health text; raises when it cannot be reached or refuses the key."""
        ...

    def list_info(self) -> ListInfo: ...

    def members(self, *, count: int, offset: int) -> MembersPage:
        """One page of the list's members, in the provider's stable order."""
        ...

    def upsert(self, members: Sequence[MemberUpsert]) -> UpsertReport:
        """Create or update these members (at most 500): repeating it changes nothing more."""
        ...

    def close(self) -> None: ...
