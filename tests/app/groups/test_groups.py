"""Friend groups over HTTP on a real Redis: creating, joining by code, leaving and renaming,
their limits and refusals (each leaving the store as it was), the invite codes' rate limit, the
board that hides the others' figures until you have finished, and the week and month tables."""

import random

from playkit import PLAY_DATE, app_on, call, play_to_end, redis_snapshot, start

from app.groups import service as groups
from app.groups import store
from app.services import EXTENSION

YESTERDAY = "2026-03-09"


def create(client, name="Les dés", **extra) -> dict:
    """A new group of the client's; returns it."""
    status, body = call(client, "POST", "/groups", {"name": name, **extra})
    assert status == 201, body
    return body


def join(client, code: str, **extra) -> dict:
    """Join by code; returns the group."""
    status, body = call(client, "POST", "/groups/join", {"code": code, **extra})
    assert status == 200, body
    return body


def board(client, group_id: str, date: str | None = None) -> dict:
    """The group's board as the client sees it."""
    query = f"?date={date}" if date else ""
    status, body = call(client, "GET", f"/groups/{group_id}{query}")
    assert status == 200, body
    return body


def finish(client, ruleset: str = "yacht", date: str = PLAY_DATE, seed: str = "x") -> dict:
    """Play the client's game of (ruleset, date) to its end."""
    return play_to_end(client, start(client, ruleset, date), random.Random(seed + date))


def row(sheet_board: dict, name: str) -> dict:
    """A member's row of one sheet's board."""
    return next(member for member in sheet_board["members"] if member["name"] == name)


def sheet_of(answer: dict, ruleset: str = "yacht") -> dict:
    """One sheet of a board."""
    return next(sheet for sheet in answer["sheets"] if sheet["ruleset"] == ruleset)


def refused(client, redis_client, method, path, body, status, code):
    """The request is refused with (status, code) and changes nothing in Redis."""
    before = redis_snapshot(redis_client)
    got, answer = call(client, method, path, body)
    assert (got, answer["error"]["code"]) == (status, code), answer
    assert redis_snapshot(redis_client) == before


def test_create_join_rename_and_leave(app, redis_client):
    ann, bob = app.test_client(), app.test_client()
    group = create(ann, "Les dés", member_name="Ann")
    assert group["name"] == "Les dés" and group["member_count"] == 1
    assert len(group["code"]) == 11 and group["code"][5] == "-"
    assert [m["name"] for m in group["members"]] == ["Ann"] and group["members"][0]["you"]
    code = group["code"].lower().replace("-", " ").replace("0", "o")
    joined = join(bob, code, member_name="Bob")
    assert joined["id"] == group["id"] and joined["member_count"] == 2
    assert join(bob, group["code"])["member_count"] == 2  # a member already: nothing changes
    status, renamed = call(bob, "POST", f"/groups/{group['id']}/rename", {"name": "Dés du soir"})
    assert status == 200 and renamed["name"] == "Dés du soir"
    status, mine = call(ann, "GET", "/groups")
    assert [item["name"] for item in mine["groups"]] == ["Dés du soir"]
    assert mine["group_limit"] == groups.GROUP_LIMIT
    assert ann.post(f"/api/v1/groups/{group['id']}/leave").status_code == 204
    assert call(ann, "GET", "/groups")[1]["groups"] == []
    assert call(ann, "GET", f"/groups/{group['id']}")[0] == 404
    assert board(bob, group["id"])["group"]["member_count"] == 1
    assert bob.post(f"/api/v1/groups/{group['id']}/leave").status_code == 204
    left = [key for key in redis_snapshot(redis_client) if key.startswith("{fg")]
    assert left and all(":day:" in key for key in left)  # kept results expire on their own
    assert all(0 < redis_client.ttl(key) <= store.KEPT_DAY_SECONDS for key in left)
    refused(ann, redis_client, "POST", "/groups/join", {"code": group["code"]}, 404,
            "unknown-group-code")


def test_a_member_record_never_shows_the_cookie_id(app):
    ann = app.test_client()
    group = create(ann, member_name="Ann")
    text = ann.get(f"/api/v1/groups/{group['id']}").get_data(as_text=True)
    with ann.session_transaction() as session:
        assert session["player"] not in text


