"""The player's record in the JSON API (docs/api.md): their history, and the transfer codes that
carry their identity to another device. Routes on the API's blueprint (``app.api.blueprint``)."""

from flask import jsonify

from app.api.blueprint import bp
from app.api.request import json_body
from app.players import history
from app.players import service as players
from app.services import services


@bp.get("/me/history")
def my_history():
    """This player's games, streaks, best totals and distribution of totals."""
    return jsonify(history.player_history(services(), players.current_player()))


@bp.post("/me/transfer")
def create_transfer():
    """A one-time code that carries this player's identity to another device."""
    response = jsonify(players.create_transfer(services().player_store, services().now()))
    response.status_code = 201
    return response


@bp.post("/me/transfer/redeem")
def redeem_transfer():
    """Take on the identity a transfer code carries; answers with that player's history."""
    players.redeem_transfer(services().player_store, json_body().get("code"))
    return jsonify(history.player_history(services(), players.current_player()))
