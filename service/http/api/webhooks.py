"""Operators: registering the webhooks of app backends, enabling one the
service disabled, and their deliveries.

The routes only read and write the registrations; nothing here sends a
request to a webhook (a worker does, ``service.app.webhooks.deliver``). A URL's
host is looked up here (unless ``WEBHOOKS_ALLOW_PRIVATE``), to refuse one that
names a private address at once rather than at its first delivery.
"""
from __future__ import annotations

from flask import Blueprint, Response, current_app
from marshmallow import Schema, ValidationError, fields, validate

from service.http import schemas

from service.app import webhooks
from service.http.api.common import json_body, json_response
from service.http.current import services
from service.http.auth import require_operator
from service.app.errors import Conflict, Invalid, NotFound, invalid_fields

bp = Blueprint("webhooks", __name__)


def _distinct(events: list[str]) -> None:
    if len(set(events)) != len(events):
        raise ValidationError("Each event type once.")


class RegisterWebhook(Schema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=webhooks.URL_MAX))
    events = fields.List(
        fields.String(validate=validate.OneOf(webhooks.EVENTS)),
        required=True,
        validate=[validate.Length(min=1, max=len(webhooks.EVENTS)), _distinct],
    )


def operators_only() -> None:
    require_operator(current_app.config["OPERATOR_TOKEN"])


def webhook_not_found(webhook_id: str) -> NotFound:
    return NotFound("webhook_not_found", f"No webhook {webhook_id}.")


@bp.post("/webhooks")
def register():
    """A new webhook; its signing secret is in this answer only."""
    operators_only()
    body = schemas.load(RegisterWebhook, json_body())
    svc = services()
    try:
        url = webhooks.check_url(body["url"], svc.config.webhooks_allow_private)
    except webhooks.UrlRefused as refused:
        if refused.shape:
            raise invalid_fields({"url": [str(refused)]})
        raise Invalid("webhook_url_refused", str(refused), errors={"url": [str(refused)]})
    hook = svc.webhooks.register(url, body["events"])
    if hook is None:
        raise Conflict("too_many_webhooks", f"{webhooks.MAX_WEBHOOKS} webhooks are registered; delete one first.")
    # the secret is shown once: no cache keeps it
    return json_response({**webhooks.listed(hook), "secret": hook["secret"]}, 201, {"Cache-Control": "no-store"})


@bp.get("/webhooks")
def list_webhooks():
    """Every webhook, oldest first, without its secret."""
    operators_only()
    return json_response({"webhooks": [webhooks.listed(hook) for hook in services().webhooks.all()]})


@bp.delete("/webhooks/<webhook_id>")
def delete_webhook(webhook_id: str):
    operators_only()
    if not services().webhooks.delete(webhook_id):
        raise webhook_not_found(webhook_id)
    return Response(status=204)


@bp.post("/webhooks/<webhook_id>/enable")
def enable_webhook(webhook_id: str):
    """The webhook enabled again (disabled or not), its run of failures
    forgotten: it is sent the events published from now on."""
    operators_only()
    hook = services().webhooks.enable(webhook_id)
    if hook is None:
        raise webhook_not_found(webhook_id)
    return json_response(webhooks.listed(hook))


@bp.get("/webhooks/<webhook_id>/deliveries")
def deliveries(webhook_id: str):
    """The webhook's last attempts, newest first."""
    operators_only()
    svc = services()
    if svc.webhooks.get(webhook_id) is None:
        raise webhook_not_found(webhook_id)
    return json_response({"webhook_id": webhook_id, "deliveries": svc.webhooks.deliveries(webhook_id)})
