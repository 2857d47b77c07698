"""The pages' own error pages: 404, 405 and 500 in the reader's language, with the site's
header and a way on (the API's errors stay JSON, see ``app/api/errors.py``)."""

from flask import render_template
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException


def error_texts(status: int) -> tuple[str, str]:
    """The title and the explanation of an error page for HTTP ``status``."""
    if status == 404:
        return _("Page not found"), _(
            "There is no page at this address: perhaps a sheet, a date or a link is mistyped."
        )
    if status == 405:
        return _("Not possible here"), _("This address does not take this kind of request.")
    if status >= 500:
        return _("Something went wrong"), _(
            "Something went wrong on our side. Your games are safe: try again in a moment."
        )
    return _("This request could not be answered"), _(
        "The address or the request is not what this site expects."
    )


def error_page(error: HTTPException):
    """An HTML page for the HTTP error ``error``, keeping its status and its Allow header."""
    status = error.code or 500
    title, explanation = error_texts(status)
    response = error.get_response()
    response.set_data(
        render_template(
            "error.html", page="error", status=status, title=title, explanation=explanation
        )
    )
    response.mimetype = "text/html"
    return response
