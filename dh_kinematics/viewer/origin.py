# Copyright 2026 The dh_kinematics authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
The page's websocket only for the page itself: a handshake from another origin is refused.

A browser lets any page it shows open a websocket to any address, ``ws://localhost:8080``
included, and says which page asks in the ``Origin`` header. viser accepts every handshake, so
a page of another site open in the user's browser could read the arm and move its sliders.
:func:`own_origin_only` refuses (HTTP 403) a handshake whose ``Origin`` is not the address the
page was loaded from (``http://`` + the request's ``Host``) and, while serving on loopback, one
whose ``Host`` is not a loopback name (a DNS name rebound to 127.0.0.1 is not the page). A
client without ``Origin`` is no browser page (a script on this machine) and is let through, as
the websockets library does for ``origins=[None]``.
"""

import contextlib
import http
import inspect
import ipaddress
from urllib.parse import urlsplit

LOOPBACK_NAMES = ('localhost',)
"""Host names that are this machine only, besides loopback addresses."""


def is_loopback(host):
    """Tell whether ``host`` (a name or an address, IPv6 with or without brackets) is loopback."""
    host = host.strip('[]').lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def refusal(headers, loopback):
    """
    Return why a handshake's headers are refused, or None to accept it.

    ``headers`` maps header names to values (case as the client sent them is kept by
    websockets' Headers, which looks names up without case); ``loopback`` tells whether the
    page is served on loopback only.
    """
    origin, host = headers.get('Origin'), headers.get('Host', '')
    if origin is None:
        return None
    if origin != f'http://{host}':
        return f'Origin {origin!r} is not this page ({"http://" + host!r})'
    if loopback and not is_loopback(urlsplit(origin).hostname or ''):
        return f'Host {host!r} is not this machine (served on loopback only)'
    return None


@contextlib.contextmanager
def own_origin_only(loopback):
    """
    Within this block, every websocket server viser starts refuses other origins' handshakes.

    viser passes no ``origins`` to ``websockets.asyncio.server.serve``; its HTTP handler
    (``process_request``) is wrapped with the check instead, while the server starts.
    """
    import websockets.asyncio.server as server
    serve = server.serve

    def guarded(*args, process_request=None, **kwargs):
        async def check(connection, request):
            why = refusal(request.headers, loopback)
            if why is not None:
                return connection.respond(http.HTTPStatus.FORBIDDEN, f'refused: {why}\n')
            response = None if process_request is None else process_request(connection, request)
            return await response if inspect.isawaitable(response) else response
        return serve(*args, process_request=check, **kwargs)

    server.serve = guarded
    try:
        yield
    finally:
        server.serve = serve
