"""A friend's gossip line against the log as this reader is served it (FAIRNESS.md, "Gossip:
fingerprints in share texts")."""

from ..gossip import GossipLine, fingerprint
from .checks import Check
from .log_checks import read_log


def check_gossip(log, date: str, ruleset: str, line: GossipLine) -> list[Check]:
    """One check: the line names (date, sheet) and one of the log's checkpoints has its
    fingerprint; otherwise a fork (another checkpoint of that size) or another history."""
    points, problems = read_log(log)
    if problems:
        return [Check("gossip", False, "; ".join(problems))]
    if (line.date, line.sheet) != (date, ruleset):
        return [Check("gossip", False, f"the friend's line is about {line.date}/{line.sheet}, "
                                       f"not {date}/{ruleset}")]
    prints = [fingerprint(point.body) for point in points]
    same_size = [f for f, p in zip(prints, points, strict=True) if p.checkpoint.size == line.size]
    if line.fingerprint in prints:
        return [Check("gossip", True, f"checkpoint {prints.index(line.fingerprint)} of the log "
                                      f"(size {line.size}) has the fingerprint "
                                      f"{line.fingerprint}")]
    if same_size:
        return [Check("gossip", False, f"the log's checkpoint of size {line.size} has the "
                                       f"fingerprint {same_size[0]}, not {line.fingerprint} "
                                       "(a fork: two histories)")]
    return [Check("gossip", False, f"the log has no checkpoint of size {line.size} (another "
                                   "history)")]
