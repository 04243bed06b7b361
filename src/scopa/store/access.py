"""Access codes and device tokens (``scopa serve --lan``) on the SQL store: the store's face
of :class:`scopa.store.devices.AccessStore` (see :class:`scopa.store.protocol.AccessCodes`)."""

from __future__ import annotations

from scopa.store.devices import CODE_HOURS, AccessStore, normalise_code
from scopa.store.records import AccessCode, Device

__all__ = ["SqlAccessCodes", "normalise_code"]


class SqlAccessCodes:
    """Codes and devices, delegated to :class:`AccessStore` (``self.access``)."""

    access: AccessStore

    def new_access_code(
        self, label: str = "", *, kind: str = "", hours: float | None = CODE_HOURS
    ) -> tuple[str, AccessCode]:
        return self.access.new_access_code(label, kind=kind, hours=hours)

    def access_codes(self) -> list[AccessCode]:
        return self.access.access_codes()

    def revoke_access_code(self, which: str) -> list[AccessCode]:
        return self.access.revoke_access_code(which)

    def check_access_code(self, code: str) -> bool:
        return self.access.check_access_code(code)

    def join(self, code: str, label: str) -> str | None:
        return self.access.join(code, label)

    def check_device(self, token: str) -> bool:
        return self.access.check_device(token)

    def devices(self) -> list[Device]:
        return self.access.devices()

    def revoke_device(self, which: str) -> list[Device]:
        return self.access.revoke_device(which)
