"""The application's services for the request being served: the composition
root ``create_app`` built (``service.wiring.Services``)."""
from __future__ import annotations

from flask import current_app

from service.wiring import Services


def services() -> Services:
    return current_app.extensions["tabletell"]
