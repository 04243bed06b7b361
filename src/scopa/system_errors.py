"""The operating system's refusals in the reader's language: the common ones (a missing
file, a refused permission, a port in use, a full disk) said as a person would, by their
``errno``; any other as the system says it (its ``strerror``).

>>> from scopa.i18n import using
>>> with using("it"):
...     reason(PermissionError(13, "Permission denied")), reason(OSError(5, "I/O error"))
('permesso negato', 'I/O error')
"""

from __future__ import annotations

import errno

from scopa.i18n import N_, _

REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ELOOP: N_("too many symbolic links"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EADDRINUSE: N_("the address is in use already (another program listens there)"),
    errno.EADDRNOTAVAIL: N_("this computer has no such address"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EROFS: N_("the disk is read-only"),
}
"""The reasons said in words of their own, by ``errno``."""


def reason(error: OSError) -> str:
    """Why the system refused, in the language in force (its own words if not in
    :data:`REASONS`)."""
    said = REASONS.get(error.errno) if error.errno is not None else None
    if said is not None:
        return _(said)
    return error.strerror or str(error)
