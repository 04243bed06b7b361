"""Joining a group of a hosted server: the join page, ``POST /api/join``, and the group
switcher of the home page (docs/formats.md, "Hosted mode").

A code offered is checked against the groups' hashed codes; a right one gives the device its
own token for that group (the API answers it; the page keeps it in the HttpOnly cookie, in
front of the tokens of the other groups the device is in). Wrong codes are counted per
address in the process's memory (:mod:`scopa.store.failures`): after a few, 429 with
``Retry-After``; so is a code offered when the process has checked its few codes of that
second (from all addresses together), and the checks run one at a time, off the threads
that serve the devices already in.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from scopa.i18n import N_, _
from scopa.store.records import Group, Member
from scopa.web.access.hosted import MAX_TOKENS, cookie_header, cookie_tokens
from scopa.web.access.lan import check_code, device_label, safe_next, too_busy
from scopa.web.api.routes import json_body
from scopa.web.deps import GROUPS, store_of
from scopa.web.pages.render import read_posted

logger = logging.getLogger("scopa.access")

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", tags=["groups"])

WRONG = N_("that code is not a group's code (or the group was revoked); check it and try again")
WRONG_SENTENCE = N_(
    "That code is not a group's code (or the group was revoked). Check it and try again."
)


def address_of(request: Request) -> str:
    return request.client.host if request.client else "?"


def groups_of(request: Request) -> list[tuple[str, Member]]:
    """The device's groups (token and member), the one in use first."""
    found: list[tuple[str, Member]] = request.scope.get(GROUPS) or []
    return found


BUSY = -1
"""What :func:`offer` answers when this second's code checks are all spent."""


async def offer(request: Request, code: Any) -> tuple[str, Group] | int:
    """The token and group for a code, or how many seconds to wait (after too many wrong
    codes from this address; 0 for a wrong code; :data:`BUSY` when too many codes are being
    checked at the moment, from all addresses together)."""
    store = store_of(request)
    failures, groups = store.failures, store.groups
    address = address_of(request)
    # Counted before the (slow) hash, so that a burst of guesses hashes at most a few.
    count = failures.failed(address)
    if count > failures.most:
        logger.warning("join: %s is still blocked after too many wrong codes", address)
        return max(1, failures.retry_after(address))
    if failures.busy():
        failures.forgive(address)
        return BUSY
    label = device_label(request.scope)
    joined = await check_code(request.app.state, lambda: groups.join_group(str(code), label))
    if joined is None:
        logger.warning("join: wrong group code from %s (%d recently)", address, count)
        return 0
    failures.forgive(address)
    logger.info("join: a device joined group %d from %s", joined[1].id, address)
    return joined


def too_many(wait: int) -> str:
    return _("too many wrong codes from this address; try again in {wait} seconds").format(
        wait=wait
    )


def busy() -> str:
    return _("too many codes are being tried at the moment; try again in a second")


def too_many_sentence(wait: int) -> str:
    said = _("Too many wrong codes from this address. Try again in {wait} seconds.")
    return said.format(wait=wait)


@api.post(
    "/join",
    status_code=201,
    summary="Join a group with its code: a device token for that group",
    responses={
        401: {"description": "Not a group's code (or the group was revoked)"},
        429: {
            "description": "Too many wrong codes from this address, or too many codes being"
            " tried at once (see Retry-After)"
        },
    },
)
async def join_api(request: Request) -> JSONResponse:
    body = await json_body(request)
    code = body.get("code") if isinstance(body, dict) else None
    if not isinstance(code, str) or not code.strip() or len(code) > 100:
        return JSONResponse(
            {
                "error": _('expected {"code": "XXXX-XXXX-XXXX"}, the group\'s code'),
                "where": "code",
                "code": "join.code_expected",
            },
            status_code=422,
        )
    result = await offer(request, code)
    if result == BUSY:
        return JSONResponse(
            {"error": busy(), "where": "code", "code": "join.busy"},
            status_code=429,
            headers={"Retry-After": "1"},
        )
    if isinstance(result, int):
        if result:
            return JSONResponse(
                {"error": too_many(result), "where": "code", "code": "join.too_many_tries"},
                status_code=429,
                headers={"Retry-After": str(result)},
            )
        return JSONResponse(
            {"error": _(WRONG), "where": "code", "code": "join.wrong_code"}, status_code=401
        )
    token, group = result
    return JSONResponse({"token": token, "group": group.id, "name": group.name}, status_code=201)


def join_page(
    request: Request, code: str = "", error: str = "", next_path: str = "/", status: int = 200
) -> Response:
    templates = request.app.state.templates
    context = {"code": code, "error": error, "next": next_path, "groups": groups_of(request)}
    response: Response = templates.TemplateResponse(
        request, "join.html", context, status_code=status
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/join")
def join_form(request: Request, code: str = "", next: str = "/") -> Response:
    """The join page, its code filled in from the link (``/join?code=...``)."""
    return join_page(request, code[:40], "", safe_next(next))


@router.post("/join")
async def join_submit(request: Request) -> Response:
    form = await read_posted(request)
    code, next_path = form.get("code")[:100], safe_next(form.get("next", "/"))
    result = await offer(request, code) if code.strip() else 0
    if result == BUSY:
        response = join_page(request, code, too_busy(), next_path, 429)
        response.headers["Retry-After"] = "1"
        return response
    if isinstance(result, int):
        if result:
            response = join_page(request, code, too_many_sentence(result), next_path, 429)
            response.headers["Retry-After"] = str(result)
            return response
        return join_page(request, code, _(WRONG_SENTENCE), next_path, 401)
    token, group = result
    kept = [t for t, m in groups_of(request) if m.group != group.id]
    return with_tokens(request, next_path, [token, *kept])


def with_tokens(request: Request, location: str, tokens: list[str]) -> Response:
    """A redirect that keeps ``tokens`` in the cookie (the group in use first)."""
    response = RedirectResponse(location, status_code=303)
    secure = request.url.scheme == "https"
    response.headers["Set-Cookie"] = cookie_header(tokens[:MAX_TOKENS], secure)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/groups/switch")
async def switch_group(request: Request) -> Response:
    """Use another of the device's groups (the home page's switcher)."""
    form = await read_posted(request)
    wanted = form.get("group")
    found = groups_of(request)
    chosen = [t for t, m in found if str(m.group) == wanted]
    rest = [t for t, m in found if str(m.group) != wanted]
    # tokens the cookie holds that are no longer valid are dropped on the way
    if not chosen and not cookie_tokens(request.scope):
        return RedirectResponse("/join", status_code=303)
    return with_tokens(request, "/", [*chosen, *rest])


@router.post("/groups/leave")
async def leave_group(request: Request) -> Response:
    """Leave the group in use on this device: its token is revoked and leaves the cookie."""
    found = groups_of(request)
    if found:
        groups = store_of(request).groups
        await anyio.to_thread.run_sync(groups.revoke_group_device, found[0][1].device)
    rest = [t for t, _ in found[1:]]
    response = with_tokens(request, "/" if rest else "/join", rest)
    if not rest:  # no group left on this device: what it kept of them goes too
        response.headers["Clear-Site-Data"] = '"cache", "storage"'
    return response