def test_bad_input_is_refused_with_clear_errors_and_nothing_changes(app, redis_client):
    ann, eve = app.test_client(), app.test_client()
    group = create(ann, member_name="Ann")
    for name in ("", "   ", "x" * 41, 7, None, "tab\there"):
        refused(ann, redis_client, "POST", "/groups", {"name": name}, 400, "invalid-group-name")
    refused(eve, redis_client, "POST", "/groups", {"name": "ok", "member_name": ""}, 400,
            "invalid-name")
    for code in ("", "ABCDE", "ABCDE-2345U", 12, "x" * 41):
        refused(eve, redis_client, "POST", "/groups/join", {"code": code}, 400,
                "invalid-group-code")
    refused(eve, redis_client, "POST", "/groups/join", {"code": "ZZZZZ-ZZZZZ"}, 404,
            "unknown-group-code")
    refused(eve, redis_client, "GET", f"/groups/{group['id']}", None, 404, "group-not-found")
    refused(eve, redis_client, "GET", "/groups/not-an-id", None, 404, "group-not-found")
    refused(eve, redis_client, "POST", f"/groups/{group['id']}/rename", {"name": "Mine"}, 404,
            "group-not-found")
    refused(eve, redis_client, "POST", f"/groups/{group['id']}/leave", None, 404,
            "group-not-found")
    refused(ann, redis_client, "POST", f"/groups/{group['id']}/rename", {"name": ""}, 400,
            "invalid-group-name")
    refused(ann, redis_client, "GET", f"/groups/{group['id']}?date=2026-02-30", None, 400,
            "invalid-date")
    assert eve.post("/api/v1/groups", data="name").status_code == 415
    assert "Set-Cookie" not in eve.post("/api/v1/groups", json={"name": ""}).headers


def test_a_group_holds_at_most_its_member_limit(app, redis_client, monkeypatch):
    monkeypatch.setattr(groups, "MEMBER_LIMIT", 3)
    group = create(app.test_client())
    for _ in range(2):
        join(app.test_client(), group["code"])
    late = app.test_client()
    refused(late, redis_client, "POST", "/groups/join", {"code": group["code"]}, 409,
            "group-full")


def test_a_player_is_in_at_most_the_group_limit(app, redis_client, monkeypatch):
    monkeypatch.setattr(groups, "GROUP_LIMIT", 2)
    ann, bob = app.test_client(), app.test_client()
    other = create(bob)
    create(ann), create(ann)
    refused(ann, redis_client, "POST", "/groups", {"name": "third"}, 409, "too-many-groups")
    refused(ann, redis_client, "POST", "/groups/join", {"code": other["code"]}, 409,
            "too-many-groups")


def test_joining_by_code_shares_the_transfer_codes_rate_limit(redis_client, redis_url, data_dir,
                                                              clock):
    app = app_on(redis_url, data_dir, clock, RATE_LIMITS="on", RATE_LIMIT_TRANSFER="3/hour")
    ann, eve = app.test_client(), app.test_client()
    group = create(ann)
    assert call(eve, "POST", "/groups/join", {"code": "ZZZZZ-ZZZZZ"})[0] == 404
    assert call(eve, "POST", "/groups/join", {"code": "bad"})[0] == 400
    assert call(eve, "POST", "/groups/join", {"code": group["code"]})[0] == 200
    status, _ = call(eve, "POST", "/groups/join", {"code": "ZZZZZ-ZZZZY"})
    assert status == 429
    assert call(eve, "POST", "/me/transfer/redeem", {"code": "ABCDE-23456"})[0] == 429


