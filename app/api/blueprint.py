"""The JSON API's blueprint ``api`` (``/api/v1``), shared by the features: each feature's
``routes.py`` adds its routes to ``bp``, so every endpoint is named ``api.<view>`` whichever
package holds it (the rate limits' keys, the metrics and the results pages name them so), and
``create_app`` registers ``bp`` once every routes module has been imported."""

from flask import Blueprint

from app.services import services

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.before_request
def settle_ledger() -> None:
    """Publish the epoch entry before answering (reveals run elsewhere: reveal_runner)."""
    services().prepare()
