"""Behind a reverse proxy: take the client's address and scheme from the proxy's headers.

Only what the documented proxy (deploy/nginx) sets is trusted: ``X-Forwarded-For`` and
``X-Forwarded-Proto``, each for as many hops as ``PROXY_HOPS`` says (0, the default, trusts
none): otherwise any client could pick the address its rate limits are counted under.
``X-Forwarded-Host``, ``-Port`` and ``-Prefix`` are never trusted: nginx passes them through
from the client untouched, and the host would become the share link's when ``PUBLIC_URL`` is
unset.
"""

from werkzeug.middleware.proxy_fix import ProxyFix


def init_app(app) -> None:
    """Trust ``PROXY_HOPS`` proxies in front of the app for the client address and scheme."""
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=0, x_port=0,
                                x_prefix=0)