def test_the_board_hides_the_others_figures_until_you_finish(app):
    ann, bob = app.test_client(), app.test_client()
    group = create(ann, member_name="Ann")
    join(bob, group["code"], member_name="Bob")
    empty = sheet_of(board(bob, group["id"]))
    assert {m["status"] for m in empty["members"]} == {"not-played"}
    ann_game = finish(ann, seed="ann")
    start(bob, "yacht", PLAY_DATE)
    seen = sheet_of(board(bob, group["id"]))
    assert not seen["finished"]
    assert row(seen, "Ann") == {**row(seen, "Ann"), "status": "finished", "hidden": True,
                                "total": None, "loss": None}
    assert row(seen, "Bob")["status"] == "playing"
    own = sheet_of(board(ann, group["id"]))
    assert own["finished"] and row(own, "Ann")["total"] == ann_game["totals"]["total"]
    assert row(own, "Ann")["loss"] is not None and not row(own, "Bob")["hidden"]
    finish(bob, seed="bob")
    after = sheet_of(board(bob, group["id"]))
    assert after["finished"] and not row(after, "Ann")["hidden"]
    assert row(after, "Ann")["total"] == ann_game["totals"]["total"]
    assert [m["loss"] for m in after["members"]] == sorted(m["loss"] for m in after["members"])
    other = sheet_of(board(bob, group["id"]), "yahtzee")
    assert not other["finished"] and {m["status"] for m in other["members"]} == {"not-played"}


def test_the_week_and_month_tables(app, clock):
    ann, bob = app.test_client(), app.test_client()
    group = create(ann, member_name="Ann")
    join(bob, group["code"], member_name="Bob")
    clock.set("2026-03-09T12:00:00Z")
    first = finish(ann, "yacht", YESTERDAY, seed="1")
    clock.set("2026-03-10T12:00:00Z")
    second = finish(ann, "yacht", PLAY_DATE, seed="2")
    third = finish(ann, "yahtzee", PLAY_DATE, seed="3")
    answer = board(ann, group["id"])
    week = {m["name"]: m for m in answer["week"]["members"]}
    assert answer["week"]["to"] == PLAY_DATE and answer["week"]["from"] == "2026-03-04"
    assert answer["month"]["from"] == "2026-02-09"
    assert week["Ann"]["games"] == 3 and week["Bob"]["games"] == 0
    assert week["Bob"]["mean_loss"] is None and week["Bob"]["best"] is None
    losses = {game["id"]: sheet_of(board(ann, group["id"], date), ruleset)
              for game, ruleset, date in ((first, "yacht", YESTERDAY),
                                          (second, "yacht", PLAY_DATE),
                                          (third, "yahtzee", PLAY_DATE))}
    figures = [row(sheet, "Ann")["loss"] for sheet in losses.values()]
    assert week["Ann"]["mean_loss"] == round(sum(figures) / 3, 2)
    assert week["Ann"]["best"]["loss"] == min(figures)
    assert [m["name"] for m in answer["week"]["members"]] == ["Ann", "Bob"]
    # Bob has not finished today's sheets: Ann's games of today are not his to see yet, while
    # yesterday's (still open somewhere) are hidden too until he finishes it or it closes.
    seen_by_bob = {m["name"]: m for m in board(bob, group["id"])["month"]["members"]}
    assert seen_by_bob["Ann"]["games"] == 0
    clock.set("2026-03-12T12:00:00Z")  # yesterday is over everywhere now
    later = {m["name"]: m for m in board(bob, group["id"], PLAY_DATE)["month"]["members"]}
    assert later["Ann"]["games"] == 3
    services = app.extensions[EXTENSION]
    kept = services.groups.store.kept_days(group["id"], [YESTERDAY, PLAY_DATE])
    assert len(kept[PLAY_DATE]) >= 4  # results that no longer change are kept in the group


def test_the_pages_show_a_group_to_its_members_only(app):
    ann, eve = app.test_client(), app.test_client()
    group = create(ann, "Les dés", member_name="Ann")
    page = ann.get(f"/groups/{group['id']}?lang=fr")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Les dés" in text and group["code"] in text and "Pas encore joué" in text
    assert eve.get(f"/groups/{group['id']}").status_code == 404
    assert ann.get(f"/groups/{group['id']}?date=2026-02-30").status_code == 404
    assert group["code"] in ann.get(f"/groups?join={group['code']}").get_data(as_text=True)
    assert "Les dés" in ann.get("/groups").get_data(as_text=True)
