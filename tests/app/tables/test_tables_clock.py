"""The turn clock: the move it plays (document 001's rule and its tie-break) and its deadlines
on a real Redis, each due table claimed by one runner at a time."""

import itertools
import threading

import pytest

from app.tables.clock_move import best_box, expire_turn
from app.tables.turn_clock import ClockRunner, TurnClock
from fairness import RULESETS, DiceStream, Game, get_ruleset

SEED = bytes(range(32))


class Seconds:
    """A settable time in Unix seconds."""

    def __init__(self, value: float = 1_000_000.0):
        """Start at ``value``."""
        self.value = value

    def __call__(self) -> float:
        """The time now."""
        return self.value


def rolled(ruleset: str, dice: list[int]) -> Game:
    """A fresh game whose first roll shows ``dice``."""
    return Game.from_transcript(ruleset, "2026-03-10", [
        {"action": "roll", "hold": [False] * 5, "dice": dice}])


def test_the_clock_fills_the_box_that_scores_most():
    """Five sixes in Yahtzee score 50 in the yahtzee box, more than 30 in sixes."""
    assert best_box(rolled("yahtzee", [6, 6, 6, 6, 6])) == "yahtzee"
    assert best_box(rolled("yahtzee", [1, 2, 3, 4, 5])) == "large-straight"


def test_equal_boxes_go_to_the_first_in_sheet_order():
    """On every sheet and every hand: the box chosen scores most, and no box before it on the
    sheet scores as much (ties exist, so the tie-break is exercised)."""
    ties = 0
    for ruleset in RULESETS:
        order = get_ruleset(ruleset).category_ids
        for hand in itertools.combinations_with_replacement(range(1, 7), 5):
            game = rolled(ruleset, list(hand))
            previews = game.previews()
            chosen = best_box(game)
            assert previews[chosen] == max(previews.values())
            earlier = order[:order.index(chosen)]
            assert all(previews.get(box) != previews[chosen] for box in earlier)
            ties += list(previews.values()).count(previews[chosen]) > 1
    assert ties > 0


def test_without_a_roll_the_clock_rolls_once_then_scores():
    """A turn with no roll yet: one roll from the seat's stream, then the best box."""
    stream = DiceStream(SEED, "2026-03-10", "yahtzee")
    after = expire_turn(Game.new("yahtzee", "2026-03-10"), stream)
    roll, score = after.transcript
    assert roll["action"] == "roll" and roll["dice"] == list(stream.roll(0))
    assert score == {**score, "action": "score", "category": best_box(rolled("yahtzee",
                                                                           roll["dice"]))}


def test_after_a_roll_the_clock_only_scores():
    """A seat that rolled keeps its dice: the clock adds just the score."""
    game = rolled("yacht", [3, 3, 3, 5, 5])
    after = expire_turn(game, DiceStream(SEED, "2026-03-10", "yacht"))
    assert after.transcript[1:] == ({"action": "score", "category": best_box(game),
                                     "points": game.previews()[best_box(game)], "bonus": 0},)


def test_a_finished_game_has_no_clock_move():
    """The clock never plays a game that is over."""
    with pytest.raises(ValueError):
        best_box(Game.new("yacht", "2026-03-10"))


def test_a_due_table_is_claimed_once_until_its_lease_ends(redis_client):
    """Due tables go to one claimer; after the lease they are due again; later ones wait."""
    now = Seconds()
    clock = TurnClock(redis_client, now)
    clock.arm("due", now() - 1)
    clock.arm("later", now() + 30)
    assert clock.claim_due(lease_seconds=10).due == ["due"]
    assert clock.claim_due(lease_seconds=10).due == []
    now.value += 10
    assert clock.claim_due(lease_seconds=10).due == ["due"]
    clock.disarm("due")
    now.value += 100
    assert clock.claim_due().due == ["later"]


def test_racing_runners_play_each_due_table_once(redis_client):
    """Eight runners passing at once over forty due tables: each table is worked once."""
    now = Seconds()
    clock = TurnClock(redis_client, now)
    for table in range(40):
        clock.arm(f"t{table}", now() - table)
    worked = []
    lock = threading.Lock()

    def expire(table_id):
        """Note the table (the tables service would play it and re-arm)."""
        with lock:
            worked.append(table_id)

    runners = [ClockRunner(clock, expire) for _ in range(8)]
    threads = [threading.Thread(target=runner.run_once) for runner in runners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(worked) == sorted(f"t{table}" for table in range(40))


def test_a_failing_move_is_retried_after_the_lease(redis_client):
    """A move that raises leaves the table claimed; once the lease is over it is tried again."""
    now = Seconds()
    clock = TurnClock(redis_client, now)
    clock.arm("t", now())
    attempts = []

    def expire(table_id):
        """Fail the first time, as a worker that lost Redis mid-move."""
        attempts.append(table_id)
        if len(attempts) == 1:
            raise RuntimeError("lost mid-move")
        clock.disarm(table_id)

    runner = ClockRunner(clock, expire, lease_seconds=5)
    assert runner.run_once() == ["t"]
    assert runner.run_once() == []
    now.value += 5
    assert runner.run_once() == ["t"]
    assert attempts == ["t", "t"] and clock.deadline("t") is None


def test_the_runner_sleeps_until_the_next_deadline_at_most_its_idle_poll(redis_client):
    """The claim gives the earliest deadline left, the claimed ones' lease ends included, and
    the runner waits until it, at most its idle poll; with none armed, the idle poll."""
    now = Seconds()
    clock = TurnClock(redis_client, now)
    runner = ClockRunner(clock, clock.disarm, lease_seconds=10, idle_seconds=5)
    assert clock.claim_due().next_deadline is None
    assert runner.run_once() == [] and runner._wait_after([]) == 5
    clock.arm("soon", now() + 2)
    clock.arm("later", now() + 60)
    assert runner.run_once() == [] and runner._wait_after([]) == 2
    now.value += 2
    clock.arm("due", now() - 1)
    claim = clock.claim_due(lease_seconds=10)
    assert claim.due == ["due", "soon"] and claim.next_deadline == now() + 10
    assert runner.run_once() == [] and runner._wait_after([]) == 5
    now.value += 100
    assert sorted(runner.run_once()) == ["due", "later", "soon"]
    assert runner._wait_after([]) == 5 and clock.claim_due().next_deadline is None


def test_a_deadline_armed_in_the_process_wakes_its_sleeping_runner(redis_client):
    """A runner idle for an hour plays a turn armed in its process at once: the arm wakes it
    (the test would otherwise wait out its timeout)."""
    clock = TurnClock(redis_client)
    played = {"first": threading.Event(), "then": threading.Event()}

    def expire(table_id):
        """Play the table: disarm it and say so."""
        clock.disarm(table_id)
        played[table_id].set()

    clock.arm("first", clock.now())
    runner = ClockRunner(clock, expire, lease_seconds=3600, idle_seconds=3600)
    runner.start()
    try:
        assert played["first"].wait(60)  # its first pass: then nothing is armed, it sleeps
        clock.arm("then", clock.now())
        assert played["then"].wait(60)
    finally:
        runner.stop()
    assert clock.armed == []
