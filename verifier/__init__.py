"""Yacht Daily's standalone verifier: what a player downloads as ``verify.py`` and runs.

    python3 verify.py game  https://yacht.example GAME_ID
    python3 verify.py day   https://yacht.example 2026-11-29 yahtzee [--top N] [--page-size N]
    python3 verify.py files --ledger ledger.json --receipt receipt.json \\
                            --transcript transcript.json [--proof proof.json]
    python3 verify.py match https://yacht.example/api/v1/matches/MATCH_ID
    python3 verify.py match match.json --ledger ledger.json   (or --key HEX)
    python3 verify.py log   --ledger ledger.json --log log.json --date 2026-12-02 \\
                            --sheet yahtzee [--games games.json] [--receipt r.json \\
                            --proof p.json] [--saved checkpoint.txt] [--witness VKEY]
    python3 verify.py log   --url https://yacht.example --date 2026-12-02 \\
                            --sheet yahtzee [--witness VKEY] [--friend share.txt]
    python3 verify.py fork  evidence.json --log-key VKEY
    python3 verify.py proof game.tlog-proof [--log-key VKEY] [--witness VKEY]… \\
                            [--quorum k] [--seed HEX]

``verify.py`` is a zip archive Python runs directly (PEP 441), built by
``scripts/build_verify.py`` from two packages: ``fairness/``, the protocol of FAIRNESS.md and
every check (``fairness/audit/``), and this one, the verifier's own shell around it. List it with
``python3 -m zipfile -l verify.py``; unzip it to read the sources it runs.

This package does nothing but read and print: the command line (``cli.py``), fetching the
published objects from a server or reading them from files (``published.py``), Ed25519 by the
``cryptography`` package when it is installed (``signatures.py``; otherwise every signature
check says NOT checked), and one printed line per check, "✓" or "✗", then a summary
(``printing.py``). Every check is ``fairness.audit``'s, so its lines are the core's.

Each mode takes --expect-key HEX (repeatable) or --expect-key FILE: the epoch public keys you
recorded earlier, each epoch entry's key is then checked to be one of them. The day mode reads
the day's games page by page (--page-size, default 1000) and keeps only the leaf hashes and
totals of the games already checked, so its memory stays small on a busy day. Exit status: 0
every check holds, 1 something failed, 2 bad usage or download, 3 nothing failed but some checks
could not be made. ``fork`` (``service_log_modes.py``) exits 0 only when the file PROVES that
the service log signed two histories, 1 when it does not.
"""
