"""The webhooks' URL guard: which URLs the service sends to, and the
addresses it connects to for them (see ``service.app.webhooks``,
"Addresses": SSRF)."""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

URL_MAX = 2048


class UrlRefused(ValueError):
    """A webhook URL the service will not send to; ``shape``: it is no http(s)
    URL with a host at all (else: its address is refused)."""

    def __init__(self, message: str, shape: bool = False):
        super().__init__(message)
        self.shape = shape


def parse_url(url: str) -> SplitResult:
    """``url`` split, if it is one the service could send to: http or https,
    a host, a valid port, printable ASCII, no credentials. UrlRefused (shape)
    otherwise."""
    if not url or len(url) > URL_MAX:
        raise UrlRefused(f"A URL of 1 to {URL_MAX} characters.", shape=True)
    if any(not (0x20 < ord(char) < 0x7F) for char in url):
        # http.client would refuse them at the first attempt: refused now
        raise UrlRefused("Printable ASCII only, no spaces: percent-encode the path, punycode the host.", shape=True)
    try:
        parts = urlsplit(url)
        port = parts.port  # ValueError when it is no port number
    except ValueError as error:
        raise UrlRefused(f"Not a URL: {error}.", shape=True)
    if parts.scheme.lower() not in ("http", "https"):
        raise UrlRefused("Only http and https URLs are taken.", shape=True)
    if not parts.hostname:
        raise UrlRefused("The URL has no host.", shape=True)
    if port == 0:
        raise UrlRefused("Port 0 is no port to send to.", shape=True)
    if parts.username is not None or parts.password is not None:
        raise UrlRefused("No credentials in the URL: receivers check the signature instead.", shape=True)
    return parts


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A globally reachable unicast address. ``is_global`` alone is not
    enough: Python counts multicast (224.0.0.1, ff02::1) and 6to4 addresses
    as global, and an IPv6 address may carry an IPv4 one (mapped, 6to4,
    Teredo) that a router would reach instead."""
    if address.version == 6:
        embedded = [address.ipv4_mapped, address.sixtofour, *(address.teredo or ())]
        if any(inner is not None and not is_public(inner) for inner in embedded):
            return False
    return address.is_global and not (
        address.is_multicast
        or address.is_reserved
        or address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_unspecified
    )


def addresses(parts: SplitResult, allow_private: bool) -> list[str]:
    """The addresses to connect to for ``parts``: the host itself when it is
    an IP literal, else every address it resolves to. Unless
    ``allow_private``, UrlRefused when any of them is not public (an
    attacker's name may resolve to one public and one private address), or
    when it resolves to none."""
    host = parts.hostname or ""
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        found = [str(literal)]
    else:
        try:
            infos = socket.getaddrinfo(host, parts.port or default_port(parts), type=socket.SOCK_STREAM)
        except (OSError, UnicodeError, ValueError) as error:  # no such name, a label too long, a NUL
            raise UrlRefused(f"The host {host!r} does not resolve ({error}).")
        found = list(dict.fromkeys(str(info[4][0]) for info in infos))
        if not found:
            raise UrlRefused(f"The host {host!r} resolves to no address.")
    if not allow_private:
        for found_address in found:
            try:
                public = is_public(ipaddress.ip_address(found_address))
            except ValueError:
                public = False
            if not public:
                which = "is" if literal is not None else f"resolves to {found_address}, which is"
                raise UrlRefused(
                    f"The host {host!r} {which} not a public address (private, loopback, link-local, "
                    "multicast or reserved); the server takes such URLs only with WEBHOOKS_ALLOW_PRIVATE=1."
                )
    return found


def default_port(parts: SplitResult) -> int:
    return 443 if parts.scheme.lower() == "https" else 80


def check_url(url: str, allow_private: bool) -> str:
    """``url`` if the service may send to it (UrlRefused otherwise). With
    ``allow_private`` the addresses are not checked, so nothing is looked up."""
    parts = parse_url(url)
    if not allow_private:
        addresses(parts, allow_private)
    return url
