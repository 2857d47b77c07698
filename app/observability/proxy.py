"""Behind a reverse proxy: take the client's address and scheme from the proxy's headers.

Only as many ``X-Forwarded-*`` hops as ``PROXY_HOPS`` says are trusted (0, the default, trusts
none): otherwise any client could pick the address its rate limits are counted under.
"""

from werkzeug.middleware.proxy_fix import ProxyFix


def init_app(app) -> None:
    """Trust ``PROXY_HOPS`` proxies in front of the app."""
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
