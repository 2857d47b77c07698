"""What the verifier prints: one line per check, a summary, the exit status; a progress bar."""

import sys


def check_line(check) -> str:
    """``✓ name: detail`` for a check that holds, ``✗`` for one that fails, ``-`` for one that
    could not be made."""
    mark = "✓" if check.ok else "✗" if check.ok is False else "-"
    return f"{mark} {check.name}: {check.detail}"


def summary_line(checks) -> str:
    """The last line: every check holds, how many fail, or which could not be made."""
    failed = sum(1 for check in checks if check.ok is False)
    unchecked = [check.name for check in checks if check.ok is None]
    if failed:
        return f"FAILED: {failed} of {len(checks)} checks do not hold."
    if unchecked:
        return f"Nothing failed, but NOT fully verified: {', '.join(unchecked)} not checked."
    return f"All {len(checks)} checks hold."


def exit_status(checks) -> int:
    """0 every check holds, 1 one fails, 3 nothing failed but one could not be made."""
    if any(check.ok is False for check in checks):
        return 1
    return 3 if any(check.ok is None for check in checks) else 0


def print_checks(checks) -> int:
    """Print one line per check and the summary; return the exit status."""
    for check in checks:
        print(check_line(check))
    print(summary_line(checks))
    return exit_status(checks)


def leaderboard_lines(leaderboard, top: int) -> list[str]:
    """The first ``top`` rows of the leaderboard recomputed from the replayed games."""
    return ["Leaderboard recomputed from the replayed games:"] + [
        f"  #{row['rank']:<5} {row['total']:>4}  {row['player']}  game {row['game']}"
        for row in leaderboard[:top]]


def progress_bar(done: int, total) -> None:
    """A one-line progress bar on stderr, redrawn every 500 games."""
    if done % 500 and done != total:
        return
    filled = 40 * done // max(total or 1, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (40 - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
